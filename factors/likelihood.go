package factors

import (
	"fmt"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
)

// Likelihood is the factor N(x; y, c²) between two variables (Table 1,
// row 2), e.g. a performance x around a skill y with c² = β². Edge 0 is x,
// edge 1 is y; by the symmetry N(x; y, c²) = N(y; x, c²) one operator serves
// both directions. The message to x from y's cavity (π_y, τ_y) is
//
//	π_{f→x} = a·π_y,  τ_{f→x} = a·τ_y,  a = 1/(1 + c²·π_y),
//
// i.e. the cavity widened by c². A point-mass cavity at y₀ gives N(y₀, c²).
type Likelihood struct {
	Variance float64 // c²
}

// NewLikelihood returns the factor N(x; y, variance).
func NewLikelihood(variance float64) *Likelihood { return &Likelihood{Variance: variance} }

// Arity is 2: edge 0 is x, edge 1 is y.
func (*Likelihood) Arity() int { return 2 }

// Validate reports a variance that is not positive and finite.
func (l *Likelihood) Validate() error { return checkVariance("variance c²", l.Variance) }

// Message returns the message on edge i (0: to x, 1: to y).
// The common case is written in Message itself, so that a message costs
// one call to the factor.
func (l *Likelihood) Message(i int, e graph.Edges) (messages.Gaussian, error) {
	c := e.Cavity(1 - i)
	if c.IsPointMass() {
		return finiteMessage(messages.NewGaussian(c.Mean(), l.Variance))
	}
	a := 1 / (1 + l.Variance*c.Pi)
	if a == 0 && c.Pi > 0 {
		// c²·π_y overflows: π = 1/(c² + 1/π_y) and τ = μ_y·π, the same
		// message in variances, which stay in range.
		pi := 1 / (l.Variance + 1/c.Pi)
		return finiteMessage(messages.Gaussian{Pi: pi, Tau: c.Mean() * pi})
	}
	return finiteMessage(messages.Gaussian{Pi: a * c.Pi, Tau: a * c.Tau})
}

// LogAverageFactor returns log ∫∫ N(x; y, c²) ĉ_x(x) ĉ_y(y) = log N(μ_x; μ_y,
// σ_x² + σ_y² + c²); 0 if one cavity is uniform, errDiverges if both are.
func (l *Likelihood) LogAverageFactor(e graph.Edges) (float64, error) {
	return checkedLog(l.logAverageFactor(e))
}

func (l *Likelihood) logAverageFactor(e graph.Edges) (float64, error) {
	cx, cy := e.Cavity(0), e.Cavity(1)
	t, ok, err := l.term(cx, cy)
	if err != nil {
		return 0, err
	}
	if ok {
		return t.Value(), nil
	}
	return cx.LogAverageOf(messages.NewGaussian(cy.Mean(), cy.Variance()+l.Variance)), nil
}

// LogAverageFactorTerm returns LogAverageFactor as a graph.LogTerm.
func (l *Likelihood) LogAverageFactorTerm(e graph.Edges) (graph.LogTerm, bool, error) {
	return checkedTerm(l.logAverageFactorTerm(e))
}

func (l *Likelihood) logAverageFactorTerm(e graph.Edges) (graph.LogTerm, bool, error) {
	return l.term(e.Cavity(0), e.Cavity(1))
}

// term is the evidence term for the cavities cx and cy.
func (l *Likelihood) term(cx, cy messages.Gaussian) (graph.LogTerm, bool, error) {
	switch {
	case cx.IsUniform() && cy.IsUniform():
		return graph.LogTerm{}, false, errDiverges
	case cx.IsUniform() || cy.IsUniform():
		return one, true, nil
	}
	t, ok := densityTerm(cx.Mean()-cy.Mean(), cx.Variance()+cy.Variance()+l.Variance)
	return t, ok, nil
}

// LinearForm returns a = (1, −1), mean 0 and c²: the density N(x − y; 0, c²).
func (l *Likelihood) LinearForm() (a []float64, mean, variance float64) {
	return []float64{1, -1}, 0, l.Variance
}

// Label returns "N(x; y, c²)".
func (l *Likelihood) Label(vars []string) string {
	return fmt.Sprintf("N(%s; %s, %.4g)", varName(vars, 0), varName(vars, 1), l.Variance)
}
