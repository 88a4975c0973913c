package messages_test

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"

	"github.com/skillgraph/skillgraph/messages"
)

// TestShiftLogNormalizerMaxDiff checks three exports against their closed
// forms computed independently: Shift moves the mean and keeps the
// variance, LogNormalizer is log ∫ exp(τx − πx²/2) dx (here by quadrature),
// and MaxDiff is the larger change of the natural parameters.
func TestShiftLogNormalizerMaxDiff(t *testing.T) {
	for _, c := range []struct{ mu, v, d float64 }{{0, 1, 0.3}, {25, 69.4, -7}, {-3, 1e-4, 1e3}} {
		g := messages.NewGaussian(c.mu, c.v)
		s := g.Shift(c.d)
		if math.Abs(s.Mean()-(c.mu+c.d)) > 1e-12*math.Max(1, math.Abs(c.mu+c.d)) || math.Abs(s.Variance()/c.v-1) > 1e-12 {
			t.Errorf("N(%v, %v).Shift(%v) = N(%v, %v), want N(%v, %v)", c.mu, c.v, c.d, s.Mean(), s.Variance(), c.mu+c.d, c.v)
		}
		// exp(τx − πx²/2) = exp(μ²/(2v))·exp(−(x − μ)²/(2v)): integrate the
		// second factor over ±12 sd by Gauss–Legendre.
		sd := math.Sqrt(c.v)
		z := quad.Fixed(func(x float64) float64 { return math.Exp(-(x - c.mu) * (x - c.mu) / (2 * c.v)) }, c.mu-12*sd, c.mu+12*sd, 400, quad.Legendre{}, 0)
		if got, want := g.LogNormalizer(), c.mu*c.mu/(2*c.v)+math.Log(z); math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
			t.Errorf("N(%v, %v).LogNormalizer() = %.15g, quadrature %.15g", c.mu, c.v, got, want)
		}
		if got, want := messages.MaxDiff(g, s), math.Abs(c.d/c.v); math.Abs(got/want-1) > 1e-12 {
			t.Errorf("MaxDiff(N(%v, %v), shifted by %v) = %v, want |Δτ| = %v", c.mu, c.v, c.d, got, want)
		}
	}
	if p := messages.PointMass(2).Shift(1); !p.IsPointMass() || p.Mean() != 3 {
		t.Errorf("a point mass at 2 shifted by 1 = %v, want the point mass at 3", p)
	}
	if !math.IsInf(messages.Uniform().LogNormalizer(), 1) {
		t.Error("the uniform message's log normaliser is finite, want +Inf")
	}
	if d := messages.MaxDiff(messages.NewGaussian(0, 1), messages.NewGaussian(0, 0.5)); d != 1 {
		t.Errorf("MaxDiff of precisions 1 and 2 = %v, want 1", d)
	}
}
