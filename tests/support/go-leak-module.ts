// A small Go module for the tests of holdwatch's -exec program: one test leaves a file in its temp dir
// open (TestLeaks' cleanup deletes it held), one fails as intended; SIGNAL=1 makes the binary kill
// itself in the middle of a test. Standard library only: nothing is downloaded.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SUITE = `package leak

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

var kept []*os.File

func TestLeaks(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "held.txt"))
	if err != nil {
		t.Fatal(err)
	}
	kept = append(kept, f)
}

func TestFails(t *testing.T) {
	if os.Getenv("SIGNAL") == "1" {
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
	}
	t.Error("as intended")
}
`;

/** Writes the module (its binary is leak.test) into `<parent>/leak`; returns that dir. */
export function writeGoLeakModule(parent: string): string {
  const module = join(parent, 'leak');
  mkdirSync(module);
  writeFileSync(join(module, 'go.mod'), 'module example.com/leak\n\ngo 1.19\n');
  writeFileSync(join(module, 'leak_test.go'), SUITE);
  return module;
}
