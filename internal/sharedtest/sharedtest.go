package sharedtest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/skillgraph/skillgraph/internal/peercases"
)

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
