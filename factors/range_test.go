package factors_test

import (
	"errors"
	"math"
	"testing"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/messages"
)

// TestPoissonProjectExtremes: Lemma 1's projection on means and variances
// from subnormal to the largest float64, and counts up to MaxInt, never
// panics (a log-rate of 1e308 must not index the Wright table at
// int(NaN)): it returns a finite, proper Gaussian or messages.ErrInput /
// messages.ErrNumerical. Where it answers for a moderate mean, the answer
// satisfies
// eq. 15, μ' = μ + σ²(k − e^κ) and σ'² = σ²/(1 + σ²e^κ) with κ = μ' +
// σ'²/2, to 1e-12 of the size of eq. 15's terms and 1e-9 of σ'².
func TestPoissonProjectExtremes(t *testing.T) {
	means := []float64{0, math.Copysign(0, -1), 5e-324, 1, -30, 30, 700, -700, 1e20, -1e20, 1e300, -1e300, 1e308, -1e308, math.MaxFloat64, -math.MaxFloat64}
	variances := []float64{5e-324, 1e-300, 1e-10, 1, 173, 1e10, 1e300, math.MaxFloat64}
	counts := []int{0, 1, 2, 1000, math.MaxInt32, math.MaxInt}
	answered := 0
	for _, m := range means {
		for _, v := range variances {
			for _, k := range counts {
				g, err := func() (messages.Gaussian, error) {
					defer func() {
						if p := recover(); p != nil {
							t.Fatalf("PoissonProject(%v, %v, %d) panics: %v", m, v, k, p)
						}
					}()
					g, _, err := factors.PoissonProject(m, v, k)
					return g, err
				}()
				if err != nil {
					if !errors.Is(err, messages.ErrInput) && !errors.Is(err, messages.ErrNumerical) {
						t.Errorf("PoissonProject(%v, %v, %d): %v, want messages.ErrInput or ErrNumerical", m, v, k, err)
					}
					continue
				}
				if !(g.Pi > 0) || !g.IsFinite() {
					t.Errorf("PoissonProject(%v, %v, %d) = %v, want a finite proper Gaussian", m, v, k, g)
					continue
				}
				answered++
				if math.Abs(m) > 700 || v > 1e10 || v < 1e-10 || k > 1000 {
					continue
				}
				mu, s2 := g.Mean(), g.Variance()
				ek := math.Exp(mu + s2/2)
				// Relative to the terms' size (μ + σ²k and σ²e^κ cancel)
				// and to κ's terms' (e^κ carries the rounding of κ = μ' +
				// σ'²/2, relative (|μ'| + σ'²/2)·ε).
				scale := (1 + math.Abs(m) + v*(float64(k)+ek)) * (1 + math.Abs(mu) + s2/2)
				if r := (m + v*(float64(k)-ek) - mu) / scale; math.Abs(r) > 1e-12 {
					t.Errorf("PoissonProject(%v, %v, %d): μ' = %v misses eq. 15 by %v", m, v, k, mu, r)
				}
				if r := v/(1+v*ek)/s2 - 1; math.Abs(r) > 1e-9 {
					t.Errorf("PoissonProject(%v, %v, %d): σ'² = %v misses eq. 15 by %v", m, v, k, s2, r)
				}
			}
		}
	}
	t.Logf("%d of %d answered", answered, len(means)*len(variances)*len(counts))
}
