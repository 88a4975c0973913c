package exact

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

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

// Solve returns the exact posterior of g, whose factors must all implement
// graph.LinearForm. The current messages of g are not used or changed.
func Solve(g *graph.Graph) (*Solution, error) {
	if g == nil {
		return nil, errors.New("exact: nil graph")
	}
	// Latent variables, numbered densely.
	index := make([]int, g.NumVariables())
	n := 0
	for v := range index {
		if _, obs := g.Observed(graph.VarID(v)); obs {
			index[v] = -1
			continue
		}
		index[v] = n
		n++
	}
	// The soft factors give the quadratic ½xᵀΛx − hᵀx (plus constants),
	// the hard ones the rows of Cx = d.
	lambda := mat.NewSymDense(max(n, 1), nil)
	h := mat.NewVecDense(max(n, 1), nil)
	var cRows [][]float64
	var d []float64
	logZ := 0.0
	for fi := 0; fi < g.NumFactors(); fi++ {
		f := graph.FactorID(fi)
		lf, ok := g.Factor(f).(graph.LinearForm)
		if !ok {
			return nil, fmt.Errorf("exact: factor %d %s: %w", f, g.FactorLabel(f), ErrNotLinear)
		}
		a, m, v := lf.LinearForm()
		if len(a) != g.Arity(f) || !(v >= 0) || !messages.IsFinite(v) || !messages.IsFinite(m) {
			return nil, fmt.Errorf("exact: factor %d %s: %w: linear form of %d coefficients, mean %v, variance %v", f, g.FactorLabel(f), ErrNotLinear, len(a), m, v)
		}
		// Move the observed variables into the constant: aᵀx = m becomes
		// Σ aᵢ·x_latent = m − Σ_observed aᵢ·valueᵢ; the latent terms are kept
		// sparse (a factor touches few of the n variables).
		var idx []int
		var coef []float64
		for i, ai := range a {
			w := g.EdgeVariable(f, i)
			if k := index[w]; k < 0 {
				val, _ := g.Observed(w)
				m -= ai * val
			} else if ai != 0 {
				idx, coef = append(idx, k), append(coef, ai)
			}
		}
		switch {
		case len(idx) == 0 && v > 0:
			logZ += -0.5*m*m/v - 0.5*math.Log(2*math.Pi*v)
		case len(idx) == 0:
			return nil, fmt.Errorf("exact: factor %d %s: %w: a constraint on observed values only", f, g.FactorLabel(f), ErrDegenerate)
		case v > 0:
			for p, i := range idx {
				h.SetVec(i, h.AtVec(i)+coef[p]*m/v)
				for q, j := range idx {
					if i <= j {
						lambda.SetSym(i, j, lambda.At(i, j)+coef[p]*coef[q]/v)
					}
				}
			}
			logZ += -0.5*m*m/v - 0.5*math.Log(2*math.Pi*v)
		default:
			r := make([]float64, n)
			for p, i := range idx {
				r[i] = coef[p]
			}
			cRows = append(cRows, r)
			d = append(d, m)
		}
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
	// Parametrise the constraint set: x = x0 + N·z with N an orthonormal
	// basis of C's null space and x0 = C⁺d, from C's singular value
	// decomposition; the δ contributes 1/∏sᵢ (∫δ(Cx − d)·g dx =
	// ∫_{Cx=d} g dS / √det(CCᵀ)).
	x0 := mat.NewVecDense(n, nil)
	var null mat.Matrix = eye(n)
	k := n
	if len(cRows) > 0 {
		var err error
		var logDet float64
		if null, k, logDet, err = constraints(cRows, d, x0); err != nil {
			return nil, fmt.Errorf("exact: graph %q: %w", g.Name(), err)
		}
		logZ -= logDet
	}
	if k == 0 {
		return nil, fmt.Errorf("exact: graph %q: %w: the constraints fix every variable", g.Name(), ErrDegenerate)
	}
	// In z: precision NᵀΛN, linear term Nᵀ(h − Λx0).
	var lz mat.Dense
	lz.Mul(null.T(), lambda)
	var lzz mat.Dense
	lzz.Mul(&lz, null)
	lamZ := mat.NewSymDense(k, nil)
	for i := range k {
		for j := i; j < k; j++ {
			lamZ.SetSym(i, j, 0.5*(lzz.At(i, j)+lzz.At(j, i)))
		}
	}
	var lx0, hz mat.VecDense
	lx0.MulVec(lambda, x0)
	var hmx mat.VecDense
	hmx.SubVec(h, &lx0)
	hz.MulVec(null.T(), &hmx)
	var chol mat.Cholesky
	if !chol.Factorize(lamZ) {
		return nil, fmt.Errorf("exact: graph %q: %w", g.Name(), ErrImproper)
	}
	var z mat.VecDense
	if err := chol.SolveVecTo(&z, &hz); err != nil {
		return nil, fmt.Errorf("exact: graph %q: %w: %w", g.Name(), ErrImproper, err)
	}
	var mean mat.VecDense
	mean.MulVec(null, &z)
	mean.AddVec(&mean, x0)
	// The variances: the diagonal of N·(NᵀΛN)⁻¹·Nᵀ.
	var y mat.Dense
	if err := chol.SolveTo(&y, null.T()); err != nil {
		return nil, fmt.Errorf("exact: graph %q: %w: %w", g.Name(), ErrImproper, err)
	}
	for v := range index {
		i := index[v]
		if i < 0 {
			continue
		}
		variance := 0.0
		for j := range k {
			variance += null.At(i, j) * y.At(j, i)
		}
		if !(variance > 0) {
			return nil, fmt.Errorf("exact: graph %q: %w: variable %s has variance %v", g.Name(), ErrDegenerate, g.VariableName(graph.VarID(v)), variance)
		}
		sol.Marginals[v] = messages.NewGaussian(mean.AtVec(i), variance)
	}
	// log Z = constants − ½·log det(NᵀΛN) + (k/2)·log 2π − ½(x0ᵀΛx0 − 2hᵀx0)
	// + ½·h_zᵀ(NᵀΛN)⁻¹h_z.
	logZ += 0.5*float64(k)*math.Log(2*math.Pi) - 0.5*chol.LogDet()
	logZ += -0.5*(mat.Dot(x0, &lx0)-2*mat.Dot(h, x0)) + 0.5*mat.Dot(&hz, &z)
	sol.LogEvidence = logZ
	return sol, nil
}

// eye returns the n×n identity.
func eye(n int) *mat.DiagDense {
	d := make([]float64, n)
	for i := range d {
		d[i] = 1
	}
	return mat.NewDiagDense(n, d)
}

// constraints returns an orthonormal basis of the null space of C (rows
// cRows), its dimension, log ∏sᵢ over C's singular values, and sets x0 to
// the least-norm solution of Cx = d; it fails if the rows are dependent.
func constraints(cRows [][]float64, d []float64, x0 *mat.VecDense) (mat.Matrix, int, float64, error) {
	m, n := len(cRows), len(cRows[0])
	if m >= n {
		return nil, 0, 0, fmt.Errorf("%w: %d constraints on %d variables", ErrDegenerate, m, n)
	}
	c := mat.NewDense(m, n, nil)
	for i, r := range cRows {
		c.SetRow(i, r)
	}
	var svd mat.SVD
	if !svd.Factorize(c, mat.SVDFullV|mat.SVDThinU) {
		return nil, 0, 0, fmt.Errorf("%w: the singular value decomposition failed", ErrDegenerate)
	}
	s := svd.Values(nil)
	var u, v mat.Dense
	svd.UTo(&u)
	svd.VTo(&v)
	logDet := 0.0
	for i, si := range s {
		if !(si > 1e-12*s[0]) {
			return nil, 0, 0, fmt.Errorf("%w: constraint %d depends on the others", ErrDegenerate, i)
		}
		logDet += math.Log(si)
	}
	// x0 = V_m · S⁻¹ · Uᵀd.
	for i := range m {
		ud := 0.0
		for j := range m {
			ud += u.At(j, i) * d[j]
		}
		ud /= s[i]
		for j := range n {
			x0.SetVec(j, x0.AtVec(j)+v.At(j, i)*ud)
		}
	}
	return v.Slice(0, n, m, n), n - m, logDet, nil
}
