package trueskill_test

import (
	"errors"
	"math"
	"testing"

	"github.com/skillgraph/skillgraph/models/trueskill"
)

// FuzzRate rates matches of random shape, ranks, weights, ratings and
// parameters decoded from the fuzzer's bytes, and checks that Rate either
// returns an *InputError wrapping ErrInput (outside the domain) or
// ErrImpossible (a draw without a margin), never ErrNumerical inside the
// domain, or finite ratings, that no σ grows (τ = 0), and that in a
// two-team win nobody on the winning side (with positive weight) goes
// down.
func FuzzRate(f *testing.F) {
	f.Add([]byte{2, 1, 1, 0, 1, 100, 50, 100, 50}, 0.1, 4.1, false)
	f.Add([]byte{3, 1, 2, 1, 0, 1, 1, 200, 10, 20, 30, 40, 250, 1}, 0.3, 1.0, true)
	f.Add([]byte{8, 1, 1, 1, 1, 1, 1, 1, 1, 7, 6, 5, 4, 3, 2, 1, 0}, 0.0, 25.0, false)
	f.Add([]byte{2, 4, 4, 0, 0, 255, 255, 0, 1, 2, 3}, 0.99, 1e-3, true)
	// Three teams drawing with a draw probability of 1 − 2⁻⁵³: an outcome
	// so certain that its evidence rounds to just above 0.
	f.Add([]byte("z0800"), 0.9999999999999999, 58.48875, false)
	f.Fuzz(func(t *testing.T, data []byte, drawP, beta float64, weighted bool) {
		next := func() int {
			if len(data) == 0 {
				return 0
			}
			b := int(data[0])
			data = data[1:]
			return b
		}
		nTeams := next()%10 + 1
		p := trueskill.DefaultParams()
		p.Tau = 0
		p.DrawProbability = drawP
		p.Beta = beta
		m := trueskill.Match{Ranks: make([]int, nTeams)}
		for j := 0; j < nTeams; j++ {
			m.Teams = append(m.Teams, make([]trueskill.Rating, next()%5))
		}
		for j := range m.Ranks {
			m.Ranks[j] = next() % 4
		}
		for j := range m.Teams {
			var w []float64
			for i := range m.Teams[j] {
				mu := float64(next()-128) * math.Pow(10, float64(next()%7-2))
				sigma := math.Pow(10, float64(next()%11-6)+float64(next())/256)
				m.Teams[j][i] = trueskill.Rating{Mu: mu, Sigma: sigma}
				w = append(w, float64(next())/128)
			}
			if weighted {
				m.Weights = append(m.Weights, w)
			}
		}
		res, err := p.Rate(ctx, m)
		if err != nil {
			var ie *trueskill.InputError
			if !errors.As(err, &ie) || !(errors.Is(err, trueskill.ErrInput) || errors.Is(err, trueskill.ErrImpossible)) {
				t.Fatalf("Rate(%+v, %+v): error %v is not an *InputError wrapping ErrInput or ErrImpossible", p, m, err)
			}
			return
		}
		for j, team := range m.Teams {
			for i, before := range team {
				after := res.Ratings[j][i]
				if math.IsNaN(after.Mu) || math.IsInf(after.Mu, 0) || !(after.Sigma > 0) || math.IsInf(after.Sigma, 0) {
					t.Fatalf("Rate(%+v, %+v): team %d player %d: %v", p, m, j, i, after)
				}
				if after.Sigma > before.Sigma*(1+1e-9) {
					t.Fatalf("Rate(%+v, %+v): team %d player %d σ grew %v → %v", p, m, j, i, before.Sigma, after.Sigma)
				}
			}
		}
		if nTeams == 2 && m.Ranks[0] < m.Ranks[1] {
			for i, before := range m.Teams[0] {
				if (m.Weights == nil || m.Weights[0][i] > 0) && res.Ratings[0][i].Mu < before.Mu-1e-9*math.Abs(before.Mu) {
					t.Fatalf("Rate(%+v): winner %d went down %v → %v", m, i, before.Mu, res.Ratings[0][i].Mu)
				}
			}
		}
	})
}
