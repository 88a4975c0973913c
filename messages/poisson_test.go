package messages_test

import (
	"math"
	"slices"
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

// TestLogPoissonLogNormalWidePrior checks the evidence under wide priors
// (variance 10³ to 10³⁰⁰), where the integrand falls from the prior's
// plateau over a cliff of width 1 (k = 0) or is a narrow bump on it (k ≥ 1).
// Up to variance 10⁸ the reference is composite Gauss–Legendre with
// panels of width ¼ over the cliff and of a fortieth of a standard
// deviation elsewhere; beyond, the limits as σ → ∞: for k = 0,
// Φ((−γ − μ)/σ) (∫ e^{−eˣ} − 1{x < −γ} dx = 0, γ Euler's constant), and
// for k ≥ 1, N(log k; μ, σ²)/k (∫ Poisson(k; eˣ) dx = Γ(k)/k!).
func TestLogPoissonLogNormalWidePrior(t *testing.T) {
	for _, v := range []float64{1e3, 1e4, 1e5, 1e6, 1e8} {
		for _, mu := range []float64{-10, 0, 3, 30} {
			for _, k := range []int{0, 1, 7} {
				got, want := messages.LogPoissonLogNormal(k, mu, v), piecewiseLogPoisson(k, mu, v)
				if !(math.Abs(got-want) <= 1e-9*math.Max(1, math.Abs(want))) {
					t.Errorf("k=%d N(%v, %v): %.15g, quadrature %.15g", k, mu, v, got, want)
				}
			}
		}
	}
	const gamma = 0.57721566490153286
	for _, v := range []float64{1e40, 1e200, 1e300} {
		sd := math.Sqrt(v)
		for _, mu := range []float64{-sd, -1e10, 0, 1e10, sd / 2} {
			for _, k := range []int{0, 1, 7, 1000} {
				want := math.Log(0.5 * math.Erfc((gamma+mu)/sd/math.Sqrt2))
				if k > 0 {
					d := math.Log(float64(k)) - mu
					want = -0.5*d/sd*d/sd - 0.5*math.Log(2*math.Pi) - math.Log(sd) - math.Log(float64(k))
				}
				got := messages.LogPoissonLogNormal(k, mu, v)
				if !(math.Abs(got-want) <= 1e-9*math.Max(1, math.Abs(want))) {
					t.Errorf("k=%d N(%v, %v): %.15g, the limit σ → ∞ gives %.15g", k, mu, v, got, want)
				}
			}
		}
	}
}

// piecewiseLogPoisson is log ∫ Poisson(k; eˣ) N(x; μ, v) dx by 40-point
// Gauss–Legendre on panels of width ¼ over [−60, 60] (the cliff of
// e^{−eˣ} and the bump of e^{kx−eˣ}) and of σ/40 elsewhere within μ ± 40σ,
// scaled by the integrand's largest value on the panels' ends.
func piecewiseLogPoisson(k int, mu, v float64) float64 {
	sd := math.Sqrt(v)
	lg, _ := math.Lgamma(float64(k) + 1)
	logf := func(x float64) float64 {
		return float64(k)*x - math.Exp(x) - lg - (x-mu)*(x-mu)/(2*v) - 0.5*math.Log(2*math.Pi*v)
	}
	lo, hi := mu-40*sd, mu+40*sd
	var cuts []float64
	for x := lo; x < hi; x += sd / 40 {
		if x < -60 || x > 60 {
			cuts = append(cuts, x)
		}
	}
	for x := -60.0; x <= 60; x += 0.25 {
		if x > lo && x < hi {
			cuts = append(cuts, x)
		}
	}
	cuts = append(cuts, hi)
	slices.Sort(cuts)
	shift := math.Inf(-1)
	for _, x := range cuts {
		shift = math.Max(shift, logf(x))
	}
	var sum float64
	for i := 0; i+1 < len(cuts); i++ {
		sum += quad.Fixed(func(x float64) float64 { return math.Exp(logf(x) - shift) }, cuts[i], cuts[i+1], 40, quad.Legendre{}, 0)
	}
	return math.Log(sum) + shift
}

// TestLogPoissonLogNormalTinyVariance: as the prior's variance goes to 0
// the evidence tends to log Poisson(k; e^μ) = kμ − e^μ − log k!, with an
// error of order v·e^μ; the mode has to be placed to a fraction of √v for
// the quadrature about it not to overflow. A prior whose mode float64
// cannot place finely enough (mean 1e150, variance 1) has log evidence
// about −5e299: the answer is that or NaN (for the caller's range check),
// never a number near 0.
func TestLogPoissonLogNormalTinyVariance(t *testing.T) {
	for _, v := range []float64{1e-300, 1e-150, 1e-40, 1e-20, 1e-15} {
		for _, mu := range []float64{0, -2, 1.5} {
			for _, k := range []int{0, 3, 100} {
				lg, _ := math.Lgamma(float64(k) + 1)
				want := float64(k)*mu - math.Exp(mu) - lg
				// The error of the limit, about v·(k + e^μ)²/2 at most.
				tol := 1e-12*math.Max(1, math.Abs(want)) + v*math.Pow(float64(k)+math.Exp(mu), 2)
				if got := messages.LogPoissonLogNormal(k, mu, v); !(math.Abs(got-want) <= tol) {
					t.Errorf("k=%d N(%v, %v): %.15g, want log Poisson(k; e^μ) = %.15g", k, mu, v, got, want)
				}
			}
		}
	}
	for _, k := range []int{0, 1, 100} {
		if got := messages.LogPoissonLogNormal(k, 1e150, 1); got > -1e299 {
			t.Errorf("k=%d N(1e150, 1): %v, want about −5e299 or NaN", k, got)
		}
	}
}
