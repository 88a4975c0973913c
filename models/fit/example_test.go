package fit_test

import (
	"context"
	"fmt"

	"github.com/skillgraph/skillgraph/models/fit"
	"github.com/skillgraph/skillgraph/models/throughtime"
)

// A draw probability fitted by evidence: 200 games between players who
// never meet again, 37 of them drawn. σ₀ and γ are held by zero-width
// bounds, the draw probability is searched in [10⁻⁴, 0.9], and Progress
// counts the evaluations. The evidence is highest where each game is a
// draw with probability 37/200, whose log evidence is
// 37·log(0.185) + 163·log(0.4075) = −208.76.
func Example() {
	var games []throughtime.Match
	for k := range 200 {
		g := throughtime.Match{Time: float64(k), Teams: [][]string{{fmt.Sprint("a", k)}, {fmt.Sprint("b", k)}}}
		if k < 37 {
			g.Ranks = []int{0, 0}
		}
		games = append(games, g)
	}
	start := throughtime.Params{Sigma: 1.5, Beta: 1, Gamma: 0.1, DrawProbability: 0.5}
	bounds := throughtime.DefaultFitBounds(start)
	bounds.Sigma = fit.Bounds{Lo: 1.5, Hi: 1.5}
	bounds.Gamma = fit.Bounds{Lo: 0.1, Hi: 0.1}
	calls := 0
	opt := fit.Options[throughtime.Params]{
		Tolerance: 1e-9,
		Progress:  func(fit.Progress[throughtime.Params]) { calls++ },
	}
	p, rep, err := throughtime.Fit(context.Background(), start, games, bounds, throughtime.FilteredEvidence, opt)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("draw probability %.4f, log evidence %.2f (start %.2f), converged %v\n", p.DrawProbability, rep.LogEvidence, rep.StartLogEvidence, rep.Converged)
	fmt.Printf("progress reported every evaluation: %v\n", calls == rep.Evaluations)
	// Output:
	// draw probability 0.3268, log evidence -208.76 (start -214.78), converged true
	// progress reported every evaluation: true
}
