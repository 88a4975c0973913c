package messages

import (
	"math"
	"slices"

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
// it is wider it is integrated by 32-point Gauss–Legendre on pieces of
// each side of x*, out to where f has fallen 40 below f(x*) (give or take ½; the mass
// beyond is below e^{−39} of the whole), each side with its own width:
// for k = 0 under a prior variance of 173 the integrand falls as the prior
// on the left and as exp(−eˣ) on the right. A prior of variance at most
// 1e-16, narrower than float64 can place the mode about its mean, is
// integrated by Laplace's approximation, exact to O(v).
func LogPoissonLogNormal(k int, mean, variance float64) float64 {
	kf, mu, v := float64(k), mean, variance
	f := func(x float64) float64 { return kf*x - math.Exp(x) - (x-mu)*(x-mu)/(2*v) }
	df := func(x float64) float64 { return kf - math.Exp(x) - (x-mu)/v }
	lg, _ := math.Lgamma(kf + 1)
	if v <= 1e-16 && v*math.Exp(mu) <= 1e-3 && v*kf <= 1e-3 {
		// A prior narrower than float64 can place its mode about μ: the
		// mode is μ + δ with δ = v(k − e^{μ+δ}) (a contraction by
		// v·e^μ), and Laplace's approximation about it, f(μ + δ) − log k!
		// − ½·log(1 + v·e^{μ+δ}), is exact to O(v) relative (the
		// expression of the narrow case below with its quadrature's sum
		// at 1), written in δ so that μ + δ is never rounded.
		em, d := math.Exp(mu), 0.0
		for range 4 {
			d = v * (kf - em*math.Exp(d))
		}
		e := em * math.Exp(d)
		return ClampLogProbability(kf*mu + kf*d - e - d*d/(2*v) - lg - 0.5*math.Log1p(v*e))
	}
	// The mode solves f'(x) = 0, f' decreasing; it lies between μ and
	// log k (k ≥ 1), or in [min(μ − 1, −log v), μ] (k = 0: e^x = (μ − x)/v
	// there, which exceeds 1/v where x < μ − 1). There e^x = R(x)
	// with R(x) = k − (x − μ)/v, so where R(x) > 0 the mode is the root of
	// φ(x) = x − log R(x), which is increasing and convex: Newton's method
	// on φ converges from either side in a few steps, also where e^x is
	// far from 1/v (Newton's method on f' itself moves by about 1 a step
	// where e^x dominates). A step leaving the bracket bisects it.
	lo, hi := math.Min(mu-1, -math.Log(v)), mu
	if k >= 1 {
		lo, hi = math.Min(mu, math.Log(kf)), math.Max(mu, math.Log(kf))
	}
	x, sqrtV := 0.5*lo+0.5*hi, math.Sqrt(v)
	for range 1100 {
		g := df(x)
		if g > 0 {
			lo = x
		} else {
			hi = x
		}
		next := x + g/(math.Exp(x)+1/v)
		if r := kf - (x-mu)/v; r > 0 {
			next = x - (x-math.Log(r))/(1+1/(v*r))
		}
		if !(next > lo && next < hi) {
			next = 0.5*lo + 0.5*hi
		}
		// To 1e-14 of the integrand's width (at most √v) where x is
		// small: g below is a Taylor expansion about x, and a mode off by
		// a visible part of a narrow width overflows it.
		done := math.Abs(next-x) <= 1e-14*math.Max(math.Min(1, sqrtV), math.Abs(x))
		x = next
		if done {
			break
		}
	}
	top := f(x)
	// g(u) = f(x* + u) − f(x*), written about the mode so that a node near
	// x* keeps its digits where x* is large and the integrand narrow:
	// x* + u rounded to x*'s spacing would move it by a visible part of
	// its width.
	// Where e^{x*} underflows (a mode far below 0 under a wide prior),
	// e^{x*}·(e^u − 1) is e^{x* + u}, to which the rounding of x* + u does
	// no harm, and not 0·∞ where e^u overflows.
	d, ex := x-mu, math.Exp(x)
	expm1At := func(u float64) float64 { return ex * math.Expm1(u) }
	if ex == 0 {
		expm1At = func(u float64) float64 { return math.Exp(x + u) }
	}
	g := func(u float64) float64 { return kf*u - expm1At(u) - u*(2*d+u)/(2*v) }
	dg := func(u float64) float64 { return kf - (ex + expm1At(u)) - (d+u)/v }
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
		return ClampLogProbability(top - lg + math.Log(sum) - 0.5*math.Log(math.Pi) + scale)
	}
	// Each end solves g(e) = −40, by Newton's method from the Laplace
	// approximation's guess: on a concave function it converges from
	// either side of the root.
	end := func(dir float64) float64 {
		e := dir * math.Sqrt(80) * s
		for range 2200 {
			r := g(e) + 40
			if math.IsInf(r, -1) {
				// Beyond exp's range (the guess of a wide integrand on
				// its exponential side): back towards the mode, where
				// g(0) = 0.
				e /= 2
				continue
			}
			if math.Abs(r) <= 0.5 {
				break
			}
			e -= r / dg(e)
		}
		return e
	}
	// Each side is cut into pieces that grow geometrically (8, 16, 32, …)
	// away from the mode and from the factor's feature at x = log max(k, 1)
	// (the cliff of e^{−eˣ}, the bump of e^{kx−eˣ}): e^{−eˣ} grows as
	// e^{e^{Re x}} off the real line, so one rule over a long piece that
	// holds the feature converges slowly, while pieces of width 8 about it
	// converge to 1e-9, and the prior is smooth on the scale of the
	// distance from the feature.
	feature := math.Log(max(kf, 1)) - x
	var sum float64
	cuts := make([]float64, 0, 64)
	for _, end := range [2]float64{end(-1), end(1)} {
		if !IsFinite(end) {
			return math.NaN() // for the caller's range check
		}
		lo, hi := math.Min(0, end), math.Max(0, end)
		cuts = append(cuts[:0], lo, hi)
		for _, c := range [2]float64{0, feature} {
			if c > lo && c < hi {
				cuts = append(cuts, c)
			}
			for w := 8.0; c-w > lo || c+w < hi; w *= 2 {
				if c-w > lo && c-w < hi {
					cuts = append(cuts, c-w)
				}
				if c+w > lo && c+w < hi {
					cuts = append(cuts, c+w)
				}
			}
		}
		slices.Sort(cuts)
		for j := 0; j+1 < len(cuts); j++ {
			a, width := cuts[j], cuts[j+1]-cuts[j]
			for i, t := range poissonRule.x {
				sum += width * poissonRule.w[i] * math.Exp(g(a+width*t))
			}
		}
	}
	// The quadrature's rounding can leave a probability just above 1; a log
	// clearly above 0 is a quadrature that overflowed (ClampLogProbability).
	return ClampLogProbability(top + math.Log(sum) - lg - 0.5*math.Log(2*math.Pi*v))
}

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
