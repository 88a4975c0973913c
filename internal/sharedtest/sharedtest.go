package sharedtest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/skillgraph/skillgraph/internal/peercases"
)

// Path returns the path of rel inside the shared folder that sits
// beside the repository root (../shared from the root). If the folder is
// absent the test is skipped, or failed when the CI environment variable is
// set, since CI must always run these checks.
func Path(t testing.TB, rel string) string {
	t.Helper()
	p := filepath.Join(Root(t), "..", "shared", rel)
	if _, err := os.Stat(p); err != nil {
		msg := fmt.Sprintf("reference data %s not found (../shared beside the repository): %v", p, err)
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return p
}

// PeerCases loads the peer vectors shipped with the repository,
// models/trueskill/testdata/peer_cases.json (a copy of
// ../shared/vectors/peer_cases.json, see the README beside it).
func PeerCases(t testing.TB) *peercases.File {
	t.Helper()
	f, err := peercases.Load(filepath.Join(Root(t), PeerCasesFile))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// PeerCasesFile is the peer vectors' path from the repository root.
const PeerCasesFile = "models/trueskill/testdata/peer_cases.json"

// Root returns the repository root: the nearest folder above the working
// directory holding go.mod.
func Root(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("sharedtest: no go.mod above the working directory")
		}
		dir = parent
	}
}
