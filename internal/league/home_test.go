package league

import (
	"context"
	"math"
	"testing"

	"github.com/skillgraph/skillgraph/models/trueskill"
)

// TestRateHome: with a home advantage known to be h (σ_h → 0), the graph's
// update of a home player equals Params.Rate's with the home player's μ
// raised by h (adding h to a performance is adding it to the skill), then
// lowered again; for each outcome and team size.
func TestRateHome(t *testing.T) {
	p := trueskill.DefaultParams()
	const h = 1.7
	l := New(FormatScores, p)
	l.Home = &trueskill.Rating{Mu: h, Sigma: 1e-7}
	a, b, c := trueskill.Rating{Mu: 27, Sigma: 3}, trueskill.Rating{Mu: 24, Sigma: 5}, trueskill.Rating{Mu: 30, Sigma: 1.5}
	for _, m := range []trueskill.Match{
		{Teams: [][]trueskill.Rating{{a}, {b}}, Ranks: []int{0, 1}},
		{Teams: [][]trueskill.Rating{{a}, {b}}, Ranks: []int{1, 0}},
		{Teams: [][]trueskill.Rating{{a}, {b}}, Ranks: []int{0, 0}},
		{Teams: [][]trueskill.Rating{{a, c}, {b}}, Ranks: []int{1, 0}},
	} {
		got, home, err := l.rateHome(context.Background(), m)
		if err != nil {
			t.Fatal(err)
		}
		shifted := trueskill.Match{Ranks: m.Ranks, Teams: [][]trueskill.Rating{append([]trueskill.Rating(nil), m.Teams[0]...), m.Teams[1]}}
		shifted.Teams[0][0].Mu += h
		want, err := p.Rate(context.Background(), shifted)
		if err != nil {
			t.Fatal(err)
		}
		want.Ratings[0][0].Mu -= h
		for j := range got {
			for i := range got[j] {
				g, w := got[j][i], want.Ratings[j][i]
				if math.Abs(g.Mu-w.Mu) > 1e-6 || math.Abs(g.Sigma-w.Sigma) > 1e-6 {
					t.Errorf("ranks %v, player %d.%d: %v, want %v", m.Ranks, j, i, g, w)
				}
			}
		}
		if math.Abs(home.Mu-h) > 1e-6 || !(home.Sigma <= 1e-7) {
			t.Errorf("a known home advantage moved: %v", home)
		}
	}
}

// TestHomeLearned: on the Premier League's 11,266 games the learned home
// advantage is positive and known well; a neutral game (Home false) is
// rated exactly as without a home advantage.
func TestHomeLearned(t *testing.T) {
	_, games, _, err := ReadFile("../../examples/data/epl.csv")
	if err != nil {
		t.Fatal(err)
	}
	if testing.Short() {
		games = games[:2000]
	}
	p := trueskill.DefaultParams()
	ties, pairs := DrawShare(games)
	p.DrawProbability = float64(ties) / float64(pairs)
	l := New(FormatScores, p)
	l.LearnHome()
	if _, err := l.Rate(context.Background(), games); err != nil {
		t.Fatal(err)
	}
	if !(l.Home.Mu > 2*l.Home.Sigma) || !(l.Home.Sigma < 0.5) {
		t.Errorf("home advantage %v: want clearly positive", *l.Home)
	}
	t.Logf("home advantage N(%.3f, %.3f²) over %d games", l.Home.Mu, l.Home.Sigma, len(games))

	// A neutral game: the same ratings as a league without home advantage.
	neutral := Match{Key: "n", Date: "2099-01-01", Teams: [][]string{{"Arsenal"}, {"Chelsea"}}, Ranks: []int{0, 1}}
	before := *l.Home
	ra, rc := l.Player("Arsenal").Rating, l.Player("Chelsea").Rating
	if _, err := l.Rate(context.Background(), []Match{neutral}); err != nil {
		t.Fatal(err)
	}
	res, err := p.Rate(context.Background(), trueskill.Match{Teams: [][]trueskill.Rating{{ra}, {rc}}, Ranks: []int{0, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if l.Player("Arsenal").Rating != res.Ratings[0][0] || l.Player("Chelsea").Rating != res.Ratings[1][0] || *l.Home != before {
		t.Errorf("a neutral game was rated with the home advantage")
	}
}

// TestHomeLearnedFromHomeGames: a home advantage is learned only once a
// game at home is rated; games on neutral ground leave it at its prior,
// N(0, β²).
func TestHomeLearnedFromHomeGames(t *testing.T) {
	p := trueskill.DefaultParams()
	l := New(FormatScores, p)
	if l.HomeLearned() {
		t.Error("a league without a home advantage has learned one")
	}
	l.LearnHome()
	neutral := []Match{
		{Key: "a", Date: "2025-01-01", Teams: [][]string{{"Ann"}, {"Bob"}}, Ranks: []int{0, 1}},
		{Key: "b", Date: "2025-01-02", Teams: [][]string{{"Bob"}, {"Cy"}}, Ranks: []int{1, 0}},
	}
	if _, err := l.Rate(context.Background(), neutral); err != nil {
		t.Fatal(err)
	}
	if l.HomeLearned() || *l.Home != (trueskill.Rating{Mu: 0, Sigma: p.Beta}) {
		t.Errorf("after neutral games: learned %v, home advantage %v, want the prior N(0, %v²)", l.HomeLearned(), *l.Home, p.Beta)
	}
	home := Match{Key: "c", Date: "2025-01-03", Teams: [][]string{{"Cy"}, {"Ann"}}, Ranks: []int{0, 1}, Home: true}
	if _, err := l.Rate(context.Background(), []Match{home}); err != nil {
		t.Fatal(err)
	}
	if !l.HomeLearned() || !(l.Home.Mu > 0) || !(l.Home.Sigma < p.Beta) {
		t.Errorf("after a home win: learned %v, home advantage %v", l.HomeLearned(), *l.Home)
	}
}
