package evaluation

import (
	"fmt"
	"math"
	"slices"

	"github.com/skillgraph/skillgraph/models/elo"
	"github.com/skillgraph/skillgraph/models/scorebased"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

// ScoreModel is a rating model under the score-based protocol: Fit learns
// online from training matches, starting afresh, and Predict forecasts a
// match from the learnt ratings.
type ScoreModel interface {
	// Name names the model in results and errors.
	Name() string
	// Fit learns from train, in order. The models of ScoreModels reject a
	// match that fails ScoredMatch.Validate, naming its index.
	Fit(train []ScoredMatch) error
	// Predict returns the probability that home wins (the paper's section 4
	// definition for each model) and, if the model predicts scores, both
	// expected scores. The models of ScoreModels return ErrNotFitted before
	// a successful Fit, reject the teams as ScoredMatch.Validate does, and
	// return ErrNumerical rather than a probability outside [0, 1] or a
	// score that is not finite. A team not seen in training has the prior
	// rating.
	Predict(home, away string) (pWin, homeScore, awayScore float64, hasScores bool, err error)
}

// ScoreModels returns the five models of the experiment with the paper's
// Table 1 parameters: TrueSkill (draw probability estimated from the
// training matches by DrawProbability), Poisson-OD, Gaussian-OD and
// Gaussian-SD (γ from the training matches by Gammas), and Elo (α = 0.07,
// β = σ₀/2).
func ScoreModels() []ScoreModel {
	return []ScoreModel{&tsModel{}, &poissonModel{}, &godModel{}, &gsdModel{}, &eloModel{}}
}

// Gammas returns γ for Gaussian-OD and Gaussian-SD as the protocol sets it
// from the training matches: the sample standard deviation of the scores
// and of the score differences (scorebased.EstimateGammaOD and
// EstimateGammaSD), or scorebased.DefaultParams' γ where that cannot be
// estimated: fewer than two values, or all equal (a slice of 0-0 draws, for
// one), which would make γ 0.
func Gammas(train []ScoredMatch) (od, sd float64) {
	scores := make([]scorebased.MatchScore, len(train))
	for i, m := range train {
		scores[i] = scorebased.MatchScore{ScoreA: float64(m.HomeScore), ScoreB: float64(m.AwayScore)}
	}
	od, err := scorebased.EstimateGammaOD(scores)
	if err != nil {
		od = scorebased.DefaultParams().Gamma
	}
	sd, err = scorebased.EstimateGammaSD(scores)
	if err != nil {
		sd = scorebased.DefaultParams().Gamma
	}
	return od, sd
}

// roster holds a model's ratings by team name during a fit; a team not yet
// seen has the fresh rating. Its ratings are nil until a fit succeeds,
// which is how the models know whether they may predict.
type roster[R any] struct {
	ratings map[string]R
	fresh   R
}

func (r roster[R]) get(team string) R {
	if x, ok := r.ratings[team]; ok {
		return x
	}
	return r.fresh
}

// learn starts afresh from the fresh rating and updates the ratings online
// with every match of train, in order. On error the roster is left unfitted.
func (r *roster[R]) learn(fresh R, train []ScoredMatch, update func(x ScoredMatch, home, away R) (R, R, error)) error {
	*r = roster[R]{}
	ratings := map[string]R{}
	get := func(team string) R {
		if x, ok := ratings[team]; ok {
			return x
		}
		return fresh
	}
	for i, x := range train {
		if err := x.Validate(); err != nil {
			return fmt.Errorf("train[%d]: %w", i, err)
		}
		h, a, err := update(x, get(x.Home), get(x.Away))
		if err != nil {
			return fmt.Errorf("train[%d] (%s v %s): %w", i, x.Home, x.Away, err)
		}
		ratings[x.Home], ratings[x.Away] = h, a
	}
	*r = roster[R]{ratings: ratings, fresh: fresh}
	return nil
}

// pair returns the ratings of home and away for a prediction: the model
// must be fitted (ErrNotFitted) and the teams must be two valid names.
func (r roster[R]) pair(model, home, away string) (R, R, error) {
	var zero R
	if r.ratings == nil {
		return zero, zero, fmt.Errorf("evaluation: %s: Predict before a successful Fit: %w", model, ErrNotFitted)
	}
	if err := checkTeams(home, away); err != nil {
		return zero, zero, fmt.Errorf("evaluation: %s: Predict: %w", model, err)
	}
	return r.get(home), r.get(away), nil
}

// checkPrediction is the rule for what a ScoreModel predicts: a win
// probability in [0, 1] and, if it predicts scores, finite scores
// (ErrNumerical otherwise). err, the model's own error, passes through.
func checkPrediction(model, home, away string, pWin, homeScore, awayScore float64, hasScores bool, err error) (float64, float64, float64, bool, error) {
	switch {
	case err != nil:
		return 0, 0, 0, false, err
	case !isProbability(pWin):
		err = fmt.Errorf("evaluation: %s: P(%s beats %s) = %v: %w", model, home, away, pWin, ErrNumerical)
	case hasScores && (!finite(homeScore) || !finite(awayScore)):
		err = fmt.Errorf("evaluation: %s: %s v %s scores %v-%v: %w", model, home, away, homeScore, awayScore, ErrNumerical)
	}
	if err != nil {
		return 0, 0, 0, false, err
	}
	return pWin, homeScore, awayScore, hasScores, nil
}

type tsModel struct {
	p       trueskill.Params
	ratings roster[trueskill.Rating]
}

func (*tsModel) Name() string { return "TrueSkill" }

func (m *tsModel) Fit(train []ScoredMatch) error {
	m.p = trueskill.DefaultParams()
	m.p.DrawProbability = DrawProbability(AsRanked(train))
	return m.ratings.learn(m.p.NewRating(), train, func(x ScoredMatch, h, a trueskill.Rating) (trueskill.Rating, trueskill.Rating, error) {
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
	h, a, err := m.ratings.pair(m.Name(), home, away)
	if err != nil {
		return 0, 0, 0, false, err
	}
	p := scorebased.TrueSkillWinProbability(scorebased.Rating(h), scorebased.Rating(a), m.p.Beta)
	return checkPrediction(m.Name(), home, away, p, 0, 0, false, nil)
}

type poissonModel struct {
	m     scorebased.PoissonOD
	teams roster[scorebased.Team]
}

func (*poissonModel) Name() string { return "Poisson-OD" }

func (m *poissonModel) Fit(train []ScoredMatch) error {
	m.m = scorebased.NewPoissonOD(scorebased.DefaultParams())
	return m.teams.learn(m.m.Params.NewTeam(), train, func(x ScoredMatch, h, a scorebased.Team) (scorebased.Team, scorebased.Team, error) {
		h, a, _, err := m.m.Update(h, a, x.HomeScore, x.AwayScore)
		return h, a, err
	})
}

func (m *poissonModel) Predict(home, away string) (float64, float64, float64, bool, error) {
	h, a, err := m.teams.pair(m.Name(), home, away)
	if err != nil {
		return 0, 0, 0, false, err
	}
	pr, err := m.m.Predict(h, a)
	return checkPrediction(m.Name(), home, away, pr.Win, pr.ScoreA, pr.ScoreB, true, err)
}

type godModel struct {
	m     scorebased.GaussianOD
	teams roster[scorebased.Team]
}

func (*godModel) Name() string { return "Gaussian-OD" }

func (m *godModel) Fit(train []ScoredMatch) error {
	p := scorebased.DefaultParams()
	p.Gamma, _ = Gammas(train)
	m.m = scorebased.NewGaussianOD(p)
	return m.teams.learn(m.m.Params.NewTeam(), train, func(x ScoredMatch, h, a scorebased.Team) (scorebased.Team, scorebased.Team, error) {
		return m.m.Update(h, a, float64(x.HomeScore), float64(x.AwayScore))
	})
}

func (m *godModel) Predict(home, away string) (float64, float64, float64, bool, error) {
	h, a, err := m.teams.pair(m.Name(), home, away)
	if err != nil {
		return 0, 0, 0, false, err
	}
	w, err := m.m.WinProbability(h, a)
	if err != nil {
		return 0, 0, 0, false, err
	}
	pr, err := m.m.Predict(h, a)
	return checkPrediction(m.Name(), home, away, w, pr.ScoreA, pr.ScoreB, true, err)
}

type gsdModel struct {
	m       scorebased.GaussianSD
	ratings roster[scorebased.Rating]
}

func (*gsdModel) Name() string { return "Gaussian-SD" }

func (m *gsdModel) Fit(train []ScoredMatch) error {
	p := scorebased.DefaultParams()
	_, p.Gamma = Gammas(train)
	m.m = scorebased.NewGaussianSD(p)
	return m.ratings.learn(m.m.Params.NewRating(), train, func(x ScoredMatch, h, a scorebased.Rating) (scorebased.Rating, scorebased.Rating, error) {
		return m.m.Update(h, a, float64(x.HomeScore), float64(x.AwayScore))
	})
}

func (m *gsdModel) Predict(home, away string) (float64, float64, float64, bool, error) {
	h, a, err := m.ratings.pair(m.Name(), home, away)
	if err != nil {
		return 0, 0, 0, false, err
	}
	w, err := m.m.WinProbability(h, a)
	return checkPrediction(m.Name(), home, away, w, 0, 0, false, err)
}

type eloModel struct {
	p       elo.Params
	ratings roster[float64]
}

func (*eloModel) Name() string { return "Elo" }

func (m *eloModel) Fit(train []ScoredMatch) error {
	m.p = elo.DefaultParams()
	return m.ratings.learn(m.p.Initial, train, func(x ScoredMatch, h, a float64) (float64, float64, error) {
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
	h, a, err := m.ratings.pair(m.Name(), home, away)
	if err != nil {
		return 0, 0, 0, false, err
	}
	return checkPrediction(m.Name(), home, away, m.p.WinProbability(h, a), 0, 0, false, nil)
}

// DrawProbability returns the draw probability of ms for TrueSkill's draw
// margin: the share of adjacent places, in each match's order, that are
// tied (for two-team matches, the share of draws), 0 without any, and
// capped at MaxDrawProbability. Both protocols set TrueSkill's
// DrawProbability with it.
func DrawProbability(ms []RankedMatch) float64 {
	ties, adjacent := 0, 0
	for _, m := range ms {
		r := slices.Clone(m.Ranks)
		slices.Sort(r)
		for k := 1; k < len(r); k++ {
			adjacent++
			if r[k] == r[k-1] {
				ties++
			}
		}
	}
	if adjacent == 0 {
		return 0
	}
	return math.Min(float64(ties)/float64(adjacent), MaxDrawProbability)
}

// MaxDrawProbability caps DrawProbability. Data of nothing but ties (a
// training slice of draws) would give 1, an infinite draw margin, which
// trueskill.Params rejects; at 0.999 the margin is finite (about 3.3·√2·β
// for two players) and every outcome keeps a positive probability.
const MaxDrawProbability = 0.999
