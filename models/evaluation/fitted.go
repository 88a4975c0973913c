package evaluation

import (
	"context"
	"fmt"
	"math"

	"github.com/skillgraph/skillgraph/models/fit"
	"github.com/skillgraph/skillgraph/models/scorebased"
)

// fittedModel is a score model whose hyperparameters are fitted to each
// training set by scorebased.Fit (the one-step-ahead evidence of the
// training matches, over σ₀, β, the prior's expected score and a home
// advantage), then learnt online with them; see ScoreConfig.Fitted.
type fittedModel[R scorebased.Team | scorebased.Rating] struct {
	name     string
	newModel func(scorebased.Hyper) (scorebased.Online[R], error)
	m        scorebased.Online[R]
	ratings  roster[R]
}

func (m *fittedModel[R]) Name() string { return m.name }

func (m *fittedModel[R]) Fit(train []ScoredMatch) error {
	ctx := context.Background()
	m.ratings = roster[R]{}
	results := make([]scorebased.Match, len(train))
	for i, x := range train {
		if err := x.Validate(); err != nil {
			return fmt.Errorf("train[%d]: %w", i, err)
		}
		results[i] = scorebased.Match{A: x.Home, B: x.Away, ScoreA: float64(x.HomeScore), ScoreB: float64(x.AwayScore)}
	}
	h, _, err := scorebased.Fit(ctx, m.newModel, results, scorebased.FitStart(), scorebased.DefaultFitBounds(), fit.Options[scorebased.Hyper]{})
	if err != nil {
		return fmt.Errorf("evaluation: %s: %w", m.name, err)
	}
	if m.m, err = m.newModel(h); err != nil {
		return fmt.Errorf("evaluation: %s: %w", m.name, err)
	}
	return m.ratings.learn(m.m.Fresh(), train, func(x ScoredMatch, home, away R) (R, R, error) {
		return m.m.Rate(ctx, home, away, float64(x.HomeScore), float64(x.AwayScore))
	})
}

// Predict takes the paper's p for each model (scorebased.Online's
// WinProbability, the home advantage included) and its expected scores.
// The fitted models' probabilities stay far from 0 and 1, so log p and
// log(1 − p) are taken from p.
func (m *fittedModel[R]) Predict(home, away string) (ScorePrediction, error) {
	h, a, err := m.ratings.pair(m.name, home, away)
	if err != nil {
		return ScorePrediction{}, err
	}
	p, err := m.m.WinProbability(h, a)
	if err != nil {
		return checkPrediction(m.name, home, away, ScorePrediction{}, err)
	}
	pr, err := m.m.Predict(h, a)
	if err != nil {
		return checkPrediction(m.name, home, away, ScorePrediction{}, err)
	}
	out := ScorePrediction{LogWin: math.Log(p), LogNotWin: math.Log1p(-p)}
	if pr.HasScores {
		out.HomeScore, out.AwayScore, out.HasScores = pr.ScoreA, pr.ScoreB, true
	}
	return checkPrediction(m.name, home, away, out, nil)
}

// fittedModels returns the three score models with fitted hyperparameters.
func fittedModels() []ScoreModel {
	return []ScoreModel{
		&fittedModel[scorebased.Team]{name: "Poisson-OD fitted", newModel: scorebased.OnlinePoissonOD},
		&fittedModel[scorebased.Team]{name: "Gaussian-OD fitted", newModel: scorebased.OnlineGaussianOD},
		&fittedModel[scorebased.Rating]{name: "Gaussian-SD fitted", newModel: scorebased.OnlineGaussianSD},
	}
}
