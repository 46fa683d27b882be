// Package git is the part of beads' internal/git that TestIsJujutsuRepo exercises: whether the process's
// current directory is inside a jujutsu repository (a .jj folder here or above, stopping at a .git).
// Written anew in the shape of gastownhall/beads internal/git/gitdir.go (MIT).
package git

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
)

var (
	rootOnce sync.Once
	root     string
	rootErr  error
)

// ResetCaches forgets what was found for the previous working directory.
func ResetCaches() { rootOnce = sync.Once{}; root, rootErr = "", nil }

// IsJujutsuRepo reports whether the current directory is in a jujutsu repository.
func IsJujutsuRepo() bool {
	_, err := GetJujutsuRoot()
	return err == nil
}

// GetJujutsuRoot walks up from the current directory to the folder holding .jj.
func GetJujutsuRoot() (string, error) {
	rootOnce.Do(func() { root, rootErr = findRoot() })
	return root, rootErr
}

func findRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if info, err := os.Stat(filepath.Join(dir, ".jj")); err == nil && info.IsDir() {
			return dir, nil
		}
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return "", errors.New("not a jujutsu repository")
}
