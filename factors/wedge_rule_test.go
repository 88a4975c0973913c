package factors

import (
	"errors"
	"math"
	"testing"

	"github.com/skillgraph/skillgraph/messages"
)

// TestJointCavityOnABound: a joint cavity that fixes one of the region's
// combinations exactly on its bound follows the rule of the per-edge
// operators (truncation.go): the strict x − m > 0 of I(x > m) excludes
// it, the non-strict m ± x ≥ 0 of I(|x| ≤ m) and x + u ≥ 0, v − x ≥ 0 of
// I(−u ≤ x ≤ v) admit it, leaving the other half-space, whose log Z is
// log Φ(d/√Var d); one ulp outside is messages.ErrImpossible.
func TestJointCavityOnABound(t *testing.T) {
	type tilted interface {
		TiltedMoments(mean, cov []float64) (float64, []float64, []float64, error)
	}
	below := math.Nextafter(0.5, 0)
	cases := []struct {
		name      string
		f         tilted
		mean, cov []float64
		logZ      float64 // NaN: messages.ErrImpossible
	}{
		{"I(x > m), x − m fixed at 0", &ExceedsMargin{}, []float64{1, 1}, []float64{1, 1, 1, 1}, math.NaN()},
		{"I(x > m), x − m fixed one ulp above 0", &ExceedsMargin{}, []float64{math.Nextafter(1, 2), 1}, []float64{1, 1, 1, 1}, 0},
		// m − x fixed at 0, m + x = 1 with variance 4.
		{"I(|x| ≤ m), m − x fixed at 0", &WithinMargin{}, []float64{0.5, 0.5}, []float64{1, 1, 1, 1}, messages.LogNormCDF(0.5)},
		{"I(|x| ≤ m), m − x fixed below 0", &WithinMargin{}, []float64{0.5, below}, []float64{1, 1, 1, 1}, math.NaN()},
		// v − x fixed at 0, x + u = 1.5 with variance 2.
		{"I(−u ≤ x ≤ v), v − x fixed at 0", &BetweenMargins{}, []float64{0.5, 1, 0.5}, []float64{1, 0, 1, 0, 1, 0, 1, 0, 1},
			messages.LogNormCDF(1.5 / math.Sqrt2)},
		{"I(−u ≤ x ≤ v), v − x fixed below 0", &BetweenMargins{}, []float64{0.5, 1, below}, []float64{1, 0, 1, 0, 1, 0, 1, 0, 1}, math.NaN()},
		// x + u fixed at 0 (u = −x), v − x = 0.5 with variance 2.
		{"I(−u ≤ x ≤ v), x + u fixed at 0", &BetweenMargins{}, []float64{-0.5, 0.5, 0}, []float64{1, -1, 0, -1, 1, 0, 0, 0, 1},
			messages.LogNormCDF(0.5 / math.Sqrt2)},
	}
	for _, c := range cases {
		lz, m, cv, err := c.f.TiltedMoments(c.mean, c.cov)
		if math.IsNaN(c.logZ) {
			if !errors.Is(err, messages.ErrImpossible) {
				t.Errorf("%s: %v, %v, %v, %v; want messages.ErrImpossible", c.name, lz, m, cv, err)
			}
			continue
		}
		if err != nil || math.Abs(lz-c.logZ) > 1e-14 || !finiteAll(m) || !finiteAll(cv) {
			t.Errorf("%s: log Z %v, mean %v, cov %v, %v; want log Z %v", c.name, lz, m, cv, err, c.logZ)
		}
	}
	// With m = x fixed, I(|x| ≤ m) is x ≥ 0: x ~ N(0.5, 1) truncated at 0
	// has mean 0.5 + φ(0.5)/Φ(0.5) and variance 1 − λ(λ + 0.5).
	_, m, cv, err := (&WithinMargin{}).TiltedMoments([]float64{0.5, 0.5}, []float64{1, 1, 1, 1})
	lambda := math.Exp(-0.125) / math.Sqrt(2*math.Pi) / (0.5 * math.Erfc(-0.5/math.Sqrt2))
	if err != nil || math.Abs(m[0]-(0.5+lambda)) > 1e-14 || math.Abs(m[1]-m[0]) > 1e-14 || math.Abs(cv[0]-(1-lambda*(lambda+0.5))) > 1e-14 {
		t.Errorf("I(|x| ≤ m), m = x: mean %v, cov %v, %v; want x = m with mean %v, variance %v", m, cv, err, 0.5+lambda, 1-lambda*(lambda+0.5))
	}
}
