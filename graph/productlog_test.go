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
		{1e-310, 1e-320, 3, 1e10},
	}
	for _, xs := range cases {
		var pl productLog
		want := 0.0
		for _, x := range xs {
			pl.mul(x)
			m, e := math.Frexp(x) // exact, so that subnormal x's log is right
			want += math.Log(m) + float64(e)*math.Ln2
		}
		if got := pl.log(); math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
			t.Errorf("%v: log Π = %v, want %v", xs, got, want)
		}
	}
	// log(2⁻¹⁰⁷⁴ · MaxFloat64 · ½) = −1074·log 2 + log MaxFloat64 − log 2,
	// with log MaxFloat64 = 1024·log 2 + log(1 − 2⁻⁵³) ≈ 709.782712893384:
	// −51·log 2 − 1.1e-16 = −35.35050620855721.
	var sub productLog
	for _, x := range []float64{math.SmallestNonzeroFloat64, math.MaxFloat64, 0.5} {
		sub.mul(x)
	}
	if got, want := sub.log(), -35.35050620855721; !(math.Abs(got-want) <= 1e-12) {
		t.Errorf("log(5e-324 · MaxFloat64 · ½) = %v, want %v", got, want)
	}
	var pl productLog
	pl.mul(3)
	pl.mul(0)
	if got := pl.log(); !math.IsInf(got, -1) {
		t.Errorf("log of a product with 0 = %v, want −Inf", got)
	}
}
