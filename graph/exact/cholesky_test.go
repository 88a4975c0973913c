package exact

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// The factor and its selected inverse against a dense inverse, on random
// sparse matrices: rows of two to four variables, some touching a few
// variables shared by many rows (dense, ordered last) and a chain; every
// entry of Σ in L's pattern, the solve and the log determinant.
func TestSelectedInverse(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, k := range []int{1, 2, 7, 60, 300} {
		var rows []form
		for i := range k {
			rows = append(rows, form{idx: []int{i}, coef: []float64{1}, variance: 1 + rng.Float64()})
			if i > 0 {
				rows = append(rows, form{idx: []int{i, i - 1}, coef: []float64{1, -1}, variance: 0.5})
			}
		}
		for range 2 * k {
			n := 2 + rng.IntN(3)
			perm := rng.Perm(k)[:min(n, k)]
			if rng.IntN(2) == 0 && k > 3 {
				perm[0] = rng.IntN(3) // the shared ones
			}
			r := form{idx: perm, variance: 0.1 + rng.Float64()}
			for range perm {
				r.coef = append(r.coef, rng.NormFloat64())
			}
			if !slices.Contains(perm[1:], perm[0]) {
				rows = append(rows, r)
			}
		}
		cliques := make([][]int, len(rows))
		dense := mat.NewSymDense(k, nil)
		for q, r := range rows {
			cliques[q] = r.idx
			for a, i := range r.idx {
				for b, j := range r.idx {
					if i <= j {
						dense.SetSym(i, j, dense.At(i, j)+r.coef[a]*r.coef[b]/r.variance)
					}
				}
			}
		}
		c := analyse(k, cliques)
		if k >= 300 && (c.pos[0] < k-3 || c.pos[1] < k-3 || c.pos[2] < k-3) {
			t.Errorf("k = %d: the shared variables are not ordered last as dense: %v", k, c.pos[:3])
		}
		c.clear()
		for _, r := range rows {
			c.add(r.idx, r.coef, 1/r.variance)
		}
		if i, _ := c.factor(); i >= 0 {
			t.Fatalf("k = %d: not positive definite at %d", k, i)
		}
		c.inverse()
		var ch mat.Cholesky
		if !ch.Factorize(dense) {
			t.Fatal("dense: not positive definite")
		}
		inv := mat.NewSymDense(k, nil)
		if err := ch.InverseTo(inv); err != nil {
			t.Fatal(err)
		}
		at := make([]int, k) // by position: the variable
		for v, p := range c.pos {
			at[p] = v
		}
		worst := 0.0
		for j := range k {
			worst = max(worst, math.Abs(c.sdiag[j]-inv.At(at[j], at[j])))
			for q := c.start[j]; q < c.start[j+1]; q++ {
				worst = max(worst, math.Abs(c.sval[q]-inv.At(at[c.row[q]], at[j])))
			}
		}
		for _, r := range rows {
			for _, i := range r.idx {
				for _, j := range r.idx {
					worst = max(worst, math.Abs(c.covariance(i, j)-inv.At(i, j)))
				}
			}
		}
		if worst > 1e-10 {
			t.Errorf("k = %d: selected inverse off the dense one by %g", k, worst)
		}
		if d := math.Abs(c.logDet() - ch.LogDet()); d > 1e-9 {
			t.Errorf("k = %d: log det off by %g", k, d)
		}
		h := make([]float64, k)
		for i := range h {
			h[i] = rng.NormFloat64()
		}
		x := c.solve(h)
		for i := range k {
			want := 0.0
			for j := range k {
				want += inv.At(i, j) * h[j]
			}
			if math.Abs(x[i]-want) > 1e-9*(1+math.Abs(want)) {
				t.Errorf("k = %d: solve %d: %v, want %v", k, i, x[i], want)
				break
			}
		}
	}
}
