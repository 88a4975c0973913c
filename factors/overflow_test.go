package factors_test

import (
	"math"
	"math/big"
	"testing"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/factors/factortest"
	"github.com/skillgraph/skillgraph/graph"
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
		{[]float64{1e155, 1}, 1},     // variance 2e-310, subnormal: 1/v overflows
		{[]float64{1e160, 1}, 1},     // variance 2e-320
		{[]float64{1e155, 1, -1}, 1}, // the same through the general path
		{[]float64{1.5e154, 1}, 1},   // variance 8.9e-309, subnormal with a finite 1/v
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

// TestLikelihoodWideNoise: the message of N(x; y, c²) to x is y's cavity
// widened by c², N(μ_y, σ_y² + c²) (Table 1, row 2), also where c²·π_y
// overflows float64 though the message's precision 1/(σ_y² + c²) is in
// range.
func TestLikelihoodWideNoise(t *testing.T) {
	for _, tc := range []struct{ c2, mean, variance float64 }{
		{1e300, 5, 1e-300},
		{1e200, -3, 1e-200},
		{1e308, 1e-100, 1e-10},
	} {
		got, err := factortest.Message(factors.NewLikelihood(tc.c2), 0, messages.NewGaussian(0, 1), messages.NewGaussian(tc.mean, tc.variance))
		if err != nil {
			t.Errorf("%+v: %v", tc, err)
			continue
		}
		v := new(big.Float).Add(big.NewFloat(tc.c2), big.NewFloat(tc.variance))
		wantPi := bigQuo(big.NewFloat(1), v)
		wantTau := bigQuo(big.NewFloat(tc.mean), v)
		if !(math.Abs(got.Pi-wantPi) <= 1e-14*wantPi) || !(math.Abs(got.Tau-wantTau) <= 1e-14*math.Abs(wantTau)) {
			t.Errorf("%+v: (π, τ) = (%v, %v), want (%v, %v)", tc, got.Pi, got.Tau, wantPi, wantTau)
		}
	}
}

// TestLinearGaussianLargeCoefficient: the message of N(y; aᵀx + c, v) to
// x_i has π = a_i²/V and τ = a_i·r/V, r = y − c − Σ_{j≠i} aⱼμⱼ and V = v +
// Σ_{j≠i} aⱼ²σⱼ² (computed here in big.Float), also where a_i² or a_i·r
// overflows or underflows float64; a π beyond float64 is the point mass at
// r/a_i.
func TestLinearGaussianLargeCoefficient(t *testing.T) {
	for _, tc := range []struct {
		a        []float64
		value, v float64
	}{
		{[]float64{1e200, 1}, 3, 1e300},     // a² overflows, π = 1e100
		{[]float64{1e-200, 1}, 3, 1e-300},   // a² underflows, π ≈ 1e-100
		{[]float64{1e160, 1}, 1e150, 1},     // a·r overflows, π = 5e319: a point mass
		{[]float64{1e154, 2}, 1e150, 1e300}, // a·r overflows, π ≈ 1e8
	} {
		cav := []messages.Gaussian{messages.NewGaussian(0, 1), messages.NewGaussian(2, 1)}
		f := factors.NewLinearGaussian(tc.a, 0, tc.value, tc.v)
		got, err := factortest.Message(f, 0, cav...)
		if err != nil {
			t.Errorf("%+v: %v", tc, err)
			continue
		}
		a0, a1 := big.NewFloat(tc.a[0]), big.NewFloat(tc.a[1])
		r := new(big.Float).Sub(big.NewFloat(tc.value), new(big.Float).Mul(a1, big.NewFloat(2)))
		V := new(big.Float).Add(big.NewFloat(tc.v), new(big.Float).Mul(a1, a1))
		wantPi := bigQuo(new(big.Float).Mul(a0, a0), V)
		wantMean := bigQuo(r, a0)
		if math.IsInf(wantPi, 1) {
			if !got.IsPointMass() || got.Mean() != wantMean {
				t.Errorf("%+v: %v, want the point mass at %v", tc, got, wantMean)
			}
			continue
		}
		wantTau := bigQuo(new(big.Float).Mul(a0, r), V)
		if !(math.Abs(got.Pi-wantPi) <= 1e-14*wantPi) || !(math.Abs(got.Tau-wantTau) <= 1e-14*math.Abs(wantTau)) {
			t.Errorf("%+v: (π, τ) = (%v, %v), want (%v, %v)", tc, got.Pi, got.Tau, wantPi, wantTau)
		}
	}
}

// TestPoissonNarrowCavity: the Poisson message is π = e^κ and τ = k +
// e^κ(μ' − 1), with κ the root of eq. 19 of Guo et al. (2012), κ = μ +
// σ²(k − e^κ) + σ²/(2(1 + σ²e^κ)), and μ' = μ + σ²(k − e^κ) (eq. 15),
// found here by bisection. Under a narrow cavity e^κ is far below the
// cavity's precision, and taking it as the difference of two precisions
// would lose it.
func TestPoissonNarrowCavity(t *testing.T) {
	for _, tc := range []struct {
		k              int
		mean, variance float64
	}{
		{1, 0, 1e-150}, {0, 0, 1e-300}, {3, 1, 1e-20}, {2, -1, 1e-12}, {5, 0.5, 0.3},
	} {
		m, s2, k := tc.mean, tc.variance, float64(tc.k)
		G := func(kappa float64) float64 {
			w := s2 * math.Exp(kappa)
			return kappa - m - s2*(k-math.Exp(kappa)) - s2/(2*(1+w))
		}
		lo, hi := m-1-s2, m+s2*(k+1) // G(lo) < 0 < G(hi): G′ ≥ 1
		for range 200 {
			mid := 0.5 * (lo + hi)
			if G(mid) < 0 {
				lo = mid
			} else {
				hi = mid
			}
		}
		ek := math.Exp(0.5 * (lo + hi))
		muq := m + s2*(k-ek)
		wantPi, wantTau := ek, k+ek*(muq-1)
		got, err := factortest.Message(factors.NewPoisson(tc.k), 0, messages.NewGaussian(tc.mean, tc.variance))
		if err != nil {
			t.Errorf("%+v: %v", tc, err)
			continue
		}
		if !(math.Abs(got.Pi-wantPi) <= 1e-12*wantPi) || !(math.Abs(got.Tau-wantTau) <= 1e-12*(1+k+ek)) {
			t.Errorf("%+v: (π, τ) = (%v, %v), want (%v, %v)", tc, got.Pi, got.Tau, wantPi, wantTau)
		}
	}
}

// TestPoissonNearlyFlatCavity: under a cavity of precision π and τ far
// below the count k, eq. 15 in natural parameters, e^κ = k + τ − π·μ',
// puts the message at the flat cavity's, π = k and τ = k·log k − ½
// (μ' = log k − 1/(2k)), to within (|τ| + π|μ'|)/k; also where σ²k
// overflows float64.
func TestPoissonNearlyFlatCavity(t *testing.T) {
	for _, k := range []int{1 << 30, 1 << 40, 1000} {
		for _, c := range []messages.Gaussian{messages.NewGaussian(0, 1e300), messages.NewGaussian(1e150, 1e300), messages.NewGaussian(-1e150, 1e300), messages.NewGaussian(3, 1e40)} {
			got, err := factortest.Message(factors.NewPoisson(k), 0, c)
			kf := float64(k)
			wantPi, wantTau := kf, kf*math.Log(kf)-0.5
			if err != nil || math.Abs(got.Pi-wantPi) > 1e-12*wantPi || math.Abs(got.Tau-wantTau) > 1e-12*math.Abs(wantTau) {
				t.Errorf("k = %d at %v: %v (π %v, τ %v), %v; want π %v, τ %v", k, c, got, got.Pi, got.Tau, err, wantPi, wantTau)
			}
		}
	}
}

// TestEvidenceFarApart: the evidence of an exact factor is log N(d; 0, V)
// for the distance d between its mean and the cavities' and their total
// variance V (Table 1's factors integrated against the cavities): at d =
// 1e160 and V ≈ 1e300 it is −½(d/√V)² − ½log(2πV) ≈ −5e19, a number,
// though d² overflows, not a probability of zero.
func TestEvidenceFarApart(t *testing.T) {
	const d, v = 1e160, 1e300
	cav := messages.NewGaussian(0, 1)
	for _, c := range []struct {
		name string
		f    graph.Factor
		cav  []messages.Gaussian
		V    float64
	}{
		{"Prior", factors.NewPrior(d, v), []messages.Gaussian{cav}, v + 1},
		{"GaussianObservation", factors.NewGaussianObservation(d, v), []messages.Gaussian{cav}, v + 1},
		{"Likelihood", factors.NewLikelihood(v), []messages.Gaussian{messages.NewGaussian(d, 1), cav}, v + 2},
		{"LinearGaussian", factors.NewLinearGaussian([]float64{1, -1}, 0, d, v), []messages.Gaussian{cav, cav}, v + 2},
		{"WeightedSum", factors.NewWeightedSum(1, -1), []messages.Gaussian{messages.NewGaussian(d, v), cav, cav}, v + 2},
	} {
		r := d / math.Sqrt(c.V)
		want := -0.5*r*r - 0.5*math.Log(2*math.Pi*c.V)
		got, err := factortest.LogAverageFactor(c.f, c.cav...)
		if err != nil || math.Abs(got-want) > 1e-14*math.Abs(want) {
			t.Errorf("%s: %v, %v; want %v", c.name, got, err, want)
		}
	}
}
