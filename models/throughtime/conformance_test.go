package throughtime_test

import (
	"testing"

	"github.com/skillgraph/skillgraph/internal/tttcases"
)

// TestConformance checks every case of the reference vectors: learning
// curves after the forward pass and after convergence to the reference's
// epsilon (μ and σ to 1e-6), and each game's log evidence (to 1e-6
// relative) where the reference computes it exactly (two teams).
func TestConformance(t *testing.T) {
	f, err := tttcases.Load("testdata/ttt_cases.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range f.Cases {
		out := f.Check(c)
		for _, msg := range out.Failures {
			t.Errorf("%s: %s", c.Name, msg)
		}
		for _, note := range out.Notes {
			t.Logf("%s: %s", c.Name, note)
		}
		t.Logf("%s: converged in %d sweeps (the reference: %d)", c.Name, out.Sweeps, out.ReferenceSweeps)
	}
}
