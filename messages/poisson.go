package messages

import (
	"math"

	"gonum.org/v1/gonum/integrate/quad"
)

// LogPoissonLogNormal returns log ∫ Poisson(k; eˣ) N(x; mean, variance) dx,
// the probability of a count k ≥ 0 whose log-rate is Gaussian: the evidence
// of the Poisson score factor of Guo, Sanner, Graepel and Buntine (2012),
// section 4.2, and Poisson-OD's predictive probability of a score. The
// arguments must be finite with variance > 0 (a NaN comes back otherwise,
// for the caller's range check to catch).
//
// The integrand e^{f(x)} is log-concave (f″ = −eˣ − 1/v), so it falls away
// from its mode x* on both sides. Where it is narrow (width s = (e^{x*} +
// 1/v)^{−½} ≤ ½, the fitted football models' case) it is nearly Gaussian
// and 32-point Gauss–Hermite quadrature centred on x* integrates it; where
// it is wider it is integrated by 32-point Gauss–Legendre on each side of
// x*, out to where f has fallen 40 below f(x*) (give or take ½; the mass
// beyond is below e^{−39} of the whole), each side with its own width:
// for k = 0 under a prior variance of 173 the integrand falls as the prior
// on the left and as exp(−eˣ) on the right.
func LogPoissonLogNormal(k int, mean, variance float64) float64 {
	kf, mu, v := float64(k), mean, variance
	f := func(x float64) float64 { return kf*x - math.Exp(x) - (x-mu)*(x-mu)/(2*v) }
	df := func(x float64) float64 { return kf - math.Exp(x) - (x-mu)/v }
	// The mode solves f'(x) = 0, f' decreasing; it lies between μ and
	// log k (k ≥ 1), or in [μ − v·e^μ − 1, μ] (k = 0). Newton's steps,
	// bisecting when one leaves the bracket.
	lo, hi := mu-v*math.Exp(mu)-1, mu
	if k >= 1 {
		lo, hi = math.Min(mu, math.Log(kf)), math.Max(mu, math.Log(kf))
	}
	x := (lo + hi) / 2
	for range 200 {
		g := df(x)
		if g > 0 {
			lo = x
		} else {
			hi = x
		}
		next := x + g/(math.Exp(x)+1/v)
		if !(next > lo && next < hi) {
			next = (lo + hi) / 2
		}
		done := math.Abs(next-x) <= 1e-14*math.Max(1, math.Abs(x))
		x = next
		if done {
			break
		}
	}
	top := f(x)
	lg, _ := math.Lgamma(kf + 1)
	// g(u) = f(x* + u) − f(x*), written about the mode so that a node near
	// x* keeps its digits where x* is large and the integrand narrow:
	// x* + u rounded to x*'s spacing would move it by a visible part of
	// its width.
	d, ex := x-mu, math.Exp(x)
	g := func(u float64) float64 { return kf*u - ex*math.Expm1(u) - u*(2*d+u)/(2*v) }
	dg := func(u float64) float64 { return kf - ex*math.Exp(u) - (d+u)/v }
	s := 1 / math.Sqrt(ex+1/v)
	if s <= 0.5 {
		// Narrow: about x*, g(s·t) = −t²/2 − e^{x*}·(e^{st} − 1 − st −
		// s²t²/2), whose non-quadratic part is at most s·t³/6 (e^{x*}s² ≤
		// 1), a small smooth factor on a Gaussian, which Gauss–Hermite
		// quadrature centred on the mode integrates to 1e-12. With r = √2·s
		// the normaliser r/√(2πv) is (1 + v·e^{x*})^{−½}/√π, taken as a
		// log1p so that a narrow prior's answer near 0 is not the
		// difference of two logarithms of v.
		r := math.Sqrt2 * s
		var sum float64
		for i, t := range hermiteRule.t {
			sum += math.Exp(hermiteRule.logW[i] + g(r*t))
		}
		h := math.Log(v) + x // log(v·e^{x*})
		scale := -0.5 * h    // −½·log1p(e^h) to float64's precision once e^h > e^40
		if h <= 40 {
			scale = -0.5 * math.Log1p(math.Exp(h))
		}
		return probLog(top - lg + math.Log(sum) - 0.5*math.Log(math.Pi) + scale)
	}
	// Each end solves g(e) = −40, by Newton's method from the Laplace
	// approximation's guess: on a concave function it converges from
	// either side of the root.
	end := func(dir float64) float64 {
		e := dir * math.Sqrt(80) * s
		for range 100 {
			r := g(e) + 40
			if math.Abs(r) <= 0.5 {
				break
			}
			e -= r / dg(e)
		}
		return e
	}
	var sum float64
	for _, side := range [2][2]float64{{end(-1), 0}, {0, end(1)}} {
		a, width := side[0], side[1]-side[0]
		for i, t := range poissonRule.x {
			sum += width * poissonRule.w[i] * math.Exp(g(a+width*t))
		}
	}
	return probLog(top + math.Log(sum) - lg - 0.5*math.Log(2*math.Pi*v))
}

// probLog returns the logarithm of a probability, lz, at most 0: the
// quadrature's rounding can leave a probability within an ulp of 1 just
// above it. A NaN stays NaN, for the caller's check.
func probLog(lz float64) float64 { return math.Min(lz, 0) }

// poissonRule is the 32-point Gauss–Legendre rule of LogPoissonLogNormal's
// wide regime; read only.
var poissonRule = legendre(32)

// hermiteRule holds the nodes t and log w + t² of 32-point Gauss–Hermite
// quadrature (weight e^{−t²}), so that a Gaussian integrand's factor
// e^{−t²} cancels in the exponent; read only.
var hermiteRule = func() (r struct{ t, logW []float64 }) {
	const n = 32
	r.t, r.logW = make([]float64, n), make([]float64, n)
	w := make([]float64, n)
	quad.Hermite{}.FixedLocations(r.t, w, math.Inf(-1), math.Inf(1))
	for i := range w {
		r.logW[i] = math.Log(w[i]) + r.t[i]*r.t[i]
	}
	return r
}()
