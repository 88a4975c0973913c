package exact

import (
	"math"
	"math/bits"
	"slices"

	"gonum.org/v1/gonum/blas/blas64"
)

// cholesky is the sparse Cholesky factor L of a symmetric positive definite
// k×k matrix Λ, PΛPᵀ = LLᵀ, with P a minimum-degree elimination order.
type cholesky struct {
	pos  []int     // by variable: its row and column in PΛPᵀ
	diag []float64 // L_jj
	// Column j's entries below the diagonal: rows row[start[j]:start[j+1]],
	// ascending, values val[start[j]:start[j+1]].
	start []int
	row   []int
	val   []float64
	// parent is the elimination tree: parent[j] is the first row below the
	// diagonal of column j, or −1. The rows of column j are all ancestors
	// of j.
	parent []int
	// Scratch of quadratic.
	work  []float64
	mark  []int
	stamp int
	reach []int
}

// factorize returns the Cholesky factor of Λ = Σ_r a_r·a_rᵀ/v_r over k
// variables, a_r the sparse coefficients and v_r the variance of each row
// r; ErrImproper if Λ is not positive definite.
//
// The order is minimum degree on the graph of Λ (variables adjacent where
// a row holds both): eliminating a variable joins all its neighbours, and
// its neighbours at that moment are exactly the rows of its column of L
// (George & Liu, Computer Solution of Large Sparse Positive Definite
// Systems, 1981, ch. 5). The adjacency is kept as k bit sets of k bits:
// joining costs k/64 words a neighbour, so that even a dense Λ orders in
// about k³/64 word operations, for k²/8 bytes.
//
// The numeric factorisation is left-looking (Davis, Direct Methods for
// Sparse Linear Systems, 2006, ch. 4): column j is column j of PΛPᵀ less
// L_jc times column c of L for each earlier column c with L_jc ≠ 0, found
// from linked lists of the columns by the row of their next entry.
func factorize(k int, rows []form) (*cholesky, error) {
	c := &cholesky{
		pos:    make([]int, k),
		diag:   make([]float64, k),
		start:  make([]int, k+1),
		parent: make([]int, k),
		work:   make([]float64, k),
		mark:   make([]int, k),
	}
	words := (k + 63) / 64
	adj := make([]uint64, k*words)
	for _, r := range rows {
		for _, i := range r.idx {
			ai := adj[i*words : (i+1)*words]
			for _, j := range r.idx {
				ai[j/64] |= 1 << (j % 64)
			}
		}
	}
	// The variables by degree, then number: a heap of degree<<32 | v,
	// with an entry pushed at each change of degree and the stale ones
	// skipped.
	degree := make([]int, k)
	queue := make(minHeap, 0, k)
	for i := range k {
		ai := adj[i*words : (i+1)*words]
		ai[i/64] &^= 1 << (i % 64)
		degree[i] = count(ai)
		queue.push(uint64(degree[i])<<32 | uint64(i))
	}
	var pattern []int // the rows of each column, by variable until all are placed
	for j := range k {
		v := -1
		for v < 0 {
			key := queue.pop()
			if i := int(key & (1<<32 - 1)); degree[i] == int(key>>32) {
				v = i
			}
		}
		av := adj[v*words : (v+1)*words]
		from := len(pattern)
		for w, word := range av {
			for ; word != 0; word &= word - 1 {
				pattern = append(pattern, w*64+bits.TrailingZeros64(word))
			}
		}
		for _, u := range pattern[from:] {
			au := adj[u*words : (u+1)*words]
			for w, word := range av {
				au[w] |= word
			}
			au[u/64] &^= 1 << (u % 64)
			au[v/64] &^= 1 << (v % 64)
			degree[u] = count(au)
			queue.push(uint64(degree[u])<<32 | uint64(u))
		}
		degree[v] = -1
		c.pos[v] = j
		c.start[j+1] = len(pattern)
	}
	for q, u := range pattern {
		pattern[q] = c.pos[u]
	}
	for j := range k {
		slices.Sort(pattern[c.start[j]:c.start[j+1]])
	}
	c.row, c.val = pattern, make([]float64, len(pattern))

	// PΛPᵀ's lower triangle, in L's places (which include Λ's).
	for _, r := range rows {
		for a, i := range r.idx {
			pi, ci := c.pos[i], r.coef[a]/r.variance
			for b, j := range r.idx {
				switch pj := c.pos[j]; {
				case pj == pi:
					c.diag[pi] += ci * r.coef[b]
				case pj > pi:
					q, _ := slices.BinarySearch(c.row[c.start[pi]:c.start[pi+1]], pj)
					c.val[c.start[pi]+q] += ci * r.coef[b]
				}
			}
		}
	}

	// next[c] is the entry of column c to use next; head[j] the first
	// column whose next entry is in row j, link[c] the one after c.
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
		if !(d > 0) {
			return nil, ErrImproper
		}
		ljj := math.Sqrt(d)
		c.diag[j] = ljj
		for q := lo; q < hi; q++ {
			r := c.row[q]
			c.val[q] = w[r] / ljj
			w[r] = 0
		}
		c.parent[j] = -1
		if lo < hi {
			next[j] = lo
			r := c.row[lo]
			c.parent[j] = r
			link[j], head[r] = head[r], j
		}
	}
	return c, nil
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

// count returns the number of bits set in s.
func count(s []uint64) int {
	n := 0
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
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

// quadratic returns aᵀΛ⁻¹a = |L⁻¹Pa|² for the sparse a = Σ coef[p]·e_idx[p].
// The solution y of Ly = Pa is non-zero only on the ancestors of a's
// entries in the elimination tree (Gilbert, Predicting structure in sparse
// matrix computations, 1994; Davis, op. cit., ch. 4), which are visited in
// increasing order, each before its parent.
func (c *cholesky) quadratic(idx []int, coef []float64) float64 {
	c.stamp++
	reach := c.reach[:0]
	for p, i := range idx {
		j := c.pos[i]
		c.work[j] += coef[p]
		for ; j >= 0 && c.mark[j] != c.stamp; j = c.parent[j] {
			c.mark[j] = c.stamp
			reach = append(reach, j)
		}
	}
	slices.Sort(reach)
	s := 0.0
	for _, j := range reach {
		y := c.work[j] / c.diag[j]
		c.work[j] = 0
		s += y * y
		scatter(-y, c.val[c.start[j]:c.start[j+1]], c.row[c.start[j]:c.start[j+1]], c.work)
	}
	c.reach = reach
	return s
}
