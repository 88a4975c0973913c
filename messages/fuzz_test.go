package messages

import (
	"math"
	"testing"
)

// FuzzCorrections checks the truncation corrections for any finite t and
// ε ≥ 0: V finite, 0 ≤ W ≤ 1, 0 ≤ 1 − W ≤ 1 and consistent with W, the
// win correction's sign (V ≥ 0) and the draw's (V has the sign of −t).
func FuzzCorrections(f *testing.F) {
	f.Add(0.0, 0.0)
	f.Add(-1e4, 1e-12)
	f.Add(38.5, 50.0)
	f.Add(-5.0, 0.5)
	f.Fuzz(func(t *testing.T, x, eps float64) {
		if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > 1e6 || !(eps >= 0 && eps <= 1e3) {
			return // outside the domain the target checks
		}
		for name, tr := range map[string]Truncation{"win": GreaterThan(x, eps), "draw": Within(x, eps)} {
			if math.IsNaN(tr.V) || math.IsInf(tr.V, 0) || !(tr.W >= 0 && tr.W <= 1) || !(tr.OneMinusW >= 0 && tr.OneMinusW <= 1) {
				t.Fatalf("%s(%v, %v) = %+v", name, x, eps, tr)
			}
			if math.Abs(tr.W+tr.OneMinusW-1) > 1e-12 {
				t.Fatalf("%s(%v, %v): W + (1 − W) = %v", name, x, eps, tr.W+tr.OneMinusW)
			}
		}
		if v := GreaterThan(x, eps).V; v < 0 {
			t.Fatalf("win V(%v, %v) = %v < 0", x, eps, v)
		}
		if v := Within(x, eps).V; v*x > 0 {
			t.Fatalf("draw V(%v, %v) = %v has the sign of t", x, eps, v)
		}
		if lz := LogWithinMass(x, eps); math.IsNaN(lz) || lz > 1e-15 {
			t.Fatalf("LogWithinMass(%v, %v) = %v", x, eps, lz)
		}
		if lp := LogNormCDF(x); math.IsNaN(lp) || lp > 0 {
			t.Fatalf("LogNormCDF(%v) = %v", x, lp)
		}
	})
}
