package scorebased_test

import (
	"context"
	"fmt"

	"github.com/skillgraph/skillgraph/models/evaluation"
	"github.com/skillgraph/skillgraph/models/fit"
	"github.com/skillgraph/skillgraph/models/scorebased"
	"github.com/skillgraph/skillgraph/record"
)

// Fit Gaussian-OD's hyperparameters to the first 80 % of the 2008-09
// Premier League, learn the ratings with them, and predict a fixture. With
// the paper's β = 25/6 the predicted goal difference has a spread of
// about 8.6 goals and every match looks like a coin toss; fitted, the noise
// is on the scale of goals and the home side is 0.29 goals stronger.
func ExampleFit() {
	file, _, err := record.ReadFile("../../examples/data/epl.csv")
	if err != nil {
		fmt.Println(err)
		return
	}
	season := evaluation.Season(file, "2008-09")
	var train []scorebased.Match
	for _, m := range season[:int(0.8*float64(len(season)))] {
		home, away := m.Teams[0], m.Teams[1]
		train = append(train, scorebased.Match{A: home.Name, B: away.Name, ScoreA: float64(home.Score), ScoreB: float64(away.Score)})
	}
	ctx := context.Background()
	start := scorebased.FitStart() // on the scale of goals
	h, rep, err := scorebased.Fit(ctx, scorebased.OnlineGaussianOD, train, start, scorebased.DefaultFitBounds(), fit.Options[scorebased.Hyper]{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("σ₀ %.2f, β %.2f (γ %.0f held), base %.2f goals, home advantage %.2f goals\n",
		h.Params.Sigma, h.Params.Beta, h.Params.Gamma, h.Base, h.Home)
	fmt.Printf("log evidence %.1f (start %.1f), converged %v\n", rep.LogEvidence, rep.StartLogEvidence, rep.Converged)

	m, _ := scorebased.OnlineGaussianOD(h)
	teams, _, err := scorebased.Learn(ctx, m, train)
	if err != nil {
		fmt.Println(err)
		return
	}
	pr, _ := m.Predict(teams["Man United"], teams["Arsenal"])
	fmt.Printf("Man United v Arsenal: %.2f-%.2f, W %.2f D %.2f L %.2f\n", pr.ScoreA, pr.ScoreB, pr.Win, pr.Draw, pr.Loss)
	// Output:
	// σ₀ 0.26, β 0.31 (γ 1 held), base 1.11 goals, home advantage 0.29 goals
	// log evidence -937.4 (start -951.8), converged true
	// Man United v Arsenal: 1.41-0.91, W 0.50 D 0.24 L 0.26
}
