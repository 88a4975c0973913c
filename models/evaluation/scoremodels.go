package evaluation

import (
	"github.com/skillgraph/skillgraph/models/elo"
	"github.com/skillgraph/skillgraph/models/scorebased"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

// ScoreModel is a rating model under the score-based protocol: Fit learns
// online from training matches, starting afresh, and Predict forecasts a
// match from the learnt ratings.
type ScoreModel interface {
	Name() string
	Fit(train []ScoredMatch) error
	// Predict returns the probability that home wins (the paper's section 4
	// definition for each model) and, if the model predicts scores, both
	// expected scores.
	Predict(home, away string) (pWin, homeScore, awayScore float64, hasScores bool, err error)
}

// ScoreModels returns the five models of the experiment with the paper's
// Table 1 parameters: TrueSkill (draw probability estimated from the
// training matches), Poisson-OD, Gaussian-OD and Gaussian-SD (γ estimated
// from the training matches), and Elo (α = 0.07, β = σ₀/2).
func ScoreModels() []ScoreModel {
	return []ScoreModel{&tsModel{}, &poissonModel{}, &godModel{}, &gsdModel{}, &eloModel{}}
}

func scores(train []ScoredMatch) []scorebased.MatchScore {
	out := make([]scorebased.MatchScore, len(train))
	for i, m := range train {
		out[i] = scorebased.MatchScore{ScoreA: float64(m.HomeScore), ScoreB: float64(m.AwayScore)}
	}
	return out
}

// roster holds a model's ratings by team name during a fit; a team not yet
// seen has the fresh rating.
type roster[R any] struct {
	ratings map[string]R
	fresh   R
}

func newRoster[R any](fresh R) roster[R] { return roster[R]{ratings: map[string]R{}, fresh: fresh} }

func (r roster[R]) get(team string) R {
	if x, ok := r.ratings[team]; ok {
		return x
	}
	return r.fresh
}

// learn updates the ratings online with every match of train, in order.
func (r roster[R]) learn(train []ScoredMatch, update func(x ScoredMatch, home, away R) (R, R, error)) error {
	for _, x := range train {
		h, a, err := update(x, r.get(x.Home), r.get(x.Away))
		if err != nil {
			return err
		}
		r.ratings[x.Home], r.ratings[x.Away] = h, a
	}
	return nil
}

type tsModel struct {
	p       trueskill.Params
	ratings roster[trueskill.Rating]
}

func (*tsModel) Name() string { return "TrueSkill" }

func (m *tsModel) Fit(train []ScoredMatch) error {
	m.p = trueskill.DefaultParams()
	draws := 0
	for _, x := range train {
		if x.HomeScore == x.AwayScore {
			draws++
		}
	}
	if len(train) > 0 {
		m.p.DrawProbability = float64(draws) / float64(len(train))
	}
	m.ratings = newRoster(m.p.NewRating())
	return m.ratings.learn(train, func(x ScoredMatch, h, a trueskill.Rating) (trueskill.Rating, trueskill.Rating, error) {
		var err error
		switch {
		case x.HomeScore > x.AwayScore:
			h, a, err = m.p.Rate1v1(h, a, false)
		case x.HomeScore < x.AwayScore:
			a, h, err = m.p.Rate1v1(a, h, false)
		default:
			h, a, err = m.p.Rate1v1(h, a, true)
		}
		return h, a, err
	})
}

// Predict uses eq. 11 of the score-based paper, P(d > 0) without a margin.
func (m *tsModel) Predict(home, away string) (float64, float64, float64, bool, error) {
	h, a := m.ratings.get(home), m.ratings.get(away)
	return scorebased.TrueSkillWinProbability(scorebased.Rating(h), scorebased.Rating(a), m.p.Beta), 0, 0, false, nil
}

type poissonModel struct {
	m     scorebased.PoissonOD
	teams roster[scorebased.Team]
}

func (*poissonModel) Name() string { return "Poisson-OD" }

func (m *poissonModel) Fit(train []ScoredMatch) error {
	m.m = scorebased.NewPoissonOD(scorebased.DefaultParams())
	m.teams = newRoster(m.m.Params.NewTeam())
	return m.teams.learn(train, func(x ScoredMatch, h, a scorebased.Team) (scorebased.Team, scorebased.Team, error) {
		h, a, _, err := m.m.Update(h, a, x.HomeScore, x.AwayScore)
		return h, a, err
	})
}

func (m *poissonModel) Predict(home, away string) (float64, float64, float64, bool, error) {
	pr, err := m.m.Predict(m.teams.get(home), m.teams.get(away))
	return pr.Win, pr.ScoreA, pr.ScoreB, true, err
}

type godModel struct {
	m     scorebased.GaussianOD
	teams roster[scorebased.Team]
}

func (*godModel) Name() string { return "Gaussian-OD" }

func (m *godModel) Fit(train []ScoredMatch) error {
	p := scorebased.DefaultParams()
	if g, err := scorebased.EstimateGammaOD(scores(train)); err == nil {
		p.Gamma = g
	}
	m.m = scorebased.NewGaussianOD(p)
	m.teams = newRoster(m.m.Params.NewTeam())
	return m.teams.learn(train, func(x ScoredMatch, h, a scorebased.Team) (scorebased.Team, scorebased.Team, error) {
		return m.m.Update(h, a, float64(x.HomeScore), float64(x.AwayScore))
	})
}

func (m *godModel) Predict(home, away string) (float64, float64, float64, bool, error) {
	h, a := m.teams.get(home), m.teams.get(away)
	w, err := m.m.WinProbability(h, a)
	if err != nil {
		return 0, 0, 0, false, err
	}
	pr, err := m.m.Predict(h, a)
	return w, pr.ScoreA, pr.ScoreB, true, err
}

type gsdModel struct {
	m       scorebased.GaussianSD
	ratings roster[scorebased.Rating]
}

func (*gsdModel) Name() string { return "Gaussian-SD" }

func (m *gsdModel) Fit(train []ScoredMatch) error {
	p := scorebased.DefaultParams()
	if g, err := scorebased.EstimateGammaSD(scores(train)); err == nil {
		p.Gamma = g
	}
	m.m = scorebased.NewGaussianSD(p)
	m.ratings = newRoster(m.m.Params.NewRating())
	return m.ratings.learn(train, func(x ScoredMatch, h, a scorebased.Rating) (scorebased.Rating, scorebased.Rating, error) {
		return m.m.Update(h, a, float64(x.HomeScore), float64(x.AwayScore))
	})
}

func (m *gsdModel) Predict(home, away string) (float64, float64, float64, bool, error) {
	w, err := m.m.WinProbability(m.ratings.get(home), m.ratings.get(away))
	return w, 0, 0, false, err
}

type eloModel struct {
	p       elo.Params
	ratings roster[float64]
}

func (*eloModel) Name() string { return "Elo" }

func (m *eloModel) Fit(train []ScoredMatch) error {
	m.p = elo.DefaultParams()
	m.ratings = newRoster(m.p.Initial)
	return m.ratings.learn(train, func(x ScoredMatch, h, a float64) (float64, float64, error) {
		y := 0
		switch {
		case x.HomeScore > x.AwayScore:
			y = 1
		case x.HomeScore < x.AwayScore:
			y = -1
		}
		d := m.p.Delta(h, a, y)
		return h + d, a - d, nil
	})
}

func (m *eloModel) Predict(home, away string) (float64, float64, float64, bool, error) {
	return m.p.WinProbability(m.ratings.get(home), m.ratings.get(away)), 0, 0, false, nil
}
