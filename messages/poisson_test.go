package messages_test

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"

	"github.com/skillgraph/skillgraph/messages"
)

// TestLogPoissonLogNormalAgainstQuadrature checks the Poisson–log-normal
// evidence in both of its regimes (mode-centred Gauss–Hermite for a narrow
// integrand, Gauss–Legendre either side of the mode for a wide one) against
// composite 20-point Gauss–Legendre quadrature on 400 panels over ±16
// standard deviations of the prior, in log space about the prior mean's
// term, and checks that the probabilities of all counts sum to 1.
func TestLogPoissonLogNormalAgainstQuadrature(t *testing.T) {
	for _, c := range []struct {
		k     int
		mu, v float64
	}{
		{0, 0, 1}, {1, 0.5, 0.01}, {3, 1, 0.5}, {25, 3, 0.01}, {300, 4.5, 2}, {2, 0.2, 100},
		{0, -1, 4}, {0, 0, 173}, {4, 0, 173}, {12, 2.5, 0.6}, {0, -3, 1}, {100, 4.6, 0.3},
	} {
		got := messages.LogPoissonLogNormal(c.k, c.mu, c.v)
		lg, _ := math.Lgamma(float64(c.k) + 1)
		logf := func(x float64) float64 {
			d := x - c.mu
			return float64(c.k)*x - math.Exp(x) - lg - 0.5*d*d/c.v - 0.5*math.Log(2*math.Pi*c.v)
		}
		// The integrand's peak lies between the prior mean and log k; shift
		// by the larger of the two ends' logs so that nothing overflows.
		sd := math.Sqrt(c.v)
		lo, hi := c.mu-16*sd, c.mu+16*sd
		if c.k > 0 {
			lo, hi = math.Min(lo, math.Log(float64(c.k))-16), math.Max(hi, math.Log(float64(c.k))+16)
		}
		shift := math.Max(logf(c.mu), logf(math.Log(float64(c.k)+0.5)))
		integral := quad.Fixed(func(x float64) float64 { return math.Exp(logf(x) - shift) }, lo, hi, 8000, quad.Legendre{}, 0)
		want := math.Log(integral) + shift
		if math.Abs(got-want) > 1e-10*math.Max(1, math.Abs(want)) {
			t.Errorf("k=%d N(%v, %v): %.15g, quadrature %.15g", c.k, c.mu, c.v, got, want)
		}
	}
	for _, v := range []float64{0.05, 0.3} { // P(k ≥ 400) < 1e-30 under both
		var sum float64
		for k := range 400 {
			sum += math.Exp(messages.LogPoissonLogNormal(k, 0.7, v))
		}
		if math.Abs(sum-1) > 1e-10 {
			t.Errorf("N(0.7, %v): the counts' probabilities sum to %.15g, want 1", v, sum)
		}
	}
}

// TestLogPoissonLogNormalNarrowPrior checks the evidence under priors so
// narrow that the log-rate is almost known, where it is the Poisson
// probability at the prior mean plus the second-order term of the
// expansion of E[exp l(X)], l(x) = kx − eˣ − log k!:
//
//	log P ≈ l(μ) + v/2·(l′(μ)² + l″(μ)),
//
// whose next terms are below 1e-18 for these cases (v·(l′² + |l″|) ≤
// 1e-6); a probability's logarithm is also never above 0. Here nodes
// x* + u rounded to the spacing of a large |x*| would lose the digits of a
// width of 1e-6, and log r − log √(2πv) would cancel.
func TestLogPoissonLogNormalNarrowPrior(t *testing.T) {
	for _, c := range []struct {
		k     int
		mu, v float64
	}{
		{0, -700, 1e-12}, {0, -100, 1e-6}, {0, -35, 1e-6}, {0, -35, 1e-12}, {0, -5, 1e-12},
		{3, 1, 1e-10}, {5, -300, 1e-14}, {1000000, math.Log(1e6), 1e-12},
	} {
		kf := float64(c.k)
		lg, _ := math.Lgamma(kf + 1)
		l1, l2 := kf-math.Exp(c.mu), -math.Exp(c.mu)
		want := kf*c.mu - math.Exp(c.mu) - lg + c.v/2*(l1*l1+l2)
		got := messages.LogPoissonLogNormal(c.k, c.mu, c.v)
		if got > 0 || math.Abs(got-want) > 1e-13*math.Max(1, math.Abs(want)) {
			t.Errorf("k=%d N(%v, %v): %.17g, want %.17g (≤ 0)", c.k, c.mu, c.v, got, want)
		}
	}
}
