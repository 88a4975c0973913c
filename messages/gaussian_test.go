package messages

import (
	"math"
	"testing"
)

// TestNewGaussianSubnormalVariance checks that a variance whose precision
// overflows is the point mass at the mean, and one just above keeps its
// precision 1/v and mean.
func TestNewGaussianSubnormalVariance(t *testing.T) {
	for _, v := range []float64{5e-324, 1e-320, 2e-310, 0x1p-1024} {
		if g := NewGaussian(-1e-155, v); !g.IsPointMass() || g.Mean() != -1e-155 {
			t.Errorf("variance %v: %v, want the point mass at -1e-155", v, g)
		}
	}
	for _, v := range []float64{0x1p-1023, 1e-300} {
		if g := NewGaussian(1e-10, v); g.Pi != 1/v || math.Abs(g.Mean()-1e-10) > 1e-25 {
			t.Errorf("variance %v: %v (mean %v), want precision %v and mean 1e-10", v, g, g.Mean(), 1/v)
		}
	}
}
