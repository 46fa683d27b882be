// Package integration: the shape of jaeger's cmd/jaeger/internal/integration Binary helper (Apache-2.0,
// The Jaeger Authors), written anew: a wrapper around exec.Cmd that runs a server for a test, sends its
// stdout and stderr to two log files in the test's temp dirs, and kills it in the test's cleanup.
package integration

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// Binary is a wrapper around exec.Cmd to help running binaries in tests.
type Binary struct {
	Name string
	exec.Cmd
}

// Start opens the two log files, starts the binary on them and waits until it says it is ready. As
// before jaegertracing/jaeger#8884: the test's own handles on the log files are never closed.
func (b *Binary) Start(t *testing.T) {
	outFile, err := os.OpenFile(filepath.Join(t.TempDir(), "output_logs.txt"), os.O_CREATE|os.O_WRONLY, os.ModePerm)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Writing the %s output logs into %s", b.Name, outFile.Name())
	errFile, err := os.OpenFile(filepath.Join(t.TempDir(), "error_logs.txt"), os.O_CREATE|os.O_WRONLY, os.ModePerm)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Writing the %s error logs into %s", b.Name, errFile.Name())

	b.Stdout = outFile
	b.Stderr = errFile
	if err := b.Cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		b.Stop(t)
		if t.Failed() {
			b.dumpLogs(t, outFile, errFile)
		}
	})
	// jaeger polls the binary's health endpoint; here the binary's first line in its output log says it is up.
	deadline := time.Now().Add(30 * time.Second)
	for {
		if data, _ := os.ReadFile(outFile.Name()); len(data) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not start", b.Name)
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("%s is ready", b.Name)
}

// Stop kills the process and waits for it to exit.
func (b *Binary) Stop(t *testing.T) {
	t.Helper()
	_ = b.Process.Kill()
	_, _ = b.Process.Wait()
	t.Logf("%s exited", b.Name)
}

func (b *Binary) dumpLogs(t *testing.T, outFile, errFile *os.File) {
	for _, f := range []*os.File{outFile, errFile} {
		data, err := os.ReadFile(f.Name())
		if err != nil {
			t.Errorf("Failed to read %s: %v", f.Name(), err)
			continue
		}
		t.Logf("%s:\n%s", filepath.Base(f.Name()), data)
	}
}
