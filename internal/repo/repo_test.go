package repo_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/skillgraph/skillgraph/internal/repo"
)

// TestRoot: from this package's folder the root is two levels up and
// holds the shipped data; outside the module it is ErrNotFound.
func TestRoot(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root, err := repo.Root()
	if err != nil || root != filepath.Dir(filepath.Dir(wd)) {
		t.Fatalf("Root() = %q, %v; want %q", root, err, filepath.Dir(filepath.Dir(wd)))
	}
	p, err := repo.Path("examples/data/office.csv")
	if err != nil || p != filepath.Join("..", "..", "examples", "data", "office.csv") {
		t.Errorf("Path = %q, %v", p, err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Error(err)
	}
	t.Chdir(t.TempDir())
	if _, err := repo.Root(); !errors.Is(err, repo.ErrNotFound) {
		t.Errorf("outside the module: %v", err)
	}
}
