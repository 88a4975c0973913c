package factors

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
)

// WeightedSum is the deterministic factor I(x = aᵀy) (Table 1, rows 3-4).
// Edge 0 is the sum x, edge j+1 the term y_j. The message to x is
//
//	π_{f→x} = (Σⱼ aⱼ²/π_{yⱼ})⁻¹,  τ_{f→x} = π_{f→x}·Σⱼ aⱼ·τ_{yⱼ}/π_{yⱼ}
//
// over the cavities (π_{yⱼ}, τ_{yⱼ}): the distribution of aᵀy. The message to
// a term y_k uses the paper's rewrite I(x = bᵀy) ⇔ I(y_k = a'ᵀ[y_{−k}, x])
// with a' = (−b_{−k}, 1)/b_k, evaluated by the same formula without building
// a': mean (μ_x − Σ_{j≠k} aⱼμⱼ)/a_k, variance (σ_x² + Σ_{j≠k} aⱼ²σⱼ²)/a_k².
// A zero coefficient sends the uniform message (a partial-play weight of 0
// leaves that player untouched); a uniform cavity among the inputs makes the
// output uniform. Team performance is WeightedSum(1, 1, …) (or the players'
// partial-play weights) and a difference is WeightedSum(1, −1).
//
// The coefficients are the factor's own copy: their number, which is its
// arity, is fixed when it is made, and they change only through
// SetCoefficients, which keeps them finite, so a graph built with the
// factor (whose Build validates it) never sees an invalid one.
type WeightedSum struct {
	a []float64
}

// NewWeightedSum returns the factor x = Σ aⱼ·yⱼ, with a copy of a (checked
// by Validate, which Build calls).
func NewWeightedSum(a ...float64) *WeightedSum { return &WeightedSum{a: slices.Clone(a)} }

// Coefficients returns a copy of the coefficients a.
func (w *WeightedSum) Coefficients() []float64 { return slices.Clone(w.a) }

// Coefficient returns aⱼ (0 for a j the factor lacks).
func (w *WeightedSum) Coefficient(j int) float64 { return coefficientOf(w.a, j) }

// coefficientOf returns a[j], 0 for a j beyond a.
func coefficientOf(a []float64, j int) float64 {
	if uint(j) >= uint(len(a)) {
		return 0
	}
	return a[j]
}

// SetCoefficients replaces the coefficients by a: as many as before (the
// factor's edges are fixed), each finite; otherwise it returns an error wrapping messages.ErrInput
// and leaves them unchanged. It reuses a graph for a new match of the same
// shape with other weights.
func (w *WeightedSum) SetCoefficients(a ...float64) error {
	return setCoefficients(w.a, a, "a weighted sum")
}

// setCoefficients copies a into dst, the coefficients of the factor what,
// if they are as many and each finite.
func setCoefficients(dst, a []float64, what string) error {
	if len(a) != len(dst) {
		return fmt.Errorf("%d coefficients for %s of %d: %w", len(a), what, len(dst), messages.ErrInput)
	}
	if err := checkCoefficients(a); err != nil {
		return err
	}
	copy(dst, a)
	return nil
}

// checkCoefficients reports a coefficient that is not finite.
func checkCoefficients(a []float64) error {
	for j, x := range a {
		if !messages.IsFinite(x) {
			return fmt.Errorf("coefficient %d = %v, want a finite number: %w", j, x, messages.ErrInput)
		}
	}
	return nil
}

// NewEquality returns the factor I(x = y): the weighted sum of one term
// with coefficient 1, whose messages pass each cavity through unchanged
// (Table 1's rows 3-4 with a = (1)). It links two variables that are one
// quantity, e.g. a skill carried to the next time step without drift (a
// Likelihood needs a positive variance).
func NewEquality() *WeightedSum { return NewWeightedSum(1) }

// NewDifference returns the factor x = y₀ − y₁.
func NewDifference() *WeightedSum { return NewWeightedSum(1, -1) }

// Arity is 1 + the number of coefficients.
func (w *WeightedSum) Arity() int { return 1 + len(w.a) }

// Validate reports an empty or non-finite coefficient vector.
func (w *WeightedSum) Validate() error {
	if len(w.a) == 0 {
		return fmt.Errorf("weighted sum without terms: %w", messages.ErrInput)
	}
	return checkCoefficients(w.a)
}

// coefficient returns the weight of edge i in the constraint
// 0 = x − Σ aⱼ yⱼ, written as x = Σ aⱼ yⱼ: 1 for the sum, aⱼ for the terms.
func (w *WeightedSum) coefficient(i int) float64 {
	if i == 0 {
		return 1
	}
	return w.a[i-1]
}

// solvedCoefficient returns the weight of edge k in the constraint solved
// for edge i, y_i = Σ_{k≠i} s_k·y_k / a_i: the sum enters with +1, and a
// term with +a_k when solving for the sum, −a_k when solving for a term.
func (w *WeightedSum) solvedCoefficient(i, k int) float64 {
	if i != 0 && k != 0 {
		return -w.coefficient(k)
	}
	return w.coefficient(k)
}

// Message returns the message on edge i (0: to the sum, j+1: to term j);
// an edge the factor lacks is messages.ErrInput.
func (w *WeightedSum) Message(i int, e graph.Edges) (messages.Gaussian, error) {
	if len(w.a) == 2 { // a difference or a two-player team: the common case first
		if m, ok := w.twoTerms(i, e); ok {
			return finiteMessage(m)
		}
	}
	return checkedMessage(w.message(i, e))
}

func (w *WeightedSum) message(i int, e graph.Edges) (messages.Gaussian, error) {
	if i < 0 || i > len(w.a) {
		return messages.Gaussian{}, edgeError(i, w.Arity())
	}
	ai := w.coefficient(i)
	if ai == 0 {
		return messages.Gaussian{}, nil
	}
	switch len(w.a) {
	case 1:
		// x = a·y: a scaling, π_x = π_y/a², τ_x = τ_y/a (and inversely).
		c := e.Cavity(1 - i)
		if c.Pi > 0 && !math.IsInf(c.Pi, 1) {
			a := w.a[0]
			if a == 1 { // a one-player team without a weight: the identity
				return c, nil
			}
			m := messages.Gaussian{Pi: c.Pi * a * a, Tau: c.Tau * a}
			if i == 0 {
				m = messages.Gaussian{Pi: c.Pi / (a * a), Tau: c.Tau / a}
			}
			if m.Pi > 0 && !math.IsInf(m.Pi, 1) && !math.IsInf(m.Tau, 0) {
				return m, nil
			}
		}
	}
	// Solve the constraint for edge i (solvedCoefficient).
	mean, variance, uniform, err := combine(e, w.Arity(), i, func(k int) float64 { return w.solvedCoefficient(i, k) })
	if err != nil || uniform {
		return messages.Gaussian{}, err
	}
	// variance/a_i/a_i rather than variance/a_i²: a_i² may overflow (or
	// underflow) where the quotient does not.
	return messages.NewGaussian(mean/ai, variance/ai/ai), nil
}

// combine returns the mean Σ sₖμₖ and variance Σ sₖ²σₖ² of a linear
// combination of the cavities of edges k ≠ skip of n with sₖ = s(k) ≠ 0,
// and whether one of those is uniform (then the combination is, and the
// sums are not used); an improper cavity is an error.
func combine(e graph.Edges, n, skip int, s func(k int) float64) (mean, variance float64, uniform bool, err error) {
	for k := range n {
		a := s(k)
		if k == skip || a == 0 {
			continue
		}
		c := e.Cavity(k)
		if c.IsUniform() {
			return 0, 0, true, nil
		}
		if err := checkCavity(c); err != nil {
			return 0, 0, false, fmt.Errorf("edge %d: %w", k, err)
		}
		mean += a * c.Mean()
		variance += a * a * c.Variance()
	}
	return mean, variance, false, nil
}

// twoTerms is Message for a sum of two terms (a difference, a two-player
// team) when both other cavities are proper with finite precision, in
// natural parameters with one division: for y_i = (s₁y₁ + s₂y₂)/a_i,
//
//	π = a_i²·π₁π₂/D,  τ = a_i·(s₁τ₁π₂ + s₂τ₂π₁)/D,  D = s₁²π₂ + s₂²π₁,
//
// the general formula's mean (s₁μ₁ + s₂μ₂)/a_i and variance
// (s₁²/π₁ + s₂²/π₂)/a_i² multiplied out. The products are formed as
// π₁·(π₂/D), never π₁π₂, so they cannot overflow: π₂/D ≤ 1/s₁², which
// needs s₁ ≠ 0 (and s₂ ≠ 0 for π₁/D). It reports false (the general path
// decides) for an edge the factor lacks, a zero coefficient (a_i = 0 sends
// the uniform message, which 0·τ could make NaN here), uniform, point-mass
// or improper cavities, a D whose reciprocal overflows, or a message whose
// precision does.
func (w *WeightedSum) twoTerms(i int, e graph.Edges) (messages.Gaussian, bool) {
	// The other two edges, their solvedCoefficient and a_i, written out.
	a := w.a[:2:2]
	var k1, k2 int
	var s1, s2, ai float64
	switch i {
	case 0: // x = a₀y₀ + a₁y₁
		k1, k2, s1, s2, ai = 1, 2, a[0], a[1], 1
	case 1: // a₀y₀ = x − a₁y₁
		k1, k2, s1, s2, ai = 0, 2, 1, -a[1], a[0]
	case 2: // a₁y₁ = x − a₀y₀
		k1, k2, s1, s2, ai = 0, 1, 1, -a[0], a[1]
	default:
		return messages.Gaussian{}, false
	}
	c1, c2 := e.Cavity(k1), e.Cavity(k2)
	inv := 1 / (s1*s1*c2.Pi + s2*s2*c1.Pi)
	if !(messages.IsPositiveFinite(c1.Pi) && messages.IsPositiveFinite(c2.Pi) && messages.IsPositiveFinite(inv)) || s1 == 0 || s2 == 0 || ai == 0 {
		return messages.Gaussian{}, false
	}
	r1, r2 := c1.Pi*inv, c2.Pi*inv // π₁/D, π₂/D
	m := messages.Gaussian{Pi: ai * ai * c1.Pi * r2, Tau: ai * (s1*c1.Tau*r2 + s2*c2.Tau*r1)}
	// A π that overflows (a large a_i) would make τ = π·μ the location of
	// a point mass; the general path rounds that message to the point mass
	// at the mean instead.
	return m, messages.IsFinite(m.Pi)
}

// LogAverageFactor returns log ∫ I(x = aᵀy) ĉ_x ∏ĉ_{yⱼ} = log N(μ_x; aᵀμ_y,
// σ_x² + Σ aⱼ²σⱼ²). With one uniform cavity, integrating that variable out of
// the constraint leaves 1/|coefficient|; with more, errDiverges.
func (w *WeightedSum) LogAverageFactor(e graph.Edges) (float64, error) {
	return checkedLog(w.logAverageFactor(e))
}

func (w *WeightedSum) logAverageFactor(e graph.Edges) (float64, error) {
	mean, variance, uniform := w.constraintMoments(e)
	t, ok, err := w.term(mean, variance, uniform)
	if err != nil {
		return 0, err
	}
	if ok {
		return t.Value(), nil
	}
	return messages.PointMass(0).LogAverageOf(messages.NewGaussian(mean, variance)), nil
}

// LogAverageFactorTerm returns LogAverageFactor as a graph.LogTerm.
func (w *WeightedSum) LogAverageFactorTerm(e graph.Edges) (graph.LogTerm, bool, error) {
	return checkedTerm(w.logAverageFactorTerm(e))
}

func (w *WeightedSum) logAverageFactorTerm(e graph.Edges) (graph.LogTerm, bool, error) {
	return w.term(w.constraintMoments(e))
}

// term is the evidence term for constraintMoments' results.
func (w *WeightedSum) term(mean, variance float64, uniform int) (graph.LogTerm, bool, error) {
	switch {
	case uniform == -2:
		return graph.LogTerm{}, false, errDiverges
	case uniform >= 0:
		a := w.coefficient(uniform)
		return graph.LogTerm{Var: a * a}, true, nil // −log|a| = −½·log a²
	}
	t, ok := densityTerm(mean, variance) // log N(0; mean, variance)
	return t, ok, nil
}

// constraintMoments returns the mean and variance of x − aᵀy under the
// cavities, the edge of the one uniform cavity with a non-zero coefficient
// (−1 if none, −2 if several).
func (w *WeightedSum) constraintMoments(e graph.Edges) (mean, variance float64, uniform int) {
	uniform = -1
	for k := 0; k < w.Arity(); k++ {
		a := w.coefficient(k)
		c := e.Cavity(k)
		if c.IsUniform() {
			if a == 0 {
				continue
			}
			if uniform != -1 {
				return 0, 0, -2
			}
			uniform = k
			continue
		}
		if k == 0 {
			a = -1 // x − aᵀy = 0
		}
		mean += a * c.Mean()
		variance += a * a * c.Variance()
	}
	return mean, variance, uniform
}

// LinearForm returns a = (1, −Coefficients), mean 0, variance 0: the
// constraint δ(x − bᵀy).
func (w *WeightedSum) LinearForm() (a []float64, mean, variance float64) {
	a = make([]float64, w.Arity())
	a[0] = 1
	for j, b := range w.a {
		a[j+1] = -b
	}
	return a, 0, 0
}

// Label returns "x = a₁·y₁ + …" in short form, e.g. "t1 = p2 + p3" or
// "d1 = t1 − t2".
func (w *WeightedSum) Label(vars []string) string {
	var sb strings.Builder
	sb.WriteString(varName(vars, 0))
	sb.WriteString(" = ")
	for j, a := range w.a {
		writeTerm(&sb, j, a, varName(vars, j+1))
	}
	return sb.String()
}

// writeTerm writes the term j of a linear combination, a·name, in short
// form: the terms of "x − 2·y", "−x + y".
func writeTerm(sb *strings.Builder, j int, a float64, name string) {
	switch {
	case j > 0 && a < 0:
		sb.WriteString(" − ")
	case j > 0:
		sb.WriteString(" + ")
	case a < 0:
		sb.WriteString("−")
	}
	if math.Abs(a) != 1 {
		fmt.Fprintf(sb, "%.4g·", math.Abs(a))
	}
	sb.WriteString(name)
}

// varName returns vars[i], or "?" for a name the caller did not give: a
// label is for people and never fails.
func varName(vars []string, i int) string {
	if uint(i) < uint(len(vars)) {
		return vars[i]
	}
	return "?"
}
