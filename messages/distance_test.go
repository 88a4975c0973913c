package messages_test

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/skillgraph/skillgraph/messages"
)

// distanceExact evaluates Distance's definition,
// max(|μ_a − μ_b|·√min(π_a, π_b), |π_a − π_b|/min(π_a, π_b)), in 200-bit
// arithmetic for proper a and b.
func distanceExact(a, b messages.Gaussian) float64 {
	const prec = 200
	f := func(x float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(x) }
	mean := func(g messages.Gaussian) *big.Float { return new(big.Float).SetPrec(prec).Quo(f(g.Tau), f(g.Pi)) }
	pmin := math.Min(a.Pi, b.Pi)
	dmu := new(big.Float).SetPrec(prec).Sub(mean(a), mean(b))
	dmu.Abs(dmu)
	dm := new(big.Float).SetPrec(prec).Mul(dmu, new(big.Float).SetPrec(prec).Sqrt(f(pmin)))
	dp := new(big.Float).SetPrec(prec).Sub(f(a.Pi), f(b.Pi))
	dp.Abs(dp)
	dp.Quo(dp, f(pmin))
	if dm.Cmp(dp) > 0 {
		v, _ := dm.Float64()
		return v
	}
	v, _ := dp.Float64()
	return v
}

func TestDistance(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 20000; n++ {
		// Precisions over 1e-150 … 1e150 (the fast path and its fallback),
		// means over many scales, and changes from 1e-12 to large.
		scale := math.Pow(10, -150+300*rng.Float64())
		if n%2 == 0 {
			scale = math.Pow(10, -6+12*rng.Float64())
		}
		mu := (rng.Float64() - 0.5) * math.Pow(10, -3+9*rng.Float64())
		a := messages.NewGaussian(mu, 1/scale)
		rel := math.Pow(10, -12+13*rng.Float64())
		b := messages.NewGaussian(mu+rel*(rng.Float64()-0.5)/math.Sqrt(scale), 1/(scale*math.Exp(rel*(rng.Float64()-0.5))))
		got, want := messages.Distance(a, b), distanceExact(a, b)
		// The inputs' own rounding bounds what any formula can resolve: a
		// mean shift below 1e-15·|μ|·√π is rounding noise.
		floor := 4e-16 * (math.Abs(a.Mean())*math.Sqrt(math.Min(a.Pi, b.Pi)) + 1)
		if math.Abs(got-want) > 1e-12*want+floor {
			t.Fatalf("Distance(%v, %v) = %.17g, want %.17g", a, b, got, want)
		}
		if messages.Distance(b, a) != got {
			t.Fatalf("Distance not symmetric at %v, %v", a, b)
		}
	}
	u, pm := messages.Uniform(), messages.PointMass(1)
	g := messages.NewGaussian(1, 2)
	for _, c := range []struct {
		a, b messages.Gaussian
		want float64
	}{
		{g, g, 0},
		{u, u, 0},
		{pm, pm, 0},
		{g, u, math.Inf(1)},
		{g, pm, math.Inf(1)},
		{pm, messages.PointMass(2), math.Inf(1)},
		{messages.NewGaussian(0, 1), messages.NewGaussian(2, 1), 2},
		{messages.NewGaussian(0, 1), messages.NewGaussian(0, 0.5), 1},
	} {
		if got := messages.Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// TestDistanceBelow checks the division-free test against Distance itself
// on random pairs: it never says "below" for a distance at or above m, and
// says it for almost every distance clearly below (beyond its margin).
func TestDistanceBelow(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 37))
	missed := 0
	const n = 200000
	for range n {
		a := messages.NewGaussian(50*rng.NormFloat64(), math.Pow(10, 4*rng.Float64()-2))
		b := a
		if rng.IntN(10) > 0 {
			b = messages.NewGaussian(a.Mean()+math.Pow(10, -8*rng.Float64())*rng.NormFloat64()*a.Sigma(), a.Variance()*math.Exp(math.Pow(10, -8*rng.Float64())*rng.NormFloat64()))
		}
		d := messages.Distance(a, b)
		for _, m := range []float64{d, d * (1 + 1e-12), d * (1 - 1e-12), d * 2, d / 2, math.Pow(10, -9*rng.Float64()), 0} {
			below := messages.DistanceBelow(a, b, m)
			if below && !(d < m) {
				t.Fatalf("DistanceBelow(%v, %v, %v) = true, Distance = %v", a, b, m, d)
			}
			if !below && d < m*(1-1e-8) {
				missed++
			}
		}
	}
	if missed > 0 {
		t.Errorf("%d of %d clearly-below distances not recognised", missed, 7*n)
	}
	if messages.DistanceBelow(messages.Gaussian{Pi: 1, Tau: math.NaN()}, messages.Gaussian{Pi: 1}, 1) {
		t.Error("NaN recognised as below")
	}
}
