package trueskill_test

import (
	"context"
	"errors"
	"math"
	"sync"
	"testing"

	"github.com/skillgraph/skillgraph/models/trueskill"
)

func finiteRatings(t *testing.T, name string, res trueskill.Result) {
	t.Helper()
	for j, team := range res.Ratings {
		for i, r := range team {
			if math.IsNaN(r.Mu) || math.IsInf(r.Mu, 0) || !(r.Sigma > 0) || math.IsInf(r.Sigma, 0) {
				t.Errorf("%s: team %d player %d: %v", name, j, i, r)
			}
		}
	}
	if math.IsNaN(res.LogEvidence) || res.LogEvidence > 0 {
		t.Errorf("%s: log evidence %v", name, res.LogEvidence)
	}
}

// TestExtremeInputs: valid but extreme matches give finite, sensible
// ratings: winners move up, losers down, σ never grows without τ.
func TestExtremeInputs(t *testing.T) {
	p := trueskill.DefaultParams()
	p.Tau = 0
	cases := map[string]trueskill.Match{
		"upset of 1000σ": {Teams: [][]trueskill.Rating{{r(0, 1)}, {r(1000*math.Sqrt(2*(1+p.Beta*p.Beta)), 1)}}},
		"σ = 1e-6":       {Teams: [][]trueskill.Rating{{r(25, 1e-6)}, {r(25, 1e-6)}}},
		"σ = 1e4":        {Teams: [][]trueskill.Rating{{r(25, 1e4)}, {r(25, 1e4)}}},
		"σ 1e-6 vs 1e4":  {Teams: [][]trueskill.Rating{{r(25, 1e-6)}, {r(30, 1e4)}}},
		"expected win":   {Teams: [][]trueskill.Rating{{r(1e4, 1)}, {r(-1e4, 1)}}},
		"4v4 upset":      {Teams: [][]trueskill.Rating{{r(0, 1), r(0, 2), r(0, 3), r(0, 1)}, {r(300, 1), r(300, 2), r(300, 1), r(300, 5)}}},
	}
	for name, m := range cases {
		res, err := p.Rate(ctx, m)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		finiteRatings(t, name, res)
		for j, team := range m.Teams {
			for i, before := range team {
				after := res.Ratings[j][i]
				if after.Sigma > before.Sigma*(1+1e-12) {
					t.Errorf("%s: team %d player %d σ grew %v → %v", name, j, i, before.Sigma, after.Sigma)
				}
				up := j == 0
				if (up && after.Mu < before.Mu) || (!up && after.Mu > before.Mu) {
					t.Errorf("%s: team %d player %d μ moved the wrong way %v → %v", name, j, i, before.Mu, after.Mu)
				}
			}
		}
	}
}

// TestTinyDrawMargin: a draw with ε = 1e-12 is a near-equality constraint;
// the ratings stay finite and the evidence is ≈ 2ε times the density at 0.
func TestTinyDrawMargin(t *testing.T) {
	p := trueskill.DefaultParams()
	p.DrawMargin = 1e-12
	for _, n := range []int{2, 3} {
		var teams [][]trueskill.Rating
		for k := 0; k < n; k++ {
			teams = append(teams, []trueskill.Rating{r(25+float64(k), 5)})
		}
		ranks := make([]int, n)
		res, err := p.Rate(ctx, trueskill.Match{Teams: teams, Ranks: ranks})
		if err != nil {
			t.Fatal(err)
		}
		finiteRatings(t, "tiny margin", res)
		if !res.Converged {
			t.Errorf("%d teams: not converged after %d", n, res.Iterations)
		}
	}
	// Two players: P(|d| ≤ ε) ≈ 2ε·N(0; μ_d, c²).
	res, err := p.Rate(ctx, trueskill.Match{Teams: [][]trueskill.Rating{{r(25, 5)}, {r(27, 4)}}, Ranks: []int{0, 0}})
	if err != nil {
		t.Fatal(err)
	}
	c2 := 25 + 16 + 2*p.Tau*p.Tau + 2*p.Beta*p.Beta
	want := math.Log(2e-12) - 0.5*math.Log(2*math.Pi*c2) - 0.5*4/c2
	if math.Abs(res.LogEvidence-want) > 1e-9 {
		t.Errorf("log evidence %v, want %v", res.LogEvidence, want)
	}
}

// TestLargeFreeForAll: 64 players, all finishing in order, and 64 with
// draws, converge to finite ratings ordered like the finish.
func TestLargeFreeForAll(t *testing.T) {
	p := trueskill.DefaultParams()
	for _, draws := range []bool{false, true} {
		var teams [][]trueskill.Rating
		ranks := make([]int, 64)
		for k := range ranks {
			teams = append(teams, []trueskill.Rating{p.NewRating()})
			ranks[k] = k
			if draws {
				ranks[k] = k / 4
			}
		}
		res, err := p.Rate(ctx, trueskill.Match{Teams: teams, Ranks: ranks})
		if err != nil {
			t.Fatal(err)
		}
		finiteRatings(t, "64 FFA", res)
		if !res.Converged {
			t.Errorf("draws=%v: not converged after %d iterations", draws, res.Iterations)
		}
		for k := 1; k < 64; k++ {
			if ranks[k] > ranks[k-1] && !(res.Ratings[k][0].Mu < res.Ratings[k-1][0].Mu) {
				t.Errorf("draws=%v: player %d (%v) not below player %d (%v)", draws, k, res.Ratings[k][0], k-1, res.Ratings[k-1][0])
			}
		}
		t.Logf("64 players, draws=%v: %d iterations", draws, res.Iterations)
	}
}

// TestCancelledContext: a cancelled context stops a large game's iteration
// with its own error, before the first pass.
func TestCancelledContext(t *testing.T) {
	p := trueskill.DefaultParams()
	var teams [][]trueskill.Rating
	for k := 0; k < 16; k++ {
		teams = append(teams, []trueskill.Rating{p.NewRating()})
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	res, err := p.Rate(cctx, trueskill.Match{Teams: teams})
	if !errors.Is(err, context.Canceled) || res.Ratings != nil || res.Iterations != 0 {
		t.Errorf("Rate with a cancelled context: %+v, %v; want context.Canceled and no result", res, err)
	}
}

// TestConcurrentRate shares one Params between goroutines (run with -race).
func TestConcurrentRate(t *testing.T) {
	p := trueskill.DefaultParams()
	want, err := p.Rate(ctx, trueskill.Match{Teams: [][]trueskill.Rating{{r(25, 8)}, {r(27, 5), r(22, 3)}, {r(30, 2)}}, Ranks: []int{2, 0, 1}})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 50; k++ {
				got, err := p.Rate(ctx, trueskill.Match{Teams: [][]trueskill.Rating{{r(25, 8)}, {r(27, 5), r(22, 3)}, {r(30, 2)}}, Ranks: []int{2, 0, 1}})
				if err != nil || got.Ratings[1][1] != want.Ratings[1][1] {
					errs <- "concurrent Rate differs"
					return
				}
				if _, _, err := p.Rate1v1(r(20, 3), r(21, 4), false); err != nil {
					errs <- err.Error()
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
