package trueskill_test

import (
	"fmt"
	"testing"

	"github.com/skillgraph/skillgraph/models/trueskill"
)

// TestRaterReusesGraphs rates matches of a few shapes twice each through
// one Rater, with different ratings, and compares with Params.Rate.
func TestRaterReusesGraphs(t *testing.T) {
	p := trueskill.DefaultParams()
	rt := p.NewRater()
	shapes := []trueskill.Match{
		{Teams: teams(1, 1)},
		{Teams: teams(2, 3), Ranks: []int{1, 0}},
		{Teams: teams(1, 2, 1), Ranks: []int{0, 1, 1}},
		{Teams: teams(1, 2, 1), Ranks: []int{1, 1, 0}},
		{Teams: ffa(8)},
		{Teams: teams(2, 2, 2), Weights: [][]float64{{1, 0.5}, {0, 1}, {1, 1}}, Ranks: []int{2, 0, 1}},
	}
	for round := 0; round < 2; round++ {
		for k, m := range shapes {
			// Shift everyone's rating so the second round differs.
			for j := range m.Teams {
				for i := range m.Teams[j] {
					m.Teams[j][i].Mu += float64(round)*1.5 - float64(k)
					m.Teams[j][i].Sigma += float64(round) * 0.25
				}
			}
			want, err := p.Rate(ctx, m)
			if err != nil {
				t.Fatal(err)
			}
			for _, viaGraph := range []bool{false, true} {
				var got trueskill.Result
				if viaGraph {
					got, err = rt.RateGraph(ctx, m)
				} else {
					got, err = rt.Rate(ctx, m)
				}
				if err != nil {
					t.Fatal(err)
				}
				checkSameRatings(t, fmt.Sprintf("round %d shape %d graph=%v", round, k, viaGraph), got.Ratings, want.Ratings)
				if relErr(got.LogEvidence, want.LogEvidence) > 1e-12 {
					t.Errorf("round %d shape %d: evidence %v, want %v", round, k, got.LogEvidence, want.LogEvidence)
				}
			}
		}
	}
}

// TestSteadyStateAllocations: once a shape has been seen, rating allocates
// nothing, through the graph or the closed form, and Rate1v1 never does.
func TestSteadyStateAllocations(t *testing.T) {
	p := trueskill.DefaultParams()
	rt := p.NewRater()
	for name, m := range map[string]trueskill.Match{
		"1v1":     {Teams: teams(1, 1)},
		"FFA 8":   {Teams: ffa(8)},
		"3 teams": {Teams: teams(1, 2, 1), Ranks: []int{0, 1, 1}},
	} {
		if _, err := rt.RateGraph(ctx, m); err != nil {
			t.Fatal(err)
		}
		if n := testing.AllocsPerRun(50, func() { _, _ = rt.RateGraph(ctx, m) }); n != 0 {
			t.Errorf("%s through the graph: %v allocations per match", name, n)
		}
	}
	m := trueskill.Match{Teams: teams(2, 2)}
	if n := testing.AllocsPerRun(50, func() { _, _ = rt.Rate(ctx, m) }); n != 0 {
		t.Errorf("2v2 closed form: %v allocations per match", n)
	}
	a, b := p.NewRating(), p.NewRating()
	if n := testing.AllocsPerRun(50, func() { a, b, _ = p.Rate1v1(a, b, false) }); n != 0 {
		t.Errorf("Rate1v1: %v allocations", n)
	}
}
