// Copyright 2021 The Go Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Command pkgsite: the part of its server that loads the local modules it was given.
package main

import (
	"fmt"
	"net/http"
	"strings"

	"golang.org/x/pkgsite/internal/fetch"
)

type serverConfig struct {
	paths []string
}

type server struct {
	modules map[string]*fetch.LocalModule
}

func buildServer(cfg serverConfig) (*server, error) {
	s := &server{modules: map[string]*fetch.LocalModule{}}
	for _, dir := range cfg.paths {
		m, err := fetch.FetchLocalModule(dir)
		if err != nil {
			return nil, err
		}
		s.modules[m.ModulePath] = m
	}
	return s, nil
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if len(s.modules) == 0 {
		http.Error(w, "page is not supported", http.StatusFailedDependency)
		return
	}
	if q := r.URL.Query().Get("q"); r.URL.Path == "/search" {
		for path := range s.modules {
			if strings.Contains(path, q) {
				fmt.Fprintln(w, path)
				return
			}
		}
		fmt.Fprintln(w, "no matches")
		return
	}
	m, ok := s.modules[strings.TrimPrefix(r.URL.Path, "/")]
	if !ok {
		http.NotFound(w, r)
		return
	}
	if m.Readme == nil {
		fmt.Fprintln(w, "There is no documentation for this package.")
		return
	}
	fmt.Fprintln(w, m.Readme.Contents)
}

func main() {}
