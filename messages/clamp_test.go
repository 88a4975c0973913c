package messages

import (
	"math"
	"testing"
)

// TestClampLogProbability checks the rule for a computed log probability:
// rounding just above 0 is 0, anything further above or NaN is NaN, and
// everything at or below 0 passes unchanged.
func TestClampLogProbability(t *testing.T) {
	for _, c := range []struct{ in, want float64 }{
		{0, 0}, {-1, -1}, {-1e300, -1e300}, {math.Inf(-1), math.Inf(-1)},
		{5e-10, 0}, {1e-9, 0}, {2e-9, math.NaN()}, {1, math.NaN()},
		{math.Inf(1), math.NaN()}, {math.NaN(), math.NaN()},
	} {
		got := ClampLogProbability(c.in)
		if got != c.want && !(math.IsNaN(got) && math.IsNaN(c.want)) {
			t.Errorf("ClampLogProbability(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}
