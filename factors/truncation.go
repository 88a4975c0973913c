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
	return checkedMessage(truncate(e.Cavity(0), g.Margin, false))
}

// LogAverageFactor returns log P(x > ε) under the cavity, log Φ((μ − ε)/σ).
func (g *GreaterThan) LogAverageFactor(e graph.Edges) (float64, error) {
	return checkedLog(truncatedMass(e.Cavity(0), g.Margin, false))
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
	return checkedMessage(truncate(e.Cavity(0), w.Margin, true))
}

// LogAverageFactor returns log P(|x| ≤ ε) under the cavity; log 2ε for a
// uniform cavity.
func (w *Within) LogAverageFactor(e graph.Edges) (float64, error) {
	return checkedLog(truncatedMass(e.Cavity(0), w.Margin, true))
}

// Label returns "I(|x| ≤ ε)".
func (w *Within) Label(vars []string) string {
	return fmt.Sprintf("I(|%s| ≤ %.4g)", varName(vars, 0), w.Margin)
}

// The two truncations of Table 1's row 5 differ only in their interval,
// (ε, ∞) for a win (within = false) and [−ε, ε] for a draw, so one
// operator serves both: V and W from messages.GreaterThan or
// messages.Within, the evidence from messages.LogNormCDF or
// messages.LogWithinMass.

// truncate returns the message of the truncation to the cavity c.
func truncate(c messages.Gaussian, eps float64, within bool) (messages.Gaussian, error) {
	switch {
	case c.IsUniform():
		if within { // the moments of the uniform distribution on [−ε, ε]
			return messages.NewGaussian(0, eps*eps/3), nil
		}
		return messages.Gaussian{}, nil // a flat cavity truncated stays improper: no information to send
	case c.IsPointMass():
		if admits(c.Mean(), eps, within) {
			return messages.Gaussian{}, nil
		}
		return messages.Gaussian{}, fmt.Errorf("x = %v outside the truncation to %s: %w", c.Mean(), interval(eps, within), messages.ErrImpossible)
	}
	if err := checkCavity(c); err != nil {
		return messages.Gaussian{}, err
	}
	sc := math.Sqrt(c.Pi)
	var tr messages.Truncation
	if within {
		tr = messages.Within(c.Tau/sc, eps*sc)
	} else {
		tr = messages.GreaterThan(c.Tau/sc, eps*sc)
	}
	return truncatedMessage(c, sc, tr)
}

// truncatedMessage divides the moment-matched marginal of Table 1's last row
// by the cavity c (π = c.Pi, τ = c.Tau, sc = √π).
func truncatedMessage(c messages.Gaussian, sc float64, tr messages.Truncation) (messages.Gaussian, error) {
	if !(tr.OneMinusW > 0) {
		// Only reachable for a degenerate margin (ε = 0 in a draw): the
		// marginal collapses onto the point the truncation leaves.
		return messages.PointMass((c.Tau + sc*tr.V) / c.Pi), nil
	}
	r := 1 / tr.OneMinusW // one division for both parameters
	return messages.Gaussian{Pi: c.Pi * tr.W * r, Tau: (c.Tau*tr.W + sc*tr.V) * r}, nil
}

// truncatedMass returns the log of the cavity c's mass in the truncation's
// interval: log 2ε for a uniform cavity in [−ε, ε], a divergent integral in
// (ε, ∞).
func truncatedMass(c messages.Gaussian, eps float64, within bool) (float64, error) {
	switch {
	case c.IsUniform():
		if within {
			return messages.Log(2 * eps), nil // 2ε may be subnormal
		}
		return 0, errDiverges
	case c.IsPointMass():
		if admits(c.Mean(), eps, within) {
			return 0, nil
		}
		return math.Inf(-1), nil
	}
	sc := math.Sqrt(c.Pi)
	if within {
		return messages.LogWithinMass(c.Tau/sc, eps*sc), nil
	}
	return messages.LogNormCDF(c.Tau/sc - eps*sc), nil
}

// admits reports whether x lies in the truncation's interval.
func admits(x, eps float64, within bool) bool {
	if within {
		return math.Abs(x) <= eps
	}
	return x > eps
}

// interval names the truncation's interval.
func interval(eps float64, within bool) string {
	if within {
		return fmt.Sprintf("[%v, %v]", -eps, eps)
	}
	return fmt.Sprintf("(%v, ∞)", eps)
}
