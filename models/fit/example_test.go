package fit_test

import (
	"context"
	"fmt"

	"github.com/skillgraph/skillgraph/models/fit"
	"github.com/skillgraph/skillgraph/models/throughtime"
)

// A draw probability fitted by evidence: 200 games between players who
// never meet again, 40 of them drawn. σ₀ and γ are held by zero-width
// bounds, the draw probability is searched in [10⁻⁴, 0.9], and Progress
// counts the evaluations. The evidence is highest where each game is a
// draw with probability 40/200, whose log evidence is
// 40·log(0.2) + 160·log(0.4) = −210.98: a draw probability of
// 2Φ(Φ⁻¹(0.6)·√(σ₀² + β²)/β) − 1 = 0.3521 at σ₀ = 1.5, β = 1.
func Example() {
	games := make([]throughtime.Match, 200)
	for k := range games {
		games[k].Time = float64(k)
		games[k].Teams = [][]string{{fmt.Sprint("a", k)}, {fmt.Sprint("b", k)}}
		if k%5 == 0 {
			games[k].Ranks = []int{0, 0} // a draw
		}
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
	// draw probability 0.3521, log evidence -210.98 (start -215.37), converged true
	// progress reported every evaluation: true
}
