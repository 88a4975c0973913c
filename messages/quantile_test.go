package messages

import (
	"math"
	"testing"
)

// bisectQuantile solves erfc(−x/√2)/2 = p for x by bisection on [−40, 0]:
// Φ written from math.Erfc alone, independently of NormQuantile, for p
// above the smallest normal float64, where Erfc keeps its relative
// accuracy.
func bisectQuantile(p float64) float64 {
	lo, hi := -40.0, 0.0
	for range 200 {
		mid := (lo + hi) / 2
		if mid == lo || mid == hi {
			break
		}
		if math.Erfc(-mid/math.Sqrt2)/2 < p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// TestNormQuantileTails: Φ⁻¹ is accurate over all of (0, 1), subnormal p
// included. For p = 2⁻ᵏ, whose logarithm −k·log 2 needs no math.Log,
// log Φ(Φ⁻¹(p)) (LogNormCDF) matches log p; for decimal p it matches a
// bisection on math.Erfc and known values; 1 − p gives −Φ⁻¹(p) exactly.
func TestNormQuantileTails(t *testing.T) {
	for k := 2; k <= 1074; k++ {
		p := math.Ldexp(1, -k)
		x := NormQuantile(p)
		want := -float64(k) * math.Ln2
		if got := LogNormCDF(x); !(math.Abs(got-want) <= 1e-14*math.Abs(want)) {
			t.Errorf("log Φ(NormQuantile(2^-%d) = %v) = %v, want %v", k, x, got, want)
		}
	}
	for _, p := range []float64{0.2, 0.1, 1e-2, 1e-5, 1e-10, 1e-16, 1e-17, 1e-20, 1e-50, 1e-100, 1e-200, 1e-300, 1e-307} {
		if got, want := NormQuantile(p), bisectQuantile(p); !(math.Abs(got-want) <= 1e-14*math.Abs(want)) {
			t.Errorf("NormQuantile(%v) = %v, bisection on Erfc gives %v", p, got, want)
		}
	}
	for _, c := range []struct{ p, want, tol float64 }{
		{1e-20, -9.262340089798408, 2e-15},
		{1e-300, -37.04709629936, 1e-12},
		{5e-324, -38.4674056, 1e-8},
	} {
		if got := NormQuantile(c.p); !(math.Abs(got-c.want) <= c.tol*math.Abs(c.want)) {
			t.Errorf("NormQuantile(%v) = %v, want %v", c.p, got, c.want)
		}
	}
	for _, p := range []float64{0.5, 0.6, 0.75, 0.9, 1 - 1e-10, 1 - 0x1p-53} {
		if got, want := NormQuantile(p), -NormQuantile(1-p); got != want || math.IsInf(got, 0) {
			t.Errorf("NormQuantile(%v) = %v, want −NormQuantile(%v) = %v", p, got, 1-p, want)
		}
	}
	for _, c := range []struct{ p, want float64 }{{0, math.Inf(-1)}, {1, math.Inf(1)}} {
		if got := NormQuantile(c.p); got != c.want {
			t.Errorf("NormQuantile(%v) = %v, want %v", c.p, got, c.want)
		}
	}
	for _, p := range []float64{math.NaN(), -1e-300, 1 + 0x1p-52, math.Inf(1)} {
		if got := NormQuantile(p); !math.IsNaN(got) {
			t.Errorf("NormQuantile(%v) = %v, want NaN", p, got)
		}
	}
}
