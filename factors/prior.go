package factors

import (
	"fmt"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
)

// Prior is the factor N(x; m, v²) of Table 1, row 1, on one variable: its
// message is the constant N(Mean, Variance), so its update adds 1/v² to the
// marginal's precision and m/v² to its precision-adjusted mean. In TrueSkill
// the skill prior's Variance is σ² + τ² (the dynamics variance added before
// the game). Fields may be changed between runs of a reused graph, to
// values Validate accepts (Build checked the first ones; messages do not).
type Prior struct {
	Mean, Variance float64
}

// NewPrior returns the prior N(x; mean, variance).
func NewPrior(mean, variance float64) *Prior { return &Prior{Mean: mean, Variance: variance} }

// Arity is 1: the edge goes to x.
func (*Prior) Arity() int { return 1 }

// Validate reports a non-finite mean or a variance that is not positive and finite.
func (p *Prior) Validate() error { return checkConstant("mean", p.Mean, "variance", p.Variance) }

// checkConstant validates the mean and variance of a factor whose message
// is the constant N(mean, variance).
func checkConstant(meanName string, mean float64, varianceName string, variance float64) error {
	if err := checkFinite(meanName, mean); err != nil {
		return err
	}
	return checkVariance(varianceName, variance)
}

// Message returns N(Mean, Variance).
func (p *Prior) Message(int, graph.Edges) (messages.Gaussian, error) {
	return finiteMessage(constantMessage(p.Mean, p.Variance))
}

// constantMessage returns N(mean, variance) in natural parameters.
func constantMessage(mean, variance float64) messages.Gaussian {
	inv := 1 / variance // a normal positive variance, by Validate
	return messages.Gaussian{Pi: inv, Tau: mean * inv}
}

// LogAverageFactor returns log ∫ N(x; m, v²)·ĉ(x) dx = log N(m; μ_c, v² + σ_c²).
func (p *Prior) LogAverageFactor(e graph.Edges) (float64, error) {
	return checkedLog(p.logAverageFactor(e))
}

func (p *Prior) logAverageFactor(e graph.Edges) (float64, error) {
	return logAverageConstant(e, p.Mean, p.Variance), nil
}

// LogAverageFactorTerm returns LogAverageFactor as a graph.LogTerm.
func (p *Prior) LogAverageFactorTerm(e graph.Edges) (graph.LogTerm, bool, error) {
	return checkedTerm(p.logAverageFactorTerm(e))
}

func (p *Prior) logAverageFactorTerm(e graph.Edges) (graph.LogTerm, bool, error) {
	t, ok := constantTerm(e, p.Mean, p.Variance)
	return t, ok, nil
}

// constantTerm is the evidence term of a factor whose message is the
// constant N(mean, variance): log N(mean; μ_c, variance + σ_c²), 0 for a
// uniform cavity (∫ N = 1).
func constantTerm(e graph.Edges, mean, variance float64) (graph.LogTerm, bool) {
	c := e.Cavity(0)
	if c.IsUniform() {
		return one, true
	}
	return densityTerm(mean-c.Mean(), variance+c.Variance())
}

// logAverageConstant is constantTerm's value, with its degenerate cases.
func logAverageConstant(e graph.Edges, mean, variance float64) float64 {
	if t, ok := constantTerm(e, mean, variance); ok {
		return t.Value()
	}
	return e.Cavity(0).LogAverageOf(messages.NewGaussian(mean, variance))
}

// LinearForm returns a = (1), Mean and Variance: the density N(x; m, v).
func (p *Prior) LinearForm() (a []float64, mean, variance float64) {
	return []float64{1}, p.Mean, p.Variance
}

// Label returns "N(x; m, v)".
func (p *Prior) Label(vars []string) string {
	return fmt.Sprintf("N(%s; %.4g, %.4g)", varName(vars, 0), p.Mean, p.Variance)
}
