package trueskill_test

import (
	"context"
	"fmt"

	"github.com/skillgraph/skillgraph/models/trueskill"
)

// Three teams: Alice wins, Bob-and-Carol and Dave draw for second (the
// paper's Figure 1 game), from default ratings. The pair drew with a lone
// player although their summed performance was expected to be twice his, so
// they lose ground and he gains.
func ExampleParams_Rate() {
	p := trueskill.DefaultParams()
	newbie := p.NewRating()
	res, err := p.Rate(context.Background(), trueskill.Match{
		Teams: [][]trueskill.Rating{{newbie}, {newbie, newbie}, {newbie}},
		Ranks: []int{1, 2, 2},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for j, team := range res.Ratings {
		for _, r := range team {
			fmt.Printf("team %d: μ = %.3f, σ = %.3f\n", j+1, r.Mu, r.Sigma)
		}
	}
	fmt.Printf("converged: %v\n", res.Converged)
	// Output:
	// team 1: μ = 32.755, σ = 6.614
	// team 2: μ = 15.750, σ = 6.934
	// team 2: μ = 15.750, σ = 6.934
	// team 3: μ = 26.495, σ = 6.289
	// converged: true
}

// Match quality of two new players is √(2β²/(2β² + 2σ²)) = √(1/5) by
// equation 7.
func ExampleParams_Quality() {
	p := trueskill.DefaultParams()
	q, err := p.Quality([][]trueskill.Rating{{p.NewRating()}, {p.NewRating()}}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.4f\n", q)
	// Output:
	// 0.4472
}

// The chance that a strong veteran beats a newcomer, and the chances of all
// three outcomes: by hand, c² = 2² + σ₀² + 2τ² + 2β² = 108.18 and
// ε = 0.7405, so win = Φ((7 − ε)/c) = 0.726.
func ExampleParams_WinProbability() {
	p := trueskill.DefaultParams()
	veteran := []trueskill.Rating{{Mu: 32, Sigma: 2}}
	newcomer := []trueskill.Rating{p.NewRating()}
	win, _ := p.WinProbability(veteran, newcomer)
	fmt.Printf("P(veteran wins) = %.3f\n", win)
	pr, _ := p.Predict(veteran, newcomer)
	w, d, l := pr.Win, pr.Draw, pr.Loss
	fmt.Printf("win %.3f, draw %.3f, loss %.3f\n", w, d, l)
	// Output:
	// P(veteran wins) = 0.726
	// win 0.726, draw 0.045, loss 0.228
}

// A Rater rates a stream of matches, reusing one graph per match shape: the
// second three-team game below allocates nothing. Copy the ratings you keep;
// the Rater reuses its result buffers.
func ExampleRater() {
	p := trueskill.DefaultParams()
	r := p.NewRater()
	players := map[string]trueskill.Rating{"ann": p.NewRating(), "bob": p.NewRating(), "cy": p.NewRating()}
	for _, finish := range [][3]string{{"ann", "bob", "cy"}, {"bob", "ann", "cy"}} {
		m := trueskill.Match{Teams: [][]trueskill.Rating{{players[finish[0]]}, {players[finish[1]]}, {players[finish[2]]}}}
		res, err := r.Rate(context.Background(), m)
		if err != nil {
			fmt.Println(err)
			return
		}
		for j, name := range finish {
			players[name] = res.Ratings[j][0]
		}
	}
	for _, name := range []string{"ann", "bob", "cy"} {
		fmt.Printf("%s: μ = %.2f, σ = %.2f\n", name, players[name].Mu, players[name].Sigma)
	}
	// Output:
	// ann: μ = 27.78, σ = 5.25
	// bob: μ = 30.28, σ = 5.20
	// cy: μ = 16.15, σ = 5.85
}
