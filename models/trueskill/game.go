package trueskill

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/schedules"
)

// Game is one match declared as the factor graph of the paper's Figure 1,
// with its schedule: skills → performances → team performances →
// differences of adjacent teams in rank order → win or draw factors. Use it
// to inspect or draw the model; Params.Rate is the everyday entry point, and
// a Rater reuses Games across matches of the same shape.
type Game struct {
	params   Params
	g        *graph.Graph
	schedule schedules.Schedule
	runner   *schedules.Runner
	// The graph's teams are in rank order; order maps a position to the
	// caller's team for the match loaded last, so that one game serves
	// every match whose teams have its sizes and draws in rank order.
	order   []int
	skills  [][]graph.VarID        // by position and player
	priors  [][]*factors.Prior     // by position and player
	sums    []*factors.WeightedSum // by position
	flat    []Rating               // the ratings, by position and player
	offsets []int                  // of each position's players in flat
	ratings [][]Rating             // flat by the caller's team
	cmps    []comparison           // the comparison factors, in rank order
	chain   chainScratch           // the evidence's buffers
}

// NewGame builds the factor graph and schedule of m.
func (p Params) NewGame(m Match) (*Game, error) {
	if err := p.check(&m); err != nil {
		return nil, err
	}
	return p.newGame(m, false)
}

// check validates the parameters and the match.
func (p Params) check(m *Match) error {
	if err := p.Validate(); err != nil {
		return err
	}
	return checkMatch(&p, m)
}

// checkMatch validates m against parameters already validated.
func checkMatch(p *Params, m *Match) error {
	if err := m.validate(); err != nil {
		return err
	}
	return checkPairs(p, m)
}

// newGame builds m's graph; compact (for a match without weights) leaves
// out one-player teams' performance sums (Contest.Compact), which a Rater
// does, and NewGame, whose graph is the paper's Figure 1, does not.
func (p Params) newGame(m Match, compact bool) (*Game, error) {
	gm := &Game{params: p, order: m.order()}
	b := graph.NewBuilder("trueskill")
	n := len(m.Teams)
	// Everything is added to the graph by position in rank order, so that
	// every match with the same team sizes and draws in rank order has the
	// same graph and schedule (and one plan serves them); names keep the
	// caller's numbering, s1; s2, s3; s4 in Figure 1.
	first := make([]int, n)
	for j := 1; j < n; j++ {
		first[j] = first[j-1] + len(m.Teams[j-1])
	}
	c := Contest{Skills: make([][]graph.VarID, n), Ranks: m.Ranks, Weights: m.Weights, Compact: compact && m.Weights == nil}
	gm.skills = make([][]graph.VarID, n)
	b.DeclareLayers(figure1Layers...)
	b.Layer("skills")
	for pos, j := range gm.order {
		c.Skills[j] = make([]graph.VarID, len(m.Teams[j]))
		for i := range m.Teams[j] {
			c.Skills[j][i] = b.AddVariable(fmt.Sprintf("s%d", first[j]+i+1))
		}
		gm.skills[pos] = c.Skills[j]
	}
	step := schedules.Step
	var down []schedules.Schedule
	priors := make([][]graph.FactorID, n)
	b.Layer("skill priors")
	for pos, j := range gm.order {
		priors[pos] = make([]graph.FactorID, len(m.Teams[j]))
		for i, r := range m.Teams[j] {
			priors[pos][i] = b.AddFactor(factors.NewPrior(r.Mu, r.Sigma*r.Sigma+p.Tau*p.Tau), "", c.Skills[j][i])
			down = append(down, step(priors[pos][i], 0))
		}
	}
	nd := p.declare(b, &c, gm.order, &m)
	g, err := b.Build()
	if err != nil {
		return nil, fmt.Errorf("trueskill: %w", err)
	}
	gm.g = g
	gm.runner = schedules.NewRunner(g)
	gm.priors = make([][]*factors.Prior, n)
	gm.sums = make([]*factors.WeightedSum, n)
	for pos, j := range gm.order {
		gm.priors[pos] = make([]*factors.Prior, len(priors[pos]))
		for i, f := range priors[pos] {
			gm.priors[pos][i] = g.Factor(f).(*factors.Prior)
		}
		if f := nd.TeamFactors[j]; f >= 0 {
			gm.sums[pos] = g.Factor(f).(*factors.WeightedSum)
		}
	}

	gm.cmps = comparisonsOf(g, nd.ComparisonFactors)
	gm.chain = newChainScratch(n)

	// Figure 1's schedule: the priors, then the contest's own.
	gm.schedule = schedules.Sequence(schedules.Sequence(down...), p.Schedule(nd))

	gm.offsets = make([]int, n+1)
	for pos, j := range gm.order {
		gm.offsets[pos+1] = gm.offsets[pos] + len(m.Teams[j])
	}
	gm.flat = make([]Rating, gm.offsets[n])
	gm.ratings = make([][]Rating, n)
	gm.placeRatings()
	return gm, nil
}

// placeRatings points each of the caller's teams at its position's ratings.
func (gm *Game) placeRatings() {
	for pos, j := range gm.order {
		gm.ratings[j] = gm.flat[gm.offsets[pos]:gm.offsets[pos+1]:gm.offsets[pos+1]]
	}
}

// set loads m, a match of the game's shape (team sizes and draws in rank
// order, weights or not), into the game: its teams' positions in rank
// order (nil if they are those of the match loaded before), and its ratings
// and weights into the prior and team factors. Without weights the
// coefficients are the 1s the game was built with.
func (gm *Game) set(m *Match, order []int) error {
	if order != nil {
		gm.order = append(gm.order[:0], order...)
		gm.placeRatings()
	}
	tau2 := gm.params.Tau * gm.params.Tau
	for pos, j := range gm.order {
		for i, r := range m.Teams[j] {
			pr := gm.priors[pos][i]
			pr.Mean, pr.Variance = r.Mu, r.Sigma*r.Sigma+tau2
		}
		if m.Weights != nil {
			if err := gm.sums[pos].SetCoefficients(m.Weights[j]...); err != nil {
				return fmt.Errorf("trueskill: weights of team %d: %w", j, err)
			}
		}
	}
	return nil
}

// Graph returns the game's factor graph.
func (gm *Game) Graph() *graph.Graph { return gm.g }

// Schedule returns the game's schedule (Figure 1's).
func (gm *Game) Schedule() schedules.Schedule { return gm.schedule }

// Run runs the schedule from the priors.
func (gm *Game) Run(ctx context.Context) (schedules.Convergence, error) {
	gm.g.Reset()
	res, err := gm.runner.Run(ctx, gm.schedule)
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			// Read from the error, not ctx.Err: a deadline just past is
			// reported by the run before the context's timer sets Err.
			return res, fmt.Errorf("trueskill: %w", err)
		}
		// Inputs inside the domain can still drive a message out
		// of float64's: an upset by ~1e140 standard deviations needs a
		// precision of ~1e280 times the cavity's, and a draw window
		// narrower than ~1e-150 a variance of its square.
		var ue *graph.UpdateError
		if errors.As(err, &ue) {
			if w, ok := gm.g.Factor(ue.Factor).(*factors.Within); ok {
				return res, fmt.Errorf("trueskill: %w: a draw's margin ε = %v (Params.DrawMargin, or DrawProbability) or the ratings (Teams.Mu, Teams.Sigma) are too extreme for the graph's messages: %w", ErrNumerical, w.Margin, err)
			}
		}
		return res, fmt.Errorf("trueskill: %w: the ratings (Teams.Mu, Teams.Sigma) are too extreme for the graph's messages: %w", ErrNumerical, err)
	}
	return res, nil
}

// Ratings returns the posterior ratings in the caller's team order. The
// slices belong to the game and are overwritten by its next run.
func (gm *Game) Ratings() [][]Rating {
	gm.readRatings()
	return gm.ratings
}

// readRatings reads the posteriors into gm.flat, and reports whether each
// is a valid prior for the next match with the game's τ (resultOK and
// graphRating, checked as they are read; checkGraphResult says what is
// wrong with one that is not).
func (gm *Game) readRatings() (ok bool) {
	ok = true
	t2 := gm.params.Tau * gm.params.Tau
	k := 0
	for _, team := range gm.skills {
		for _, v := range team {
			m := gm.g.Marginal(v)
			var r Rating
			if m.Pi > 0 && m.Pi < math.MaxFloat64 {
				inv := 1 / m.Pi // one division for both
				r = Rating{Mu: m.Tau * inv, Sigma: math.Sqrt(inv)}
			} else {
				r = Rating{Mu: m.Mean(), Sigma: m.Sigma()}
			}
			ok = ok && resultOK(r) && graphRating(r, t2) == ""
			gm.flat[k] = r
			k++
		}
	}
	return ok
}

// LogEvidence returns the log probability of the observed outcome under the
// priors (with τ): the EP evidence of the graph after its last run, equal
// to graph.Graph.LogEvidence's where that is accurate, but computed from
// the chain of differences alone (evidence.go), so that it stays accurate
// for outcomes that are near-certain (≈ 0) or near-impossible (a large
// negative number). ErrNumerical if it is not a finite number ≤ 0.
func (gm *Game) LogEvidence() (float64, error) {
	lz, err := gm.chainLogEvidence()
	if err == nil {
		err = checkEvidence(lz)
	}
	if err != nil {
		return math.Inf(-1), err
	}
	return lz, nil
}

// result runs the game and collects the Result, with the evidence if asked.
func (gm *Game) result(ctx context.Context, m *Match, evidence bool) (Result, error) {
	res, err := gm.Run(ctx)
	if err != nil {
		return Result{}, err
	}
	var lz float64
	if evidence {
		if lz, err = gm.LogEvidence(); err != nil {
			return Result{}, err
		}
	}
	ok := gm.readRatings()
	out := Result{Ratings: gm.ratings, LogEvidence: lz, Iterations: res.Iterations, Converged: res.Converged}
	if !ok || !evidenceOK(lz) {
		if err := checkGraphResult(&gm.params, m, &out); err != nil {
			return Result{}, err
		}
	}
	return out, nil
}
