package factors_test

import (
	"math"
	"testing"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/factors/factortest"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
)

// TestMarginsScaleInvariance: the margin factors are indicators of linear
// inequalities, unchanged when every variable is multiplied by s, so
// their log evidence at cavities N(sμ, s²σ²) is that at N(μ, σ²) and their
// matched marginals are the unit ones scaled (the unit ones are checked
// against quadrature by the TestKit tests), for s from 1e-150 to 1e150,
// where products of two variances leave float64.
func TestMarginsScaleInvariance(t *testing.T) {
	type cs = []messages.Gaussian
	base := []struct {
		f   graph.Factor
		cav cs
	}{
		{factors.NewExceedsMargin(), cs{messages.NewGaussian(0.3, 1), messages.NewGaussian(0.5, 0.2)}},
		{factors.NewExceedsMargin(), cs{messages.NewGaussian(-3, 0.5), messages.NewGaussian(0.5, 2)}},
		{factors.NewWithinMargin(), cs{messages.NewGaussian(0.3, 1), messages.NewGaussian(0.5, 0.2)}},
		{factors.NewWithinMargin(), cs{messages.NewGaussian(2, 0.3), messages.NewGaussian(0.5, 0.2)}},
		{factors.NewBetweenMargins(), cs{messages.NewGaussian(0.3, 1), messages.NewGaussian(0.5, 0.2), messages.NewGaussian(0.7, 0.3)}},
		{factors.NewBetweenMargins(), cs{messages.NewGaussian(2, 1), messages.NewGaussian(0.5, 0.2), messages.NewGaussian(0.7, 0.3)}},
	}
	for bi, b := range base {
		for _, s := range []float64{1e-150, 1e-100, 1e-20, 1e20, 1e100, 1e150} {
			sc := make(cs, len(b.cav))
			for i, c := range b.cav {
				sc[i] = messages.NewGaussian(c.Mean()*s, c.Variance()*s*s)
			}
			l0, err0 := factortest.LogAverageFactor(b.f, b.cav...)
			l1, err1 := factortest.LogAverageFactor(b.f, sc...)
			if err0 != nil || err1 != nil || math.Abs(l0-l1) > 1e-9 {
				t.Errorf("case %d s=%g: logZ %v %v vs %v %v", bi, s, l0, err0, l1, err1)
			}
			for i := range b.cav {
				m0, err0 := factortest.Message(b.f, i, b.cav...)
				m1, err1 := factortest.Message(b.f, i, sc...)
				if err0 != nil || err1 != nil {
					t.Errorf("case %d s=%g edge %d: %v %v", bi, s, i, err0, err1)
					continue
				}
				q0, q1 := b.cav[i].Mul(m0), sc[i].Mul(m1)
				if math.Abs(q1.Mean()/s-q0.Mean()) > 1e-9*(1+math.Abs(q0.Mean())) || math.Abs(q1.Variance()/s/s-q0.Variance()) > 1e-9*q0.Variance() {
					t.Errorf("case %d s=%g edge %d: %v vs scaled %v", bi, s, i, q0, q1)
				}
			}
		}
	}
}
