package factors_test

import (
	"math"
	"testing"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/factors/factortest"
	"github.com/skillgraph/skillgraph/messages"
)

// TestWithinSubnormalMargin: I(|x| ≤ ε) with ε = 2⁻¹⁰⁴⁵, so that 2ε is
// subnormal. Against a uniform cavity its log average is log 2ε =
// −1044·log 2; against N(0, 1) the mass is 2ε·φ(0) to relative O(ε²), so
// −1044·log 2 − log √(2π) (constants from 40-digit decimal arithmetic).
func TestWithinSubnormalMargin(t *testing.T) {
	f := factors.NewWithin(0x1p-1045)
	cases := []struct {
		cavity messages.Gaussian
		want   float64
	}{
		{messages.Uniform(), -723.6456565045829030315903348023363370708},
		{messages.NewGaussian(0, 1), -724.5645950377875757733706645387419547100},
	}
	for _, c := range cases {
		got, err := factortest.LogAverageFactor(f, c.cavity)
		if err != nil {
			t.Fatalf("cavity %v: %v", c.cavity, err)
		}
		if !(math.Abs(got-c.want) <= 1e-14*math.Abs(c.want)) {
			t.Errorf("cavity %v: log average factor = %v, want %v", c.cavity, got, c.want)
		}
	}
}
