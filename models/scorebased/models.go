package scorebased

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/schedules"
)

// Game is one match of a score-based model declared as a factor graph with
// its schedule (a tree, so two passes are exact for the Gaussian models and
// give Lemma 1's projection for the Poisson model).
type Game struct {
	Graph    *graph.Graph
	Schedule schedules.Schedule
	skills   []graph.VarID
	priors   []*factors.Prior // of skills, in the same order
	scores   []graph.Factor   // the score factors, A's first
	runner   *schedules.Runner
	out      [4]Rating
}

// run runs the game from its priors and returns the posterior of every
// skill, in the order the builder added them (a slice of the game's own
// buffer).
func (gm *Game) run(ctx context.Context) ([]Rating, error) {
	gm.Graph.Reset()
	if _, err := gm.runner.Run(ctx, gm.Schedule); err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("scorebased: %w", err)
		}
		// The inputs were checked, so a failed update is one whose numbers
		// left float64's range: the model's error, with the factor's.
		return nil, fmt.Errorf("scorebased: %w: the update failed: %v", ErrNumerical, err)
	}
	out := gm.out[:len(gm.skills)]
	for i, v := range gm.skills {
		m := gm.Graph.Marginal(v)
		out[i] = Rating{Mu: m.Mean(), Sigma: m.Sigma()}
	}
	return out, nil
}

// setPriors loads ratings (in the order of the game's skills) into the
// prior factors, with τ² added to each variance.
func (gm *Game) setPriors(p Params, rs ...Rating) {
	for i, r := range rs {
		gm.priors[i].Mean, gm.priors[i].Variance = r.Mu, p.variance(r)
	}
}

// setScores loads the observed scores into the score factors.
func (gm *Game) setScores(a, b float64) {
	vals := [2]float64{a, b}
	for i, f := range gm.scores {
		v := vals[i]
		switch f := f.(type) {
		case *factors.GaussianObservation:
			f.Value = v
		case *factors.Poisson:
			f.Count = int(v)
		}
	}
}

// gamePool keeps built games of one model for reuse; a model made by its
// constructor carries one, shared by its copies (sync.Pool is safe for
// concurrent use).
type gamePool = sync.Pool

// pooled returns a game from pool, or else the one build builds (a model
// that is a zero value has no pool).
func pooled(pool *gamePool, build func() (*Game, error)) (*Game, error) {
	if pool != nil {
		if gm, _ := pool.Get().(*Game); gm != nil {
			return gm, nil
		}
	}
	return build()
}

// newODGame builds Figure 2 of the paper for teams a and b, with
// score(0) as A's score factor and score(1) as B's.
func (p Params) newODGame(a, b Team, score func(side int) graph.Factor) (*Game, error) {
	bld := graph.NewBuilder("offence-defence")
	skills, priors := p.declareSkills(bld, []string{"oA", "dA", "oB", "dB"}, a.Offence, a.Defence, b.Offence, b.Defence)
	c := Contest{A: TeamVars{skills[0], skills[1]}, B: TeamVars{skills[2], skills[3]}}
	return p.finish(bld, skills, priors, p.declareOD(bld, &c, score))
}

// updateOD runs the offence/defence game gm for a match between a and b
// with the given scores, returns it to pool, and reports the posterior teams
// and the most Halley steps a Poisson score factor took (0 for Gaussian).
func (p Params) updateOD(ctx context.Context, pool *gamePool, gm *Game, a, b Team, scoreA, scoreB float64) (Team, Team, int, error) {
	gm.setPriors(p, a.Offence, a.Defence, b.Offence, b.Defence)
	gm.setScores(scoreA, scoreB)
	r, err := gm.run(ctx)
	if err != nil {
		return Team{}, Team{}, 0, err
	}
	steps := 0
	for _, f := range gm.scores {
		if pf, ok := f.(*factors.Poisson); ok {
			steps = max(steps, pf.Iterations)
		}
	}
	ta, tb := teamsOf(r)
	if pool != nil {
		pool.Put(gm)
	}
	for _, c := range [...]struct {
		r          Rating
		what, part string
	}{{ta.Offence, "team A", ".Offence"}, {ta.Defence, "team A", ".Defence"}, {tb.Offence, "team B", ".Offence"}, {tb.Defence, "team B", ".Defence"}} {
		if err := p.checkPosterior(c.r, c.what, c.part); err != nil {
			return Team{}, Team{}, 0, err
		}
	}
	return ta, tb, steps, nil
}

// finish builds the one-match graph of a game with its tree schedule.
func (p Params) finish(bld *graph.Builder, skills []graph.VarID, priors []graph.FactorID, nd Nodes) (*Game, error) {
	g, err := bld.Build()
	if err != nil {
		return nil, fmt.Errorf("scorebased: %w", err)
	}
	s, err := schedules.Tree(g)
	if err != nil {
		return nil, fmt.Errorf("scorebased: %w", err)
	}
	gm := &Game{Graph: g, Schedule: s, skills: skills, runner: schedules.NewRunner(g)}
	for _, f := range priors {
		gm.priors = append(gm.priors, g.Factor(f).(*factors.Prior))
	}
	for _, f := range nd.Scores {
		gm.scores = append(gm.scores, g.Factor(f))
	}
	return gm, nil
}

func (p Params) checkTeams(a, b Team) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if err := p.checkTeam(a, "team A"); err != nil {
		return err
	}
	return p.checkTeam(b, "team B")
}

// checkSkills is checkTeams for the one-skill model.
func (p Params) checkSkills(a, b Rating) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if err := p.checkRating(a, "team A", ""); err != nil {
		return err
	}
	return p.checkRating(b, "team B", "")
}

// checkMatch reports teams an offence/defence model cannot take, or else
// scores, the error of the model's own check of the scores.
func (p Params) checkMatch(a, b Team, scores error) error {
	if err := p.checkTeams(a, b); err != nil {
		return err
	}
	return scores
}

func teamsOf(r []Rating) (Team, Team) {
	return Team{Offence: r[0], Defence: r[1]}, Team{Offence: r[2], Defence: r[3]}
}

// GaussianOD is the Gaussian offence/defence model (Figure 2 N): team A's
// score is N(s_A; p_oA − p_dB, γ²) with performances N(p; skill, β²), and
// likewise for B. All messages are Gaussian and the update is exact.
type GaussianOD struct {
	Params Params
	pool   *gamePool
}

// NewGaussianOD returns the model with parameters p. The model (and its
// copies) reuses the graphs it builds; it is safe for concurrent use.
func NewGaussianOD(p Params) GaussianOD { return GaussianOD{Params: p, pool: new(gamePool)} }

// check reports teams or scores that Game and Rate cannot take.
func (m GaussianOD) check(a, b Team, scoreA, scoreB float64) error {
	return m.Params.checkMatch(a, b, checkScores(scoreA, scoreB))
}

// Game returns the factor graph of a match with the given scores.
func (m GaussianOD) Game(a, b Team, scoreA, scoreB float64) (*Game, error) {
	if err := m.check(a, b, scoreA, scoreB); err != nil {
		return nil, err
	}
	return m.Params.newODGame(a, b, m.Params.gaussianScore(scoreA, scoreB))
}

// Rate returns the teams' ratings after A scored scoreA and B scoreB.
// With σ² + τ² for each prior variance it equals the closed form of eq. 20:
//
//	π_oA = 1/σ_oA² + 1/(2β² + γ² + σ_dB²),  τ_oA = μ_oA/σ_oA² + (s_A + μ_dB)/(2β² + γ² + σ_dB²),
//	π_dB = 1/σ_dB² + 1/(2β² + γ² + σ_oA²),  τ_dB = μ_dB/σ_dB² + (μ_oA − s_A)/(2β² + γ² + σ_oA²).
func (m GaussianOD) Rate(ctx context.Context, a, b Team, scoreA, scoreB float64) (Team, Team, error) {
	if err := m.check(a, b, scoreA, scoreB); err != nil {
		return Team{}, Team{}, err
	}
	gm, err := pooled(m.pool, func() (*Game, error) { return m.Game(a, b, scoreA, scoreB) })
	if err != nil {
		return Team{}, Team{}, err
	}
	ta, tb, _, err := m.Params.updateOD(ctx, m.pool, gm, a, b, scoreA, scoreB)
	return ta, tb, err
}

// Predict forecasts a match. Each score is Gaussian, s_A ~ N(μ_oA − μ_dB,
// σ_oA² + σ_dB² + 2β² + γ²) (variances with τ²), and the two are
// independent, so the difference d = s_A − s_B is N(μ_d, σ_d²) with the sum
// of the variances.
func (m GaussianOD) Predict(a, b Team) (Prediction, error) {
	p := m.Params
	if err := p.checkTeams(a, b); err != nil {
		return Prediction{}, err
	}
	muA := a.Offence.Mu - b.Defence.Mu
	muB := b.Offence.Mu - a.Defence.Mu
	if !messages.IsFinite(muA) || !messages.IsFinite(muB) {
		return Prediction{}, fmt.Errorf("scorebased: %w: expected scores %v and %v (team A, team B Mu)", ErrNumerical, muA, muB)
	}
	pr, err := gaussianOutcome(muA-muB, p.DifferenceSD(a.Offence, b.Defence, b.Offence, a.Defence))
	pr.ScoreA, pr.ScoreB, pr.HasScores = muA, muB, true
	return pr, err
}

// DifferenceSD returns the standard deviation of a Gaussian model's
// predicted score difference whose skills are rs: √(Σ(σ² + τ²) + 2β² + γ²)
// for Gaussian-SD's two skills (eq. 24), with each score's 2β² + γ² once
// more for Gaussian-OD's four (eq. 21). It is summed
// scaled by the largest term, so that it neither overflows nor underflows
// where σ² + τ² alone would not.
func (p Params) DifferenceSD(rs ...Rating) float64 {
	noise := 2*p.Beta*p.Beta + p.Gamma*p.Gamma
	terms := len(rs) / 2 // noise terms: one per score
	largest := math.Sqrt(noise)
	for _, r := range rs {
		largest = math.Max(largest, math.Max(r.Sigma, p.Tau))
	}
	_, e := math.Frexp(largest)
	sq := func(x float64) float64 { x = math.Ldexp(x, -e); return x * x }
	sum := float64(terms) * (2*sq(p.Beta) + sq(p.Gamma))
	for _, r := range rs {
		sum += sq(r.Sigma) + sq(p.Tau)
	}
	return math.Ldexp(math.Sqrt(sum), e)
}

// WinProbability is eq. 21, P(s_A − s_B > 0) = Φ((μ_sA − μ_sB)/√(σ_sA² + σ_sB²)).
// The paper prints the denominator as σ_sA² + σ_sB², without the square
// root, and as 1 − Φ(−x), which is Φ(x); a standard deviation belongs there.
func (m GaussianOD) WinProbability(a, b Team) (float64, error) {
	pr, err := m.Predict(a, b)
	if err != nil {
		return 0, err
	}
	return pr.winAtZero, nil
}

// GaussianSD is the Gaussian score-difference model (Figure 3): one skill
// per team, performances N(p; l, β²), and the score difference observed as
// N(s_A − s_B; p_A − p_B, γ²). The update is exact.
type GaussianSD struct {
	Params Params
	pool   *gamePool
}

// NewGaussianSD returns the model with parameters p. The model (and its
// copies) reuses the graphs it builds; it is safe for concurrent use.
func NewGaussianSD(p Params) GaussianSD { return GaussianSD{Params: p, pool: new(gamePool)} }

// Game returns the factor graph of a match with the given scores.
func (m GaussianSD) Game(a, b Rating, scoreA, scoreB float64) (*Game, error) {
	p := m.Params
	if err := p.checkSkills(a, b); err != nil {
		return nil, err
	}
	if err := checkDifference(scoreA, scoreB); err != nil {
		return nil, err
	}
	bld := graph.NewBuilder("score difference")
	skills, priors := p.declareSkills(bld, []string{"lA", "lB"}, a, b)
	c := Contest{A: TeamVars{skills[0], skills[0]}, B: TeamVars{skills[1], skills[1]}, ScoreA: scoreA, ScoreB: scoreB}
	return p.finish(bld, skills, priors, p.declareSD(bld, &c))
}

// Rate returns the ratings after A scored scoreA and B scoreB; it equals
// eqs. 22-23 with σ² + τ² for each prior variance:
//
//	π_A = 1/σ_A² + 1/(2β² + γ² + σ_B²),  τ_A = μ_A/σ_A² + ((s_A − s_B) + μ_B)/(2β² + γ² + σ_B²).
func (m GaussianSD) Rate(ctx context.Context, a, b Rating, scoreA, scoreB float64) (Rating, Rating, error) {
	p := m.Params
	if err := p.checkSkills(a, b); err != nil {
		return Rating{}, Rating{}, err
	}
	if err := checkScores(scoreA, scoreB); err != nil {
		return Rating{}, Rating{}, err
	}
	if err := checkDifference(scoreA, scoreB); err != nil {
		return Rating{}, Rating{}, err
	}
	gm, err := pooled(m.pool, func() (*Game, error) { return m.Game(a, b, scoreA, scoreB) })
	if err != nil {
		return Rating{}, Rating{}, err
	}
	gm.setPriors(m.Params, a, b)
	gm.setScores(scoreA-scoreB, 0)
	r, err := gm.run(ctx)
	if err != nil {
		return Rating{}, Rating{}, err
	}
	ra, rb := r[0], r[1]
	if m.pool != nil {
		m.pool.Put(gm)
	}
	if err := p.checkPosterior(ra, "team A", ""); err != nil {
		return Rating{}, Rating{}, err
	}
	if err := p.checkPosterior(rb, "team B", ""); err != nil {
		return Rating{}, Rating{}, err
	}
	return ra, rb, nil
}

// Predict forecasts the score difference, d ~ N(μ_A − μ_B, σ_A² + σ_B² +
// 2β² + γ²) (variances with τ²).
func (m GaussianSD) Predict(a, b Rating) (Prediction, error) {
	p := m.Params
	if err := p.checkSkills(a, b); err != nil {
		return Prediction{}, err
	}
	return gaussianOutcome(a.Mu-b.Mu, p.DifferenceSD(a, b))
}

// WinProbability is eq. 24 as derived: P(s_A − s_B > 0) =
// Φ((μ_A − μ_B)/√(σ_A² + σ_B² + 2β² + γ²)). The printed equation has
// 1 − Φ((l_A − l_B)/(σ_A² + σ_B² + 2β²)): the argument's sign is flipped, the
// square root is missing, and it leaves out γ², the noise of the observed
// difference whose sign decides the match.
func (m GaussianSD) WinProbability(a, b Rating) (float64, error) {
	pr, err := m.Predict(a, b)
	if err != nil {
		return 0, err
	}
	return pr.winAtZero, nil
}

// gaussianOutcome turns a Gaussian score difference N(mu, sd²) into
// probabilities, a draw being |d| ≤ ½; ErrNumerical if mu overflowed.
func gaussianOutcome(mu, sd float64) (Prediction, error) {
	if !messages.IsFinite(mu) {
		return Prediction{}, fmt.Errorf("scorebased: %w: the expected score difference of team A and team B (Mu) overflows", ErrNumerical)
	}
	t, e := mu/sd, 0.5/sd
	return Prediction{
		Win:        messages.NormCDF(t - e),
		Draw:       math.Exp(messages.LogWithinMass(t, e)),
		Loss:       messages.NormCDF(-t - e),
		Difference: mu,
		winAtZero:  messages.NormCDF(t),
	}, nil
}

// PoissonOD is the Poisson offence/defence model (Figure 2 P): team A's
// score is Poisson(s_A; exp(p_oA − p_dB)). The score factor's message is the
// variational projection of Lemma 1 (factors.Poisson).
type PoissonOD struct {
	Params Params
	pool   *gamePool
}

// NewPoissonOD returns the model with parameters p (γ is not used). The
// model (and its copies) reuses the graphs it builds; it is safe for
// concurrent use.
func NewPoissonOD(p Params) PoissonOD { return PoissonOD{Params: p, pool: new(gamePool)} }

// check reports teams or scores that Game and Rate cannot take.
func (m PoissonOD) check(a, b Team, scoreA, scoreB int) error {
	var counts error
	if scoreA < 0 || scoreB < 0 {
		counts = fmt.Errorf("scorebased: scores %d and %d: a Poisson score is a count ≥ 0: %w", scoreA, scoreB, ErrInput)
	}
	return m.Params.checkMatch(a, b, counts)
}

// Game returns the factor graph of a match with the given scores.
func (m PoissonOD) Game(a, b Team, scoreA, scoreB int) (*Game, error) {
	if err := m.check(a, b, scoreA, scoreB); err != nil {
		return nil, err
	}
	scores := [2]int{scoreA, scoreB}
	return m.Params.newODGame(a, b, func(side int) graph.Factor { return factors.NewPoisson(scores[side]) })
}

// Rate returns the teams' ratings after A scored scoreA and B scoreB, and
// the largest number of Halley steps Lemma 1's fixed point took.
func (m PoissonOD) Rate(ctx context.Context, a, b Team, scoreA, scoreB int) (Team, Team, int, error) {
	if err := m.check(a, b, scoreA, scoreB); err != nil {
		return Team{}, Team{}, 0, err
	}
	if _, _, err := poissonRates(a, b); err != nil {
		return Team{}, Team{}, 0, err
	}
	gm, err := pooled(m.pool, func() (*Game, error) { return m.Game(a, b, scoreA, scoreB) })
	if err != nil {
		return Team{}, Team{}, 0, err
	}
	return m.Params.updateOD(ctx, m.pool, gm, a, b, float64(scoreA), float64(scoreB))
}

// Predict forecasts a match. The log-rate of A's score, x = p_oA − p_dB, is
// N(μ_oA − μ_dB, σ_oA² + σ_dB² + 2β²); the predicted rate is the rate at the
// mean log-rate, λ_A = exp(μ_x), as in the paper (section 4.2), and win,
// draw and loss come from the Skellam distribution of the difference of
// Poisson(λ_A) and Poisson(λ_B). The mean rate E[eˣ] = exp(μ_x + σ_x²/2) is
// not used: at the paper's β = σ₀/2 the performance noise alone multiplies
// it by e^17, and the expected score it gives is dominated by that tail.
func (m PoissonOD) Predict(a, b Team) (Prediction, error) {
	p := m.Params
	if err := p.checkTeams(a, b); err != nil {
		return Prediction{}, err
	}
	lA, lB, err := poissonRates(a, b)
	if err != nil {
		return Prediction{}, err
	}
	win, draw, loss, err := Skellam{Lambda1: lA, Lambda2: lB}.Outcome()
	if err != nil {
		return Prediction{}, err
	}
	return Prediction{Win: win, Draw: draw, Loss: loss, ScoreA: lA, ScoreB: lB, Difference: lA - lB, HasScores: true}, nil
}

// poissonRates returns the rates at the mean log-rates, exp(μ_oA − μ_dB)
// and exp(μ_oB − μ_dA), or ErrInput if either is 0 or +∞ in float64: the
// teams for which Predict and Rate have no answer.
func poissonRates(a, b Team) (lA, lB float64, err error) {
	lA = math.Exp(a.Offence.Mu - b.Defence.Mu)
	lB = math.Exp(b.Offence.Mu - a.Defence.Mu)
	if math.IsInf(lA, 1) || math.IsInf(lB, 1) || lA == 0 || lB == 0 {
		return 0, 0, fmt.Errorf("scorebased: Poisson rates exp(%v) and exp(%v) out of range: %w",
			a.Offence.Mu-b.Defence.Mu, b.Offence.Mu-a.Defence.Mu, ErrInput)
	}
	return lA, lB, nil
}

// checkDifference is checkScores for the score-difference model, which
// observes a − b: that must be finite too.
func checkDifference(a, b float64) error {
	if err := checkScores(a, b); err != nil {
		return err
	}
	if !messages.IsFinite(a - b) {
		return fmt.Errorf("scorebased: scores %v and %v: their difference overflows: %w", a, b, ErrInput)
	}
	return nil
}

func checkScores(a, b float64) error {
	if math.IsNaN(a) || math.IsInf(a, 0) || math.IsNaN(b) || math.IsInf(b, 0) {
		return fmt.Errorf("scorebased: scores %v and %v: %w", a, b, ErrInput)
	}
	return nil
}
