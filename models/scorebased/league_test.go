package scorebased_test

import (
	"testing"

	"github.com/skillgraph/skillgraph/models/scorebased"
	"github.com/skillgraph/skillgraph/record"
)

// league reads the shipped Premier League file (date, season, home, away,
// home_score, away_score) into matches by season, in file order.
func league(t testing.TB) map[string][]scorebased.Match {
	t.Helper()
	ms, rep, err := record.ReadFile("../../examples/data/epl.csv", record.InFileOrder())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Format != record.Scores || len(rep.Unknown) != 0 {
		t.Fatalf("epl.csv read as %+v", rep)
	}
	out := map[string][]scorebased.Match{}
	for _, m := range ms {
		home, away := m.Teams[0], m.Teams[1]
		out[m.Season] = append(out[m.Season], scorebased.Match{A: home.Name, B: away.Name, ScoreA: float64(home.Score), ScoreB: float64(away.Score)})
	}
	return out
}
