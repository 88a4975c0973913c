package factors

import (
	"fmt"
	"math"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
)

// BetweenMargins is the draw factor between two variable margins,
// I(−u ≤ x ≤ v): edge 0 is the performance difference x, edge 1 the margin
// u below it and edge 2 the margin v above it. In the chess model of
// Dangauthier, Herbrich, Minka and Graepel (2007), with x = white's
// performance minus black's, u is white's draw margin and v black's: a
// game is drawn when −u ≤ x ≤ v, won by white when x > v (ExceedsMargin on
// x and v) and by black when x < −u (ExceedsMargin on −x and u). With u and
// v fixed and equal to ε it is Within(ε).
//
// Its messages are expectation propagation's: the tilted distribution
// I(−u ≤ x ≤ v)·N(x)·N(u)·N(v) of the three cavities is moment-matched per
// variable and divided by the cavity (equation 6). Given x, u and v are
// independent Gaussians truncated to u ≥ −x and v ≥ x, one-sided
// truncations with Table 1's V and W, so
//
//	Z      = ∫ N(x; μₓ, σₓ²)·Φ((μᵤ + x)/σᵤ)·Φ((μᵥ − x)/σᵥ) dx,
//	E[u|x] = μᵤ + σᵤ·V(tᵤ),  Var(u|x) = σᵤ²·(1 − W(tᵤ)),  tᵤ = (μᵤ + x)/σᵤ,
//	E[v|x] = μᵥ + σᵥ·V(tᵥ),  Var(v|x) = σᵥ²·(1 − W(tᵥ)),  tᵥ = (μᵥ − x)/σᵥ,
//
// (V, W at margin 0), and the moments of x, u and v are one-dimensional
// integrals over x of these (the laws of total expectation and variance),
// computed by adaptive Gauss–Legendre quadrature in logarithms (see
// tiltedLine), which keeps relative accuracy in every tail. Z is the
// bivariate normal probability Φ₂ of the quadrant x + u ≥ 0, v − x ≥ 0;
// where it is not small the moments are taken instead in closed form from
// Φ₂ and its derivatives (quadrantMoments), a hundred times faster. Fixed margins (point
// masses u₀, v₀) truncate x to the closed interval [−u₀, v₀], and a fixed
// x₀ truncates u and v independently to the closed half-lines [−x₀, ∞)
// and [x₀, ∞): the truncations of GreaterThan and Within (truncation.go),
// whose one rule also decides a point mass on a bound (admitted: the
// draw region is closed).
//
// A margin's posterior may put mass below 0; where u + v < 0 the draw
// region is empty and those values get zero weight, so a drawn game pushes
// the margins up. (The three outcomes then no longer partition the line:
// for −u > v both wins hold on (v, −u). Keep the margins' priors several σ
// above 0.) A uniform cavity on any edge leaves the tilted distribution
// without a proper Gaussian to match: every message is then uniform and the
// evidence diverges.
type BetweenMargins struct{}

// NewBetweenMargins returns the factor I(−u ≤ x ≤ v).
func NewBetweenMargins() *BetweenMargins { return &BetweenMargins{} }

// Arity is 3: edge 0 is x, edge 1 the lower margin u, edge 2 the upper v.
func (*BetweenMargins) Arity() int { return 3 }

// Approximation returns "EP".
func (*BetweenMargins) Approximation() string { return "EP" }

// Message returns the moment-matched message on edge i (0: x, 1: u, 2: v).
func (f *BetweenMargins) Message(i int, e graph.Edges) (messages.Gaussian, error) {
	return checkedMessage(f.message(i, e))
}

func (f *BetweenMargins) message(i int, e graph.Edges) (messages.Gaussian, error) {
	if i < 0 || i > 2 {
		return messages.Gaussian{}, edgeError(i, 3)
	}
	cs := [3]messages.Gaussian{e.Cavity(0), e.Cavity(1), e.Cavity(2)}
	if err := checkCavities(cs[:]); err != nil {
		return messages.Gaussian{}, err
	}
	if cs[0].IsUniform() || cs[1].IsUniform() || cs[2].IsUniform() {
		return messages.Gaussian{}, nil
	}
	x, u, v := cs[0], cs[1], cs[2]
	switch {
	case x.IsPointMass():
		return f.fixedX(i, x.Mean(), u, v)
	case u.IsPointMass() && v.IsPointMass():
		iv := interval{lo: -u.Mean(), hi: v.Mean()}
		if i != 0 {
			return messages.Gaussian{}, iv.check()
		}
		return intervalMessage(x, iv)
	}
	r, err := f.tilted(x, u, v)
	if err != nil {
		return messages.Gaussian{}, err
	}
	return matched(cs[i], r.mean[i], r.variance[i]), nil
}

// fixedX is the case of a point-mass x₀: u ≥ −x₀ and v ≥ x₀ are
// independent truncations to closed half-lines. A point-mass margin
// outside its half-line rules the factor out on every edge.
func (*BetweenMargins) fixedX(i int, x0 float64, u, v messages.Gaussian) (messages.Gaussian, error) {
	hu, hv := marginHalfLines(x0)
	if err := pointOutside(u, hu); err != nil {
		return messages.Gaussian{}, err
	}
	if err := pointOutside(v, hv); err != nil {
		return messages.Gaussian{}, err
	}
	switch i {
	case 1:
		return aboveMessage(u, hu)
	case 2:
		return aboveMessage(v, hv)
	}
	return messages.Gaussian{}, nil
}

// marginHalfLines returns the sets of the margins given x = x₀:
// −u ≤ x₀ ≤ v is u in [−x₀, ∞) and v in [x₀, ∞).
func marginHalfLines(x0 float64) (hu, hv halfLine) {
	return halfLine{bound: -x0}, halfLine{bound: x0}
}

// tilted returns the moments of the general case (a proper x; u or v may
// be a point mass): in closed form on the quadrant a = x + u ≥ 0,
// b = v − x ≥ 0 where that is accurate (quadrantMoments), else by
// integrating over x.
func (f *BetweenMargins) tilted(x, u, v messages.Gaussian) (lineResult, error) {
	half, scale := cavityScale(x.Variance() + max(u.Variance(), v.Variance()))
	if !scale {
		return f.unitTilted(x, u, v)
	}
	r, err := f.unitTilted(shrink(x, half), shrink(u, half), shrink(v, half))
	return grow(r, err, half)
}

// unitTilted is tilted for cavities of moderate scale (cavityScale).
func (f *BetweenMargins) unitTilted(x, u, v messages.Gaussian) (lineResult, error) {
	vx, vu, vv := x.Variance(), u.Variance(), v.Variance()
	va, vb := vx+vu, vx+vv
	sab := math.Sqrt(va * vb)
	// K (see quadrantMoments) with c = −vₓ: for x, (ℓₐ, ℓ_b) = (1, −1) and
	// c·(vₐ + v_b) + 2vₐv_b = vₓvᵤ + vₓvᵥ + 2vᵤvᵥ, a sum of positive terms;
	// for u, (1, 0) and c/(σₐσ_b·vₐ); for v, (0, 1) and c/(σₐσ_b·v_b).
	edges := []quadrantEdge{
		{la: 1, lb: -1, k: (vx*vu + vx*vv + 2*vu*vv) / (sab * va * vb), cavity: x},
		{la: 1, k: -vx / (sab * va), cavity: u},
		{lb: 1, k: -vx / (sab * vb), cavity: v},
	}
	if lz, mean, variance, ok := quadrantMoments(x.Mean()+u.Mean(), v.Mean()-x.Mean(), va, vb, -vx, edges); ok {
		return lineResult{logZ: lz, mean: mean, variance: variance}, nil
	}
	return f.integrate(x, u, v)
}

// integrate integrates over x.
func (*BetweenMargins) integrate(x, u, v messages.Gaussian) (lineResult, error) {
	seg := lineSegment{lo: math.Inf(-1), hi: math.Inf(1)}
	var feats []lineFeature
	mu, su, mv, sv := u.Mean(), u.Sigma(), v.Mean(), v.Sigma()
	if u.IsPointMass() {
		seg.lo = -mu
	} else {
		feats = append(feats, lineFeature{at: -mu, scale: su})
	}
	if v.IsPointMass() {
		seg.hi = mv
	} else {
		feats = append(feats, lineFeature{at: mv, scale: sv})
	}
	if !(seg.lo <= seg.hi) {
		return lineResult{}, fmt.Errorf("−u = %v > v = %v in I(−u ≤ x ≤ v): %w", -mu, mv, messages.ErrImpossible)
	}
	seg.at = func(z float64, out []condMoments) (l, d1, d2 float64) {
		out[0], out[1] = condMoments{mean: mu}, condMoments{mean: mv}
		if !u.IsPointMass() {
			// u > −z: the derivative in z is minus that in the bound.
			lu, du, ddu, cm := greaterGiven(mu, su, -z)
			l, d1, d2, out[0] = l+lu, d1-du, d2+ddu, cm
		}
		if !v.IsPointMass() {
			lv, dv, ddv, cm := greaterGiven(mv, sv, z)
			l, d1, d2, out[1] = l+lv, d1+dv, d2+ddv, cm
		}
		return l, d1, d2
	}
	return tiltedLine(x.Mean(), x.Variance(), 2, []lineSegment{seg}, feats)
}

// LogAverageFactor returns log P(−u ≤ x ≤ v) under the cavities.
func (f *BetweenMargins) LogAverageFactor(e graph.Edges) (float64, error) {
	return checkedLog(f.logAverageFactor(e))
}

func (f *BetweenMargins) logAverageFactor(e graph.Edges) (float64, error) {
	cs := [3]messages.Gaussian{e.Cavity(0), e.Cavity(1), e.Cavity(2)}
	if err := checkCavities(cs[:]); err != nil {
		return 0, err
	}
	if cs[0].IsUniform() || cs[1].IsUniform() || cs[2].IsUniform() {
		return 0, errDiverges
	}
	x, u, v := cs[0], cs[1], cs[2]
	switch {
	case x.IsPointMass():
		hu, hv := marginHalfLines(x.Mean())
		lu, err := aboveMass(u, hu)
		if err != nil {
			return 0, err
		}
		lv, err := aboveMass(v, hv)
		return lu + lv, err
	case u.IsPointMass() && v.IsPointMass():
		return intervalMass(x, interval{lo: -u.Mean(), hi: v.Mean()})
	}
	r, err := f.tilted(x, u, v)
	if err != nil {
		return 0, err
	}
	return r.logZ, nil
}

// TiltedMoments returns log Z and the mean and covariance of
// I(−u ≤ x ≤ v)·N((x, u, v); mean, cov)/Z under a joint cavity over
// (x, u, v), cov 3×3 row-major, for joint-Gaussian EP (graph/exact): the
// region is the wedge x + u ≥ 0, v − x ≥ 0, a₁ = (1, 1, 0),
// a₂ = (−1, 0, 1), and the moments are the truncated bivariate normal's
// of the projection (Tallis 1961) lifted by regression to (x, u, v), or
// where that form is not accurate one integral (see wedge). Errors: a
// cavity that is not a covariance, or under which x + u and v − x are
// collinear (messages.ErrInput); one that puts no mass on the region in
// float64 (messages.ErrImpossible).
func (*BetweenMargins) TiltedMoments(mean, cov []float64) (logZ float64, postMean, postCov []float64, err error) {
	if err := jointCavity(3, mean, cov); err != nil {
		return 0, nil, nil, err
	}
	return wedge(mean, cov, []float64{1, 1, 0}, []float64{-1, 0, 1})
}

// Label returns "I(−u ≤ x ≤ v)".
func (*BetweenMargins) Label(vars []string) string {
	return fmt.Sprintf("I(−%s ≤ %s ≤ %s)", varName(vars, 1), varName(vars, 0), varName(vars, 2))
}

// checkCavities rejects improper cavities.
func checkCavities(cs []messages.Gaussian) error {
	for i, c := range cs {
		if c.IsPointMass() {
			if !messages.IsFinite(c.Tau) {
				return fmt.Errorf("edge %d: %w (a point mass at %v)", i, errImproperCavity, c.Tau)
			}
			continue
		}
		if err := checkCavity(c); err != nil {
			return fmt.Errorf("edge %d: %w", i, err)
		}
		if !c.IsFinite() {
			return fmt.Errorf("edge %d: %w (π = %v, τ = %v)", i, errImproperCavity, c.Pi, c.Tau)
		}
	}
	return nil
}
