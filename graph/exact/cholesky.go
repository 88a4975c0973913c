package exact

import (
	"math"
	"slices"

	"github.com/skillgraph/skillgraph/messages"
	"gonum.org/v1/gonum/blas/blas64"
)

// cholesky is the sparse Cholesky factor L of a symmetric positive definite
// k×k matrix Λ, PΛPᵀ = LLᵀ, with P a minimum-degree elimination order, and
// after inverse the entries of Σ = Λ⁻¹ on the pattern of L.
//
// The pattern (analyse) depends only on which variables the rows couple;
// the values are assembled (clear, add) and factorised (factor) again for
// each new set of row weights, as expectation propagation does every sweep.
type cholesky struct {
	k    int
	pos  []int     // by variable: its row and column in PΛPᵀ
	diag []float64 // Λ_jj, then L_jj after factor
	// Column j's entries below the diagonal: rows row[start[j]:start[j+1]],
	// ascending, values val[start[j]:start[j+1]] (Λ's, then L's).
	start []int
	row   []int
	val   []float64
	// Σ = Λ⁻¹ after inverse, in the places of diag and val.
	sdiag, sval []float64
	// Scratch of factor and inverse, length k.
	work  []float64
	where []int
}

// analyse orders the k variables coupled by the given cliques (each the
// variables of one row of Λ, or a set whose covariances will be asked for)
// and returns the pattern of L, with every value zero.
//
// The order is minimum degree, computed on the quotient graph (George &
// Liu, "The evolution of the minimum degree ordering algorithm", SIAM
// Review 31, 1989): a clique is an element, the set of variables it
// joins, and eliminating variable p merges the elements that hold p into
// one new element L_p, the pattern of column p of L; the variables of
// L_p lose the merged elements and gain the new one. Memory stays within
// the size of the cliques plus the pattern of L, however dense the filled
// graph. A variable's degree is the approximate one of AMD (Amestoy,
// Davis & Duff, SIAM J. Matrix Anal. Appl. 17, 1996, eq. 4.1 without the
// supervariables): |L_p \ u| + Σ_e |L_e \ L_p| over u's other elements,
// an upper bound on the true degree that is exact when u's elements do
// not overlap outside L_p. An element held entirely in L_p is absorbed.
//
// As in AMD, a dense variable, one whose degree exceeds max(16, 10√k) at
// the start (a home advantage shared by every match), is ordered last:
// kept in the quotient graph it would be in every L_p, and its list of
// elements walked at nearly every step. Each element instead carries the
// dense variables it touches, and the pattern of column p is L_p and the
// dense variables of the elements merged into it.
func analyse(k int, cliques [][]int) *cholesky {
	c := &cholesky{
		k:     k,
		pos:   make([]int, k),
		diag:  make([]float64, k),
		start: make([]int, k+1),
		work:  make([]float64, k),
		where: make([]int, k),
	}
	q := newQuotient(k, cliques)
	var pattern []int // the columns' rows, by variable until all are placed
	sparse := k - len(q.denseVars)
	for j := range sparse {
		p := q.next()
		c.pos[p] = j
		from := len(pattern)
		var pd []int
		pattern, pd = q.eliminate(p, j+1, pattern)
		pd = q.update(p, pattern[from:len(pattern):len(pattern)], pd, j+1, sparse-j-1)
		pattern = append(pattern, pd...)
		c.start[j+1] = len(pattern)
	}
	// The dense variables last, each column holding all those after it.
	for t, u := range q.denseVars {
		j := sparse + t
		c.pos[u] = j
		pattern = append(pattern, q.denseVars[t+1:]...)
		c.start[j+1] = len(pattern)
	}
	for r, u := range pattern {
		pattern[r] = c.pos[u]
	}
	for j := range k {
		slices.Sort(pattern[c.start[j]:c.start[j+1]])
	}
	c.row, c.val = pattern, make([]float64, len(pattern))
	return c
}

// quotient is the quotient graph of analyse's minimum-degree ordering.
// Elements 0 … m−1 are the cliques, m+p the one made by eliminating p.
type quotient struct {
	m         int
	dense     []bool // by variable: ordered last (see analyse)
	denseVars []int
	elemVars  [][]int // each element's sparse variables
	elemDense [][]int // each element's dense variables
	varElems  [][]int // each variable's elements
	alive     []bool  // by element
	degree    []int   // by variable: its approximate degree, −1 once eliminated
	queue     minHeap // degree<<32 | variable, stale entries skipped
	// mark holds the stamp of the elimination that put a variable in L_p;
	// w[e] = |L_e \ L_p| for the elements met in that elimination, valid
	// where wStamp[e] is its stamp.
	mark, wStamp, w []int
}

// newQuotient sets out the cliques as elements, with the dense variables
// (degree above max(16, 10√k)) apart, and every sparse variable's degree
// in the queue.
func newQuotient(k int, cliques [][]int) *quotient {
	m := len(cliques)
	q := &quotient{
		m:         m,
		dense:     make([]bool, k),
		elemVars:  make([][]int, m+k),
		elemDense: make([][]int, m+k),
		varElems:  make([][]int, k),
		alive:     make([]bool, m+k),
		degree:    make([]int, k),
		queue:     make(minHeap, 0, k),
		mark:      make([]int, k),
		wStamp:    make([]int, m+k),
		w:         make([]int, m+k),
	}
	for _, cl := range cliques {
		for _, u := range cl {
			q.degree[u] += len(cl) - 1
		}
	}
	limit := max(16, int(10*math.Sqrt(float64(k))))
	for u := range k {
		if q.degree[u] > limit {
			q.dense[u] = true
			q.denseVars = append(q.denseVars, u)
		}
	}
	for e, cl := range cliques {
		if len(q.denseVars) > 0 {
			var sparse []int
			for _, u := range cl {
				if q.dense[u] {
					q.elemDense[e] = append(q.elemDense[e], u)
				} else {
					sparse = append(sparse, u)
				}
			}
			cl = sparse
		}
		if len(cl) < 1 || len(cl) < 2 && q.elemDense[e] == nil {
			continue
		}
		q.elemVars[e], q.alive[e] = cl, true
		for _, u := range cl {
			q.varElems[u] = append(q.varElems[u], e)
		}
	}
	for u := range k {
		if q.dense[u] {
			continue
		}
		d := 0
		for _, e := range q.varElems[u] {
			d += len(q.elemVars[e]) - 1
		}
		q.degree[u] = min(d, k-1)
		q.queue.push(uint64(q.degree[u])<<32 | uint64(u))
	}
	return q
}

// next pops the variable of least degree, skipping stale entries.
func (q *quotient) next() int {
	for {
		key := q.queue.pop()
		if u := int(key & (1<<32 - 1)); q.degree[u] == int(key>>32) {
			return u
		}
	}
}

// absorb retires element e, adding its dense variables not yet marked
// with stamp to pd.
func (q *quotient) absorb(e, stamp int, pd []int) []int {
	for _, u := range q.elemDense[e] {
		if q.mark[u] != stamp {
			q.mark[u] = stamp
			pd = append(pd, u)
		}
	}
	q.alive[e], q.elemVars[e], q.elemDense[e] = false, nil, nil
	return pd
}

// eliminate merges the live elements of p into L_p, whose variables it
// appends to pattern, and returns the dense variables of the merged
// elements.
func (q *quotient) eliminate(p, stamp int, pattern []int) ([]int, []int) {
	q.mark[p] = stamp
	var pd []int
	for _, e := range q.varElems[p] {
		if !q.alive[e] {
			continue
		}
		for _, u := range q.elemVars[e] {
			if q.mark[u] != stamp {
				q.mark[u] = stamp
				pattern = append(pattern, u)
			}
		}
		pd = q.absorb(e, stamp, pd)
	}
	return pattern, pd
}

// update makes L_p (variables lp, dense variables pd) the element m+p:
// each of its variables drops the elements absorbed into it and gets its
// approximate degree |L_p \ u| + Σ_e |L_e \ L_p| (at most left − 1, the
// variables still to order). It returns pd with the dense variables of
// the elements absorbed.
func (q *quotient) update(p int, lp, pd []int, stamp, left int) []int {
	ep := q.m + p
	q.varElems[p], q.degree[p] = nil, -1
	for _, u := range lp {
		for _, e := range q.varElems[u] {
			if !q.alive[e] {
				continue
			}
			if q.wStamp[e] != stamp {
				q.wStamp[e], q.w[e] = stamp, len(q.elemVars[e])
			}
			q.w[e]--
		}
	}
	for _, u := range lp {
		d := len(lp) - 1
		es := q.varElems[u][:0]
		for _, e := range q.varElems[u] {
			if !q.alive[e] {
				continue
			}
			if q.w[e] == 0 { // L_e ⊆ L_p: absorbed
				pd = q.absorb(e, stamp, pd)
				continue
			}
			d += q.w[e]
			es = append(es, e)
		}
		q.varElems[u] = append(es, ep)
		q.degree[u] = min(d, left-1)
		q.queue.push(uint64(q.degree[u])<<32 | uint64(u))
	}
	q.elemVars[ep], q.elemDense[ep], q.alive[ep] = lp, pd, len(lp) > 0
	return pd
}

// clear sets every value of Λ to zero.
func (c *cholesky) clear() {
	clear(c.diag)
	clear(c.val)
}

// add adds w·aaᵀ to Λ, for a = Σ coef[p]·e_idx[p]: the rows of Λ are the
// cliques analyse was given, or within them.
func (c *cholesky) add(idx []int, coef []float64, w float64) {
	for a, i := range idx {
		pi, ci := c.pos[i], w*coef[a]
		for b, j := range idx {
			c.addEntry(pi, c.pos[j], ci*coef[b])
		}
	}
}

// addEntry adds x to Λ's entry in rows and columns pi and pj of the
// elimination order; only the diagonal and one triangle are stored, so
// the entry with pj < pi is the transpose of one added too.
func (c *cholesky) addEntry(pi, pj int, x float64) {
	switch {
	case pj == pi:
		c.diag[pi] += x
	case pj > pi:
		c.val[c.at(pi, pj)] += x
	}
}

// at returns the place in val of row r of column j < r, which must be in
// the pattern.
func (c *cholesky) at(j, r int) int {
	q, _ := slices.BinarySearch(c.row[c.start[j]:c.start[j+1]], r)
	return c.start[j] + q
}

// minPivot is the smallest share of its diagonal entry Λ_jj that a pivot
// may keep once the earlier columns are subtracted from it. Below it the
// subtraction has cancelled more than twelve of float64's sixteen digits,
// and with them whatever the smaller terms of Λ_jj said: a precision of
// 1e18 (a noise of variance 1e-18) beside one of 71 on the same variable
// leaves 71 in the rounding of their sum, and the posterior that comes out
// is a number without meaning (a mean 84 standard deviations off).
const minPivot = 1e-12

// factor overwrites Λ with its factor L; it returns the column, in
// variables' numbering, whose pivot is not positive (Λ is not positive
// definite), or below minPivot of its diagonal entry (tiny: Λ is too
// ill-conditioned for float64 there), or −1.
//
// The factorisation is left-looking (Davis, Direct Methods for Sparse
// Linear Systems, 2006, ch. 4): column j is column j of PΛPᵀ less L_jc
// times column c of L for each earlier column c with L_jc ≠ 0, found from
// linked lists of the columns by the row of their next entry.
func (c *cholesky) factor() (j int, tiny bool) {
	k := c.k
	// next[col] is the entry of column col to use next; head[j] the first
	// column whose next entry is in row j, link[col] the one after col.
	next, head, link := make([]int, k), make([]int, k), make([]int, k)
	for j := range head {
		head[j] = -1
	}
	w := c.work
	for j := range k {
		lo, hi := c.start[j], c.start[j+1]
		for q := lo; q < hi; q++ {
			w[c.row[q]] = c.val[q]
		}
		d := c.diag[j]
		diag := d
		for col := head[j]; col >= 0; {
			after := link[col]
			q, end := next[col], c.start[col+1]
			ljc := c.val[q]
			d -= ljc * ljc
			// Column col's later rows are among column j's: eliminating col
			// joined them to j.
			scatter(-ljc, c.val[q+1:end], c.row[q+1:end], w)
			if q+1 < end {
				next[col] = q + 1
				r := c.row[q+1]
				link[col], head[r] = head[r], col
			}
			col = after
		}
		if !messages.IsPositiveFinite(d) || d < minPivot*diag {
			for q := lo; q < hi; q++ {
				w[c.row[q]] = 0
			}
			return slices.Index(c.pos, j), messages.IsPositiveFinite(d)
		}
		ljj := math.Sqrt(d)
		c.diag[j] = ljj
		for q := lo; q < hi; q++ {
			r := c.row[q]
			c.val[q] = w[r] / ljj
			w[r] = 0
		}
		if lo < hi {
			next[j] = lo
			r := c.row[lo]
			link[j], head[r] = head[r], j
		}
	}
	return -1, false
}

// inverse computes Σ = Λ⁻¹ on the pattern of L by the recursion of
// Takahashi, Fagan & Chin ("Formation of a sparse bus impedance matrix
// and its application to short circuit study", 1973; Erisman & Tinney,
// Comm. ACM 18, 1975, eq. 5). From ΣL = L⁻ᵀ, upper triangular with
// diagonal 1/L_jj, column j of the product gives, with R_j the rows of
// column j of L,
//
//	Σ_ij = −(1/L_jj)·Σ_{r∈R_j} L_rj·Σ_ir   (i ∈ R_j),
//	Σ_jj = 1/L_jj² − (1/L_jj)·Σ_{r∈R_j} L_rj·Σ_rj,
//
// and every Σ_ir on the right, i and r both in R_j, lies in the pattern
// (the pattern of a Cholesky factor is chordal), in a later column, so the
// columns are computed from the last. The cost is that of the
// factorisation: linear on a chain, where a variance walked up the
// elimination tree costs the tree's depth.
func (c *cholesky) inverse() {
	if c.sdiag == nil {
		c.sdiag, c.sval = make([]float64, c.k), make([]float64, len(c.val))
	}
	for i := range c.where {
		c.where[i] = -1
	}
	s := c.work
	for j := c.k - 1; j >= 0; j-- {
		lo, hi := c.start[j], c.start[j+1]
		rows, l := c.row[lo:hi], c.val[lo:hi]
		for t, i := range rows {
			c.where[i] = t
		}
		// s[t] = Σ_{r∈R_j} L_rj·Σ_{rows[t], r}, over the pairs (i, r) of
		// R_j in column min(i, r) of Σ.
		for t, r := range rows {
			s[t] += l[t] * c.sdiag[r]
			for q := c.start[r]; q < c.start[r+1]; q++ {
				if u := c.where[c.row[q]]; u >= 0 {
					s[u] += l[t] * c.sval[q]
					s[t] += l[u] * c.sval[q]
				}
			}
		}
		ljj := c.diag[j]
		sum := 0.0
		for t, i := range rows {
			c.sval[lo+t] = -s[t] / ljj
			sum += l[t] * c.sval[lo+t]
			s[t] = 0
			c.where[i] = -1
		}
		c.sdiag[j] = (1/ljj - sum) / ljj
	}
}

// covariance returns Σ_ij of variables i and j, which must be in one
// clique given to analyse, after inverse.
func (c *cholesky) covariance(i, j int) float64 {
	pi, pj := c.pos[i], c.pos[j]
	if pi == pj {
		return c.sdiag[pi]
	}
	return c.sval[c.at(min(pi, pj), max(pi, pj))]
}

// quadratic returns aᵀΣa for a = Σ coef[p]·e_idx[p], the variables idx
// all in one clique given to analyse, after inverse.
func (c *cholesky) quadratic(idx []int, coef []float64) float64 {
	s := 0.0
	for p, i := range idx {
		s += coef[p] * coef[p] * c.covariance(i, i)
		for q := range p {
			s += 2 * coef[p] * coef[q] * c.covariance(i, idx[q])
		}
	}
	return s
}

// minHeap is a binary heap of keys, the least first.
type minHeap []uint64

func (h *minHeap) push(x uint64) {
	s := append(*h, x)
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if s[p] <= s[i] {
			break
		}
		s[p], s[i] = s[i], s[p]
		i = p
	}
	*h = s
}

func (h *minHeap) pop() uint64 {
	s := *h
	x, n := s[0], len(s)-1
	s[0] = s[n]
	s = s[:n]
	for i := 0; ; {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && s[c+1] < s[c] {
			c++
		}
		if s[i] <= s[c] {
			break
		}
		s[i], s[c] = s[c], s[i]
		i = c
	}
	*h = s
	return x
}

// scatter adds a·x[t] to y[rows[t]] for each t. The rows of a column in
// the dense part of L are consecutive, and there the sum is a vector
// operation.
func scatter(a float64, x []float64, rows []int, y []float64) {
	n := len(rows)
	if n > 1 && rows[n-1]-rows[0] == n-1 {
		blas64.Axpy(a, blas64.Vector{N: n, Inc: 1, Data: x}, blas64.Vector{N: n, Inc: 1, Data: y[rows[0] : rows[0]+n]})
		return
	}
	for t, r := range rows {
		y[r] += a * x[t]
	}
}

// gather returns Σ x[t]·y[rows[t]], a dot product over consecutive rows
// as in scatter.
func gather(x []float64, rows []int, y []float64) float64 {
	n := len(rows)
	if n > 1 && rows[n-1]-rows[0] == n-1 {
		return blas64.Dot(blas64.Vector{N: n, Inc: 1, Data: x}, blas64.Vector{N: n, Inc: 1, Data: y[rows[0] : rows[0]+n]})
	}
	s := 0.0
	for t, r := range rows {
		s += x[t] * y[r]
	}
	return s
}

// solve returns Λ⁻¹h, by the substitutions L·y = Ph and Lᵀ·(Px) = y.
func (c *cholesky) solve(h []float64) []float64 {
	y := make([]float64, len(h))
	for i, hi := range h {
		y[c.pos[i]] = hi
	}
	for j := range y {
		y[j] /= c.diag[j]
		scatter(-y[j], c.val[c.start[j]:c.start[j+1]], c.row[c.start[j]:c.start[j+1]], y)
	}
	for j := len(y) - 1; j >= 0; j-- {
		y[j] = (y[j] - gather(c.val[c.start[j]:c.start[j+1]], c.row[c.start[j]:c.start[j+1]], y)) / c.diag[j]
	}
	x := make([]float64, len(h))
	for i := range x {
		x[i] = y[c.pos[i]]
	}
	return x
}

// logDet returns log det Λ = 2·Σ log L_jj.
func (c *cholesky) logDet() float64 {
	s := 0.0
	for _, d := range c.diag {
		s += math.Log(d)
	}
	return 2 * s
}
