package scorebased

import (
	"context"
	"fmt"
	"math"

	"github.com/skillgraph/skillgraph/messages"
)

// Match is one played match between two named teams, for Learn and Fit:
// A is the home side when the data has one (Hyper.Home is added to A's
// side), and the scores are A's and B's.
type Match struct {
	A, B           string
	ScoreA, ScoreB float64
}

// Hyper are a score model's hyperparameters, those of Params and two that
// the paper's models fix at zero: Base, the prior's expected score, and
// Home, a home advantage. Fit chooses them by evidence; Hyper{Params:
// DefaultParams()} is the paper's setting.
type Hyper struct {
	// Params holds σ₀, β, γ and τ. Mu is the prior mean of the defence
	// skills (offence and defence models) and of every skill (Gaussian-SD);
	// only differences of skills enter the models, so it moves nothing.
	Params Params `json:"params"`
	// Base is the offence skills' prior mean minus the defence skills':
	// the expected score of a match between two new teams (Gaussian-OD)
	// or its log-rate (Poisson-OD). Gaussian-SD, which sees only score
	// differences, has no use for it.
	Base float64 `json:"base"`
	// Home is added to A's side: to the mean of A's score (Gaussian-OD),
	// to its log-rate (Poisson-OD) or to the score difference
	// (Gaussian-SD), in every update and prediction; zero for none.
	Home float64 `json:"home"`
}

// Validate reports invalid hyperparameters: Params that fail
// Params.Validate, or a Base or Home that is not finite.
func (h Hyper) Validate() error {
	if err := h.Params.Validate(); err != nil {
		return err
	}
	if !messages.IsFinite(h.Base) || !messages.IsFinite(h.Home) {
		return fmt.Errorf("scorebased: Hyper.Base = %v, Hyper.Home = %v: not finite: %w", h.Base, h.Home, ErrInput)
	}
	return nil
}

// NewTeam returns a new team of the offence and defence models: offence
// N(μ₀ + Base, σ₀²), defence N(μ₀, σ₀²).
func (h Hyper) NewTeam() Team {
	t := h.Params.NewTeam()
	t.Offence.Mu += h.Base
	return t
}

// NewRating returns a new team of Gaussian-SD, N(μ₀, σ₀²).
func (h Hyper) NewRating() Rating { return h.Params.NewRating() }

// Online is one of the score models under hyperparameters Hyper, rated one
// match at a time: Team ratings for the offence and defence models, Rating
// for Gaussian-SD. OnlineGaussianOD, OnlinePoissonOD and OnlineGaussianSD
// make them (the interface is closed: Fit relies on methods of theirs that
// are not exported); each is safe for concurrent use.
type Online[R Team | Rating] interface {
	// Name is the model's name, as "Gaussian-OD".
	Name() string
	// Hyper returns the model's hyperparameters.
	Hyper() Hyper
	// Fresh returns the rating of a team not seen yet.
	Fresh() R
	// LogPredictive returns the log probability of the scores before they
	// update the ratings: the density of both scores (Gaussian-OD) or of
	// their difference (Gaussian-SD), or the probability of both counts
	// (Poisson-OD, each count Poisson with a log-normal rate).
	LogPredictive(a, b R, scoreA, scoreB float64) (float64, error)
	// Rate returns the ratings after A scored scoreA and B scoreB.
	Rate(ctx context.Context, a, b R, scoreA, scoreB float64) (R, R, error)
	// Predict forecasts a match, with the home advantage in A's favour.
	Predict(a, b R) (Prediction, error)
	// WinProbability is the papers' P(A beats B), P(s_A − s_B > 0), the
	// probability the score-based paper's information gain is computed
	// from: for the Gaussian models without the ±½ draw band
	// (Prediction.Win + about half of Draw), for Poisson-OD the Skellam
	// P(s_A > s_B) (Prediction.Win).
	WinProbability(a, b R) (float64, error)

	// start returns the starting Base and Home of a fit to train and the
	// step of the first simplex along them, from the scores' moments.
	start(train []Match) (base, home, step float64)
	// hasBase reports whether Base enters the model.
	hasBase() bool
	// checkScores rejects scores the model cannot observe.
	checkScores(a, b float64) error
}

// OnlineGaussianOD returns Gaussian-OD under h.
func OnlineGaussianOD(h Hyper) (Online[Team], error) {
	if err := h.Validate(); err != nil {
		return nil, err
	}
	return &odOnline{h: h, g: NewGaussianOD(h.Params)}, nil
}

// OnlinePoissonOD returns Poisson-OD under h (γ is not used).
func OnlinePoissonOD(h Hyper) (Online[Team], error) {
	if err := h.Validate(); err != nil {
		return nil, err
	}
	return &odOnline{h: h, poisson: true, p: NewPoissonOD(h.Params)}, nil
}

// OnlineGaussianSD returns Gaussian-SD under h (Base is not used).
func OnlineGaussianSD(h Hyper) (Online[Rating], error) {
	if err := h.Validate(); err != nil {
		return nil, err
	}
	return &sdOnline{h: h, m: NewGaussianSD(h.Params)}, nil
}

// Learn rates matches in order with m, starting every team from m.Fresh,
// and returns each team's final rating and the log evidence: the sum over
// the matches of m.LogPredictive of each one's scores under the ratings
// before it (the one-step-ahead evidence, which Fit maximises). A match
// with an empty team name, a team playing itself, or scores the model
// cannot observe is ErrInput, as is an empty list; a done
// context returns its error. A nil ctx is context.Background().
func Learn[R Team | Rating](ctx context.Context, m Online[R], matches []Match) (map[string]R, float64, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if m == nil {
		return nil, 0, fmt.Errorf("scorebased: Learn: nil model: %w", ErrInput)
	}
	if len(matches) == 0 {
		return nil, 0, fmt.Errorf("scorebased: Learn: no matches: %w", ErrInput)
	}
	ratings := make(map[string]R)
	get := func(team string) R {
		if r, ok := ratings[team]; ok {
			return r
		}
		return m.Fresh()
	}
	var logEv float64
	for i, x := range matches {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, 0, fmt.Errorf("scorebased: Learn: %w", err)
			}
		}
		if err := checkResult(m, x); err != nil {
			return nil, 0, fmt.Errorf("scorebased: Learn: match %d: %w", i, err)
		}
		a, b := get(x.A), get(x.B)
		lp, err := m.LogPredictive(a, b, x.ScoreA, x.ScoreB)
		if err != nil {
			return nil, 0, fmt.Errorf("scorebased: Learn: match %d (%s v %s): %w", i, x.A, x.B, err)
		}
		logEv += lp
		if ratings[x.A], ratings[x.B], err = m.Rate(ctx, a, b, x.ScoreA, x.ScoreB); err != nil {
			return nil, 0, fmt.Errorf("scorebased: Learn: match %d (%s v %s): %w", i, x.A, x.B, err)
		}
	}
	return ratings, logEv, nil
}

// checkResult checks a match's teams and scores for model m.
func checkResult[R Team | Rating](m Online[R], x Match) error {
	switch {
	case x.A == "" || x.B == "":
		return fmt.Errorf("teams %q and %q: a team needs a name: %w", x.A, x.B, ErrInput)
	case x.A == x.B:
		return fmt.Errorf("%s v %s: a team cannot play itself: %w", x.A, x.B, ErrInput)
	}
	return m.checkScores(x.ScoreA, x.ScoreB)
}

// odOnline is Gaussian-OD or Poisson-OD under hyperparameters h. The home
// advantage is carried by A's offence: the models see an offence shifted
// by Home, which is exactly a constant added to A's score mean or
// log-rate, and the posterior is shifted back.
type odOnline struct {
	h       Hyper
	poisson bool
	g       GaussianOD
	p       PoissonOD
}

func (m *odOnline) Name() string {
	if m.poisson {
		return "Poisson-OD"
	}
	return "Gaussian-OD"
}

func (m *odOnline) Hyper() Hyper  { return m.h }
func (m *odOnline) Fresh() Team   { return m.h.NewTeam() }
func (m *odOnline) hasBase() bool { return true }

func (m *odOnline) home(a Team) Team {
	a.Offence.Mu += m.h.Home
	return a
}

func (m *odOnline) checkScores(a, b float64) error {
	if m.poisson {
		return checkCounts(a, b)
	}
	return checkScores(a, b)
}

func (m *odOnline) Rate(ctx context.Context, a, b Team, scoreA, scoreB float64) (Team, Team, error) {
	if err := m.checkScores(scoreA, scoreB); err != nil {
		return Team{}, Team{}, err
	}
	var err error
	if m.poisson {
		a, b, _, err = m.p.Rate(ctx, m.home(a), b, int(scoreA), int(scoreB))
	} else {
		a, b, err = m.g.Rate(ctx, m.home(a), b, scoreA, scoreB)
	}
	a.Offence.Mu -= m.h.Home
	return a, b, err
}

func (m *odOnline) Predict(a, b Team) (Prediction, error) {
	if m.poisson {
		return m.p.Predict(m.home(a), b)
	}
	return m.g.Predict(m.home(a), b)
}

func (m *odOnline) WinProbability(a, b Team) (float64, error) {
	pr, err := m.Predict(a, b)
	if err != nil {
		return 0, err
	}
	if m.poisson {
		return pr.Win, nil
	}
	return pr.winAtZero, nil
}

func (m *odOnline) LogPredictive(a, b Team, scoreA, scoreB float64) (float64, error) {
	p := m.h.Params
	if err := p.checkTeams(a, b); err != nil {
		return 0, err
	}
	if err := m.checkScores(scoreA, scoreB); err != nil {
		return 0, err
	}
	// A's score sees x = o_A + Home − d_B, B's y = o_B − d_A: disjoint
	// skills, independent before the match, so the two factor.
	noise := 2 * p.Beta * p.Beta
	if !m.poisson {
		noise += p.Gamma * p.Gamma
	}
	muX, vX := a.Offence.Mu+m.h.Home-b.Defence.Mu, p.variance(a.Offence)+p.variance(b.Defence)+noise
	muY, vY := b.Offence.Mu-a.Defence.Mu, p.variance(b.Offence)+p.variance(a.Defence)+noise
	var lp float64
	if m.poisson {
		lp = messages.LogPoissonLogNormal(int(scoreA), muX, vX) + messages.LogPoissonLogNormal(int(scoreB), muY, vY)
	} else {
		lp = logNormal(scoreA, muX, vX) + logNormal(scoreB, muY, vY)
	}
	if !messages.IsFinite(lp) {
		return 0, fmt.Errorf("scorebased: log predictive probability %v of scores %v and %v: %w", lp, scoreA, scoreB, ErrNumerical)
	}
	return lp, nil
}

func (m *odOnline) start(train []Match) (base, home, step float64) {
	var sa, sb float64
	for _, x := range train {
		sa += x.ScoreA
		sb += x.ScoreB
	}
	n := float64(len(train))
	sa, sb = sa/n, sb/n
	if m.poisson {
		// Log-rates; a mean of 0 (no goals at all) is held at 0.05.
		la, lb := math.Log(math.Max(sa, 0.05)), math.Log(math.Max(sb, 0.05))
		return lb, la - lb, 0.25
	}
	var ss float64
	for _, x := range train {
		ss += (x.ScoreA-sa)*(x.ScoreA-sa) + (x.ScoreB-sb)*(x.ScoreB-sb)
	}
	return sb, sa - sb, math.Max(0.25*math.Sqrt(ss/(2*n)), 1e-3)
}

// sdOnline is Gaussian-SD under hyperparameters h, the home advantage
// carried by A's skill as in odOnline.
type sdOnline struct {
	h Hyper
	m GaussianSD
}

func (m *sdOnline) Name() string  { return "Gaussian-SD" }
func (m *sdOnline) Hyper() Hyper  { return m.h }
func (m *sdOnline) Fresh() Rating { return m.h.NewRating() }
func (m *sdOnline) hasBase() bool { return false }

func (m *sdOnline) checkScores(a, b float64) error { return checkScores(a, b) }

func (m *sdOnline) home(a Rating) Rating {
	a.Mu += m.h.Home
	return a
}

func (m *sdOnline) Rate(ctx context.Context, a, b Rating, scoreA, scoreB float64) (Rating, Rating, error) {
	a, b, err := m.m.Rate(ctx, m.home(a), b, scoreA, scoreB)
	a.Mu -= m.h.Home
	return a, b, err
}

func (m *sdOnline) Predict(a, b Rating) (Prediction, error) { return m.m.Predict(m.home(a), b) }

func (m *sdOnline) WinProbability(a, b Rating) (float64, error) {
	pr, err := m.Predict(a, b)
	return pr.winAtZero, err
}

func (m *sdOnline) LogPredictive(a, b Rating, scoreA, scoreB float64) (float64, error) {
	p := m.h.Params
	if err := p.checkSkills(a, b); err != nil {
		return 0, err
	}
	if err := checkScores(scoreA, scoreB); err != nil {
		return 0, err
	}
	mu := a.Mu + m.h.Home - b.Mu
	v := p.variance(a) + p.variance(b) + 2*p.Beta*p.Beta + p.Gamma*p.Gamma
	lp := logNormal(scoreA-scoreB, mu, v)
	if !messages.IsFinite(lp) {
		return 0, fmt.Errorf("scorebased: log predictive density %v of the difference %v − %v: %w", lp, scoreA, scoreB, ErrNumerical)
	}
	return lp, nil
}

func (m *sdOnline) start(train []Match) (base, home, step float64) {
	var d float64
	for _, x := range train {
		d += x.ScoreA - x.ScoreB
	}
	n := float64(len(train))
	d /= n
	var ss float64
	for _, x := range train {
		ss += (x.ScoreA - x.ScoreB - d) * (x.ScoreA - x.ScoreB - d)
	}
	return 0, d, math.Max(0.25*math.Sqrt(ss/n), 1e-3)
}

// MaxCount is the largest score the online Poisson model (and Fit on
// it) takes: a whole number of at most 31 bits.
const MaxCount = math.MaxInt32

// checkCounts rejects Poisson scores that are not counts.
func checkCounts(a, b float64) error {
	for _, s := range [2]float64{a, b} {
		if !(s >= 0 && s <= MaxCount) || s != math.Trunc(s) {
			return fmt.Errorf("scorebased: scores %v and %v: a Poisson score is a count from 0 to %d: %w", a, b, MaxCount, ErrInput)
		}
	}
	return nil
}

// logNormal is log N(x; mu, v).
func logNormal(x, mu, v float64) float64 {
	d := x - mu
	return -0.5 * (math.Log(2*math.Pi*v) + d*d/v)
}
