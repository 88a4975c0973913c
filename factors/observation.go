package factors

import (
	"fmt"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
)

// GaussianObservation is the likelihood of a value y observed with Gaussian
// noise around a latent x, N(y; x, c²), as a factor on x alone: Table 1's
// row 2 with y a point mass. Its message N(x; y, c²) is constant, but its
// evidence term differs from a Prior's: it is the predictive density of the
// observation. The score-based models observe scores this way.
type GaussianObservation struct {
	Value, Variance float64
}

// NewGaussianObservation returns the factor N(value; x, variance).
func NewGaussianObservation(value, variance float64) *GaussianObservation {
	return &GaussianObservation{Value: value, Variance: variance}
}

// Arity is 1: the edge goes to x.
func (*GaussianObservation) Arity() int { return 1 }

// Validate reports a non-finite value or a variance that is not positive and finite.
func (o *GaussianObservation) Validate() error {
	return checkConstant("observed value", o.Value, "noise variance", o.Variance)
}

// Message returns N(x; y, c²) as a message to x.
func (o *GaussianObservation) Message(int, graph.Edges) (messages.Gaussian, error) {
	return finiteMessage(constantMessage(o.Value, o.Variance))
}

// LogAverageFactor returns the log predictive density of the observation,
// log ∫ N(y; x, c²)·ĉ(x) dx = log N(y; μ_c, c² + σ_c²).
func (o *GaussianObservation) LogAverageFactor(e graph.Edges) (float64, error) {
	return checkedLog(o.logAverageFactor(e))
}

func (o *GaussianObservation) logAverageFactor(e graph.Edges) (float64, error) {
	return logAverageConstant(e, o.Value, o.Variance), nil
}

// LogAverageFactorTerm returns LogAverageFactor as a graph.LogTerm.
func (o *GaussianObservation) LogAverageFactorTerm(e graph.Edges) (graph.LogTerm, bool, error) {
	return checkedTerm(o.logAverageFactorTerm(e))
}

func (o *GaussianObservation) logAverageFactorTerm(e graph.Edges) (graph.LogTerm, bool, error) {
	t, ok := constantTerm(e, o.Value, o.Variance)
	return t, ok, nil
}

// LinearForm returns a = (1), Value and Variance: the density N(y; x, c²)
// as a function of x.
func (o *GaussianObservation) LinearForm() (a []float64, mean, variance float64) {
	return []float64{1}, o.Value, o.Variance
}

// Label returns "N(y; x, c²)".
func (o *GaussianObservation) Label(vars []string) string {
	return fmt.Sprintf("N(%.4g; %s, %.4g)", o.Value, varName(vars, 0), o.Variance)
}
