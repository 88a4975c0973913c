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

type tsModel struct {
	p       trueskill.Params
	ratings map[string]trueskill.Rating
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
	m.ratings = map[string]trueskill.Rating{}
	for _, x := range train {
		h, a := m.rating(x.Home), m.rating(x.Away)
		var err error
		switch {
		case x.HomeScore > x.AwayScore:
			h, a, err = m.p.Rate1v1(h, a, false)
		case x.HomeScore < x.AwayScore:
			a, h, err = m.p.Rate1v1(a, h, false)
		default:
			h, a, err = m.p.Rate1v1(h, a, true)
		}
		if err != nil {
			return err
		}
		m.ratings[x.Home], m.ratings[x.Away] = h, a
	}
	return nil
}

func (m *tsModel) rating(t string) trueskill.Rating {
	if r, ok := m.ratings[t]; ok {
		return r
	}
	return m.p.NewRating()
}

// Predict uses eq. 11 of the score-based paper, P(d > 0) without a margin.
func (m *tsModel) Predict(home, away string) (float64, float64, float64, bool, error) {
	h, a := m.rating(home), m.rating(away)
	return scorebased.TrueSkillWinProbability(scorebased.Rating(h), scorebased.Rating(a), m.p.Beta), 0, 0, false, nil
}

type poissonModel struct {
	m     scorebased.PoissonOD
	teams map[string]scorebased.Team
}

func (*poissonModel) Name() string { return "Poisson-OD" }

func (m *poissonModel) Fit(train []ScoredMatch) error {
	m.m = scorebased.NewPoissonOD(scorebased.DefaultParams())
	m.teams = map[string]scorebased.Team{}
	for _, x := range train {
		h, a, _, err := m.m.Update(m.team(x.Home), m.team(x.Away), x.HomeScore, x.AwayScore)
		if err != nil {
			return err
		}
		m.teams[x.Home], m.teams[x.Away] = h, a
	}
	return nil
}

func (m *poissonModel) team(t string) scorebased.Team {
	if r, ok := m.teams[t]; ok {
		return r
	}
	return m.m.Params.NewTeam()
}

func (m *poissonModel) Predict(home, away string) (float64, float64, float64, bool, error) {
	pr, err := m.m.Predict(m.team(home), m.team(away))
	return pr.Win, pr.ScoreA, pr.ScoreB, true, err
}

type godModel struct {
	m     scorebased.GaussianOD
	teams map[string]scorebased.Team
}

func (*godModel) Name() string { return "Gaussian-OD" }

func (m *godModel) Fit(train []ScoredMatch) error {
	p := scorebased.DefaultParams()
	if g, err := scorebased.EstimateGammaOD(scores(train)); err == nil {
		p.Gamma = g
	}
	m.m = scorebased.NewGaussianOD(p)
	m.teams = map[string]scorebased.Team{}
	for _, x := range train {
		h, a, err := m.m.Update(m.team(x.Home), m.team(x.Away), float64(x.HomeScore), float64(x.AwayScore))
		if err != nil {
			return err
		}
		m.teams[x.Home], m.teams[x.Away] = h, a
	}
	return nil
}

func (m *godModel) team(t string) scorebased.Team {
	if r, ok := m.teams[t]; ok {
		return r
	}
	return m.m.Params.NewTeam()
}

func (m *godModel) Predict(home, away string) (float64, float64, float64, bool, error) {
	h, a := m.team(home), m.team(away)
	w, err := m.m.WinProbability(h, a)
	if err != nil {
		return 0, 0, 0, false, err
	}
	pr, err := m.m.Predict(h, a)
	return w, pr.ScoreA, pr.ScoreB, true, err
}

type gsdModel struct {
	m       scorebased.GaussianSD
	ratings map[string]scorebased.Rating
}

func (*gsdModel) Name() string { return "Gaussian-SD" }

func (m *gsdModel) Fit(train []ScoredMatch) error {
	p := scorebased.DefaultParams()
	if g, err := scorebased.EstimateGammaSD(scores(train)); err == nil {
		p.Gamma = g
	}
	m.m = scorebased.NewGaussianSD(p)
	m.ratings = map[string]scorebased.Rating{}
	for _, x := range train {
		h, a, err := m.m.Update(m.rating(x.Home), m.rating(x.Away), float64(x.HomeScore), float64(x.AwayScore))
		if err != nil {
			return err
		}
		m.ratings[x.Home], m.ratings[x.Away] = h, a
	}
	return nil
}

func (m *gsdModel) rating(t string) scorebased.Rating {
	if r, ok := m.ratings[t]; ok {
		return r
	}
	return m.m.Params.NewRating()
}

func (m *gsdModel) Predict(home, away string) (float64, float64, float64, bool, error) {
	w, err := m.m.WinProbability(m.rating(home), m.rating(away))
	return w, 0, 0, false, err
}

type eloModel struct {
	p       elo.Params
	ratings map[string]float64
}

func (*eloModel) Name() string { return "Elo" }

func (m *eloModel) Fit(train []ScoredMatch) error {
	m.p = elo.DefaultParams()
	m.ratings = map[string]float64{}
	for _, x := range train {
		h, a := m.rating(x.Home), m.rating(x.Away)
		y := 0
		switch {
		case x.HomeScore > x.AwayScore:
			y = 1
		case x.HomeScore < x.AwayScore:
			y = -1
		}
		d := m.p.Delta(h, a, y)
		m.ratings[x.Home], m.ratings[x.Away] = h+d, a-d
	}
	return nil
}

func (m *eloModel) rating(t string) float64 {
	if r, ok := m.ratings[t]; ok {
		return r
	}
	return m.p.Initial
}

func (m *eloModel) Predict(home, away string) (float64, float64, float64, bool, error) {
	return m.p.WinProbability(m.rating(home), m.rating(away)), 0, 0, false, nil
}
