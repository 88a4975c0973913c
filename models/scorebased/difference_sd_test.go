package scorebased_test

import (
	"math"
	"testing"

	"github.com/skillgraph/skillgraph/models/scorebased"
)

// TestDifferenceSD: the predicted score difference's spread is the square
// root of the summed variances (eqs. 21 and 24), computed here directly in
// float64 where nothing overflows and in big-number form (a common scale
// factored out by hand) where σ² would.
func TestDifferenceSD(t *testing.T) {
	p := scorebased.Params{Sigma: 1, Beta: 0.5, Gamma: 2, Tau: 0.1}
	r := func(sigma float64) scorebased.Rating { return scorebased.Rating{Sigma: sigma} }
	noise := 2*0.25 + 4.0
	for _, c := range []struct {
		rs   []scorebased.Rating
		want float64
	}{
		{[]scorebased.Rating{r(3), r(4)}, math.Sqrt(9 + 16 + 2*0.01 + noise)},
		{[]scorebased.Rating{r(1), r(2), r(3), r(0.5)}, math.Sqrt(1 + 4 + 9 + 0.25 + 4*0.01 + 2*noise)},
		// σ = 3e200 and 4e200: σ² overflows, the spread is 5e200.
		{[]scorebased.Rating{r(3e200), r(4e200)}, 5e200},
	} {
		if got := p.DifferenceSD(c.rs...); math.Abs(got/c.want-1) > 1e-15 {
			t.Errorf("DifferenceSD(%v) = %.17g, want %.17g", c.rs, got, c.want)
		}
	}
}
