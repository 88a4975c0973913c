package trueskill_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/skillgraph/skillgraph/models/trueskill"
	"github.com/skillgraph/skillgraph/schedules"
)

// TestDefaultRunIsConverged rates random multi-team games (3-16 teams of
// 1-3 players, random ranks with ties) with the default tolerance, and
// checks them against the fixed point reached independently of the
// chain's schedule: the same graph run by generic flooding (every edge of
// every factor) to 1e-13. Every posterior μ and σ must agree to 1e-6,
// absolutely and in units of σ (the worst is 4.6e-8).
func TestDefaultRunIsConverged(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	p := trueskill.DefaultParams()
	worst := 0.0
	for n := 0; n < 400; n++ {
		k := 3 + rng.IntN(14)
		m := trueskill.Match{Ranks: make([]int, k)}
		for j := 0; j < k; j++ {
			team := make([]trueskill.Rating, 1+rng.IntN(3)*rng.IntN(2))
			for i := range team {
				team[i] = trueskill.Rating{Mu: rng.Float64() * 50, Sigma: 1 + rng.Float64()*7.34}
			}
			m.Teams = append(m.Teams, team)
			m.Ranks[j] = rng.IntN(k + 2) // ties between some teams
		}
		got, err := p.Rate(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		if !got.Converged {
			t.Fatalf("game %d did not converge in %d passes", n, got.Iterations)
		}
		gm, err := p.NewGame(m)
		if err != nil {
			t.Fatal(err)
		}
		res, err := schedules.Run(ctx, gm.Graph(), schedules.Flooding(gm.Graph(), schedules.Tolerance(1e-13), schedules.MaxIterations(5000)))
		if err != nil || !res.Converged {
			t.Fatalf("game %d: flooding %+v, %v", n, res, err)
		}
		want := gm.Ratings()
		for j := range got.Ratings {
			for i, g := range got.Ratings[j] {
				w := want[j][i]
				e := math.Max(math.Abs(g.Mu-w.Mu), math.Abs(g.Sigma-w.Sigma))
				worst = math.Max(worst, math.Max(e, e/w.Sigma))
			}
		}
	}
	t.Logf("worst difference from the converged posteriors: %.2g", worst)
	if worst > 1e-6 {
		t.Errorf("worst difference %.3g, want ≤ 1e-6", worst)
	}
}
