package exact

import (
	"errors"
	"fmt"
	"math"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
)

// Errors of Solve.
var (
	// ErrNotLinear reports a factor that is not linear-Gaussian.
	ErrNotLinear = errors.New("factor is not linear-Gaussian")
	// ErrImproper reports a posterior that is not a proper Gaussian: some
	// combination of the variables is constrained by no factor.
	ErrImproper = errors.New("posterior is improper")
	// ErrDegenerate reports constraints (zero-variance factors) that
	// repeat or contradict each other, so that the density is not defined.
	ErrDegenerate = errors.New("constraints are redundant or contradictory")
)

// Solution is the exact posterior of a linear-Gaussian graph.
type Solution struct {
	// Marginals holds each variable's posterior, by graph.VarID; an
	// observed variable's is its point mass.
	Marginals []messages.Gaussian
	// LogEvidence is log ∫ ∏ f(x) dx over the latent variables, each factor
	// normalised as its graph.LinearForm says: the quantity
	// graph.Graph.LogEvidence approximates.
	LogEvidence float64
}

// form is one factor's linear form over the latent variables,
// N(Σ coef[p]·x[idx[p]]; mean, variance), or for variance 0 the constraint
// Σ coef[p]·x[idx[p]] = mean; idx holds latent numbers, without repeats.
type form struct {
	idx            []int
	coef           []float64
	mean, variance float64
	factor         graph.FactorID
}

// Solve returns the exact posterior of g, whose factors must all implement
// graph.LinearForm. The current messages of g are not used or changed.
//
// The constraints are eliminated first: each fixes one variable as an
// affine function of the others (eliminate), which leaves a Gaussian over
// the k free variables z. Each soft factor, rewritten in z, adds its
// rank-one term to the precision Λ and the linear term h of
// exp(−½zᵀΛz + hᵀz); Λ is sparse, and a sparse Cholesky factor gives the
// means Λ⁻¹h, the variances and log det Λ.
func Solve(g *graph.Graph) (*Solution, error) {
	if g == nil {
		return nil, errors.New("exact: nil graph")
	}
	// Latent variables, numbered densely.
	index := make([]int, g.NumVariables())
	var degree []int
	for v := range index {
		if _, obs := g.Observed(graph.VarID(v)); obs {
			index[v] = -1
			continue
		}
		index[v] = len(degree)
		degree = append(degree, g.Degree(graph.VarID(v)))
	}
	n := len(degree)
	soft, hard, logZ, err := linearForms(g, index)
	if err != nil {
		return nil, err
	}
	sol := &Solution{Marginals: make([]messages.Gaussian, g.NumVariables())}
	for v := range index {
		if index[v] < 0 {
			val, _ := g.Observed(graph.VarID(v))
			sol.Marginals[v] = messages.PointMass(val)
		}
	}
	if n == 0 {
		sol.LogEvidence = logZ
		return sol, nil
	}
	el, err := eliminate(hard, degree)
	if err != nil {
		return nil, fmt.Errorf("exact: graph %q: %w", g.Name(), err)
	}
	if el.k == 0 {
		return nil, fmt.Errorf("exact: graph %q: %w: the constraints fix every variable", g.Name(), ErrDegenerate)
	}
	// ∫δ(Cx − d)·g(x) dx = ∫ g(x_E(z), z) dz / |det C_E| (see eliminate).
	logZ -= el.logDet
	// The soft factors in z: N(rᵀz; m', v) with r and m' = m − (constant
	// of the substitution), whose product is
	// ∏(2πv)^−½ · exp(−½zᵀΛz + hᵀz − ½Σm'²/v), Λ = Σ rrᵀ/v, h = Σ r·m'/v.
	rows := make([]form, 0, len(soft))
	h := make([]float64, el.k)
	for _, f := range soft {
		r := el.inFree(f)
		logZ += -0.5*r.mean*r.mean/r.variance - 0.5*math.Log(2*math.Pi*r.variance)
		if len(r.idx) == 0 {
			continue // the constraints fix this factor's argument
		}
		for p, i := range r.idx {
			h[i] += r.coef[p] * r.mean / r.variance
		}
		rows = append(rows, r)
	}
	chol, err := factorize(el.k, rows)
	if err != nil {
		return nil, fmt.Errorf("exact: graph %q: %w", g.Name(), err)
	}
	z := chol.solve(h)
	// ∫ exp(−½zᵀΛz + hᵀz) dz = (2π)^(k/2)·det(Λ)^−½·exp(½hᵀΛ⁻¹h).
	logZ += 0.5*float64(el.k)*math.Log(2*math.Pi) - 0.5*chol.logDet()
	for i, hi := range h {
		logZ += 0.5 * hi * z[i]
	}
	sol.LogEvidence = logZ
	// A free variable's variance is e_iᵀΛ⁻¹e_i, an eliminated one's
	// x = c + aᵀz has aᵀΛ⁻¹a; both are |L⁻¹a|² with Λ = LLᵀ.
	unit := []float64{1}
	for v, i := range index {
		if i < 0 {
			continue
		}
		idx, a, mean := el.resolve([]int{i}, unit)
		for p, j := range idx {
			mean += a[p] * z[j]
		}
		variance := chol.quadratic(idx, a)
		if !(variance > 0) {
			return nil, fmt.Errorf("exact: graph %q: %w: variable %s has variance %v", g.Name(), ErrDegenerate, g.VariableName(graph.VarID(v)), variance)
		}
		sol.Marginals[v] = messages.NewGaussian(mean, variance)
	}
	return sol, nil
}

// linearForms reads every factor's linear form over the latent variables
// (index numbers them, −1 for observed), the soft factors apart from the
// constraints, and returns the log density of the factors that touch
// observed variables only.
func linearForms(g *graph.Graph, index []int) (soft, hard []form, logZ float64, err error) {
	for fi := 0; fi < g.NumFactors(); fi++ {
		f := graph.FactorID(fi)
		lf, ok := g.Factor(f).(graph.LinearForm)
		if !ok {
			return nil, nil, 0, fmt.Errorf("exact: factor %d %s: %w", f, g.FactorLabel(f), ErrNotLinear)
		}
		a, m, v := lf.LinearForm()
		if len(a) != g.Arity(f) || !(v >= 0) || !messages.IsFinite(v) || !messages.IsFinite(m) {
			return nil, nil, 0, fmt.Errorf("exact: factor %d %s: %w: linear form of %d coefficients, mean %v, variance %v", f, g.FactorLabel(f), ErrNotLinear, len(a), m, v)
		}
		// Move the observed variables into the constant: aᵀx = m becomes
		// Σ aᵢ·x_latent = m − Σ_observed aᵢ·valueᵢ.
		r := form{mean: m, variance: v, factor: f}
		for i, ai := range a {
			w := g.EdgeVariable(f, i)
			if k := index[w]; k < 0 {
				val, _ := g.Observed(w)
				r.mean -= ai * val
			} else if ai != 0 {
				r.idx, r.coef = append(r.idx, k), append(r.coef, ai)
			}
		}
		switch {
		case len(r.idx) == 0 && v > 0:
			logZ += -0.5*r.mean*r.mean/v - 0.5*math.Log(2*math.Pi*v)
		case len(r.idx) == 0:
			return nil, nil, 0, fmt.Errorf("exact: factor %d %s: %w: a constraint on observed values only", f, g.FactorLabel(f), ErrDegenerate)
		case v > 0:
			soft = append(soft, r)
		default:
			hard = append(hard, r)
		}
	}
	return soft, hard, logZ, nil
}
