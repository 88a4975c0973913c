package factors

import (
	"fmt"
	"math"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
)

// GreaterThan is the win factor I(x > ε) (Table 1, row 5, left): the team
// performance difference x exceeded the draw margin ε. Its message is found
// by expectation propagation: the cavity N(μ, σ²) (natural parameters c = π,
// d = τ) times the factor is moment-matched by a Gaussian (equations 3-5),
//
//	π_x^new = c/(1 − W(t, ε√c)),  τ_x^new = (d + √c·V(t, ε√c))/(1 − W(t, ε√c)),  t = d/√c,
//
// and the message is that marginal divided by the cavity (equation 6):
// π_{f→x} = c·W/(1 − W), τ_{f→x} = (d·W + √c·V)/(1 − W), written so that
// neither subtracts nearly equal numbers. V and W are messages.GreaterThan.
type GreaterThan struct {
	Margin float64 // ε ≥ 0
}

// NewGreaterThan returns the factor I(x > margin).
func NewGreaterThan(margin float64) *GreaterThan { return &GreaterThan{Margin: margin} }

// Arity is 1.
func (*GreaterThan) Arity() int { return 1 }

// Approximation returns "EP".
func (*GreaterThan) Approximation() string { return "EP" }

// Validate reports a margin that is negative or not finite.
func (g *GreaterThan) Validate() error { return checkMargin(g.Margin) }

// Message returns the moment-matched message to x.
func (g *GreaterThan) Message(_ int, e graph.Edges) (messages.Gaussian, error) {
	return checkedMessage(aboveMessage(e.Cavity(0), halfLine{bound: g.Margin, open: true}))
}

// LogAverageFactor returns log P(x > ε) under the cavity, log Φ((μ − ε)/σ).
func (g *GreaterThan) LogAverageFactor(e graph.Edges) (float64, error) {
	return checkedLog(aboveMass(e.Cavity(0), halfLine{bound: g.Margin, open: true}))
}

// Label returns "I(x > ε)".
func (g *GreaterThan) Label(vars []string) string {
	return fmt.Sprintf("I(%s > %.4g)", varName(vars, 0), g.Margin)
}

// Within is the draw factor I(|x| ≤ ε) (Table 1, row 5, right): the team
// performance difference x stayed within the draw margin. Its message is the
// moment-matched marginal divided by the cavity, with V and W from
// messages.Within, exactly as for GreaterThan. A uniform cavity gives the
// moments of the uniform distribution on [−ε, ε]: N(0, ε²/3).
type Within struct {
	Margin float64 // ε ≥ 0
}

// NewWithin returns the factor I(|x| ≤ margin).
func NewWithin(margin float64) *Within { return &Within{Margin: margin} }

// Arity is 1.
func (*Within) Arity() int { return 1 }

// Approximation returns "EP".
func (*Within) Approximation() string { return "EP" }

// Validate reports a margin that is negative or not finite.
func (w *Within) Validate() error { return checkMargin(w.Margin) }

// Message returns the moment-matched message to x.
func (w *Within) Message(_ int, e graph.Edges) (messages.Gaussian, error) {
	return checkedMessage(intervalMessage(e.Cavity(0), interval{lo: -w.Margin, hi: w.Margin}))
}

// LogAverageFactor returns log P(|x| ≤ ε) under the cavity; log 2ε for a
// uniform cavity.
func (w *Within) LogAverageFactor(e graph.Edges) (float64, error) {
	return checkedLog(intervalMass(e.Cavity(0), interval{lo: -w.Margin, hi: w.Margin}))
}

// Label returns "I(|x| ≤ ε)".
func (w *Within) Label(vars []string) string {
	return fmt.Sprintf("I(|%s| ≤ %.4g)", varName(vars, 0), w.Margin)
}

// Every truncation of one variable's cavity to a set that the factor's
// parameters or its point-mass edges fix goes through the helpers below:
// Table 1's row 5 (GreaterThan, Within), and WithinMargin and
// BetweenMargins once their other edges are point masses (a fixed x
// truncates a margin to a half-line, fixed margins truncate x to an
// interval). ExceedsMargin's message is the same truncation read through
// d = x − m, one formula for every cavity (with a point-mass edge it
// reduces to aboveMessage's), and the joint TiltedMoments truncate
// projections of a joint cavity; both take their point rule from halfLine.
// A truncation keeps the cavity's mass on one of two kinds of set:
//
//   - a half-line above a bound b: open, (b, ∞), for the strict
//     inequalities of the win factors (I(x > ε), I(x > m)); closed,
//     [b, ∞), for the non-strict ones of the draw factors read as a bound
//     on a margin (m ≥ |x| in I(|x| ≤ m); u ≥ −x and v ≥ x in
//     I(−u ≤ x ≤ v));
//   - a closed interval [lo, hi], the draw factors' x given their margins
//     (I(|x| ≤ ε) is [−ε, ε], I(−u ≤ x ≤ v) with fixed u₀, v₀ is [−u₀, v₀]).
//
// The one rule for a point-mass cavity x₀ (an observed value): it is
// admitted exactly when x₀ belongs to the set, a bound included exactly
// when the factor's inequality there is non-strict. Admitted, its message
// is uniform (its marginal cannot move) and its log mass 0; excluded, its
// message is an error wrapping messages.ErrImpossible and its log mass −∞
// (which the factors' LogAverageFactor reports as messages.ErrImpossible,
// see checkedLog). For a proper cavity the set's ends have no mass and the
// rule does not arise.

// region is a set a truncation keeps: a halfLine or an interval.
type region interface {
	admits(x float64) bool
	String() string
}

// pointOutside returns the error of a point-mass cavity c outside the set
// s (messages.ErrImpossible), and nil for any other cavity.
func pointOutside(c messages.Gaussian, s region) error {
	if c.IsPointMass() && !s.admits(c.Mean()) {
		return fmt.Errorf("x = %v outside %v: %w", c.Mean(), s, messages.ErrImpossible)
	}
	return nil
}

// pointLogMass returns the log mass on s of the point mass at x: 0 if s
// admits x, else −∞.
func pointLogMass(x float64, s region) float64 {
	if s.admits(x) {
		return 0
	}
	return math.Inf(-1)
}

// halfLine is the set above bound: (bound, ∞) if open, else [bound, ∞).
type halfLine struct {
	bound float64
	open  bool
}

// admits reports whether the point x lies in h.
func (h halfLine) admits(x float64) bool {
	if h.open {
		return x > h.bound
	}
	return x >= h.bound
}

func (h halfLine) String() string {
	if h.open {
		return fmt.Sprintf("(%v, ∞)", h.bound)
	}
	return fmt.Sprintf("[%v, ∞)", h.bound)
}

// interval is the closed set [lo, hi], empty if lo > hi.
type interval struct{ lo, hi float64 }

// admits reports whether the point x lies in iv.
func (iv interval) admits(x float64) bool { return iv.lo <= x && x <= iv.hi }

// empty reports whether iv holds no point (lo > hi, or an end NaN).
func (iv interval) empty() bool { return !(iv.lo <= iv.hi) }

// check returns messages.ErrImpossible for an empty interval: no value of
// the truncated variable satisfies the factor.
func (iv interval) check() error {
	if iv.empty() {
		return fmt.Errorf("the interval %v is empty: %w", iv, messages.ErrImpossible)
	}
	return nil
}

func (iv interval) String() string { return fmt.Sprintf("[%v, %v]", iv.lo, iv.hi) }

// centre returns iv's midpoint c and half-width ε, iv = [c − ε, c + ε], so
// that messages.Within's symmetric corrections serve it. They are exact for
// a symmetric interval [−ε, ε] (c = 0, and 2ε/2 = ε however small ε is),
// and a width or sum beyond float64's range is halved first.
func (iv interval) centre() (c, eps float64) {
	c, eps = (iv.lo+iv.hi)/2, (iv.hi-iv.lo)/2
	if math.IsInf(eps, 0) {
		eps = iv.hi/2 - iv.lo/2
	}
	if math.IsInf(c, 0) {
		c = iv.lo/2 + iv.hi/2
	}
	return c, eps
}

// aboveMessage returns the message of the truncation of the cavity c to
// the half-line h (Table 1, row 5, left): with sc = √π and the
// standardised mean t = τ/sc, V and W are messages.GreaterThan(t, b·sc),
// b the bound (the paper's V(d/√c, ε√c) with ε = b, which may be any real
// number). A uniform cavity stays flat: the message is uniform.
func aboveMessage(c messages.Gaussian, h halfLine) (messages.Gaussian, error) {
	switch {
	case c.IsUniform():
		return messages.Gaussian{}, nil
	case c.IsPointMass():
		return messages.Gaussian{}, pointOutside(c, h)
	}
	if err := checkCavity(c); err != nil {
		return messages.Gaussian{}, err
	}
	sc := math.Sqrt(c.Pi)
	return truncatedMessage(c, sc, messages.GreaterThan(c.Tau/sc, h.bound*sc))
}

// aboveMass returns the log of the cavity c's mass on the half-line h,
// log Φ((μ − b)/σ) = log Φ(t − b·sc) (messages.LogNormCDF); a uniform
// cavity's integral diverges.
func aboveMass(c messages.Gaussian, h halfLine) (float64, error) {
	switch {
	case c.IsUniform():
		return 0, errDiverges
	case c.IsPointMass():
		return pointLogMass(c.Mean(), h), nil
	}
	sc := math.Sqrt(c.Pi)
	return messages.LogNormCDF(c.Tau/sc - h.bound*sc), nil
}

// intervalMessage returns the message of the truncation of the cavity c to
// the closed interval iv (Table 1, row 5, right). messages.Within gives V
// and W for the symmetric interval [−ε, ε] of a unit Gaussian of mean t;
// with iv = [m − ε, m + ε] (centre) and z = √π·(x − m), the cavity's z is
// N(t, 1) with t = τ/√π − m·√π, and z in [−ε√π, ε√π] is x in iv, so
//
//	V = Within(t, ε√π).V,  W = Within(t, ε√π).W,
//
// the shift of the mean and the shrinking of the variance in units of σ.
// Both are invariant under the shift by m, so the marginal, mean
// μ + σ·V and variance σ²·(1 − W), and the message (truncatedMessage)
// follow from the unshifted cavity (π, τ) as for a window centred at 0.
// A uniform cavity gives the uniform distribution on iv,
// N(m, (hi − lo)²/12); an empty interval rules out every cavity.
func intervalMessage(c messages.Gaussian, iv interval) (messages.Gaussian, error) {
	if err := iv.check(); err != nil {
		return messages.Gaussian{}, err
	}
	if c.IsPointMass() {
		return messages.Gaussian{}, pointOutside(c, iv)
	}
	m, eps := iv.centre()
	if c.IsUniform() {
		return messages.NewGaussian(m, eps*eps/3), nil // (2ε)²/12
	}
	if err := checkCavity(c); err != nil {
		return messages.Gaussian{}, err
	}
	sc := math.Sqrt(c.Pi)
	tr := messages.Within(c.Tau/sc-m*sc, eps*sc)
	if !(tr.OneMinusW > 0) && eps > 0 {
		// An interval so narrow for the cavity (ε√π below about 1e-162)
		// that the marginal's variance, about ε²/3, underflows: as where
		// its precision overflows, for ε√π up to about 1e-154, the answer
		// is beyond float64. A point mass here would read as an
		// observation, whose density the graph's evidence would add to
		// the interval's mass.
		return messages.Gaussian{}, errNotMessage
	}
	return truncatedMessage(c, sc, tr)
}

// intervalMass returns the log of the cavity c's mass on the closed
// interval iv: messages.LogWithinMass(t, ε√π) with t and ε as in
// intervalMessage; log(hi − lo) for a uniform cavity; −∞ for an empty
// interval.
func intervalMass(c messages.Gaussian, iv interval) (float64, error) {
	switch {
	case iv.empty():
		return math.Inf(-1), nil
	case c.IsPointMass():
		return pointLogMass(c.Mean(), iv), nil
	}
	if c.IsUniform() {
		return messages.Log(iv.hi - iv.lo), nil // the width may be subnormal
	}
	m, eps := iv.centre()
	sc := math.Sqrt(c.Pi)
	return messages.LogWithinMass(c.Tau/sc-m*sc, eps*sc), nil
}

// truncatedMessage divides the moment-matched marginal of Table 1's last row
// by the cavity c (π = c.Pi, τ = c.Tau, sc = √π): the marginal has
// precision π/(1 − W) and mean μ + V/sc, so the message (equation 6) is
// π·W/(1 − W) and (τ·W + sc·V)/(1 − W), neither subtracting nearly equal
// numbers.
func truncatedMessage(c messages.Gaussian, sc float64, tr messages.Truncation) (messages.Gaussian, error) {
	if !(tr.OneMinusW > 0) {
		// A degenerate interval (a point, lo = hi), or a half-line's
		// bound so far out (about 1e154 σ) that 1 − W underflows: the
		// marginal collapses onto the point the truncation leaves.
		return messages.PointMass((c.Tau + sc*tr.V) / c.Pi), nil
	}
	r := 1 / tr.OneMinusW // one division for both parameters
	return messages.Gaussian{Pi: c.Pi * tr.W * r, Tau: (c.Tau*tr.W + sc*tr.V) * r}, nil
}
