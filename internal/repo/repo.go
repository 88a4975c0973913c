package repo

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ErrNotFound reports a working folder outside the module.
var ErrNotFound = errors.New("not inside the skillgraph module")

const module = "github.com/skillgraph/skillgraph"

// Root returns the module's root: the nearest folder at or above the
// working folder whose go.mod declares this module.
func Root() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("repo: %w", err)
	}
	for dir := wd; ; {
		if isRoot(dir) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("repo: %s: %w", wd, ErrNotFound)
		}
		dir = parent
	}
}

// Path returns the path of rel (slash-separated, from the module root),
// relative to the working folder when that is shorter, for output.
func Path(rel string) (string, error) {
	root, err := Root()
	if err != nil {
		return "", err
	}
	path := filepath.Join(root, filepath.FromSlash(rel))
	if wd, err := os.Getwd(); err == nil {
		if r, err := filepath.Rel(wd, path); err == nil && len(r) < len(path) {
			return r, nil
		}
	}
	return path, nil
}

// isRoot reports whether dir holds the go.mod of this module.
func isRoot(dir string) bool {
	b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(line) == "module "+module {
			return true
		}
	}
	return false
}
