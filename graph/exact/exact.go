package exact

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
)

// ErrNotLinear reports a factor of a graph given to Solve that is not
// linear-Gaussian: EP is the inference for such a graph. It wraps
// messages.ErrInput.
var ErrNotLinear = fmt.Errorf("factor is not linear-Gaussian (Solve needs every factor a graph.LinearForm; EP takes any): %w", messages.ErrInput)

// The other failures of Solve and EP wrap the project's vocabulary
// (messages.ErrInput for a graph whose posterior is not a proper Gaussian
// or whose constraints repeat or contradict each other) and say which
// variable or factor in their message; errImproper marks the first, for
// EP to start its sites from.
var errImproper = errors.New("posterior is improper")

// Solution is a graph's posterior: Solve's, exact, or EP's.
type Solution struct {
	// Marginals holds each variable's posterior, by graph.VarID; an
	// observed variable's is its point mass.
	Marginals []messages.Gaussian
	// LogEvidence is log ∫ ∏ f(x) dx over the latent variables, each factor
	// normalised as its graph.LinearForm says: the quantity
	// graph.Graph.LogEvidence approximates. EP's is its estimate (see EP).
	LogEvidence float64
	// EvidenceErr is nil when LogEvidence holds the evidence, and otherwise
	// says why EP could not compute it (a factor without graph.Evidence,
	// or whose evidence failed, or terms whose rounding exceeds 1e-6 of
	// their sum, as means 1e5 standard deviations from 0 make them);
	// Solve's is always nil.
	EvidenceErr error
	// Sweeps is the number of times EP refined its sites (0 from Solve).
	Sweeps int
	// Converged reports that EP's marginals stopped moving within its
	// tolerance before its cap; Solve's answer is always Converged.
	Converged bool
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
// means Λ⁻¹h and log det Λ, and its selected inverse the variances.
func Solve(g *graph.Graph) (*Solution, error) {
	s, err := newSystem(g, false)
	if err != nil {
		return nil, err
	}
	var z []float64
	if s.k > 0 {
		s.chol.clear()
		s.addLinear()
		if z, err = s.posterior(); err != nil {
			return nil, err
		}
	}
	sol, err := s.solution(z)
	if err != nil {
		return nil, err
	}
	if s.k > 0 {
		sol.LogEvidence = s.logEvidence(z) // logZ's rows as residuals
	}
	if !messages.IsFinite(sol.LogEvidence) {
		return nil, fmt.Errorf("exact: graph %q: log evidence %v: %w", g.Name(), sol.LogEvidence, messages.ErrNumerical)
	}
	sol.Converged = true
	return sol, nil
}

// system is a graph's Gaussian part over its free variables z: the soft
// linear factors rewritten in z after the constraints are eliminated, and
// every latent variable as an affine function of z.
type system struct {
	g     *graph.Graph
	index []int // by graph variable: its latent number, or −1 if observed
	k     int   // free variables
	rows  []form
	// logZ is the log of the constant factors: the factors of observed
	// variables only, the constraints' 1/|det C_E| and each soft row's
	// normaliser and its exp(−½m²/v). norm is logZ without the rows'
	// exp(−½m²/v), which Solve's evidence takes as residuals instead, and
	// size the sum of its terms' magnitudes, for EP's check of what its
	// evidence's rounding leaves (see sites.solution).
	logZ, norm, size float64
	// vars holds each latent variable x = mean + Σ coef[p]·z[idx[p]].
	vars []form
	h    []float64
	chol *cholesky
	// nonlinear lists the factors without a linear form, when allowed.
	nonlinear []graph.FactorID
}

// newSystem reads g's linear factors, eliminates the constraints and
// orders the free variables. With nonlinear, factors without a linear
// form are listed rather than refused; each of their latent variables
// then needs its marginal, and with every latent variable's support
// given to the ordering, Σ is known wherever a marginal needs it.
func newSystem(g *graph.Graph, nonlinear bool) (*system, error) {
	if g == nil {
		return nil, fmt.Errorf("exact: %w", messages.ErrInput)
	}
	s := &system{g: g, index: make([]int, g.NumVariables())}
	var degree []int
	for v := range s.index {
		if _, obs := g.Observed(graph.VarID(v)); obs {
			s.index[v] = -1
			continue
		}
		s.index[v] = len(degree)
		degree = append(degree, g.Degree(graph.VarID(v)))
	}
	soft, hard, err := s.linearForms(nonlinear)
	if err != nil {
		return nil, err
	}
	if len(degree) == 0 {
		return s, nil
	}
	el, err := eliminate(hard, degree)
	if err != nil {
		return nil, fmt.Errorf("exact: graph %q: %w", g.Name(), err)
	}
	if el.k == 0 {
		return nil, fmt.Errorf("exact: graph %q: the constraints fix every variable: %w", g.Name(), messages.ErrInput)
	}
	s.k = el.k
	// ∫δ(Cx − d)·g(x) dx = ∫ g(x_E(z), z) dz / |det C_E| (see eliminate).
	s.logZ -= el.logDet
	s.size += math.Abs(el.logDet)
	// The soft factors in z: N(rᵀz; m', v) with r and m' = m − (constant
	// of the substitution), whose product is
	// ∏(2πv)^−½ · exp(−½zᵀΛz + hᵀz − ½Σm'²/v), Λ = Σ rrᵀ/v, h = Σ r·m'/v.
	s.rows = make([]form, 0, len(soft))
	s.h = make([]float64, el.k)
	cliques := make([][]int, 0, len(soft)+len(degree))
	s.norm = s.logZ
	for _, f := range soft {
		r := el.inFree(f)
		s.logZ += logDensity(r.mean, r.variance)
		s.size += math.Abs(logDensity(r.mean, r.variance))
		if len(r.idx) == 0 {
			s.norm += logDensity(r.mean, r.variance)
			continue // the constraints fix this factor's argument
		}
		s.norm += logDensity(0, r.variance)
		s.rows = append(s.rows, r)
		cliques = append(cliques, r.idx)
	}
	unit := []float64{1}
	self := make([]int, len(degree)) // a free variable's expression, z_j alone
	s.vars = make([]form, len(degree))
	for i := range s.vars {
		if j := el.free[i]; j >= 0 {
			self[i] = j
			s.vars[i] = form{idx: self[i : i+1 : i+1], coef: unit}
			continue
		}
		idx, a, c := el.resolve([]int{i}, unit)
		s.vars[i] = form{idx: idx, coef: a, mean: c}
		if len(idx) > 1 {
			cliques = append(cliques, idx)
		}
	}
	// A joint site couples all its variables' free variables.
	for _, f := range s.nonlinear {
		if _, latent, ok := jointOf(g, f, s.index); ok {
			if free := unionFree(s, latent); len(free) > 1 {
				cliques = append(cliques, free)
			}
		}
	}
	s.chol = analyse(el.k, cliques)
	return s, nil
}

// addLinear adds the soft linear factors to Λ and sets h to theirs.
func (s *system) addLinear() {
	clear(s.h)
	for _, r := range s.rows {
		s.chol.add(r.idx, r.coef, 1/r.variance)
		for p, i := range r.idx {
			s.h[i] += r.coef[p] * r.mean / r.variance
		}
	}
}

// posterior factorises the assembled Λ, computes its selected inverse
// and returns the means z = Λ⁻¹h.
func (s *system) posterior() ([]float64, error) {
	if i, tiny := s.chol.factor(); i >= 0 {
		v := slices.IndexFunc(s.vars, func(x form) bool { return len(x.idx) == 1 && x.idx[0] == i && x.coef[0] == 1 })
		if tiny {
			// Singular, or so ill-conditioned that float64 cannot tell.
			return nil, fmt.Errorf("exact: graph %q: %w: the precision at %s keeps less than %g of its diagonal once the others are eliminated: singular, or too ill-conditioned for float64 (precisions of one variable 1e10 or more apart): %w (%w)", s.g.Name(), errImproper, s.latentName(v), minPivot, messages.ErrInput, messages.ErrNumerical)
		}
		return nil, fmt.Errorf("exact: graph %q: %w: the precision is not positive definite at %s: %w", s.g.Name(), errImproper, s.latentName(v), messages.ErrInput)
	}
	s.chol.inverse()
	return s.chol.solve(s.h), nil
}

// latentName names latent variable i (found by a scan: for errors only).
func (s *system) latentName(i int) string {
	v := slices.Index(s.index, i)
	if v < 0 {
		return "a variable"
	}
	return fmt.Sprintf("variable %d %s", v, s.g.VariableName(graph.VarID(v)))
}

// logGaussian returns log ∫ exp(−½zᵀΛz + hᵀz) dz = (k/2)·log 2π −
// ½·log det Λ + ½·hᵀΛ⁻¹h, after posterior gave z = Λ⁻¹h, and the sum of
// its terms' magnitudes.
func (s *system) logGaussian(z []float64) (l, size float64) {
	l = 0.5*float64(s.k)*math.Log(2*math.Pi) - 0.5*s.chol.logDet()
	size = math.Abs(l)
	for i, hi := range s.h {
		l += 0.5 * hi * z[i]
		size += math.Abs(0.5 * hi * z[i])
	}
	return l, size
}

// logEvidence returns Solve's log evidence, logZ + logGaussian(z), with
// its quadratic part −½Σm²/v + ½hᵀΛ⁻¹h written as the residuals at the
// posterior mean z = Λ⁻¹h, −½Σ(m − rᵀz)²/v: the two forms are equal
// (expand the residuals and use Λz = h), but the first subtracts numbers
// of size m²/v to find one of size 1, which loses every digit once the
// means are 1e8 standard deviations from 0, and the second is a sum of
// terms ≥ 0, so that the evidence of a graph at means of 1e12 and
// variances of 1 is not 0. EP keeps logGaussian: its h holds the sites
// as well as the rows.
func (s *system) logEvidence(z []float64) float64 {
	l := s.norm + 0.5*float64(s.k)*math.Log(2*math.Pi) - 0.5*s.chol.logDet()
	for _, r := range s.rows {
		res := r.mean
		for p, j := range r.idx {
			res -= r.coef[p] * z[j]
		}
		l -= 0.5 * res * res / r.variance
	}
	return l
}

// marginal returns latent variable i's marginal, from the means z after
// posterior.
func (s *system) marginal(i int, z []float64) (messages.Gaussian, error) {
	x := s.vars[i]
	mean := x.mean
	for p, j := range x.idx {
		mean += x.coef[p] * z[j]
	}
	variance := s.chol.quadratic(x.idx, x.coef)
	m := messages.NewGaussian(mean, variance)
	switch {
	case !messages.IsFinite(variance) || !messages.IsFinite(mean) || variance > 0 && !m.IsFinite():
		return messages.Gaussian{}, fmt.Errorf("exact: graph %q: %s has mean %v, variance %v: %w", s.g.Name(), s.latentName(i), mean, variance, messages.ErrNumerical)
	case !(variance > 0):
		return messages.Gaussian{}, fmt.Errorf("exact: graph %q: the constraints fix %s (variance %v): %w", s.g.Name(), s.latentName(i), variance, messages.ErrInput)
	}
	return m, nil
}

// solution returns the marginals of every variable, for the means z after
// posterior, with LogEvidence logZ alone, the whole evidence only without
// free variables: Solve then takes logEvidence, and EP adds logGaussian.
func (s *system) solution(z []float64) (*Solution, error) {
	g := s.g
	sol := &Solution{Marginals: make([]messages.Gaussian, g.NumVariables()), LogEvidence: s.logZ}
	for v, i := range s.index {
		if i < 0 {
			val, _ := g.Observed(graph.VarID(v))
			sol.Marginals[v] = messages.PointMass(val)
			continue
		}
		m, err := s.marginal(i, z)
		if err != nil {
			return nil, err
		}
		sol.Marginals[v] = m
	}
	return sol, nil
}

// logDensity returns log N(0; m, v) = −½m²/v − ½·log 2πv, for v > 0 up
// to the largest float.
func logDensity(m, v float64) float64 {
	return -0.5*m*m/v - 0.5*(math.Log(2*math.Pi)+math.Log(v))
}

// linearForms reads every factor's linear form over the latent variables,
// the soft factors apart from the constraints, and adds the log density
// of the factors that touch observed variables only to s.logZ. With
// nonlinear, a factor without a linear form is listed in s.nonlinear;
// otherwise it is an error.
func (s *system) linearForms(nonlinear bool) (soft, hard []form, err error) {
	g := s.g
	soft = make([]form, 0, g.NumFactors())
	for fi := 0; fi < g.NumFactors(); fi++ {
		f := graph.FactorID(fi)
		lf, ok := g.Factor(f).(graph.LinearForm)
		if !ok {
			if nonlinear {
				s.nonlinear = append(s.nonlinear, f)
				continue
			}
			return nil, nil, fmt.Errorf("exact: factor %d %s: %w", f, g.FactorLabel(f), ErrNotLinear)
		}
		a, m, v := lf.LinearForm()
		if len(a) != g.Arity(f) || !(v >= 0) {
			return nil, nil, fmt.Errorf("exact: factor %d %s: %w: linear form of %d coefficients, mean %v, variance %v", f, g.FactorLabel(f), ErrNotLinear, len(a), m, v)
		}
		if !messages.IsFinite(v) || !messages.IsFinite(m) || slices.ContainsFunc(a, func(x float64) bool { return !messages.IsFinite(x) }) {
			return nil, nil, fmt.Errorf("exact: factor %d %s: linear form %v, mean %v, variance %v: %w", f, g.FactorLabel(f), a, m, v, messages.ErrNumerical)
		}
		// Move the observed variables into the constant: aᵀx = m becomes
		// Σ aᵢ·x_latent = m − Σ_observed aᵢ·valueᵢ.
		r := form{mean: m, variance: v, factor: f}
		for i, ai := range a {
			w := g.EdgeVariable(f, i)
			if k := s.index[w]; k < 0 {
				val, _ := g.Observed(w)
				r.mean -= ai * val
			} else if ai != 0 {
				r.idx, r.coef = append(r.idx, k), append(r.coef, ai)
			}
		}
		switch {
		case !messages.IsFinite(r.mean):
			return nil, nil, fmt.Errorf("exact: factor %d %s: mean %v after the observed values: %w", f, g.FactorLabel(f), r.mean, messages.ErrNumerical)
		case len(r.idx) == 0 && v > 0:
			s.logZ += logDensity(r.mean, v)
			s.size += math.Abs(logDensity(r.mean, v))
		case len(r.idx) == 0:
			return nil, nil, fmt.Errorf("exact: factor %d %s: a constraint on observed values only: %w", f, g.FactorLabel(f), messages.ErrInput)
		case v > 0:
			soft = append(soft, r)
		default:
			hard = append(hard, r)
		}
	}
	return soft, hard, nil
}
