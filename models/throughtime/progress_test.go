package throughtime_test

import (
	"context"
	"testing"

	"github.com/skillgraph/skillgraph/models/throughtime"
)

// TestFitProgress: Progress sees every evaluation once, numbered from 1,
// and the best evidence it reports is the fit's, for both objectives.
func TestFitProgress(t *testing.T) {
	games := []throughtime.Game{
		{Time: 0, Teams: [][]string{{"a"}, {"b"}}},
		{Time: 1, Teams: [][]string{{"b"}, {"c"}}},
		{Time: 2, Teams: [][]string{{"a"}, {"c"}}, Ranks: []int{0, 0}},
		{Time: 3, Teams: [][]string{{"c"}, {"a"}}},
	}
	start := throughtime.DefaultParams()
	start.DrawProbability = 0.2
	for _, ev := range []throughtime.Evidence{throughtime.FilteredEvidence, throughtime.SmoothedEvidence} {
		opt := throughtime.DefaultFitOptions(start)
		opt.Evidence, opt.MaxEvaluations = ev, 40
		var calls []int
		best := -1e300
		opt.Progress = func(n int, p throughtime.Params, lz float64) {
			calls = append(calls, n)
			if lz > best {
				best = lz
			}
			h, err := throughtime.New(p, games)
			if err != nil {
				t.Fatal(err)
			}
			if ev == throughtime.FilteredEvidence && h.FilteredLogEvidence() != lz {
				t.Errorf("evaluation %d: reported %v, the parameters give %v", n, lz, h.FilteredLogEvidence())
			}
		}
		res, err := throughtime.Fit(context.Background(), start, games, opt)
		if err != nil {
			t.Fatal(err)
		}
		if len(calls) != res.Evaluations || best != res.LogEvidence {
			t.Errorf("%v: %d calls for %d evaluations; best reported %v, fit %v", ev, len(calls), res.Evaluations, best, res.LogEvidence)
		}
		for i, n := range calls {
			if n != i+1 {
				t.Fatalf("%v: call %d numbered %d", ev, i, n)
			}
		}
	}
}
