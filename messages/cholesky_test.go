package messages_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/skillgraph/skillgraph/messages"
)

// TestCholeskyLower: L·Lᵀ rebuilds random positive-definite matrices
// (B·Bᵀ plus a ridge) to rounding, with L lower triangular; a singular
// matrix reports it and keeps the columns it could factor.
func TestCholeskyLower(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		k := 1 + trial%5
		b := make([]float64, k*k)
		for i := range b {
			b[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(7)-3))
		}
		a := make([]float64, k*k)
		for i := range k {
			for j := range k {
				for p := range k {
					a[i*k+j] += b[i*k+p] * b[j*k+p]
				}
			}
			a[i*k+i] += 1e-3 * (1 + a[i*k+i])
		}
		l, ok := messages.CholeskyLower(a, k)
		if !ok {
			t.Fatalf("k=%d: a positive-definite matrix reported singular", k)
		}
		for i := range k {
			for j := range k {
				if j > i && l[i*k+j] != 0 {
					t.Fatalf("k=%d: L[%d][%d] = %v above the diagonal", k, i, j, l[i*k+j])
				}
				var v float64
				for p := range k {
					v += l[i*k+p] * l[j*k+p]
				}
				scale := math.Sqrt(a[i*k+i] * a[j*k+j])
				if math.Abs(v-a[i*k+j]) > 1e-12*scale {
					t.Fatalf("k=%d: (LLᵀ)[%d][%d] = %v, want %v", k, i, j, v, a[i*k+j])
				}
			}
		}
	}
	// [[4, 2], [2, 1]] is singular: the first column is (2, 1), the second
	// pivot is 0 and its column stays zero.
	l, ok := messages.CholeskyLower([]float64{4, 2, 2, 1}, 2)
	if ok || l[0] != 2 || l[2] != 1 || l[3] != 0 {
		t.Errorf("singular: L = %v, positive %v; want [2 0 1 0], false", l, ok)
	}
}
