package integration

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// The binary under test is this test binary again, as a stand-in server (jaeger runs its own build).
func TestMain(m *testing.M) {
	if os.Getenv("FAKE_JAEGER_SERVER") == "1" {
		fmt.Fprintln(os.Stderr, "starting the memory storage")
		fmt.Println("ready: all-in-one on memory storage")
		for {
			time.Sleep(time.Hour)
		}
	}
	os.Exit(m.Run())
}

func startJaeger(t *testing.T) *Binary {
	b := &Binary{Name: "jaeger", Cmd: exec.Cmd{Path: os.Args[0], Args: []string{os.Args[0], "-test.run=^$"}}}
	b.Env = append(os.Environ(), "FAKE_JAEGER_SERVER=1")
	b.Start(t)
	return b
}

// As TestMemoryStorage: the binary starts once for the test, its subtests run against it.
func TestMemoryStorage(t *testing.T) {
	b := startJaeger(t)
	t.Run("GetServices", func(t *testing.T) {
		if b.Process == nil {
			t.Fatal("not started")
		}
	})
	t.Run("FindTraces", func(t *testing.T) {
		data, err := os.ReadFile(b.Stdout.(*os.File).Name())
		if err != nil || !strings.Contains(string(data), "ready") {
			t.Fatalf("output log: %q, %v", data, err)
		}
	})
}

// A neighbour that holds nothing under the temp dir.
func TestConfigDefaults(t *testing.T) {
	if err := os.WriteFile(t.TempDir()+"/config.yaml", []byte("extensions: {}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}
