package evaluation_test

import (
	"os"
	"path/filepath"
	"testing"
)

func writeFile(path, data string) error { return os.WriteFile(path, []byte(data), 0o644) }

// repoFile returns the path of a file shipped in the repository, given
// relative to the module root (the nearest folder above the test's with a
// go.mod). The data the tests read is in the repository, so a missing file
// is a failure, not a skip.
func repoFile(t *testing.T, rel string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, filepath.FromSlash(rel))
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatalf("no go.mod above the test's folder to find %s from", rel)
		}
		dir = up
	}
}
