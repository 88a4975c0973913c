package trueskill

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
)

// TestRaterSharesGamesAcrossFinishingOrders rates free-for-alls and team
// matches whose finishing orders differ through one Rater: matches with
// the same team sizes and draws in rank order share one game, the ratings
// equal a fresh game's to 1e-12, and once the shapes are seen nothing is
// allocated.
func TestRaterSharesGamesAcrossFinishingOrders(t *testing.T) {
	p := DefaultParams()
	r := p.NewRater()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 4))
	random := func(sizes []int) Match {
		m := Match{Teams: make([][]Rating, len(sizes)), Ranks: rng.Perm(len(sizes))}
		for j, n := range sizes {
			for range n {
				m.Teams[j] = append(m.Teams[j], Rating{Mu: 50 * rng.Float64(), Sigma: 1 + 7*rng.Float64()})
			}
		}
		return m
	}
	for trial := 0; trial < 300; trial++ {
		var m Match
		if trial%2 == 0 {
			m = random([]int{1, 1, 1, 1, 1, 1, 1, 1})
		} else {
			// Sizes 2, 1, 1 in some arrangement, the pair always first.
			m = random([]int{2, 1, 1})
			for j := range m.Teams {
				if len(m.Teams[j]) == 2 {
					m.Ranks[j] = -1
				}
			}
		}
		got, err := r.RateGraph(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := p.NewGame(m)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fresh.Run(ctx); err != nil {
			t.Fatal(err)
		}
		want := Result{Ratings: fresh.Ratings()}
		for j := range want.Ratings {
			for i, w := range want.Ratings[j] {
				g := got.Ratings[j][i]
				if math.Abs(g.Mu-w.Mu) > 1e-12*math.Abs(w.Mu) || math.Abs(g.Sigma-w.Sigma) > 1e-12*w.Sigma {
					t.Fatalf("trial %d team %d player %d: rater %v, fresh game %v", trial, j, i, g, w)
				}
			}
		}
	}
	if len(r.games) != 2 {
		t.Errorf("%d games for two shapes", len(r.games))
	}
	m := random([]int{1, 1, 1, 1, 1, 1, 1, 1})
	if n := testing.AllocsPerRun(50, func() {
		m.Ranks = rng.Perm(8)[:8:8] // a new finishing order (the permutation's allocation is not the Rater's)
		if _, err := r.RateGraph(ctx, m); err != nil {
			t.Fatal(err)
		}
	}); n > 1 {
		t.Errorf("%.0f allocations per match, want only the test's permutation", n)
	}
}
