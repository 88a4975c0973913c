package throughtime

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/models/trueskill"
	"github.com/skillgraph/skillgraph/schedules"
)

// Params are the model's parameters: every player's prior, performance
// noise and drift unless Player overrides them, and the draw probability.
type Params struct {
	Mu    float64 `json:"mu"`    // prior mean of a new player's skill
	Sigma float64 `json:"sigma"` // prior standard deviation of a new player's skill
	Beta  float64 `json:"beta"`  // standard deviation of a performance around the skill
	// Gamma is the drift: between two appearances Δt apart, a skill's
	// variance grows by γ²·Δt.
	Gamma float64 `json:"gamma"`
	// DrawProbability p in [0, 1) sets the draw margin between adjacent
	// teams, ε = Φ⁻¹((p+1)/2)·√(Σβᵢ²) over both teams' players.
	DrawProbability float64 `json:"draw_probability"`
}

// DefaultParams returns the reference package's defaults: μ = 0, σ = 6,
// β = 1, γ = 0.03, no draws.
func DefaultParams() Params { return Params{Sigma: 6, Beta: 1, Gamma: 0.03} }

// Player sets one player's prior, performance noise and drift (as in
// Params); β and γ may be 0.
type Player struct {
	Mu    float64 `json:"mu"`
	Sigma float64 `json:"sigma"`
	Beta  float64 `json:"beta"`
	Gamma float64 `json:"gamma"`
}

// Game is one game of a history: its time, its teams of players by name,
// the outcome as ranks, and optional partial-play weights.
type Game struct {
	// Time orders the games; games with equal times form one batch, in
	// which each player has one skill.
	Time float64 `json:"time"`
	// Teams holds each team's players.
	Teams [][]string `json:"teams"`
	// Ranks holds one rank per team, lower is better and equal ranks draw;
	// nil means the teams are listed in finishing order.
	Ranks []int `json:"ranks,omitempty"`
	// Weights, if not nil, has the shape of Teams: the share of the game
	// each player took part in.
	Weights [][]float64 `json:"weights,omitempty"`
}

// Errors, matched with errors.Is.
var (
	ErrParameter = errors.New("invalid parameter")
	ErrGame      = errors.New("invalid game")
)

// Option configures New.
type Option func(*config)

type config struct {
	priors  map[string]Player
	untimed bool
}

// WithPriors gives some players their own prior, β and γ.
func WithPriors(priors map[string]Player) Option {
	return func(c *config) { c.priors = priors }
}

// Untimed ignores the games' times: game k (in input order) is its own
// batch at time k+1, and every reappearance of a player counts as one unit
// of time, however many games came between.
func Untimed() Option { return func(c *config) { c.untimed = true } }

// History is a history of games declared as one factor graph: a skill per
// player per batch, linked across a player's batches by drift
// N(s_t; s_t', γ²·(t − t')), each game TrueSkill's Figure 1 on the skills
// of its batch. New runs the forward (filtering) pass; Converge smooths the
// whole history. A History is for one goroutine at a time.
type History struct {
	p       Params
	g       *graph.Graph
	runner  *schedules.Runner
	games   []declaredGame // in input order
	batches []batch        // in time order
	players map[string]*player
	names   []string // sorted
	// filtered holds each game's log evidence in the forward pass: the
	// one-step-ahead log probability of its outcome.
	filtered []float64
	sweep    schedules.Schedule // one smoothing iteration
	skills   []graph.VarID      // every skill variable, which Converge watches
	ts       trueskill.Params   // every game's β, draw probability and inner loop
	acc      *extrapolation     // kept across Converge calls
}

type declaredGame struct {
	nodes    trueskill.Nodes
	skills   [][]graph.VarID
	betas    [][]float64
	weights  [][]float64
	ranks    []int
	schedule schedules.Schedule
}

// batch is the games sharing a time; forward and backward are the steps
// that bring its skills the messages from their previous and next
// appearances.
type batch struct {
	games             []int // indices into History.games, in input order
	forward, backward []schedules.Schedule
}

// appearance is a player's skill in one batch.
type appearance struct {
	time  float64
	batch int
	v     graph.VarID
}

type player struct {
	prior Player
	seen  []appearance
}

// New declares the history of games and runs its forward pass, which is
// online TrueSkill with drift over time: each game rated from the skills
// as the games before it (in time order) left them.
func New(p Params, games []Game, opts ...Option) (*History, error) {
	var c config
	for _, o := range opts {
		o(&c)
	}
	if err := p.validate(); err != nil {
		return nil, err
	}
	for name, pl := range c.priors {
		if err := pl.validate(name); err != nil {
			return nil, err
		}
	}
	order := make([]int, len(games))
	for k := range order {
		order[k] = k
	}
	time := func(k int) float64 {
		if c.untimed {
			return float64(k + 1)
		}
		return games[k].Time
	}
	for k := range games {
		if err := checkGame(&games[k], k, time(k), p.DrawProbability > 0); err != nil {
			return nil, err
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(time(a), time(b)) })

	h := &History{p: p, ts: p.trueskill(), games: make([]declaredGame, len(games)), players: map[string]*player{}}
	b := graph.NewBuilder("history")
	for start := 0; start < len(order); {
		t := time(order[start])
		end := start
		for end < len(order) && time(order[end]) == t {
			end++
		}
		bt := batch{games: order[start:end]}
		bi := len(h.batches)
		skill := map[string]graph.VarID{}
		for _, k := range bt.games {
			for _, team := range games[k].Teams {
				for _, name := range team {
					if _, ok := skill[name]; ok {
						continue
					}
					pl := h.players[name]
					if pl == nil {
						pl = &player{prior: p.player(c.priors, name)}
						h.players[name] = pl
					}
					v := b.AddVariable(fmt.Sprintf("%s@%d", name, bi))
					skill[name] = v
					// in is the prior (first appearance) or the drift factor
					// whose edge 0 brings the skill its past; its edge 1
					// brings the previous batch this skill's future.
					var in graph.FactorID
					if len(pl.seen) == 0 {
						in = b.AddFactor(factors.NewPrior(pl.prior.Mu, pl.prior.Sigma*pl.prior.Sigma), "", v)
					} else {
						prev := &pl.seen[len(pl.seen)-1]
						elapsed := t - prev.time
						if c.untimed {
							elapsed = 1
						}
						in = b.AddFactor(link(pl.prior.Gamma*pl.prior.Gamma*elapsed), "", v, prev.v)
						h.batches[prev.batch].backward = append(h.batches[prev.batch].backward, schedules.Step(in, 1))
					}
					h.skills = append(h.skills, v)
					pl.seen = append(pl.seen, appearance{time: t, batch: bi, v: v})
					bt.forward = append(bt.forward, schedules.Step(in, 0))
				}
			}
		}
		for _, k := range bt.games {
			gm := &games[k]
			d := declaredGame{ranks: gm.Ranks, weights: gm.Weights}
			d.skills = make([][]graph.VarID, len(gm.Teams))
			d.betas = make([][]float64, len(gm.Teams))
			for j, team := range gm.Teams {
				for _, name := range team {
					d.skills[j] = append(d.skills[j], skill[name])
					d.betas[j] = append(d.betas[j], h.players[name].prior.Beta)
				}
			}
			nd, err := h.ts.Declare(b, trueskill.Contest{Name: fmt.Sprintf("g%d.", k), Skills: d.skills, Ranks: gm.Ranks, Weights: gm.Weights, Betas: d.betas})
			if err != nil {
				return nil, fmt.Errorf("throughtime: game %d: %w", k, err)
			}
			d.nodes = nd
			d.schedule = h.ts.Schedule(nd)
			h.games[k] = d
		}
		h.batches = append(h.batches, bt)
		start = end
	}
	g, err := b.Build()
	if err != nil {
		return nil, fmt.Errorf("throughtime: %w", err)
	}
	h.g = g
	h.names = make([]string, 0, len(h.players))
	for name := range h.players {
		h.names = append(h.names, name)
	}
	slices.Sort(h.names)
	h.runner = schedules.NewRunner(g)

	// The forward pass: each batch's past, then its games in order.
	var filter []schedules.Schedule
	for _, bt := range h.batches {
		filter = append(filter, bt.forward...)
		for _, k := range bt.games {
			filter = append(filter, h.games[k].schedule)
		}
	}
	// A runner of its own, so that the forward pass's plan, used once, is
	// garbage once it has run.
	if _, err := schedules.Run(context.Background(), g, schedules.Sequence(filter...)); err != nil {
		return nil, fmt.Errorf("throughtime: forward pass: %w", err)
	}
	// Each game's one-step-ahead evidence, from the messages its skills had
	// when it was rated: those of the factors declared before it (its
	// batch's past and the games before it in the batch), since nothing
	// after it has sent anything back yet.
	h.filtered = make([]float64, len(games))
	for k := range h.games {
		first := h.games[k].nodes.PerformanceFactors[0][0]
		for _, pf := range h.games[k].nodes.PerformanceFactors {
			for _, f := range pf {
				first = min(first, f)
			}
		}
		lz, err := h.gameEvidence(k, func(v graph.VarID, _ graph.FactorID) messages.Gaussian {
			var m messages.Gaussian
			for i := range g.Degree(v) {
				if f, e := g.VariableEdge(v, i); f < first {
					m = m.Mul(g.Message(f, e))
				}
			}
			return m
		})
		if err != nil {
			return nil, err
		}
		h.filtered[k] = lz
	}

	// One smoothing iteration, in the reference's order: backward over the
	// batches (each receiving its future, then its games), then forward.
	// A single batch is just its games, iterated.
	var body []schedules.Schedule
	n := len(h.batches)
	if n == 1 {
		for _, k := range h.batches[0].games {
			body = append(body, h.games[k].schedule)
		}
	}
	for bi := n - 2; bi >= 0; bi-- {
		body = append(body, h.batches[bi].backward...)
		for _, k := range h.batches[bi].games {
			body = append(body, h.games[k].schedule)
		}
	}
	for bi := 1; bi < n; bi++ {
		body = append(body, h.batches[bi].forward...)
		for _, k := range h.batches[bi].games {
			body = append(body, h.games[k].schedule)
		}
	}
	h.sweep = schedules.Sequence(body...)
	return h, nil
}

// link is the drift factor N(s_t; s_t', v), an equality when v = 0; edge 0
// is the later skill, as a likelihood's.
func link(v float64) graph.Factor {
	if v == 0 {
		return factors.NewEquality()
	}
	return factors.NewLikelihood(v)
}

// Converge runs smoothing sweeps, backward then forward over the whole
// history, until no skill's μ or σ moves by more than tol in a sweep, or
// maxSweeps have run; the result tells which, with the last sweep's
// largest move as Delta. It may be called again to continue, and stops
// with ctx's error between sweeps.
func (h *History) Converge(ctx context.Context, tol float64, maxSweeps int) (schedules.Result, error) {
	if !(tol > 0) || maxSweeps < 1 {
		return schedules.Result{}, fmt.Errorf("throughtime: tolerance %v and %d sweeps: %w", tol, maxSweeps, ErrParameter)
	}
	if ctx == nil {
		ctx = context.Background()
	}
	skills := h.skills
	before := make([]messages.Gaussian, len(skills))
	if h.acc == nil {
		h.acc = h.newExtrapolation()
	}
	acc := h.acc
	var res schedules.Result
	for res.Iterations < maxSweeps {
		if err := ctx.Err(); err != nil {
			return res, fmt.Errorf("throughtime: %w", err)
		}
		for i, v := range skills {
			before[i] = h.g.Marginal(v)
		}
		if _, err := h.runner.Run(ctx, h.sweep); err != nil {
			return res, fmt.Errorf("throughtime: sweep %d: %w", res.Iterations+1, err)
		}
		res.Iterations++
		res.Delta = 0
		for i, v := range skills {
			a, b := before[i], h.g.Marginal(v)
			res.Delta = max(res.Delta, math.Abs(b.Mean()-a.Mean()), math.Abs(b.Sigma()-a.Sigma()))
		}
		if res.Delta <= tol {
			res.Converged = true
			break
		}
		if err := acc.observe(res.Delta); err != nil {
			return res, fmt.Errorf("throughtime: sweep %d: %w", res.Iterations, err)
		}
	}
	return res, nil
}

// Point is a player's skill at one time.
type Point struct {
	Time  float64 `json:"time"`
	Mu    float64 `json:"mu"`
	Sigma float64 `json:"sigma"`
}

// Players returns the players' names, sorted.
func (h *History) Players() []string { return slices.Clone(h.names) }

// LearningCurve returns a player's skill at each batch in which they
// played, in time order (nil for an unknown player).
func (h *History) LearningCurve(name string) []Point {
	pl := h.players[name]
	if pl == nil {
		return nil
	}
	out := make([]Point, len(pl.seen))
	for i, a := range pl.seen {
		m := h.g.Marginal(a.v)
		out[i] = Point{Time: a.time, Mu: m.Mean(), Sigma: m.Sigma()}
	}
	return out
}

// Filtered returns each game's log evidence from the forward pass, in input
// order: the one-step-ahead log probability of its outcome, given every
// game before it.
func (h *History) Filtered() []float64 { return slices.Clone(h.filtered) }

// FilteredLogEvidence returns the sum of Filtered: the log probability of
// the whole history as predicted one game at a time.
func (h *History) FilteredLogEvidence() float64 { return sum(h.filtered) }

// LogEvidence returns each game's log evidence at the current messages,
// in input order, and their sum: each game's outcome given everything else
// the model has learned (after Converge, the smoothed evidence).
func (h *History) LogEvidence() ([]float64, float64, error) {
	out := make([]float64, len(h.games))
	for k := range h.games {
		lz, err := h.gameEvidence(k, func(v graph.VarID, f graph.FactorID) messages.Gaussian {
			return h.g.Cavity(h.g.EdgeID(f, 1))
		})
		if err != nil {
			return nil, 0, err
		}
		out[k] = lz
	}
	return out, sum(out), nil
}

func sum(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s
}
