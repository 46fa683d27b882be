// Copyright 2021 The Go Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeToTempDir is testhelper.WriteTxtarToTempDir with the files given as a map.
func writeToTempDir(t *testing.T, files map[string]string) string {
	t.Helper()
	tempDir := t.TempDir()
	for name, contents := range files {
		if err := os.WriteFile(filepath.Join(tempDir, name), []byte(contents), 0o644); err != nil {
			t.Fatalf("writing test dir: %v", err)
		}
	}
	return tempDir
}

func TestServer(t *testing.T) {
	localModule := writeToTempDir(t, map[string]string{
		"go.mod": "module example.com/testmod\n",
		"a.go":   "package a\n",
	})
	cfg := func(modifyDefault func(*serverConfig)) serverConfig {
		c := serverConfig{paths: []string{localModule}}
		if modifyDefault != nil {
			modifyDefault(&c)
		}
		return c
	}

	for _, test := range []struct {
		name     string
		cfg      serverConfig
		url      string
		wantCode int
		want     string
	}{
		{"local", cfg(nil), "example.com/testmod", http.StatusOK, "There is no documentation for this package."},
		{"search", cfg(nil), "search?q=a", http.StatusOK, "example.com/testmod"},
		{"search unsupported", cfg(func(c *serverConfig) { c.paths = nil }), "search?q=zzz", http.StatusFailedDependency, "page is not supported"},
	} {
		t.Run(test.name, func(t *testing.T) {
			server, err := buildServer(test.cfg)
			if err != nil {
				t.Fatal(err)
			}
			w := httptest.NewRecorder()
			server.ServeHTTP(w, httptest.NewRequest("GET", "/"+test.url, nil))
			if w.Code != test.wantCode {
				t.Fatalf("got status code = %d, want %d", w.Code, test.wantCode)
			}
			if !strings.Contains(w.Body.String(), test.want) {
				t.Errorf("body %q does not contain %q", w.Body.String(), test.want)
			}
		})
	}
}
