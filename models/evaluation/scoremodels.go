package evaluation

import (
	"cmp"
	"context"
	"fmt"
	"math"

	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/models/elo"
	"github.com/skillgraph/skillgraph/models/fit"
	"github.com/skillgraph/skillgraph/models/scorebased"
	"github.com/skillgraph/skillgraph/models/trueskill"
	"github.com/skillgraph/skillgraph/record"
)

// Predictor is a model as the score protocol drives it: Observe learns
// from each training match in turn (two teams with scores), then Predict
// forecasts each test match (two teams; scores and ranks are not read).
// The first team is the home side.
type Predictor interface {
	Observe(m *record.Match) error
	Predict(m *record.Match) (ScorePrediction, error)
}

// ScoreModel is a model of the score protocol: its name, and New, which
// starts it afresh, setting from the training matches what the protocol
// sets from them (γ, the draw probability, fitted hyperparameters).
type ScoreModel struct {
	Name string
	New  func(train []record.Match) (Predictor, error)
}

// ScorePrediction is a forecast of a scored match.
type ScorePrediction struct {
	// LogWin and LogNotWin are log p and log(1 − p), p the probability
	// that home wins (the paper's section 4), each computed on its own.
	LogWin, LogNotWin float64
	// HomeScore and AwayScore are the expected scores, if HasScores.
	HomeScore, AwayScore float64
	HasScores            bool
}

// Check reports a prediction that cannot be scored (ErrNumerical): logs
// that fail checkLogs or, with scores, a score that is not finite.
func (p ScorePrediction) Check() error {
	if err := checkLogs(p.LogWin, p.LogNotWin); err != nil {
		return fmt.Errorf("%w: %w", err, ErrNumerical)
	}
	if p.HasScores && (!messages.IsFinite(p.HomeScore) || !messages.IsFinite(p.AwayScore)) {
		return fmt.Errorf("scores %v-%v: %w", p.HomeScore, p.AwayScore, ErrNumerical)
	}
	return nil
}

// ScoreConfig holds the settings of ScoreModels that the paper leaves
// open. The zero value is the paper's Table 1.
type ScoreConfig struct {
	// TrueSkillTau is TrueSkill's dynamics τ; Table 1 has none.
	TrueSkillTau float64
	// Fitted adds Poisson-OD, Gaussian-OD and Gaussian-SD with their
	// hyperparameters fitted to each training set by scorebased.Fit (σ₀,
	// β, the prior's expected score and a home advantage): the paper's
	// settings are on TrueSkill's scale, far from a goal scale.
	Fitted bool
}

// ScoreModels returns the five models of the experiment with the paper's
// Table 1 parameters: TrueSkill (μ₀ = 25, σ₀ = 25/3, β = σ₀/2, τ from cfg,
// DrawProbability of the training matches), Poisson-OD, Gaussian-OD and
// Gaussian-SD (γ by Gammas, no dynamics), and Elo (α = 0.07, β = σ₀/2). A
// team not seen in training has the prior rating. A τ that is negative or
// not finite is ErrInput.
func ScoreModels(cfg ScoreConfig) ([]ScoreModel, error) {
	if !(cfg.TrueSkillTau >= 0) || math.IsInf(cfg.TrueSkillTau, 1) {
		return nil, fmt.Errorf("evaluation: ScoreModels: TrueSkillTau = %v: %w", cfg.TrueSkillTau, ErrInput)
	}
	od := func(od, _ float64) float64 { return od }
	sd := func(_, sd float64) float64 { return sd }
	models := []ScoreModel{
		{"TrueSkill", func(train []record.Match) (Predictor, error) {
			p := trueskill.DefaultParams()
			p.Tau, p.DrawProbability = cfg.TrueSkillTau, DrawProbability(train)
			return newRatings[trueskill.Rating](trueSkill{p}, trueSkill{p}.predict), nil
		}},
		scoreBased("Poisson-OD", scorebased.OnlinePoissonOD, nil, false),
		scoreBased("Gaussian-OD", scorebased.OnlineGaussianOD, od, false),
		scoreBased("Gaussian-SD", scorebased.OnlineGaussianSD, sd, false),
		{"Elo", func([]record.Match) (Predictor, error) {
			e := eloRater{elo.DefaultParams()}
			return newRatings[float64](e, e.predict), nil
		}},
	}
	if cfg.Fitted {
		models = append(models,
			scoreBased("Poisson-OD fitted", scorebased.OnlinePoissonOD, nil, true),
			scoreBased("Gaussian-OD fitted", scorebased.OnlineGaussianOD, od, true),
			scoreBased("Gaussian-SD fitted", scorebased.OnlineGaussianSD, sd, true))
	}
	return models, nil
}

// rater rates a new team and updates ratings after a match, as
// scorebased.Online does.
type rater[R any] interface {
	Fresh() R
	Rate(ctx context.Context, home, away R, homeScore, awayScore float64) (R, R, error)
}

// ratings is a Predictor keeping a rater's ratings by team name.
type ratings[R any] struct {
	rater   rater[R]
	predict func(home, away R) (ScorePrediction, error)
	by      map[string]R
}

func newRatings[R any](r rater[R], predict func(home, away R) (ScorePrediction, error)) *ratings[R] {
	return &ratings[R]{rater: r, predict: predict, by: map[string]R{}}
}

func (r *ratings[R]) get(team string) R {
	if x, ok := r.by[team]; ok {
		return x
	}
	return r.rater.Fresh()
}

func (r *ratings[R]) Observe(m *record.Match) error {
	if err := checkMatch("evaluation: Observe", m, true, true); err != nil {
		return err
	}
	h, a := m.Teams[0], m.Teams[1]
	rh, ra, err := r.rater.Rate(context.Background(), r.get(h.Name), r.get(a.Name), float64(h.Score), float64(a.Score))
	if err != nil {
		return fmt.Errorf("evaluation: match %s: %w", m.ID, err)
	}
	r.by[h.Name], r.by[a.Name] = rh, ra
	return nil
}

func (r *ratings[R]) Predict(m *record.Match) (ScorePrediction, error) {
	if err := checkMatch("evaluation: Predict", m, true, false); err != nil {
		return ScorePrediction{}, err
	}
	p, err := r.predict(r.get(m.Teams[0].Name), r.get(m.Teams[1].Name))
	if err == nil {
		err = p.Check()
	}
	if err != nil {
		return ScorePrediction{}, fmt.Errorf("evaluation: match %s: %w", m.ID, err)
	}
	return p, nil
}

// trueSkill is TrueSkill with one player a side, the outcome read from
// the scores.
type trueSkill struct{ p trueskill.Params }

func (t trueSkill) Fresh() trueskill.Rating { return t.p.NewRating() }

func (t trueSkill) Rate(_ context.Context, h, a trueskill.Rating, hs, as float64) (trueskill.Rating, trueskill.Rating, error) {
	if hs < as {
		a, h, err := t.p.Rate1v1(a, h, false)
		return h, a, err
	}
	return t.p.Rate1v1(h, a, hs == as)
}

// predict is eq. 11 of the score-based paper, P(d > 0) = Φ(μ_d/σ_d):
// trueskill.Params.Predict without a draw margin, whose loss is then
// 1 − P(d > 0). The logs go through messages.Log: Φ is subnormal 37.5 σ_d
// out.
func (t trueSkill) predict(h, a trueskill.Rating) (ScorePrediction, error) {
	p := t.p
	p.DrawProbability, p.DrawMargin = 0, 0
	pr, err := p.Predict([]trueskill.Rating{h}, []trueskill.Rating{a})
	return ScorePrediction{LogWin: messages.Log(pr.Win), LogNotWin: messages.Log(pr.Loss)}, err
}

// eloRater is Elo, the outcome read from the scores.
type eloRater struct{ p elo.Params }

func (e eloRater) Fresh() float64 { return e.p.Initial }

func (e eloRater) Rate(_ context.Context, h, a, hs, as float64) (float64, float64, error) {
	d, err := e.p.Delta(h, a, cmp.Compare(hs, as))
	return h + d, a - d, err
}

// predict is eq. 1 of the TrueSkill paper, Φ((s_h − s_a)/(√2·β)), in logs.
func (e eloRater) predict(h, a float64) (ScorePrediction, error) {
	return gaussianWin((h - a) / (math.Sqrt2 * e.p.Beta)), nil
}

// scoreBased is a model of package scorebased under Table 1's settings,
// γ picked by gamma from Gammas of the training matches (nil for
// Poisson-OD, which has none), or, if fit, under hyperparameters that
// scorebased.Fit chooses for them.
func scoreBased[R scorebased.Team | scorebased.Rating](name string, newModel func(scorebased.Hyper) (scorebased.Online[R], error), gamma func(od, sd float64) float64, fitted bool) ScoreModel {
	return ScoreModel{Name: name, New: func(train []record.Match) (Predictor, error) {
		h := scorebased.Hyper{Params: scorebased.DefaultParams()}
		if gamma != nil {
			h.Params.Gamma = gamma(Gammas(train))
		}
		var err error
		if fitted {
			ms := make([]scorebased.Match, len(train))
			for i := 0; err == nil && i < len(train); i++ {
				if err = checkMatch(fmt.Sprintf("train[%d]", i), &train[i], true, true); err == nil {
					t := train[i].Teams
					ms[i] = scorebased.Match{A: t[0].Name, B: t[1].Name, ScoreA: float64(t[0].Score), ScoreB: float64(t[1].Score)}
				}
			}
			if err == nil {
				h, _, err = scorebased.Fit(context.Background(), newModel, ms, scorebased.FitStart(), scorebased.DefaultFitBounds(), fit.Options[scorebased.Hyper]{})
			}
		}
		var m scorebased.Online[R]
		if err == nil {
			m, err = newModel(h)
		}
		if err != nil {
			return nil, fmt.Errorf("evaluation: %s: %w", name, err)
		}
		return newRatings(m, func(a, b R) (ScorePrediction, error) {
			pr, err := m.Predict(a, b)
			if err != nil {
				return ScorePrediction{}, err
			}
			var out ScorePrediction
			if gamma == nil {
				out, err = skellamWin(pr)
			} else {
				out = gaussianWin(pr.Difference / spread(m.Hyper().Params, a, b))
			}
			if pr.HasScores {
				out.HomeScore, out.AwayScore, out.HasScores = pr.ScoreA, pr.ScoreB, true
			}
			return out, err
		}), nil
	}}
}

// spread is the standard deviation of a Gaussian model's predicted score
// difference, scorebased.Params.DifferenceSD of the match's skills:
// Gaussian-OD's four (eq. 21) or Gaussian-SD's two (eq. 24).
func spread(p scorebased.Params, h, a any) float64 {
	if h, ok := h.(scorebased.Team); ok {
		a := a.(scorebased.Team)
		return p.DifferenceSD(h.Offence, a.Defence, a.Offence, h.Defence)
	}
	return p.DifferenceSD(h.(scorebased.Rating), a.(scorebased.Rating))
}

// gaussianWin returns the prediction P(win) = Φ(z) in logs: log Φ(z) and
// log Φ(−z), each a tail computed on its own.
func gaussianWin(z float64) ScorePrediction {
	return ScorePrediction{LogWin: messages.LogNormCDF(z), LogNotWin: messages.LogNormCDF(-z)}
}

// skellamWin is Poisson-OD's P(win) from the Skellam distribution at its
// plug-in rates (scorebased.PoissonOD.Predict) and 1 − P(win) as P(draw) +
// P(loss), in logs: the log of each, or, below tinyProbability, of its
// tail summed in log space. A sum that rounded above 1 has log 0.
func skellamWin(pr scorebased.Prediction) (ScorePrediction, error) {
	var logs [2]float64
	for i, p := range []float64{pr.Win, pr.Draw + pr.Loss} {
		logs[i] = math.Min(0, math.Log(p))
		if p < tinyProbability {
			var err error
			if logs[i], err = skellamLogTail(scorebased.Skellam{Lambda1: pr.ScoreA, Lambda2: pr.ScoreB}, i == 0); err != nil {
				return ScorePrediction{}, err
			}
		}
	}
	return ScorePrediction{LogWin: logs[0], LogNotWin: logs[1]}, nil
}

// tinyProbability is where a probability's log is taken from a log-space
// sum: below about 1e-308 the probability itself loses its digits.
const tinyProbability = 1e-300

// skellamLogTail returns log P(X − Y ≥ 1) (upper) or log P(X − Y ≤ 0) for
// s, summing exp(LogProb(k)) relative to its first term from k = 1 up or
// k = 0 down: for a tail beyond the mode, where the terms only fall, so
// the sum stops at a term below e⁻⁴⁰ of the first (or after 10⁵ terms,
// which only rates in the millions reach).
func skellamLogTail(s scorebased.Skellam, upper bool) (float64, error) {
	k, step := 1, 1
	if !upper {
		k, step = 0, -1
	}
	first, err := s.LogProb(k)
	if err != nil || math.IsInf(first, -1) {
		return first, err
	}
	sum := 1.0
	for n := 1; n < 100000; n++ {
		k += step
		l, err := s.LogProb(k)
		if err != nil {
			return math.NaN(), err
		}
		if l < first-40 {
			break
		}
		sum += math.Exp(l - first)
	}
	return first + math.Log(sum), nil
}
