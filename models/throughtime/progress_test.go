package throughtime_test

import (
	"context"
	"math"
	"testing"

	"github.com/skillgraph/skillgraph/models/fit"
	"github.com/skillgraph/skillgraph/models/throughtime"
)

// TestConvergeProgress: a history converged in one call with progress
// reports what the same history converged one sweep per call returns
// (each sweep's largest move), and with evidence asked for, each report's
// evidence is LogEvidence at that point; without it there is none.
func TestConvergeProgress(t *testing.T) {
	games := league()
	ctx := context.Background()
	for _, evidence := range []bool{false, true} {
		var got []throughtime.Progress
		h, err := throughtime.New(throughtime.DefaultParams(), games, throughtime.WithProgress(func(p throughtime.Progress) { got = append(got, p) }, evidence))
		if err != nil {
			t.Fatal(err)
		}
		res, err := h.Converge(ctx, 1e-8, 200)
		if err != nil || !res.Converged {
			t.Fatalf("%+v, %v", res, err)
		}
		step, err := throughtime.New(throughtime.DefaultParams(), games)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != res.Iterations {
			t.Fatalf("%d reports for %d sweeps", len(got), res.Iterations)
		}
		for k, p := range got {
			r, err := step.Converge(ctx, 1e-8, 1)
			if err != nil {
				t.Fatal(err)
			}
			_, lz, err := step.LogEvidence()
			if err != nil {
				t.Fatal(err)
			}
			if p.Sweep != k+1 || p.Change != r.Delta || p.HasEvidence != evidence {
				t.Errorf("evidence %v, report %d: %+v, sweep by sweep %+v", evidence, k, p, r)
			}
			if evidence && math.Abs(p.LogEvidence-lz) > 1e-12 {
				t.Errorf("report %d: evidence %v, LogEvidence %v", k, p.LogEvidence, lz)
			}
			if !evidence && p.LogEvidence != 0 {
				t.Errorf("report %d: evidence %v without asking", k, p.LogEvidence)
			}
		}
		if last := got[len(got)-1]; last.Change != res.Delta {
			t.Errorf("last report %+v, result %+v", last, res)
		}
	}
}

// TestFitProgress: Fit reports each evaluation, whose evidence is that of
// a history built afresh at its parameters, with the best so far.
func TestFitProgress(t *testing.T) {
	games := randomPairs(3, 12, 20, 4, 1, 1, 0.2)
	start := throughtime.DefaultParams()
	var got []fit.Progress[throughtime.Params]
	opt := fit.Options[throughtime.Params]{MaxEvaluations: 25, Progress: func(p fit.Progress[throughtime.Params]) { got = append(got, p) }}
	res, err := fitRun(context.Background(), start, games, throughtime.DefaultFitBounds(start), throughtime.FilteredEvidence, opt, nil) // a nil option is ignored
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != res.Evaluations {
		t.Fatalf("%d reports for %d evaluations", len(got), res.Evaluations)
	}
	best := math.Inf(-1)
	for k, p := range got {
		h, err := throughtime.New(p.Params, games)
		if err != nil {
			t.Fatal(err)
		}
		best = math.Max(best, p.LogEvidence)
		if p.Evaluation != k+1 || p.LogEvidence != h.FilteredLogEvidence() || p.Best != best {
			t.Errorf("report %d: %+v; evidence afresh %v, best %v", k, p, h.FilteredLogEvidence(), best)
		}
	}
	if got[len(got)-1].Best != res.LogEvidence || got[0].LogEvidence != res.StartLogEvidence {
		t.Errorf("reports end at best %v, start %v; result %+v", got[len(got)-1].Best, got[0].LogEvidence, res)
	}
}
