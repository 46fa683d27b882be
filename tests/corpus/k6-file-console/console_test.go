package console

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// Its neighbour: a console on a buffer, no file.
func TestConsoleLevels(t *testing.T) {
	var out bytes.Buffer
	c := newConsole(&out)
	for _, level := range []string{"debug", "info", "warn", "error"} {
		c.log(level, "string", 1, 2)
	}
	if got := strings.Count(out.String(), "\n"); got != 4 {
		t.Fatalf("%d lines logged", got)
	}
}

// k6's TestFileConsole, small: per level, a log file in the test's temp dir (present before or not),
// a file console on it, one message, and the file read back. The console's file is never closed, so
// on Windows t.TempDir()'s cleanup cannot remove it.
func TestFileConsole(t *testing.T) {
	const preExistingText = "Prexisting file\n"
	for _, level := range []string{"log", "error"} {
		t.Run(level, func(t *testing.T) {
			f, err := os.CreateTemp(t.TempDir(), "")
			if err != nil {
				t.Fatal(err)
			}
			logFilename := f.Name()
			if _, err := f.WriteString(preExistingText); err != nil {
				t.Fatal(err)
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
			c, err := newFileConsole(logFilename)
			if err != nil {
				t.Fatal(err)
			}
			c.log(level, "string", "a", "b")
			content, err := os.ReadFile(logFilename)
			if err != nil {
				t.Fatal(err)
			}
			want := preExistingText + "level=" + level + " msg=\"string a b\"\n"
			if string(content) != want {
				t.Fatalf("log file holds %q, want %q", content, want)
			}
		})
	}
}

// Its neighbour after: nothing of it is held.
func TestConsoleEmpty(t *testing.T) {
	var out bytes.Buffer
	newConsole(&out).log("info")
	if out.String() != "level=info msg=\"\"\n" {
		t.Fatalf("logged %q", out.String())
	}
}
