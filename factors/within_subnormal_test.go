package factors_test

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/factors/factortest"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/schedules"
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

// TestWithinNarrowerThanFloat64: I(|x| ≤ ε) on x ~ N(1, 2). Its evidence
// is the mass 2ε·φ(1/√2)/√2 to relative O(ε²), and where the marginal's
// variance, about ε²/3, is still a float64 the graph's log evidence is that
// mass's log; where it is not (ε = 1e-200, 1e-300, and the subnormal
// 1e-320), the run fails with ErrNumerical, as it does where the message's
// precision overflows (1e-155), rather than collapsing x to a point mass,
// which the graph's evidence would read as an observation and add
// log N(0; 1, 2) = −1.5155 to.
func TestWithinNarrowerThanFloat64(t *testing.T) {
	for _, eps := range []float64{1e-100, 1e-150, 1e-155, 1e-200, 1e-300, 1e-320} {
		b := graph.NewBuilder("narrow")
		x := b.AddVariable("x")
		b.AddFactor(factors.NewPrior(1, 2), "", x)
		b.AddFactor(factors.NewWithin(eps), "", x)
		g, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		s, err := schedules.Derive(g)
		if err != nil {
			t.Fatal(err)
		}
		_, err = schedules.Run(context.Background(), g, s)
		if eps < 1e-154 {
			if !errors.Is(err, messages.ErrNumerical) {
				t.Errorf("ε = %v: run %v, want %v", eps, err, messages.ErrNumerical)
			}
			continue
		}
		if err != nil {
			t.Fatalf("ε = %v: %v", eps, err)
		}
		want := math.Log(2*eps/math.Sqrt2) - 0.25 - 0.5*math.Log(2*math.Pi) // log(2ε·φ(1/√2)/√2)
		if lz, err := g.LogEvidence(); err != nil || math.Abs(lz-want) > 1e-12*math.Abs(want) {
			t.Errorf("ε = %v: log evidence %v, %v; want %v", eps, lz, err, want)
		}
	}
}
