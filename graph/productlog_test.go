package graph

import (
	"math"
	"testing"
)

// TestProductLog checks the gathered logarithm against the sum of the
// logarithms, over ranges that would overflow or underflow a plain product.
func TestProductLog(t *testing.T) {
	cases := [][]float64{
		{2, 3, 0.25},
		{1e-150, 1e-150, 1e-150, 1e300, 1e-300, 7},
		{1e99, 1e99, 1e99, 1e99, 1e99, 1e99, 1e-99},
		{math.SmallestNonzeroFloat64, math.MaxFloat64, 0.5},
	}
	for _, xs := range cases {
		var pl productLog
		want := 0.0
		for _, x := range xs {
			pl.mul(x)
			want += math.Log(x)
		}
		if got := pl.log(); math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
			t.Errorf("%v: log Π = %v, want %v", xs, got, want)
		}
	}
	var pl productLog
	pl.mul(3)
	pl.mul(0)
	if got := pl.log(); !math.IsInf(got, -1) {
		t.Errorf("log of a product with 0 = %v, want −Inf", got)
	}
}
