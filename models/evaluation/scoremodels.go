package evaluation

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/skillgraph/skillgraph/messages"
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
	// Predict forecasts home against away. The models of ScoreModels
	// return ErrNotFitted before a successful Fit, reject the teams as
	// ScoredMatch.Validate does, and return ErrNumerical rather than a
	// prediction that fails ScorePrediction.Check. A team not seen in
	// training has the prior rating.
	Predict(home, away string) (ScorePrediction, error)
}

// ScorePrediction is a forecast of a scored match.
type ScorePrediction struct {
	// LogWin and LogNotWin are the natural logs of p, the probability that
	// home wins (the paper's section 4 definition for each model), and of
	// 1 − p, each computed directly so that neither loses its value where p
	// rounds to 0 or 1 in float64. InformationGain scores them.
	LogWin, LogNotWin float64
	// HomeScore and AwayScore are the expected scores, if HasScores.
	HomeScore, AwayScore float64
	HasScores            bool
}

// Win returns p, the probability that home wins.
func (p ScorePrediction) Win() float64 { return math.Exp(p.LogWin) }

// LogOdds returns log(p/(1 − p)), which orders forecasts as p does without
// p's rounding to 1 (AUC ranks by it).
func (p ScorePrediction) LogOdds() float64 { return p.LogWin - p.LogNotWin }

// Check reports a prediction that cannot be scored (ErrNumerical): a log
// that is NaN or above 0, logs whose probabilities do not sum to 1 within
// 1e-6, both logs −Inf, or, with scores, a score that is not finite.
func (p ScorePrediction) Check() error {
	switch {
	case !(p.LogWin <= 0 && p.LogNotWin <= 0):
		return fmt.Errorf("log P(win) = %v, log P(no win) = %v: %w", p.LogWin, p.LogNotWin, ErrNumerical)
	case !(math.Abs(logAddExp(p.LogWin, p.LogNotWin)) <= 1e-6):
		return fmt.Errorf("P(win) = exp(%v) and P(no win) = exp(%v) do not sum to 1: %w", p.LogWin, p.LogNotWin, ErrNumerical)
	case p.HasScores && (!messages.IsFinite(p.HomeScore) || !messages.IsFinite(p.AwayScore)):
		return fmt.Errorf("scores %v-%v: %w", p.HomeScore, p.AwayScore, ErrNumerical)
	}
	return nil
}

// gaussianWin returns the prediction P(win) = Φ(z) in logs: log Φ(z) and
// log Φ(−z), each a tail computed on its own.
func gaussianWin(z float64) ScorePrediction {
	return ScorePrediction{LogWin: messages.LogNormCDF(z), LogNotWin: messages.LogNormCDF(-z)}
}

// ScoreConfig holds the settings of ScoreModels that the paper leaves open
// or that a user may want to vary. The zero value is the paper's Table 1.
type ScoreConfig struct {
	// TrueSkillTau is TrueSkill's dynamics τ. Table 1 of the score-based
	// paper gives TrueSkill no dynamics, so 0 is the protocol's setting;
	// trueskill.DefaultParams' τ = σ₀/100 is the Xbox Live one.
	TrueSkillTau float64
	// Fitted adds Poisson-OD, Gaussian-OD and Gaussian-SD with their
	// hyperparameters fitted to each training set (scorebased.Fit: σ₀, β,
	// the prior's expected score and a home advantage, by the training
	// matches' one-step-ahead evidence), after the five paper models. The
	// paper's settings are on TrueSkill's scale, far from a goal scale;
	// the fitted models show what the models do on the data's own scale.
	Fitted bool
}

// ScoreModels returns the five models of the experiment with the paper's
// Table 1 parameters: TrueSkill (μ₀ = 25, σ₀ = 25/3, β = σ₀/2, τ from cfg,
// draw probability estimated from the training matches by
// DrawProbability), Poisson-OD, Gaussian-OD and Gaussian-SD (γ from the
// training matches by Gammas, no dynamics), and Elo (α = 0.07, β = σ₀/2).
// A τ that is negative or not finite is ErrInput.
func ScoreModels(cfg ScoreConfig) ([]ScoreModel, error) {
	if !(cfg.TrueSkillTau >= 0) || math.IsInf(cfg.TrueSkillTau, 1) {
		return nil, fmt.Errorf("evaluation: ScoreModels: TrueSkillTau = %v: %w", cfg.TrueSkillTau, ErrInput)
	}
	models := []ScoreModel{&tsModel{tau: cfg.TrueSkillTau}, &poissonModel{}, &godModel{}, &gsdModel{}, &eloModel{}}
	if cfg.Fitted {
		models = append(models, fittedModels()...)
	}
	return models, nil
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

// checkPrediction applies ScorePrediction.Check to a model's prediction,
// naming the model and the match; err, the model's own error, passes
// through.
func checkPrediction(model, home, away string, p ScorePrediction, err error) (ScorePrediction, error) {
	if err == nil {
		err = p.Check()
		if err != nil {
			err = fmt.Errorf("evaluation: %s: %s v %s: %w", model, home, away, err)
		}
	}
	if err != nil {
		return ScorePrediction{}, err
	}
	return p, nil
}

type tsModel struct {
	tau     float64
	p       trueskill.Params
	ratings roster[trueskill.Rating]
}

func (*tsModel) Name() string { return "TrueSkill" }

func (m *tsModel) Fit(train []ScoredMatch) error {
	m.p = trueskill.DefaultParams()
	m.p.Tau = m.tau
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

// Predict uses eq. 11 of the score-based paper, P(d > 0) = Φ(μ_d/σ_d), which
// is TrueSkill's own prediction (trueskill.Params.Predict) without a draw
// margin: σ_d² = σ_h² + σ_a² + 2β² (+ 2τ², the drift before the match, when
// τ is set). Without a margin Predict's loss is Φ(−μ_d/σ_d) = 1 − P(d > 0).
// Their logs go through messages.Log: Φ is subnormal 37.5 σ_d out.
func (m *tsModel) Predict(home, away string) (ScorePrediction, error) {
	h, a, err := m.ratings.pair(m.Name(), home, away)
	if err != nil {
		return ScorePrediction{}, err
	}
	p := m.p
	p.DrawProbability, p.DrawMargin = 0, 0
	pr, err := p.Predict([]trueskill.Rating{h}, []trueskill.Rating{a})
	return checkPrediction(m.Name(), home, away, ScorePrediction{LogWin: messages.Log(pr.Win), LogNotWin: messages.Log(pr.Loss)}, err)
}

type poissonModel struct {
	m     scorebased.PoissonOD
	teams roster[scorebased.Team]
}

func (*poissonModel) Name() string { return "Poisson-OD" }

func (m *poissonModel) Fit(train []ScoredMatch) error {
	m.m = scorebased.NewPoissonOD(scorebased.DefaultParams())
	return m.teams.learn(m.m.Params.NewTeam(), train, func(x ScoredMatch, h, a scorebased.Team) (scorebased.Team, scorebased.Team, error) {
		h, a, _, err := m.m.Rate(context.Background(), h, a, x.HomeScore, x.AwayScore)
		return h, a, err
	})
}

// Predict takes P(win) from the Skellam distribution at the model's
// plug-in rates (scorebased.PoissonOD.Predict) and 1 − P(win) as P(draw) +
// P(loss), each summed directly; where one of them is below 1e-300, its
// log is summed in log space from Skellam.LogProb instead (skellamLogTail).
func (m *poissonModel) Predict(home, away string) (ScorePrediction, error) {
	h, a, err := m.teams.pair(m.Name(), home, away)
	if err != nil {
		return ScorePrediction{}, err
	}
	pr, err := m.m.Predict(h, a)
	if err != nil {
		return checkPrediction(m.Name(), home, away, ScorePrediction{}, err)
	}
	out := ScorePrediction{HomeScore: pr.ScoreA, AwayScore: pr.ScoreB, HasScores: true}
	s := scorebased.Skellam{Lambda1: pr.ScoreA, Lambda2: pr.ScoreB}
	if out.LogWin, err = logOrTail(pr.Win, s, true); err == nil {
		out.LogNotWin, err = logOrTail(pr.Draw+pr.Loss, s, false)
	}
	return checkPrediction(m.Name(), home, away, out, err)
}

// tinyProbability is where a probability's log is taken from a log-space
// sum rather than from the probability, which has lost its digits to
// float64's subnormal range (or underflowed to 0) below about 1e-308.
const tinyProbability = 1e-300

// logOrTail returns log p, or, for p below tinyProbability, the log of the
// tail of s that p is (win: P(X − Y ≥ 1), else P(X − Y ≤ 0)) summed in log
// space. A p that a sum of probabilities rounded above 1 (by an ulp or two)
// has log 0: that is rounding of the sum, not a probability moved.
func logOrTail(p float64, s scorebased.Skellam, win bool) (float64, error) {
	if p >= tinyProbability {
		return math.Min(0, math.Log(p)), nil
	}
	return skellamLogTail(s, win)
}

// skellamLogTail returns log P(X − Y ≥ 1) (upper) or log P(X − Y ≤ 0) for
// the Skellam distribution s, summing exp(LogProb(k)) relative to its first
// term from k = 1 upwards or k = 0 downwards. It is meant for a tail that
// lies beyond the mode, where the terms only fall: the sum stops once a
// term is below e⁻⁴⁰ of the first, or after maxTailTerms terms.
func skellamLogTail(s scorebased.Skellam, upper bool) (float64, error) {
	k, step := 1, 1
	if !upper {
		k, step = 0, -1
	}
	first, err := s.LogProb(k)
	if err != nil {
		return math.NaN(), err
	}
	if math.IsInf(first, -1) {
		return first, nil
	}
	sum := 1.0
	for n := 1; n < maxTailTerms; n++ {
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

// maxTailTerms bounds skellamLogTail's sum. Beyond the mode the terms of a
// Skellam tail fall at least geometrically once k exceeds the rates, so the
// bound is reached only for rates in the millions, where the normal
// approximation holds anyway.
const maxTailTerms = 100000

type godModel struct {
	m     scorebased.GaussianOD
	teams roster[scorebased.Team]
}

func (*godModel) Name() string { return "Gaussian-OD" }

func (m *godModel) Fit(train []ScoredMatch) error {
	p := scorebased.DefaultParams()
	p.Gamma, _ = Gammas(train)
	m.m = scorebased.NewGaussianOD(p)
	return m.teams.learn(m.m.Params.NewTeam(), train, byScores(m.m.Rate))
}

// Predict is eq. 21 (scorebased.GaussianOD.WinProbability, with its typos
// corrected): P(s_h − s_a > 0) = Φ(μ_d/σ_d), each score N(μ_o − μ_d,
// σ_o² + σ_d² + 2τ² + 2β² + γ²) and the two independent.
func (m *godModel) Predict(home, away string) (ScorePrediction, error) {
	h, a, err := m.teams.pair(m.Name(), home, away)
	if err != nil {
		return ScorePrediction{}, err
	}
	pr, err := m.m.Predict(h, a)
	return checkPrediction(m.Name(), home, away, differenceWin(pr, m.m.Params.DifferenceSD(h.Offence, a.Defence, a.Offence, h.Defence)), err)
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
	return m.ratings.learn(m.m.Params.NewRating(), train, byScores(m.m.Rate))
}

// byScores adapts a Gaussian score model's Rate to roster.learn: the home
// side is A and the match's scores are observed.
func byScores[R any](rate func(ctx context.Context, a, b R, scoreA, scoreB float64) (R, R, error)) func(ScoredMatch, R, R) (R, R, error) {
	return func(x ScoredMatch, h, a R) (R, R, error) {
		return rate(context.Background(), h, a, float64(x.HomeScore), float64(x.AwayScore))
	}
}

// Predict is eq. 24 as derived (scorebased.GaussianSD.WinProbability):
// P(s_h − s_a > 0) = Φ((μ_h − μ_a)/√(σ_h² + σ_a² + 2τ² + 2β² + γ²)).
func (m *gsdModel) Predict(home, away string) (ScorePrediction, error) {
	h, a, err := m.ratings.pair(m.Name(), home, away)
	if err != nil {
		return ScorePrediction{}, err
	}
	pr, err := m.m.Predict(h, a)
	return checkPrediction(m.Name(), home, away, differenceWin(pr, m.m.Params.DifferenceSD(h, a)), err)
}

// differenceWin is P(d > 0) = Φ(μ_d/σ_d) for a Gaussian model's predicted
// score difference d ~ N(μ_d, sd²), in logarithms (gaussianWin), with the
// predicted scores where the model has them.
func differenceWin(pr scorebased.Prediction, sd float64) ScorePrediction {
	out := gaussianWin(pr.Difference / sd)
	if pr.HasScores {
		out.HomeScore, out.AwayScore, out.HasScores = pr.ScoreA, pr.ScoreB, true
	}
	return out
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
		d, err := m.p.Delta(h, a, y)
		return h + d, a - d, err
	})
}

// Predict is eq. 1 of the TrueSkill paper, Φ((s_h − s_a)/(√2·β)).
func (m *eloModel) Predict(home, away string) (ScorePrediction, error) {
	h, a, err := m.ratings.pair(m.Name(), home, away)
	if err != nil {
		return ScorePrediction{}, err
	}
	return checkPrediction(m.Name(), home, away, gaussianWin((h-a)/(math.Sqrt2*m.p.Beta)), nil)
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
