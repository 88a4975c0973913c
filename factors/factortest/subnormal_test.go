package factortest_test

import (
	"math"
	"testing"

	"github.com/skillgraph/skillgraph/factors/factortest"
	"github.com/skillgraph/skillgraph/messages"
)

// TestTiltedSubnormalMass: a factor whose density is the constant 2⁻¹⁰⁴⁰
// against proper cavities has tilted mass 2⁻¹⁰⁴⁰ (the cavities integrate
// to 1), a subnormal number, so LogZ must be −1040·log 2 ≈ −720.87, on the
// product grid and on the nested one (Grid.CutsAt). The tolerance allows
// for the grid's 1e-10 and the subnormal sums' 2⁻³⁴ relative rounding.
func TestTiltedSubnormalMass(t *testing.T) {
	const want = -720.8730677823431 // −1040·log 2, from 40-digit decimal arithmetic
	density := func([]float64) float64 { return 0x1p-1040 }
	cavities := []messages.Gaussian{messages.NewGaussian(1, 2), messages.NewGaussian(-3, 0.5)}
	grids := map[string]factortest.Grid{
		"product": {},
		"nested":  {CutsAt: func(int, []float64) []float64 { return nil }},
	}
	for name, gr := range grids {
		m, err := factortest.Tilted(density, cavities, gr)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !(math.Abs(m.LogZ-want) <= 1e-6) {
			t.Errorf("%s grid: LogZ = %v, want %v", name, m.LogZ, want)
		}
	}
}
