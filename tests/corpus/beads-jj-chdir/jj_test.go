package git

import (
	"os"
	"path/filepath"
	"testing"
)

// As beads had it: the parent test restores the working directory, each subtest enters its own
// t.TempDir(). A subtest's TempDir cleanup runs when the subtest ends, with the process still inside
// that directory: Windows refuses to remove it (the current directory is an open handle).
func TestIsJujutsuRepo(t *testing.T) {
	origDir, err := os.Getwd()
	if err != nil {
		t.Fatalf("Failed to get current directory: %v", err)
	}
	defer func() {
		_ = os.Chdir(origDir)
		ResetCaches()
	}()

	t.Run("not a jj repo", func(t *testing.T) {
		tmpDir := t.TempDir()
		if err := os.Chdir(tmpDir); err != nil {
			t.Fatalf("Failed to chdir: %v", err)
		}
		ResetCaches()
		if IsJujutsuRepo() {
			t.Error("Expected IsJujutsuRepo() to return false for non-jj directory")
		}
	})

	t.Run("jj repo root", func(t *testing.T) {
		tmpDir := t.TempDir()
		if err := os.Mkdir(filepath.Join(tmpDir, ".jj"), 0o750); err != nil {
			t.Fatalf("Failed to create .jj directory: %v", err)
		}
		if err := os.Chdir(tmpDir); err != nil {
			t.Fatalf("Failed to chdir: %v", err)
		}
		ResetCaches()
		if !IsJujutsuRepo() {
			t.Error("Expected IsJujutsuRepo() to return true for jj repo root")
		}
	})

	t.Run("jj repo subdirectory", func(t *testing.T) {
		tmpDir := t.TempDir()
		if err := os.Mkdir(filepath.Join(tmpDir, ".jj"), 0o750); err != nil {
			t.Fatalf("Failed to create .jj directory: %v", err)
		}
		subDir := filepath.Join(tmpDir, "src", "lib")
		if err := os.MkdirAll(subDir, 0o750); err != nil {
			t.Fatalf("Failed to create subdirectory: %v", err)
		}
		if err := os.Chdir(subDir); err != nil {
			t.Fatalf("Failed to chdir: %v", err)
		}
		ResetCaches()
		if !IsJujutsuRepo() {
			t.Error("Expected IsJujutsuRepo() to return true for jj repo subdirectory")
		}
	})
}

// The fix (beads#4935): each subtest leaves its directory before its TempDir cleanup runs (t.Chdir
// does this from Go 1.24; Go 1.19 here, so a Cleanup registered after TempDir, run before it). Holds nothing.
func TestGetJujutsuRootRestored(t *testing.T) {
	t.Run("jj repo root", func(t *testing.T) {
		origDir, err := os.Getwd()
		if err != nil {
			t.Fatal(err)
		}
		tmpDir := t.TempDir()
		t.Cleanup(func() { _ = os.Chdir(origDir); ResetCaches() })
		if err := os.Mkdir(filepath.Join(tmpDir, ".jj"), 0o750); err != nil {
			t.Fatal(err)
		}
		if err := os.Chdir(tmpDir); err != nil {
			t.Fatal(err)
		}
		ResetCaches()
		got, err := GetJujutsuRoot()
		if err != nil || filepath.Base(got) != filepath.Base(tmpDir) {
			t.Errorf("GetJujutsuRoot() = %q, %v; want %q", got, err, tmpDir)
		}
	})
}
