package exact

import (
	"fmt"
	"math"

	"github.com/skillgraph/skillgraph/messages"
)

// cancelled is the relative size below which a coefficient summed from
// several contributions counts as zero: rounding leaves a few
// ε·Σ|contributions| (ε ≈ 1.1e-16) where exact arithmetic cancels.
const cancelled = 1e-12

// pivotThreshold bounds the pivots of the elimination: a constraint may
// fix any of its variables whose |coefficient| is at least this fraction of
// the largest. This is threshold pivoting, with the value usual in sparse
// Gaussian elimination (Duff, Erisman & Reid, Direct Methods for Sparse
// Matrices, 1986): a substitution grows the other rows' coefficients by at
// most a factor 1 + 1/pivotThreshold, and the freedom it leaves is used to
// keep the rows short.
const pivotThreshold = 0.1

// elimination is the solution set of the constraints Cx = d: each
// eliminated variable is an affine function of the k free ones.
type elimination struct {
	k      int
	free   []int  // by latent variable: its number among the free ones, or −1
	when   []int  // by latent variable: the step (from 1) that eliminated it, or 0
	expr   []form // by eliminated variable: x = mean + Σ coef[p]·x[idx[p]], x[idx[p]] free
	logDet float64
	sum    *sparseSum
}

// eliminate solves the constraints hard one at a time, for n = len(degree)
// latent variables whose degree in the graph is given. In each constraint
// the variables already eliminated are replaced by their expressions; what
// remains, Σ cⱼxⱼ = d', fixes one of its variables, the pivot q:
// x_q = (d' − Σ_{j≠q} cⱼxⱼ)/c_q. A constraint left with no variable
// repeats or contradicts the others (messages.ErrInput). Back-substitution then
// writes every expression in the free variables alone, so that a soft
// factor is rewritten in them by one substitution of each of its
// eliminated variables.
//
// The substitutions are row operations of determinant 1 on C, after which
// C restricted to the eliminated columns E, in pivot order, is triangular
// with the pivots on its diagonal; so with x_E(x_F) the solution of the
// constraints,
//
//	∫ δ(Cx − d)·g(x) dx = ∫ g(x_E(x_F), x_F) dx_F / |det C_E|,
//	log|det C_E| = Σ log|pivot|,
//
// integrating out x_E first, since δ(Ay) = δ(y)/|det A|.
//
// The pivot is the variable of fewest factors among those allowed by
// pivotThreshold: the factors of the pivot are the ones rewritten over
// all the constraint's other variables. In a skill model that is
// typically the sum itself, which leaves the performances free and their
// precision matrix as sparse as the graph.
func eliminate(hard []form, degree []int) (*elimination, error) {
	n := len(degree)
	el := &elimination{
		free: make([]int, n),
		when: make([]int, n),
		expr: make([]form, n),
		sum:  newSparseSum(n),
	}
	s := el.sum
	order := make([]int, 0, len(hard))
	for _, r := range hard {
		for p, i := range r.idx {
			s.add(i, r.coef[p], math.Abs(r.coef[p]))
		}
		d := r.mean - s.substitute(el.when, el.expr)
		idx, coef := s.take()
		if len(idx) == 0 {
			return nil, fmt.Errorf("the constraint of factor %d follows from the others or contradicts them: %w", r.factor, messages.ErrInput)
		}
		q := pivot(idx, coef, degree)
		e := form{mean: d / coef[q], idx: make([]int, 0, len(idx)-1), coef: make([]float64, 0, len(idx)-1)}
		for t, j := range idx {
			if t != q {
				e.idx, e.coef = append(e.idx, j), append(e.coef, -coef[t]/coef[q])
			}
		}
		u := idx[q]
		el.expr[u] = e
		order = append(order, u)
		el.when[u] = len(order)
		el.logDet += math.Log(math.Abs(coef[q]))
	}
	// An expression holds variables free when it was made; those eliminated
	// since come later in the order, so in reverse order each one's are
	// already in the free variables.
	for t := len(order) - 1; t >= 0; t-- {
		u := order[t]
		e := el.expr[u]
		for p, j := range e.idx {
			s.add(j, e.coef[p], math.Abs(e.coef[p]))
		}
		c := e.mean + s.substitute(el.when, el.expr)
		idx, coef := s.take()
		el.expr[u] = form{idx: idx, coef: coef, mean: c}
	}
	for i := range el.free {
		el.free[i] = -1
		if el.when[i] == 0 {
			el.free[i] = el.k
			el.k++
		}
	}
	return el, nil
}

// pivot returns the term of the constraint Σ coef[t]·x[idx[t]] to fix: of
// those within pivotThreshold of the largest |coefficient|, the variable
// of least degree, then of largest |coefficient|, then the first.
func pivot(idx []int, coef []float64, degree []int) int {
	big := 0.0
	for _, c := range coef {
		big = max(big, math.Abs(c))
	}
	q := -1
	for t, c := range coef {
		a := math.Abs(c)
		if a < pivotThreshold*big {
			continue
		}
		if q < 0 || degree[idx[t]] < degree[idx[q]] || degree[idx[t]] == degree[idx[q]] && a > math.Abs(coef[q]) {
			q = t
		}
	}
	return q
}

// resolve writes Σ coef[p]·x[idx[p]] over latent variables as
// c + Σ a[p]·z[free[p]] over the free ones.
func (el *elimination) resolve(idx []int, coef []float64) (free []int, a []float64, c float64) {
	s := el.sum
	for p, i := range idx {
		s.add(i, coef[p], math.Abs(coef[p]))
	}
	c = s.substitute(el.when, el.expr)
	free, a = s.take()
	for p, i := range free {
		free[p] = el.free[i]
	}
	return free, a, c
}

// inFree returns the soft factor f in the free variables: N(aᵀx; m, v)
// with aᵀx = c + rᵀz is N(rᵀz; m − c, v).
func (el *elimination) inFree(f form) form {
	idx, coef, c := el.resolve(f.idx, f.coef)
	return form{idx: idx, coef: coef, mean: f.mean - c, variance: f.variance, factor: f.factor}
}

// sparseSum accumulates a linear combination Σ coef[i]·x_i of n variables
// in O(1) a term. It keeps for each variable the sum of the absolute
// values of its contributions, the scale of its rounding error, to tell a
// coefficient that cancels from a small one.
type sparseSum struct {
	coef, abs []float64
	in        []bool
	keys      []int // the variables touched, in order of first touch
}

func newSparseSum(n int) *sparseSum {
	return &sparseSum{coef: make([]float64, n), abs: make([]float64, n), in: make([]bool, n)}
}

// add adds c·x_i, a contribution of size a (|c|, or more where c carries
// the rounding of an earlier sum).
func (s *sparseSum) add(i int, c, a float64) {
	if !s.in[i] {
		s.in[i] = true
		s.keys = append(s.keys, i)
	}
	s.coef[i] += c
	s.abs[i] += a
}

// substitute replaces each eliminated variable of the sum (when > 0) by
// its expression and returns the constant this adds. An expression holds
// only variables eliminated later than its own or never, so taking the
// earliest first substitutes each variable once.
func (s *sparseSum) substitute(when []int, expr []form) float64 {
	c := 0.0
	for {
		u := -1
		for _, i := range s.keys {
			if when[i] > 0 && s.coef[i] != 0 && (u < 0 || when[i] < when[u]) {
				u = i
			}
		}
		if u < 0 {
			return c
		}
		cu, au := s.coef[u], s.abs[u]
		s.coef[u] = 0
		if math.Abs(cu) <= cancelled*au {
			continue
		}
		e := expr[u]
		c += cu * e.mean
		for p, j := range e.idx {
			s.add(j, cu*e.coef[p], au*math.Abs(e.coef[p]))
		}
	}
}

// take returns the terms that did not cancel and empties the sum.
func (s *sparseSum) take() (idx []int, coef []float64) {
	for _, i := range s.keys {
		if c := s.coef[i]; math.Abs(c) > cancelled*s.abs[i] {
			idx, coef = append(idx, i), append(coef, c)
		}
		s.coef[i], s.abs[i], s.in[i] = 0, 0, false
	}
	s.keys = s.keys[:0]
	return idx, coef
}
