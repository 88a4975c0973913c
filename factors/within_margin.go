package factors

import (
	"fmt"
	"math"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
)

// WithinMargin is the draw factor with a variable margin, I(|x| ≤ m):
// edge 0 is the performance difference x, edge 1 the margin m, one margin
// for both sides (BetweenMargins has one per side). With m fixed at ε it
// is Within(ε).
//
// Its messages are expectation propagation's: the tilted distribution
// I(|x| ≤ m)·N(x)·N(m) is moment-matched per variable and divided by the
// cavity (equation 6). Given x, m is a Gaussian truncated to m ≥ |x|, a
// one-sided truncation with Table 1's V and W, so
//
//	Z      = ∫ N(x; μₓ, σₓ²)·Φ((μₘ − |x|)/σₘ) dx,
//	E[m|x] = μₘ + σₘ·V(t),  Var(m|x) = σₘ²·(1 − W(t)),  t = (μₘ − |x|)/σₘ,
//
// (V, W at margin 0), and the moments of x and m are one-dimensional
// integrals over x of these (the laws of total expectation and variance),
// computed by adaptive Gauss–Legendre quadrature in logarithms on x ≤ 0
// and x ≥ 0 separately, where the integrand is smooth and log-concave
// (see tiltedLine). Z is the bivariate normal probability of the wedge
// m + x ≥ 0, m − x ≥ 0; where it is not small the moments are taken
// instead in closed form from it and its derivatives (quadrantMoments). A fixed margin m₀ (a point mass) is Within(m₀), the
// truncation of x to [−m₀, m₀]; a fixed x₀ truncates m to the closed
// half-line [|x₀|, ∞), so that a point-mass m₀ = |x₀| is admitted (see
// truncation.go for the one rule).
//
// Values of m below 0 leave no x and get zero weight, so a drawn game
// pushes m up. A uniform cavity on either edge leaves every message
// uniform and the evidence divergent.
type WithinMargin struct{}

// NewWithinMargin returns the factor I(|x| ≤ m).
func NewWithinMargin() *WithinMargin { return &WithinMargin{} }

// Arity is 2: edge 0 is x, edge 1 the margin m.
func (*WithinMargin) Arity() int { return 2 }

// Approximation returns "EP".
func (*WithinMargin) Approximation() string { return "EP" }

// Message returns the moment-matched message on edge i (0: x, 1: m).
func (f *WithinMargin) Message(i int, e graph.Edges) (messages.Gaussian, error) {
	return checkedMessage(f.message(i, e))
}

func (f *WithinMargin) message(i int, e graph.Edges) (messages.Gaussian, error) {
	if i < 0 || i > 1 {
		return messages.Gaussian{}, edgeError(i, 2)
	}
	cs := [2]messages.Gaussian{e.Cavity(0), e.Cavity(1)}
	if err := checkCavities(cs[:]); err != nil {
		return messages.Gaussian{}, err
	}
	x, m := cs[0], cs[1]
	switch {
	case x.IsUniform() || m.IsUniform():
		return messages.Gaussian{}, nil
	case x.IsPointMass():
		h := halfLine{bound: math.Abs(x.Mean())} // m ≥ |x₀|
		if i == 0 {
			return messages.Gaussian{}, pointOutside(m, h)
		}
		return aboveMessage(m, h)
	case m.IsPointMass():
		iv := interval{lo: -m.Mean(), hi: m.Mean()} // |x| ≤ m₀
		if i == 1 {
			return messages.Gaussian{}, iv.check()
		}
		return intervalMessage(x, iv)
	}
	r, err := f.tilted(x, m)
	if err != nil {
		return messages.Gaussian{}, err
	}
	return matched(cs[i], r.mean[i], r.variance[i]), nil
}

// tilted returns the moments for two proper cavities: in closed form on
// the quadrant a = m + x ≥ 0, b = m − x ≥ 0 where that is accurate
// (quadrantMoments), else by integrating over x.
func (f *WithinMargin) tilted(x, m messages.Gaussian) (lineResult, error) {
	half, scale := cavityScale(x.Variance() + m.Variance())
	if !scale {
		return f.unitTilted(x, m)
	}
	r, err := f.unitTilted(shrink(x, half), shrink(m, half))
	return grow(r, err, half)
}

// unitTilted is tilted for cavities of moderate scale (cavityScale).
func (f *WithinMargin) unitTilted(x, m messages.Gaussian) (lineResult, error) {
	vx, vm := x.Variance(), m.Variance()
	v := vx + vm // vₐ = v_b
	// K (see quadrantMoments) with c = vₘ − vₓ, σₐσ_b = v: for x, (1, −1)
	// and 2v·(c + v)/v³ = 4vₘ/v²; for m, (1, 1) and 2v·(c − v)/v³ = −4vₓ/v².
	edges := []quadrantEdge{
		{la: 1, lb: -1, k: 4 * vm / (v * v), cavity: x},
		{la: 1, lb: 1, k: -4 * vx / (v * v), cavity: m},
	}
	if lz, mean, variance, ok := quadrantMoments(m.Mean()+x.Mean(), m.Mean()-x.Mean(), v, v, vm-vx, edges); ok {
		return lineResult{logZ: lz, mean: mean, variance: variance}, nil
	}
	return f.integrate(x, m)
}

// integrate integrates over x.
func (*WithinMargin) integrate(x, m messages.Gaussian) (lineResult, error) {
	mm, sm := m.Mean(), m.Sigma()
	side := func(sign float64) func(z float64, out []condMoments) (l, d1, d2 float64) {
		// m > sign·z on this side: the derivative in z is sign times that
		// in the bound.
		return func(z float64, out []condMoments) (l, d1, d2 float64) {
			l, d1, d2, out[0] = greaterGiven(mm, sm, sign*z)
			return l, sign * d1, d2
		}
	}
	segs := []lineSegment{{lo: math.Inf(-1), hi: 0, at: side(-1)}, {lo: 0, hi: math.Inf(1), at: side(1)}}
	feats := []lineFeature{{at: -mm, scale: sm}, {at: mm, scale: sm}}
	return tiltedLine(x.Mean(), x.Variance(), 1, segs, feats)
}

// LogAverageFactor returns log P(|x| ≤ m) under the cavities.
func (f *WithinMargin) LogAverageFactor(e graph.Edges) (float64, error) {
	return checkedLog(f.logAverageFactor(e))
}

func (f *WithinMargin) logAverageFactor(e graph.Edges) (float64, error) {
	cs := [2]messages.Gaussian{e.Cavity(0), e.Cavity(1)}
	if err := checkCavities(cs[:]); err != nil {
		return 0, err
	}
	x, m := cs[0], cs[1]
	switch {
	case x.IsUniform() || m.IsUniform():
		return 0, errDiverges
	case x.IsPointMass():
		return aboveMass(m, halfLine{bound: math.Abs(x.Mean())})
	case m.IsPointMass():
		return intervalMass(x, interval{lo: -m.Mean(), hi: m.Mean()})
	}
	r, err := f.tilted(x, m)
	if err != nil {
		return 0, err
	}
	return r.logZ, nil
}

// TiltedMoments returns log Z and the mean and covariance of
// I(|x| ≤ m)·N((x, m); mean, cov)/Z under a joint cavity over (x, m), cov
// 2×2 row-major, for joint-Gaussian EP (graph/exact): the region is the
// wedge m + x ≥ 0, m − x ≥ 0, a₁ = (1, 1), a₂ = (−1, 1), and the moments
// are the truncated bivariate normal's of the projection (Tallis 1961)
// lifted by regression to (x, m), or where that form is not accurate one
// integral (see wedge). Errors: a cavity that is not a covariance, or
// under which m + x and m − x are collinear (messages.ErrInput); one that puts
// no mass on the region in float64 (messages.ErrImpossible).
func (*WithinMargin) TiltedMoments(mean, cov []float64) (logZ float64, postMean, postCov []float64, err error) {
	if err := jointCavity(2, mean, cov); err != nil {
		return 0, nil, nil, err
	}
	return wedge(mean, cov, []float64{1, 1}, []float64{-1, 1})
}

// Label returns "I(|x| ≤ m)".
func (*WithinMargin) Label(vars []string) string {
	return fmt.Sprintf("I(|%s| ≤ %s)", varName(vars, 0), varName(vars, 1))
}
