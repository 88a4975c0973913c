package evaluation_test

import (
	"cmp"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/skillgraph/skillgraph/internal/sharedtest"
	"github.com/skillgraph/skillgraph/record"
)

// repoFile returns the path of a file shipped in the repository, given
// relative to the module root. The data the tests read is in the
// repository, so a missing file is a failure, not a skip.
func repoFile(t *testing.T, rel string) string {
	t.Helper()
	return filepath.Join(sharedtest.Root(t), filepath.FromSlash(rel))
}

// readFile reads a shipped data file with the record package.
func readFile(t *testing.T, rel string) []record.Match {
	t.Helper()
	ms, _, err := record.ReadFile(repoFile(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

// scored returns a match of home against away with the given scores, as
// the record package reads it from a scores file: ranks in the order of
// the scores, the home side first.
func scored(id, season, home, away string, hs, as int) record.Match {
	return record.Match{ID: id, Season: season, HasScores: true, Venue: record.Venue{HomeAway: true}, Teams: []record.Team{
		{Name: home, Players: []string{home}, Rank: cmp.Compare(as, hs), Score: hs},
		{Name: away, Players: []string{away}, Rank: cmp.Compare(hs, as), Score: as},
	}}
}

// ranked returns a match of teams of the given players and ranks, each
// team named by its number.
func ranked(id string, teams [][]string, ranks ...int) record.Match {
	m := record.Match{ID: id}
	for j, pl := range teams {
		m.Teams = append(m.Teams, record.Team{Name: fmt.Sprint(j + 1), Players: pl, Rank: ranks[j]})
	}
	return m
}
