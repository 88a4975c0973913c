package factors

import (
	"fmt"
	"math"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
)

// The factors report failures in the project's vocabulary (package
// messages): a parameter out of its domain wraps messages.ErrInput, an
// observation a factor rules out messages.ErrImpossible, and an improper
// cavity or a message beyond float64's range messages.ErrNumerical.
var (
	// errDiverges reports an evidence integral that is infinite because
	// too many cavities are uniform: a graph with too few priors.
	errDiverges = fmt.Errorf("evidence integral diverges (too many uniform cavities): %w", messages.ErrInput)
	// errNotMessage reports a message that is not finite
	// (messages.Gaussian.IsMessage); the engine's error names the factor
	// and the edge. It is a value, not formatted, so that the checks that
	// return it inline into every operator.
	errNotMessage = fmt.Errorf("message not finite: %w", messages.ErrNumerical)
	// errImproperCavity reports a cavity with negative precision where the
	// factor needs a proper one to moment-match.
	errImproperCavity = fmt.Errorf("improper cavity: %w", messages.ErrNumerical)
)

// densityTerm returns log N(d; 0, v), the evidence term of every exact
// factor, as a graph.LogTerm (so that LogEvidence can gather its logarithm
// with the others), and false where v is not positive and finite: the
// degenerate cases, which callers evaluate with messages.Gaussian.LogAverageOf.
func densityTerm(d, v float64) (graph.LogTerm, bool) {
	if !(v > 0) || v > math.MaxFloat64 {
		return graph.LogTerm{}, false
	}
	// d·(d/v), not d²/v: d² overflows from |d| = 1e154, where the
	// quotient (1e20 at d = 1e160, v = 1e300) is a number.
	return graph.LogTerm{Quad: -0.5 * d * (d / v), Var: v, Norm: 1}, true
}

// one is the log-evidence term 0 (a factor integrating to 1 against a flat
// cavity).
var one = graph.LogTerm{Var: 1}

// The checks are split so that their fast path inlines into every message
// operator and only a failure pays for formatting.

// checkVariance rejects a variance that is not a normal positive float64
// (messages.IsNormalVariance): below 2⁻¹⁰²² its precision 1/v overflows.
func checkVariance(name string, v float64) error {
	if !messages.IsNormalVariance(v) {
		return parameterError(name, v, "a finite positive number of at least 2⁻¹⁰²²")
	}
	return nil
}

// checkFinite rejects a parameter that is NaN or infinite.
func checkFinite(name string, x float64) error {
	if !messages.IsFinite(x) {
		return parameterError(name, x, "a finite number")
	}
	return nil
}

// parameterError is the error of parameter name = x, which is not want.
func parameterError(name string, x float64, want string) error {
	return fmt.Errorf("%s = %v, want %s: %w", name, x, want, messages.ErrInput)
}

func checkMargin(eps float64) error {
	if !(eps >= 0) || eps > math.MaxFloat64 {
		return marginError(eps)
	}
	return nil
}

func marginError(eps float64) error {
	return fmt.Errorf("margin ε = %v, want a finite number ≥ 0: %w", eps, messages.ErrInput)
}

// edgeError is the error of Message asked for an edge i the factor lacks,
// for the factors that index their parameters by edge (the engine never
// asks: it resolves every step's edge once, when it compiles a schedule).
func edgeError(i, arity int) error {
	return fmt.Errorf("edge %d of a factor with %d edges: %w", i, arity, messages.ErrInput)
}

// checkCavity rejects a cavity with negative precision.
func checkCavity(c messages.Gaussian) error {
	if c.Pi < 0 {
		return cavityError(c)
	}
	return nil
}

func cavityError(c messages.Gaussian) error {
	return fmt.Errorf("(precision %v): %w", c.Pi, messages.ErrNumerical)
}

// checkedMessage passes on a factor's message if the graph would accept
// it (messages.Gaussian.IsMessage) and otherwise returns an error wrapping
// messages.ErrNumerical: every factor's Message returns through it, so
// that a caller of an operator itself (a unit test against Table 1) is
// never handed a NaN, and parameters and cavities that are each in range
// but whose message is not (a prior of mean 1e10 and variance 1e-300,
// whose τ overflows) fail the update by name.
func checkedMessage(m messages.Gaussian, err error) (messages.Gaussian, error) {
	if err == nil && m.IsMessage() {
		return m, nil
	}
	if err == nil {
		err = errNotMessage
	}
	return messages.Gaussian{}, err
}

// finiteMessage is checkedMessage for an operator that reports no error
// of its own.
func finiteMessage(m messages.Gaussian) (messages.Gaussian, error) {
	if m.IsMessage() {
		return m, nil
	}
	return messages.Gaussian{}, errNotMessage
}

// checkedLog passes on a log evidence that is a number, and otherwise the
// error of messages.CheckLogMass: −∞, a zero probability (an observation
// the factor rules out), is messages.ErrImpossible, and NaN or +∞ (a value
// beyond float64's range) messages.ErrNumerical.
func checkedLog(l float64, err error) (float64, error) {
	if err == nil {
		err = messages.CheckLogMass(l)
	}
	if err != nil {
		return 0, err
	}
	return l, nil
}

// checkedTerm is checkedLog for a graph.LogTerm (graph.LogTerm.IsFinite,
// when ok).
func checkedTerm(t graph.LogTerm, ok bool, err error) (graph.LogTerm, bool, error) {
	switch {
	case err != nil:
		return graph.LogTerm{}, false, err
	case !ok || t.IsFinite():
		return t, ok, nil
	}
	return graph.LogTerm{}, false, fmt.Errorf("log evidence term %+v: %w", t, messages.ErrNumerical)
}
