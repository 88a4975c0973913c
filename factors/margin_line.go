package factors

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/integrate/quad"

	"github.com/skillgraph/skillgraph/messages"
)

// The tilted distributions of WithinMargin and BetweenMargins are
// truncated multivariate Gaussians whose normaliser is a bivariate normal
// probability Φ₂, which has no closed form. Both factors are chosen so that,
// given one variable z (the performance difference x), every other variable
// is an independent Gaussian truncated on one side (Table 1's win factor,
// with V and W from messages.GreaterThan). The tilted distribution is then
// a one-dimensional integral over z of closed-form conditional moments:
//
//	Z        = ∫ N(z; μ, v)·P(z) dz,                     P(z) = ∏ⱼ Φ(tⱼ(z))
//	E[z]     = ∫ z·N·P dz / Z,      Var[z] = ∫ (z − E[z])²·N·P dz / Z
//	E[yⱼ]    = E_z[E[yⱼ | z]],      Var[yⱼ] = E_z[Var(yⱼ | z)] + Var_z(E[yⱼ | z])
//
// (the law of total expectation and of total variance, with E_z under the
// tilted marginal of z). Every term of each variance is non-negative, so
// none cancels, and the integrand is kept in logarithms (log Φ from
// messages.LogNormCDF), so the moments keep their relative accuracy where Z
// underflows. The integrand N(z)·P(z) is log-concave (a product of
// log-concave functions), so it has one mode and falls off monotonically on
// either side of it; tiltedLine integrates it by Gauss–Legendre rules on
// pieces sized by the local slope and curvature of its logarithm.

const (
	// lineDrop bounds the window: the integrand is integrated where its
	// logarithm is within lineDrop of its maximum (e⁻⁴⁶ ≈ 1e-20 of the
	// peak, and the mass beyond is smaller still, as the logarithm is
	// concave).
	lineDrop = 46
	// lineBudget bounds each piece: the logarithm of the integrand changes
	// by about lineBudget across it, at which a 16-point Gauss–Legendre
	// rule integrates an exponential to about 1e-16.
	lineBudget = 6
	// lineMaxPieces bounds the work of one integral.
	lineMaxPieces = 2000
	lineNodes     = 16
)

// lineRule is the 16-point Gauss–Legendre rule on [0, 1] and the
// logarithms of its weights; computed once and only read afterwards.
var lineRule = func() (r struct{ x, w, logW [lineNodes]float64 }) {
	quad.Legendre{}.FixedLocations(r.x[:], r.w[:], 0, 1)
	for k, w := range r.w {
		r.logW[k] = math.Log(w)
	}
	return r
}()

// condMoments are another variable's mean and variance given z.
type condMoments struct{ mean, variance float64 }

// lineSegment is an interval [lo, hi] of z (ends may be infinite) on which
// log P(z) is smooth and concave. at returns log P(z) and its first two
// derivatives in z, and writes the other variables' conditional moments to
// out.
type lineSegment struct {
	lo, hi float64
	at     func(z float64, out []condMoments) (l, d1, d2 float64)
}

// lineFeature is a point of z around which P changes on a scale much finer
// than elsewhere (a truncation's edge, tⱼ(z) = 0, of width σⱼ): pieces near
// it are kept no wider than the scale.
type lineFeature struct{ at, scale float64 }

// lineResult is the tilted distribution's log normaliser and the means and
// variances of z (index 0) and of the other variables (1, 2, …), and the
// covariance of z with each other variable (cross[j−1] for variable j):
// Cov(z, yⱼ) = E_z[(z − E[z])·E[yⱼ | z]], by the law of total covariance.
type lineResult struct {
	logZ                  float64
	mean, variance, cross []float64
}

// lineState gathers the quadrature nodes of one integral.
type lineState struct {
	mu, v  float64
	others int
	buf    []condMoments
	z, lw  []float64     // nodes and log weights (rule weight × piece width × integrand)
	cond   []condMoments // others per node, node-major
	pieces int
}

// errLine reports an integral the quadrature could not resolve (parameters
// beyond the floating-point range).
func errLine(what string, x float64) error {
	return fmt.Errorf("the margin factor's integral: %s = %v: %w", what, x, messages.ErrImpossible)
}

// tiltedLine returns the moments of the tilted distribution N(z; mu, v)·P
// (v > 0 and finite) over the segments, which must not overlap.
func tiltedLine(mu, v float64, others int, segs []lineSegment, feats []lineFeature) (lineResult, error) {
	const expect = 48 * lineNodes // room for the usual number of pieces
	st := &lineState{mu: mu, v: v, others: others, buf: make([]condMoments, others),
		z: make([]float64, 0, expect), lw: make([]float64, 0, expect), cond: make([]condMoments, 0, expect*others)}
	for i := range segs {
		if err := st.segment(&segs[i], feats); err != nil {
			return lineResult{}, err
		}
	}
	if len(st.z) == 0 {
		return lineResult{}, errLine("nodes", 0)
	}
	peak := math.Inf(-1)
	for _, l := range st.lw {
		peak = math.Max(peak, l)
	}
	if !messages.IsFinite(peak) {
		return lineResult{}, errLine("log density", peak)
	}
	n := len(st.z)
	e := st.lw // the weights, relative to the peak, overwrite their logarithms
	var sum, s1 float64
	res := lineResult{mean: make([]float64, others+1), variance: make([]float64, others+1), cross: make([]float64, others)}
	for k := range n {
		e[k] = math.Exp(st.lw[k] - peak)
		sum += e[k]
		s1 += e[k] * st.z[k]
		for j := range others {
			res.mean[j+1] += e[k] * st.cond[k*others+j].mean
		}
	}
	res.mean[0] = s1 / sum
	for j := 1; j <= others; j++ {
		res.mean[j] /= sum
	}
	for k := range n {
		d := st.z[k] - res.mean[0]
		res.variance[0] += e[k] * d * d
		for j := range others {
			c := st.cond[k*others+j]
			dj := c.mean - res.mean[j+1]
			res.variance[j+1] += e[k] * (c.variance + dj*dj)
			res.cross[j] += e[k] * d * dj
		}
	}
	for j := range res.variance {
		res.variance[j] /= sum
	}
	for j := range res.cross {
		res.cross[j] /= sum
	}
	// Z = (2πv)^(−1/2)·∫ exp(g): g leaves out the normalisation of N(z; μ, v).
	res.logZ = peak + math.Log(sum) - 0.5*math.Log(2*math.Pi*v)
	for j := range res.mean {
		if !messages.IsFinite(res.mean[j] + res.variance[j]) {
			return lineResult{}, errLine("moment", res.mean[j]+res.variance[j])
		}
	}
	if !messages.IsFinite(res.logZ) {
		return lineResult{}, errLine("log Z", res.logZ)
	}
	return res, nil
}

// eval returns g(z) = −(z − μ)²/(2v) + log P(z) and its first two
// derivatives.
func (st *lineState) eval(s *lineSegment, z float64) (g, d1, d2 float64) {
	l, l1, l2 := s.at(z, st.buf)
	dz := z - st.mu
	return l - 0.5*dz*dz/st.v, l1 - dz/st.v, l2 - 1/st.v
}

// segment adds the nodes of one segment.
func (st *lineState) segment(s *lineSegment, feats []lineFeature) error {
	if !(s.lo < s.hi) {
		return nil
	}
	m := st.mode(s)
	gm, _, _ := st.eval(s, m)
	if !messages.IsFinite(gm) {
		return errLine("log density at the mode", gm)
	}
	level := gm - lineDrop
	lo, hi := st.end(s, m, level, -1), st.end(s, m, level, 1)
	if err := st.walk(s, m, hi, 1, feats); err != nil {
		return err
	}
	return st.walk(s, m, lo, -1, feats)
}

// mode returns (close to) the maximiser of g on the segment, by Newton's
// method safeguarded by bisection. g” ≤ −1/v, so g' falls by at least
// Δ/v over a step Δ: from z₀ with g'(z₀) > 0 the root lies within
// v·g'(z₀), which brackets it.
func (st *lineState) mode(s *lineSegment) float64 {
	z0 := math.Min(math.Max(st.mu, s.lo), s.hi)
	_, d, _ := st.eval(s, z0)
	var a, b float64 // g' > 0 at a, < 0 at b
	switch {
	case d == 0:
		return z0
	case d > 0:
		if z0 == s.hi {
			return z0
		}
		a, b = z0, math.Min(s.hi, z0+st.v*d)
		if _, db, _ := st.eval(s, b); db >= 0 {
			return b
		}
	default:
		if z0 == s.lo {
			return z0
		}
		a, b = math.Max(s.lo, z0+st.v*d), z0
		if _, da, _ := st.eval(s, a); da <= 0 {
			return a
		}
	}
	z := 0.5 * (a + b)
	for range 200 {
		_, d1, d2 := st.eval(s, z)
		if d1 > 0 {
			a = z
		} else {
			b = z
		}
		// Within a thousandth of the local width: the mode only anchors
		// the pieces.
		if math.Abs(d1) <= 1e-3*math.Sqrt(-d2) || b-a <= 1e-15*math.Abs(z) {
			return z
		}
		next := z - d1/d2
		if !(next > a && next < b) {
			next = 0.5 * (a + b)
		}
		z = next
	}
	return z
}

// end returns where g falls to level on the side dir (+1 right, −1 left)
// of the mode m, or the segment's end if g stays above it. From the mode,
// g(m + Δ) ≤ g(m) + g'(m)·Δ − Δ²/(2v) with g'(m)·Δ ≤ 0 (or nearly, at an
// interior mode), so a step of √(2·lineDrop·v) reaches the level (doubled
// until it does); Newton's method from beyond the root of the concave
// g − level then approaches it monotonically.
func (st *lineState) end(s *lineSegment, m, level, dir float64) float64 {
	limit := s.hi
	if dir < 0 {
		limit = s.lo
	}
	if !math.IsInf(limit, 0) {
		if g, _, _ := st.eval(s, limit); g >= level {
			return limit
		}
	}
	step := math.Sqrt(2 * lineDrop * st.v)
	z := m + dir*step
	for range 64 {
		if (z-limit)*dir >= 0 {
			z = limit
			break
		}
		if g, _, _ := st.eval(s, z); g < level {
			break
		}
		step *= 2
		z = m + dir*step
	}
	// Newton's steps stop once g is within 1 of the level: beyond that
	// the window is wider than needed by under a unit of g's scale.
	for range 200 {
		g, d1, _ := st.eval(s, z)
		if d1 == 0 || !(g < level-1) {
			return z
		}
		z -= (g - level) / d1
	}
	return z
}

// walk adds pieces from the mode m to the end e on the side dir.
func (st *lineState) walk(s *lineSegment, m, e, dir float64, feats []lineFeature) error {
	z := m
	for (e-z)*dir > 0 {
		if st.pieces++; st.pieces > lineMaxPieces {
			return errLine("pieces", float64(st.pieces))
		}
		_, d1, d2 := st.eval(s, z)
		h := lineBudget / (math.Abs(d1) + math.Sqrt(-lineBudget*d2))
		for _, f := range feats {
			h = math.Min(h, math.Max(f.scale, 0.5*math.Abs(f.at-z)))
		}
		if !(h > 0) {
			return errLine("piece width", h)
		}
		next := z + dir*h
		if (next-e)*dir >= 0 || (e-next)*dir < 1e-12*h {
			next = e
		}
		if next == z {
			return errLine("piece width", h)
		}
		st.piece(s, math.Min(z, next), math.Max(z, next))
		z = next
	}
	return nil
}

// piece adds the Gauss–Legendre nodes of [a, b].
func (st *lineState) piece(s *lineSegment, a, b float64) {
	w := b - a
	lw := math.Log(w)
	for k := range lineNodes {
		z := a + w*lineRule.x[k]
		g, _, _ := st.eval(s, z)
		st.z = append(st.z, z)
		st.lw = append(st.lw, g+lw+lineRule.logW[k])
		st.cond = append(st.cond, st.buf...)
	}
}

// greaterGiven is the one-sided truncation y > c of a variable y with
// cavity N(μ, σ²) (σ > 0), as a function of the bound c: with
// t = (μ − c)/σ, the kept mass is Φ(t), and y has mean μ + σ·V and
// variance σ²·(1 − W) (Table 1, row 5, with V and W from
// messages.GreaterThan at margin 0). It returns log Φ(t), the derivative
// of log Φ(t) in c, −λ(t)/σ = −V/σ, and its second derivative −W/σ².
func greaterGiven(mu, sd, c float64) (l, d1, d2 float64, cm condMoments) {
	t := (mu - c) / sd
	tr := messages.GreaterThan(t, 0)
	return messages.LogNormCDF(t), -tr.V / sd, -tr.W / (sd * sd),
		condMoments{mean: mu + sd*tr.V, variance: sd * sd * tr.OneMinusW}
}

// matched returns the message that moves the cavity c to the tilted mean
// and variance (equation 6: the moment-matched marginal divided by the
// cavity), in the form π = 1/s − 1/v, τ = (m − μ)/s + μ·π, which keeps
// the mean exact when π is small. A truncation to a convex set never
// widens a Gaussian (the tilted variance s ≤ v), so a π below 0 is
// rounding and is sent as 0; a tilted variance of 0 (a truncation that
// leaves a point) is a point mass. A point-mass cavity gets the uniform
// message: its marginal cannot move.
func matched(c messages.Gaussian, mean, variance float64) messages.Gaussian {
	if c.IsPointMass() {
		return messages.Gaussian{}
	}
	if !(variance > 0) {
		return messages.PointMass(mean)
	}
	mu, v := c.Mean(), c.Variance()
	pi := math.Max(0, (v-variance)/v/variance) // v·variance may overflow or underflow
	if pi == 0 {
		return messages.Gaussian{Pi: 0, Tau: (mean - mu) / v}
	}
	return messages.Gaussian{Pi: pi, Tau: (mean-mu)/variance + mu*pi}
}

// The margin factors' moments are computed on cavities of moderate scale:
// a factor that is the indicator of linear inequalities among its
// variables does not change under x → x/s, so its tilted distribution
// scales with the cavities, and dividing them by a power of two s near
// √v (v a variance of their scale) keeps the products of variances in
// the closed forms, which overflow or underflow from a scale of 1e±77, in
// range. Division by a power of two is exact, and the log evidence does
// not change. cavityScale says whether v needs it (it lies outside
// [2⁻⁶⁰, 2⁶⁰]) and gives the exponent of s, shrink divides a cavity by
// s, and grow multiplies the moments back.
func cavityScale(v float64) (half int, scale bool) {
	_, e := math.Frexp(v)
	return e / 2, e < -60 || e > 60
}

// shrink returns c divided by 2^half: N(μ/s, σ²/s²), that is π·s², τ·s.
func shrink(c messages.Gaussian, half int) messages.Gaussian {
	return messages.Gaussian{Pi: math.Ldexp(c.Pi, 2*half), Tau: math.Ldexp(c.Tau, half)}
}

// grow returns the moments r of shrunk cavities (shrink) at the cavities'
// own scale.
func grow(r lineResult, err error, half int) (lineResult, error) {
	if err != nil {
		return r, err
	}
	for i := range r.mean {
		r.mean[i] = math.Ldexp(r.mean[i], half)
		r.variance[i] = math.Ldexp(r.variance[i], 2*half)
	}
	for i := range r.cross {
		r.cross[i] = math.Ldexp(r.cross[i], 2*half)
	}
	return r, nil
}
