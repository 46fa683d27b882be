// Two leaks holdwatch attributes to the Go test that caused them (run with `go test -json`):
// a directory handle kept open in a package variable, and a child process that keeps a SQLite
// database (with its -wal and -shm files) open after its test returned.
// Run: holdwatch run --watch "$EXAMPLE_DIR" -- go test -json ./examples/go-handles
package gohandles

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

var openDirs []*os.File // the bug: nothing ever closes these

func workDir(t *testing.T, name string) string {
	dir := filepath.Join(os.Getenv("EXAMPLE_DIR"), name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestScanCache(t *testing.T) {
	dir := workDir(t, "cache")
	f, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	openDirs = append(openDirs, f)
	time.Sleep(300 * time.Millisecond)
}

func TestStartsIndexer(t *testing.T) {
	time.Sleep(100 * time.Millisecond) // the test's own work before it starts the indexer
	db := filepath.Join(workDir(t, "index"), "index.db")
	script := `
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1])
c.execute("pragma journal_mode=wal")
c.execute("create table if not exists docs(x)")
c.execute("insert into docs values (1)")
c.commit()
print("ready", flush=True)
time.sleep(float(sys.argv[2]))
`
	cmd := exec.Command("python3", "-c", script, db, "3")
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil { // the bug: started, never waited for or stopped
		t.Fatal(err)
	}
	buf := make([]byte, 6)
	if _, err := out.Read(buf); err != nil {
		t.Fatal(err)
	}
}

func TestLaterWork(t *testing.T) {
	time.Sleep(600 * time.Millisecond) // both leaks are still open here
}
