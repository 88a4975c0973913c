package graph_test

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
)

// threeMessages returns a graph whose variable x receives the messages
// N(1, 1/a), N(2, 1/b) and N(3, 1/c) from three priors, and the edge of the
// second.
func threeMessages(t *testing.T, a, b, c float64) (*graph.Graph, graph.VarID, graph.FactorID) {
	t.Helper()
	bl := graph.NewBuilder("three")
	x := bl.AddVariable("x")
	fs := []graph.FactorID{
		bl.AddFactor(factors.NewPrior(1, 1/a), "", x),
		bl.AddFactor(factors.NewPrior(2, 1/b), "", x),
		bl.AddFactor(factors.NewPrior(3, 1/c), "", x),
	}
	g, err := bl.Build()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fs {
		if _, _, err := g.Update(f, 0, 0); err != nil {
			t.Fatal(err)
		}
	}
	return g, x, fs[1]
}

// TestCavityRule pins the cavity rule's cancellation threshold (a share of
// 1e-6 of the marginal's precision) from both sides: where the cavity
// keeps more than that share, it is the marginal minus the message; below,
// the exact product of the other messages. Moving the threshold by a
// factor of two either way fails this test.
func TestCavityRule(t *testing.T) {
	const a, c = 0.1, 0.3 // the other messages' precisions: their sum is not exact
	for _, tc := range []struct {
		share    float64
		division bool
	}{{2e-6, true}, {5e-7, false}} {
		t.Run(fmt.Sprint(tc.share), func(t *testing.T) {
			b := (a + c) / tc.share
			g, x, fb := threeMessages(t, a, b, c)
			m, msg := g.Marginal(x), g.Message(fb, 0)
			divided := messages.Gaussian{Pi: m.Pi - msg.Pi, Tau: m.Tau - msg.Tau}
			exact := g.Message(0, 0).Mul(g.Message(2, 0))
			if divided == exact {
				t.Fatal("the two rules agree here: the test cannot tell them apart")
			}
			want := exact
			if tc.division {
				want = divided
			}
			if got := g.Cavity(g.EdgeID(fb, 0)); got != want {
				t.Errorf("cavity %v, want %v (division %v)", got, want, tc.division)
			}
		})
	}
}

// TestCavityAccuracy: whatever share of the marginal the other messages
// keep, the cavity's precision and mean are within 5e-10 (relative) of the
// exact product of those messages: the error of the division path is
// about one ulp of the marginal divided by the share, and the threshold
// bounds it.
func TestCavityAccuracy(t *testing.T) {
	const a, c = 0.1, 0.3
	for e := -1.0; e >= -14; e -= 0.25 {
		share := math.Pow(10, e)
		g, _, fb := threeMessages(t, a, (a+c)/share, c)
		exact := g.Message(0, 0).Mul(g.Message(2, 0))
		got := g.Cavity(g.EdgeID(fb, 0))
		if d := math.Max(math.Abs(got.Pi/exact.Pi-1), math.Abs(got.Mean()/exact.Mean()-1)); d > 5e-10 {
			t.Errorf("share %.3g: cavity %v, exact %v (relative error %.2g)", share, got, exact, d)
		}
	}
}

// TestUpdateRejectsBadDamping: a damping outside [0, 1) (2 would
// extrapolate past the new message) is an error naming the factor, and the
// graph is left as it was.
func TestUpdateRejectsBadDamping(t *testing.T) {
	g, x, fb := threeMessages(t, 1, 2, 3)
	before := g.Marginal(x)
	for _, d := range []float64{2, 1, -1, math.NaN(), math.Inf(1)} {
		_, _, err := g.Update(fb, 0, d)
		var ue *graph.UpdateError
		if !errors.Is(err, messages.ErrInput) || !errors.As(err, &ue) || ue.Factor != fb {
			t.Errorf("damping %v: error %v, want messages.ErrInput from factor %d", d, err, fb)
		}
		if g.Marginal(x) != before {
			t.Errorf("damping %v changed the marginal to %v", d, g.Marginal(x))
		}
	}
}
