// Copyright 2021 The Go Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package fetch

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// LocalModule is a module pkgsite serves from a directory on disk (`pkgsite <dir>`).
type LocalModule struct {
	ModulePath string
	Dir        string
	Readme     *Readme
}

// FetchLocalModule reads the module in dir as pkgsite's local mode does: its path from go.mod, and
// the root unit's README through the directory's fs.FS (os.DirFS), which is where the leak is.
func FetchLocalModule(dir string) (*LocalModule, error) {
	modulePath, err := modulePathOf(filepath.Join(dir, "go.mod"))
	if err != nil {
		return nil, err
	}
	readme, err := extractReadme(modulePath, modulePath, os.DirFS(dir))
	if err != nil {
		return nil, err
	}
	return &LocalModule{ModulePath: modulePath, Dir: dir, Readme: readme}, nil
}

func modulePathOf(goMod string) (string, error) {
	f, err := os.Open(goMod)
	if err != nil {
		return "", err
	}
	defer f.Close()
	scanner := bufio.NewScanner(f)
	for scanner.Scan() {
		if line := strings.TrimSpace(scanner.Text()); strings.HasPrefix(line, "module ") {
			return strings.TrimSpace(strings.TrimPrefix(line, "module ")), nil
		}
	}
	return "", fmt.Errorf("%s: no module line", goMod)
}
