package factors

import (
	"fmt"
	"slices"
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
//
// The coefficients are the factor's own copy, fixed in number (its arity)
// and changed only through SetCoefficients, as WeightedSum's; the scalar
// parameters are validated by Build, as every factor's are (see the
// package documentation).
type LinearGaussian struct {
	a        []float64
	Offset   float64 // c
	Value    float64 // y, the observation
	Variance float64 // v, the noise variance
}

// NewLinearGaussian returns the factor N(value; aᵀx + offset, variance),
// with a copy of a.
func NewLinearGaussian(a []float64, offset, value, variance float64) *LinearGaussian {
	return &LinearGaussian{a: slices.Clone(a), Offset: offset, Value: value, Variance: variance}
}

// Coefficients returns a copy of the coefficients a.
func (l *LinearGaussian) Coefficients() []float64 { return slices.Clone(l.a) }

// Coefficient returns aⱼ (0 for a j the factor lacks).
func (l *LinearGaussian) Coefficient(j int) float64 { return coefficientOf(l.a, j) }

// SetCoefficients replaces the coefficients by a: as many as before, each
// finite; otherwise it returns an error wrapping messages.ErrInput and
// leaves them unchanged.
func (l *LinearGaussian) SetCoefficients(a ...float64) error {
	return setCoefficients(l.a, a, "a linear-Gaussian observation")
}

// Arity is the number of coefficients.
func (l *LinearGaussian) Arity() int { return len(l.a) }

// Validate reports an empty or non-finite coefficient vector, a non-finite
// offset or value (or difference of the two) and a variance that is not
// positive and finite.
func (l *LinearGaussian) Validate() error {
	if len(l.a) == 0 {
		return fmt.Errorf("linear-Gaussian observation of no variables: %w", messages.ErrInput)
	}
	if err := checkCoefficients(l.a); err != nil {
		return err
	}
	if err := checkFinite("offset c", l.Offset); err != nil {
		return err
	}
	if err := checkFinite("observed value y", l.Value); err != nil {
		return err
	}
	if err := checkFinite("y − c", l.Value-l.Offset); err != nil {
		return err
	}
	return checkVariance("noise variance v", l.Variance)
}

// Message returns the message on edge i; an edge the factor lacks is
// messages.ErrInput.
func (l *LinearGaussian) Message(i int, e graph.Edges) (messages.Gaussian, error) {
	return checkedMessage(l.message(i, e))
}

func (l *LinearGaussian) message(i int, e graph.Edges) (messages.Gaussian, error) {
	if i < 0 || i >= len(l.a) {
		return messages.Gaussian{}, edgeError(i, l.Arity())
	}
	ai := l.a[i]
	if ai == 0 {
		return messages.Gaussian{}, nil
	}
	mean, variance, uniform, err := combine(e, len(l.a), i, func(j int) float64 { return l.a[j] })
	if err != nil || uniform {
		return messages.Gaussian{}, err
	}
	r, v := l.Value-l.Offset-mean, l.Variance+variance
	// π = a_i·(a_i/V) and τ = r·(a_i/V): a_i² and a_i·r may overflow or
	// underflow where the message does not. A π that overflows is the
	// point mass at the solved mean r/a_i (τ = π·μ would misplace it).
	p := ai / v
	if m := (messages.Gaussian{Pi: p * ai, Tau: p * r}); messages.IsFinite(m.Pi) {
		return m, nil
	}
	return messages.PointMass(r / ai), nil
}

// LogAverageFactor returns log ∫ N(y; aᵀx + c, v) ∏ĉⱼ(xⱼ) dx = log N(y;
// aᵀμ + c, v + Σ aⱼ²σⱼ²). With one uniform cavity (of a non-zero
// coefficient) integrating that variable out leaves 1/|aⱼ|; with more,
// errDiverges.
func (l *LinearGaussian) LogAverageFactor(e graph.Edges) (float64, error) {
	return checkedLog(l.logAverageFactor(e))
}

func (l *LinearGaussian) logAverageFactor(e graph.Edges) (float64, error) {
	t, _, err := l.LogAverageFactorTerm(e)
	if err != nil {
		return 0, err
	}
	return t.Value(), nil
}

// LogAverageFactorTerm returns LogAverageFactor as a graph.LogTerm (always
// of that form: the noise keeps the variance positive).
func (l *LinearGaussian) LogAverageFactorTerm(e graph.Edges) (graph.LogTerm, bool, error) {
	return checkedTerm(l.logAverageFactorTerm(e))
}

func (l *LinearGaussian) logAverageFactorTerm(e graph.Edges) (graph.LogTerm, bool, error) {
	d, v, uniform := l.Value-l.Offset, l.Variance, -1
	for j, a := range l.a {
		if a == 0 {
			continue
		}
		c := e.Cavity(j)
		if c.IsUniform() {
			if uniform >= 0 {
				return graph.LogTerm{}, false, errDiverges
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
		a := l.a[uniform]
		return graph.LogTerm{Var: a * a}, true, nil // −log|a| = −½·log a²
	}
	t, ok := densityTerm(d, v)
	if !ok {
		return graph.LogTerm{}, false, fmt.Errorf("predictive variance %v: %w", v, messages.ErrInput)
	}
	return t, true, nil
}

// LinearForm returns a, y − c and v: the density N(aᵀx; y − c, v).
func (l *LinearGaussian) LinearForm() (a []float64, mean, variance float64) {
	return slices.Clone(l.a), l.Value - l.Offset, l.Variance
}

// Label returns "N(y; a₁·x₁ + … + c, v)".
func (l *LinearGaussian) Label(vars []string) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "N(%.4g; ", l.Value)
	for j, a := range l.a {
		writeTerm(&sb, j, a, varName(vars, j))
	}
	if l.Offset != 0 {
		fmt.Fprintf(&sb, " %+.4g", l.Offset)
	}
	fmt.Fprintf(&sb, ", %.4g)", l.Variance)
	return sb.String()
}
