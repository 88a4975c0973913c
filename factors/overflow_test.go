package factors_test

import (
	"math"
	"math/big"
	"testing"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/factors/factortest"
	"github.com/skillgraph/skillgraph/messages"
)

// bigQuo returns x/y in float64 from big.Float operands, which neither
// overflow nor underflow where float64 intermediates would.
func bigQuo(x, y *big.Float) float64 {
	f, _ := new(big.Float).Quo(x, y).Float64()
	return f
}

// TestWeightedSumLargeCoefficient: the message to a term y_k of
// x = Σ aⱼyⱼ has mean (μ_x − Σ_{j≠k} aⱼμⱼ)/a_k and variance (σ_x² +
// Σ_{j≠k} aⱼ²σⱼ²)/a_k² (Table 1, row 4), computed here in big.Float, where
// a_k² does not overflow. A message whose precision overflows float64 is
// the point mass at that mean, never a point mass at τ = π·μ.
func TestWeightedSumLargeCoefficient(t *testing.T) {
	for _, tc := range []struct {
		a        []float64
		variance float64 // of every cavity
	}{
		{[]float64{1e200, 1}, 1},         // precision 5e399 overflows: a point mass
		{[]float64{1e200, 1}, 1e300},     // variance 2e-100: a Gaussian
		{[]float64{1e200, 1, -1}, 1e300}, // the general path
		{[]float64{1e170, -2}, 1e10},
	} {
		cav := make([]messages.Gaussian, len(tc.a)+1)
		means := []float64{0, 5, 1, -2}
		for i := range cav {
			cav[i] = messages.NewGaussian(means[i], tc.variance)
		}
		f := factors.NewWeightedSum(tc.a...)
		got, err := factortest.Message(f, 1, cav...)
		if err != nil {
			t.Errorf("a = %v, variance %v: %v", tc.a, tc.variance, err)
			continue
		}
		// The message to y₀: (x − Σ_{j≥1} aⱼyⱼ)/a₀.
		ak := new(big.Float).SetFloat64(tc.a[0])
		num := new(big.Float).SetFloat64(means[0])
		v := new(big.Float).SetFloat64(tc.variance)
		for j := 1; j < len(tc.a); j++ {
			aj := new(big.Float).SetFloat64(tc.a[j])
			num.Sub(num, new(big.Float).Mul(aj, big.NewFloat(means[j+1])))
			v.Add(v, new(big.Float).Mul(new(big.Float).Mul(aj, aj), big.NewFloat(tc.variance)))
		}
		wantMean := bigQuo(num, ak)
		wantVar := bigQuo(v, new(big.Float).Mul(ak, ak))
		if !(math.Abs(got.Mean()-wantMean) <= 1e-14*math.Abs(wantMean)) {
			t.Errorf("a = %v, variance %v: mean %v, want %v", tc.a, tc.variance, got.Mean(), wantMean)
		}
		if wantPi := 1 / wantVar; math.IsInf(wantPi, 1) {
			if !got.IsPointMass() {
				t.Errorf("a = %v, variance %v: %v, want the point mass at %v", tc.a, tc.variance, got, wantMean)
			}
		} else if !(math.Abs(got.Pi-wantPi) <= 1e-14*wantPi) {
			t.Errorf("a = %v, variance %v: precision %v, want %v", tc.a, tc.variance, got.Pi, wantPi)
		}
	}
}
