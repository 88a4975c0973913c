package factors

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/skillgraph/skillgraph/messages"
)

// The closed form on the quadrant (Genz's Φ₂ and its derivatives) against
// the quadrature over x that it stands in for, on random cavities over
// eight orders of magnitude of variance; the kit's tests check both
// against nested quadrature of the density.
func TestQuadrantAgreesWithIntegral(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 11))
	worst, closed := 0.0, 0
	check := func(name string, a, b lineResult, cs []messages.Gaussian) {
		e := math.Abs(a.logZ - b.logZ)
		for i := range a.mean {
			e = math.Max(e, math.Abs(a.mean[i]-b.mean[i])/math.Max(cs[i].Sigma(), 1e-300))
			e = math.Max(e, math.Abs(a.variance[i]/b.variance[i]-1))
		}
		if e > 0 {
			closed++
		}
		worst = math.Max(worst, e)
		if !(e <= 1e-9) {
			t.Errorf("%s at %v: closed form %+v, integral %+v", name, cs, a, b)
		}
	}
	const n = 600
	for range n {
		x := messages.NewGaussian(10*rng.NormFloat64(), math.Exp(3*rng.NormFloat64()))
		u := messages.NewGaussian(1+rng.NormFloat64(), math.Exp(2*rng.NormFloat64()-1))
		v := messages.NewGaussian(1+rng.NormFloat64(), math.Exp(2*rng.NormFloat64()-1))
		a, err := (&BetweenMargins{}).tilted(x, u, v)
		b, err2 := (&BetweenMargins{}).integrate(x, u, v)
		if err != nil || err2 != nil {
			t.Fatal(err, err2)
		}
		check("I(−u ≤ x ≤ v)", a, b, []messages.Gaussian{x, u, v})
		if a, err = (&WithinMargin{}).tilted(x, u); err != nil {
			t.Fatal(err)
		}
		if b, err = (&WithinMargin{}).integrate(x, u); err != nil {
			t.Fatal(err)
		}
		check("I(|x| ≤ m)", a, b, []messages.Gaussian{x, u})
	}
	t.Logf("closed form in %d of %d updates, largest difference %.3g", closed, 2*n, worst)
	if closed < n/2 {
		t.Errorf("the closed form served %d of %d updates", closed, 2*n)
	}
}
