package factors

import (
	"fmt"
	"strings"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
)

// LinearGaussian is the observation of a value y with Gaussian noise around
// a linear combination of latent variables, y ~ N(Σⱼ aⱼxⱼ + c, v), as a
// factor on x₀ … x_{n−1} (edge j is xⱼ): a score as the sum of an attack, a
// defence and a home advantage, a margin of victory around a skill
// difference. Its density in x is N(y; aᵀx + c, v). The message to x_i
// solves the observation for x_i over the other cavities (μⱼ, σⱼ²):
//
//	a_i·x_i ~ N(y − c − Σ_{j≠i} aⱼμⱼ,  v + Σ_{j≠i} aⱼ²σⱼ²),
//
// so π = a_i²/V and τ = a_i·r/V with r the mean and V the variance above
// (Table 1's row 4 with the noise v added, as row 2 adds c²). A zero
// coefficient sends the uniform message; a uniform cavity among the others
// makes the message uniform.
type LinearGaussian struct {
	Coefficients []float64 // a
	Offset       float64   // c
	Value        float64   // y, the observation
	Variance     float64   // v, the noise variance
}

// NewLinearGaussian returns the factor N(value; aᵀx + offset, variance).
func NewLinearGaussian(a []float64, offset, value, variance float64) *LinearGaussian {
	return &LinearGaussian{Coefficients: a, Offset: offset, Value: value, Variance: variance}
}

// Arity is len(Coefficients).
func (l *LinearGaussian) Arity() int { return len(l.Coefficients) }

// Validate reports an empty or non-finite coefficient vector, a non-finite
// offset or value and a variance that is not positive and finite.
func (l *LinearGaussian) Validate() error {
	if len(l.Coefficients) == 0 {
		return fmt.Errorf("%w: linear-Gaussian observation of no variables", ErrParameter)
	}
	for j, a := range l.Coefficients {
		if !messages.IsFinite(a) {
			return fmt.Errorf("%w: coefficient %d = %v, want a finite number", ErrParameter, j, a)
		}
	}
	if err := checkFinite("offset c", l.Offset); err != nil {
		return err
	}
	if err := checkFinite("observed value y", l.Value); err != nil {
		return err
	}
	return checkVariance("noise variance v", l.Variance)
}

// Message returns the message on edge i; an edge the factor lacks is
// graph.ErrNoFactor.
func (l *LinearGaussian) Message(i int, e graph.Edges) (messages.Gaussian, error) {
	if err := l.Validate(); err != nil {
		return messages.Gaussian{}, err
	}
	if i < 0 || i >= len(l.Coefficients) {
		return messages.Gaussian{}, edgeError(i, l.Arity())
	}
	ai := l.Coefficients[i]
	if ai == 0 {
		return messages.Gaussian{}, nil
	}
	mean, variance, uniform, err := combine(e, len(l.Coefficients), i, func(j int) float64 { return l.Coefficients[j] })
	if err != nil || uniform {
		return messages.Gaussian{}, err
	}
	r, v := l.Value-l.Offset-mean, l.Variance+variance
	return messages.Gaussian{Pi: ai * ai / v, Tau: ai * r / v}, nil
}

// LogAverageFactor returns log ∫ N(y; aᵀx + c, v) ∏ĉⱼ(xⱼ) dx = log N(y;
// aᵀμ + c, v + Σ aⱼ²σⱼ²). With one uniform cavity (of a non-zero
// coefficient) integrating that variable out leaves 1/|aⱼ|; with more,
// ErrDiverges.
func (l *LinearGaussian) LogAverageFactor(e graph.Edges) (float64, error) {
	t, _, err := l.LogAverageFactorTerm(e)
	if err != nil {
		return 0, err
	}
	return t.Value(), nil
}

// LogAverageFactorTerm returns LogAverageFactor as a graph.LogTerm (always
// of that form: the noise keeps the variance positive).
func (l *LinearGaussian) LogAverageFactorTerm(e graph.Edges) (graph.LogTerm, bool, error) {
	if err := l.Validate(); err != nil {
		return graph.LogTerm{}, false, err
	}
	d, v, uniform := l.Value-l.Offset, l.Variance, -1
	for j, a := range l.Coefficients {
		if a == 0 {
			continue
		}
		c := e.Cavity(j)
		if c.IsUniform() {
			if uniform >= 0 {
				return graph.LogTerm{}, false, ErrDiverges
			}
			uniform = j
			continue
		}
		if err := checkCavity(c); err != nil {
			return graph.LogTerm{}, false, fmt.Errorf("edge %d: %w", j, err)
		}
		d -= a * c.Mean()
		v += a * a * c.Variance()
	}
	if uniform >= 0 {
		a := l.Coefficients[uniform]
		return graph.LogTerm{Var: a * a}, true, nil // −log|a| = −½·log a²
	}
	t, ok := densityTerm(d, v)
	if !ok {
		return graph.LogTerm{}, false, fmt.Errorf("%w: predictive variance %v", ErrParameter, v)
	}
	return t, true, nil
}

// LinearForm returns a, y − c and v: the density N(aᵀx; y − c, v).
func (l *LinearGaussian) LinearForm() (a []float64, mean, variance float64) {
	return l.Coefficients, l.Value - l.Offset, l.Variance
}

// Label returns "N(y; a₁·x₁ + … + c, v)".
func (l *LinearGaussian) Label(vars []string) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "N(%.4g; ", l.Value)
	writeLinear(&sb, l.Coefficients, vars)
	if l.Offset != 0 {
		fmt.Fprintf(&sb, " %+.4g", l.Offset)
	}
	fmt.Fprintf(&sb, ", %.4g)", l.Variance)
	return sb.String()
}
