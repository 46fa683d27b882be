// Copyright 2019 The Go Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package fetch: extractReadme as it was at golang/pkgsite 299e4eec (before 8984be28 closed the
// directory it opens), with its README search kept and pkgsite's error wrapping left out.
package fetch

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
)

// Readme is a unit's README: its path in the module and its contents.
type Readme struct {
	Filepath string
	Contents string
}

// extractReadme returns the file path and contents the unit's README,
// if there is one. dir is the directory path prefixed with the modulePath.
func extractReadme(modulePath, dir string, contentDir fs.FS) (_ *Readme, err error) {
	innerPath := rel(dir, modulePath)
	if strings.HasPrefix(innerPath, "_") {
		return nil, nil
	}

	f, err := contentDir.Open(innerPath)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, err
	}
	// The leak: f, the unit's directory, is never closed.
	rdf, ok := f.(fs.ReadDirFile)
	if !ok {
		return nil, fmt.Errorf("could not open directory for %v", dir)
	}
	entries, err := rdf.ReadDir(0)
	if err != nil {
		return nil, err
	}
	var readme *Readme
	for _, e := range entries {
		pathname := path.Join(innerPath, e.Name())
		if !e.IsDir() && isReadme(pathname) {
			c, err := fs.ReadFile(contentDir, pathname)
			if err != nil {
				return nil, err
			}
			if readme != nil {
				// Prefer READMEs written in markdown, since we style these on
				// the frontend.
				ext := path.Ext(readme.Filepath)
				if ext == ".md" || ext == ".markdown" {
					continue
				}
			}
			readme = &Readme{Filepath: pathname, Contents: string(c)}
		}
	}
	return readme, nil
}

var excludedReadmeExts = map[string]bool{".go": true, ".vendor": true}

// isReadme reports whether file is README or if the base name of file, with or
// without the extension, is equal to expectedFile. README.go files will return
// false. It is case insensitive. It operates on '/'-separated paths.
func isReadme(file string) bool {
	const expectedFile = "README"
	base := path.Base(file)
	ext := path.Ext(base)
	return !excludedReadmeExts[ext] && strings.EqualFold(strings.TrimSuffix(base, ext), expectedFile)
}

// rel returns the path of dir relative to modulePath: "." for the module's root.
func rel(dir, modulePath string) string {
	if dir == modulePath {
		return "."
	}
	return strings.TrimPrefix(dir, modulePath+"/")
}
