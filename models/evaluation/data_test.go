package evaluation_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/models/evaluation"
	"github.com/skillgraph/skillgraph/record"
)

// TestRankedMatchesOfAScoresFile: the Premier League read by record and
// turned into ranked matches gives the teams, ranks and dates AsRanked
// gives from LoadScored, which ranks by ScoredMatch.Ranks.
func TestRankedMatchesOfAScoresFile(t *testing.T) {
	path := repoFile(t, "examples/data/epl.csv")
	ms, _, err := record.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	scored, err := evaluation.LoadScored(path)
	if err != nil {
		t.Fatal(err)
	}
	got, want := evaluation.RankedMatches(ms), evaluation.AsRanked(scored)
	if len(got) != len(want) || len(got) != 11266 {
		t.Fatalf("%d and %d matches", len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.Date != w.Date || !slices.Equal(g.Ranks, w.Ranks) || !slices.EqualFunc(g.Teams, w.Teams, slices.Equal) {
			t.Fatalf("match %d: %+v, want %+v", i, g, w)
		}
	}
}

// TestScoredMatchesOfALongFile: a long-format file with scores and
// timestamps gives scored matches with the first team at home and the
// day in UTC; a match without scores, or of three teams, is an error.
func TestScoredMatchesOfALongFile(t *testing.T) {
	data := "match_id,time,team,player,rank,score\n" +
		"b,2020-01-02T23:30:00-02:00,Ants,a1,2,0\nb,2020-01-02T23:30:00-02:00,Ants,a2,2,0\nb,2020-01-02T23:30:00-02:00,Bees,b1,1,3\n" +
		"a,2020-01-01 10:00:00,Cats,c1,1,1\na,2020-01-01 10:00:00,Dogs,d1,1,1\n"
	ms, _, err := record.Read("f.csv", strings.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	got, err := evaluation.ScoredMatches(ms)
	want := []evaluation.ScoredMatch{
		{Date: "2020-01-01", Home: "Cats", Away: "Dogs", HomeScore: 1, AwayScore: 1},
		{Date: "2020-01-03", Home: "Ants", Away: "Bees", HomeScore: 0, AwayScore: 3},
	}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("ScoredMatches = %+v, %v; want %+v", got, err, want)
	}
	ranked := evaluation.RankedMatches(ms)
	if r := ranked[1]; r.ID != "b" || !slices.Equal(r.Ranks, []int{1, 0}) || !slices.Equal(r.Teams[0], []string{"a1", "a2"}) {
		t.Errorf("RankedMatches: %+v", r)
	}
	for _, bad := range []string{
		"match_id,time,team,player,rank\na,2020-01-01,x,p,1\na,2020-01-01,y,q,2\n",
		"match_id,time,team,player,rank,score\na,2020-01-01,x,p,1,1\na,2020-01-01,y,q,2,0\na,2020-01-01,z,r,3,0\n",
	} {
		ms, _, err := record.Read("f.csv", strings.NewReader(bad))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := evaluation.ScoredMatches(ms); !errors.Is(err, evaluation.ErrInput) || !strings.Contains(err.Error(), "match a") {
			t.Errorf("ScoredMatches of %q: %v, want ErrInput naming match a", bad, err)
		}
	}
}
