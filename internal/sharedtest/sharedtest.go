package sharedtest

import (
	"path/filepath"
	"testing"

	"github.com/skillgraph/skillgraph/internal/peercases"
	"github.com/skillgraph/skillgraph/internal/repo"
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

// Root returns the repository root (see repo.Root).
func Root(t testing.TB) string {
	t.Helper()
	root, err := repo.Root()
	if err != nil {
		t.Fatal(err)
	}
	return root
}
