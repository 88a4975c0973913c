package throughtime

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
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
	// which each player has one skill. It may count anything (rounds,
	// days); At turns a time.Time into days, weeks or any unit.
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
	sweep    *schedules.Plan   // one smoothing iteration
	skills   []graph.VarID     // every skill variable, which Converge watches
	ts       trueskill.Params  // every game's β, draw probability and inner loop
	mix      *anderson         // kept across Converge calls until they converge
	priors   map[string]Player // WithPriors, for players who first appear in Add
	untimed  bool
	before   []messages.Gaussian // the skills before a sweep, kept across Converge calls
}

// declaredGame is a game as declared: its nodes (each player's skill is
// edge 1 of their performance factor, whose variance is their β²), and
// its outcome.
type declaredGame struct {
	nodes   trueskill.Nodes
	weights [][]float64
	ranks   []int
}

// batch is the games sharing a time; forward and backward are the factors
// that bring its skills the messages from their previous and next
// appearances.
type batch struct {
	time              float64
	games             []int // indices into History.games, in input order
	forward, backward []graph.FactorID
}

// appearance is a player's skill in one batch.
type appearance struct {
	time  float64
	batch int
	v     graph.VarID
	in    graph.FactorID // its prior, or the drift factor from the previous appearance
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
	h := &History{p: p, ts: p.trueskill(), players: map[string]*player{}, priors: maps.Clone(c.priors), untimed: c.untimed}
	if err := h.grow(graph.NewBuilder("history"), games); err != nil {
		return nil, err
	}
	return h, nil
}

// Add appends games later than every game already in the history (times
// strictly greater than the latest; in an Untimed history each added game
// is its own next batch), declares them, runs their forward pass and
// records their filtered evidence, keeping every message the history has
// so far: the new games are predicted from the skills as smoothing left
// them. Converge(ctx, tol, k) then runs up to k more sweeps over the whole
// history, which is the online mode: add a batch, sweep k times. On an
// error the history is unchanged. The cost of an Add grows with the
// history (its graph and sweep are rebuilt around the new games).
func (h *History) Add(games []Game) error {
	if len(games) == 0 {
		return nil
	}
	next := *h
	// grow writes into players' appearances and batches' backward steps,
	// which h must keep as they are if it fails; the rest it only appends
	// to, past the lengths h sees.
	next.players = make(map[string]*player, len(h.players))
	for name, pl := range h.players {
		c := *pl
		next.players[name] = &c
	}
	next.batches = slices.Clone(h.batches)
	next.mix = nil
	if err := next.grow(h.g.Extend(), games); err != nil {
		return err
	}
	*h = next
	return nil
}

// grow declares games on b (empty, or the history's own graph extended),
// builds the graph, runs the new games' forward pass and rebuilds the
// smoothing sweep.
func (h *History) grow(b *graph.Builder, games []Game) error {
	first := len(h.games)
	time := func(k int) float64 {
		if h.untimed {
			return float64(first + k + 1)
		}
		return games[k].Time
	}
	latest := math.Inf(-1)
	if n := len(h.batches); n > 0 {
		latest = h.batches[n-1].time
	}
	for k := range games {
		if err := checkGame(&games[k], first+k, time(k), h.p.DrawProbability > 0); err != nil {
			return err
		}
		if t := time(k); t <= latest {
			return fmt.Errorf("throughtime: game %d: time %v is not after the history's latest, %v: %w", first+k, t, latest, ErrGame)
		}
	}
	order := make([]int, len(games))
	for k := range order {
		order[k] = k
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(time(a), time(b)) })

	h.games = append(h.games, make([]declaredGame, len(games))...)
	firstBatch := len(h.batches)
	newPlayers := false
	for start := 0; start < len(order); {
		t := time(order[start])
		end := start
		for end < len(order) && time(order[end]) == t {
			end++
		}
		bt := batch{time: t}
		bi := len(h.batches)
		skill := map[string]graph.VarID{}
		for _, k := range order[start:end] {
			bt.games = append(bt.games, first+k)
			for _, team := range games[k].Teams {
				for _, name := range team {
					if _, ok := skill[name]; ok {
						continue
					}
					pl := h.players[name]
					if pl == nil {
						pl = &player{prior: h.p.player(h.priors, name)}
						h.players[name] = pl
						newPlayers = true
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
						prev := pl.seen[len(pl.seen)-1]
						in = b.AddFactor(link(pl.drift(prev.time, t, h.untimed)), "", v, prev.v)
						h.batches[prev.batch].backward = append(h.batches[prev.batch].backward, in)
					}
					h.skills = append(h.skills, v)
					pl.seen = append(pl.seen, appearance{time: t, batch: bi, v: v, in: in})
					bt.forward = append(bt.forward, in)
				}
			}
		}
		for _, k := range order[start:end] {
			gm := &games[k]
			d := declaredGame{ranks: gm.Ranks, weights: gm.Weights}
			skills := make([][]graph.VarID, len(gm.Teams))
			betas := make([][]float64, len(gm.Teams))
			for j, team := range gm.Teams {
				for _, name := range team {
					skills[j] = append(skills[j], skill[name])
					betas[j] = append(betas[j], h.players[name].prior.Beta)
				}
			}
			nd, err := h.ts.Declare(b, trueskill.Contest{Name: fmt.Sprintf("g%d.", first+k), Skills: skills, Ranks: gm.Ranks, Weights: gm.Weights, Betas: betas, Compact: true})
			if err != nil {
				return fmt.Errorf("throughtime: game %d: %w", first+k, err)
			}
			d.nodes = nd
			h.games[first+k] = d
		}
		h.batches = append(h.batches, bt)
		start = end
	}
	g, err := b.Build()
	if err != nil {
		return fmt.Errorf("throughtime: %w", err)
	}
	h.g = g
	if newPlayers {
		h.names = h.names[:0:0]
		for name := range h.players {
			h.names = append(h.names, name)
		}
		slices.Sort(h.names)
	}
	h.runner = schedules.NewRunner(g)

	// The forward pass over the new batches: each batch's past, then its
	// games in order.
	var filter []schedules.Schedule
	for _, bt := range h.batches[firstBatch:] {
		filter = steps(filter, bt.forward, 0)
		for _, k := range bt.games {
			filter = append(filter, h.ts.Schedule(h.games[k].nodes))
		}
	}
	// A runner of its own, so that the forward pass's plan, used once, is
	// garbage once it has run.
	if _, err := schedules.Run(context.Background(), g, schedules.Sequence(filter...)); err != nil {
		return fmt.Errorf("throughtime: forward pass: %w", err)
	}
	// Each game's one-step-ahead evidence, from the messages its skills had
	// when it was rated: those of the factors declared before it (its
	// batch's past and the games before it in the batch), since nothing
	// after it has sent anything back yet.
	h.filtered = append(h.filtered, make([]float64, len(games))...)
	for k := first; k < len(h.games); k++ {
		before := h.games[k].nodes.PerformanceFactors[0][0]
		for _, pf := range h.games[k].nodes.PerformanceFactors {
			for _, f := range pf {
				before = min(before, f)
			}
		}
		lz, err := h.gameEvidence(k, func(v graph.VarID, _ graph.FactorID) messages.Gaussian {
			var m messages.Gaussian
			for i := range g.Degree(v) {
				if f, e := g.VariableEdge(v, i); f < before {
					m = m.Mul(g.Message(f, e))
				}
			}
			return m
		})
		if err != nil {
			return err
		}
		h.filtered[k] = lz
	}
	// The sweep's plan is kept and its tree of steps dropped: on a long
	// history the tree takes more memory than the plan.
	plan, err := schedules.Compile(g, h.smoothing())
	if err != nil {
		return fmt.Errorf("throughtime: %w", err)
	}
	h.sweep = plan
	return nil
}

// smoothing is one smoothing iteration, in the reference's order: backward
// over the batches (each receiving its future, then its games), then
// forward. A single batch is just its games, iterated.
func (h *History) smoothing() schedules.Schedule {
	var body []schedules.Schedule
	n := len(h.batches)
	if n == 1 {
		for _, k := range h.batches[0].games {
			body = append(body, h.ts.Schedule(h.games[k].nodes))
		}
	}
	for bi := n - 2; bi >= 0; bi-- {
		body = steps(body, h.batches[bi].backward, 1)
		for _, k := range h.batches[bi].games {
			body = append(body, h.ts.Schedule(h.games[k].nodes))
		}
	}
	for bi := 1; bi < n; bi++ {
		body = steps(body, h.batches[bi].forward, 0)
		for _, k := range h.batches[bi].games {
			body = append(body, h.ts.Schedule(h.games[k].nodes))
		}
	}
	return schedules.Sequence(body...)
}

// steps appends to s the updates of factors fs on their edge i: a drift
// factor's edge 0 brings a skill its past, edge 1 its previous skill the
// future (a prior has only edge 0).
func steps(s []schedules.Schedule, fs []graph.FactorID, i int) []schedules.Schedule {
	for _, f := range fs {
		s = append(s, schedules.Step(f, i))
	}
	return s
}

// drift is the variance a player's skill gains from time t0 to t1: γ² per
// unit of time, or γ² per reappearance in an untimed history.
func (pl *player) drift(t0, t1 float64, untimed bool) float64 {
	g2 := pl.prior.Gamma * pl.prior.Gamma
	if untimed {
		return g2
	}
	return g2 * (t1 - t0)
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
// largest move as Delta. After each sweep the skills' messages move to the
// Anderson mix of the last sweeps (see anderson), which takes the 200,000-
// game tennis-shaped history to 1e-6 in 25 sweeps where plain sweeps need
// several hundred. It may be called again to continue, and stops with
// ctx's error between sweeps.
func (h *History) Converge(ctx context.Context, tol float64, maxSweeps int) (schedules.Result, error) {
	if !(tol > 0) || maxSweeps < 1 {
		return schedules.Result{}, fmt.Errorf("throughtime: tolerance %v and %d sweeps: %w", tol, maxSweeps, ErrParameter)
	}
	if ctx == nil {
		ctx = context.Background()
	}
	skills := h.skills
	if len(h.before) != len(skills) {
		h.before = make([]messages.Gaussian, len(skills))
	}
	before := h.before
	if h.mix == nil {
		h.mix = h.newAnderson(mixDepth)
	}
	var res schedules.Result
	for res.Iterations < maxSweeps {
		if err := ctx.Err(); err != nil {
			return res, fmt.Errorf("throughtime: %w", err)
		}
		for i, v := range skills {
			before[i] = h.g.Marginal(v)
		}
		h.mix.start()
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
			h.mix = nil // its buffers are a third of the history's memory
			break
		}
		if err := h.mix.observe(); err != nil {
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

// ErrPlayer reports a player the history has not seen.
var ErrPlayer = errors.New("unknown player")

// Posterior returns a player's skill at time t given everything the
// history has learned so far (smoothed, after Converge). At a time the
// player played it is that skill's marginal. Between two appearances t₀ <
// t < t₁ it is the belief a skill at t would have if declared on the
// drift chain: the message from the earlier skill (its marginal without
// what came back from t₁) spread by the drift over t − t₀, times the one
// from the later skill spread over t₁ − t; with nothing else attached to
// it, that product is the fixed point's marginal exactly. After the last
// appearance the drift γ²·(t − last) is added; before the first, the first
// skill is returned, the prior being declared there. In an Untimed history
// times count games, and a gap's drift is split in proportion to them.
func (h *History) Posterior(name string, t float64) (Point, error) {
	pl := h.players[name]
	if pl == nil {
		return Point{}, fmt.Errorf("throughtime: %q: %w", name, ErrPlayer)
	}
	if !messages.IsFinite(t) {
		return Point{}, fmt.Errorf("throughtime: time %v: %w", t, ErrParameter)
	}
	seen := pl.seen
	i, found := slices.BinarySearchFunc(seen, t, func(a appearance, t float64) int { return cmp.Compare(a.time, t) })
	point := func(m messages.Gaussian) Point { return Point{Time: t, Mu: m.Mean(), Sigma: m.Sigma()} }
	switch {
	case found || i == 0:
		if !found {
			i = 0
		}
		return point(h.g.Marginal(seen[i].v)), nil
	case i == len(seen):
		last := seen[i-1]
		m := h.g.Marginal(last.v)
		extra := pl.drift(last.time, t, h.untimed)
		return point(messages.NewGaussian(m.Mean(), m.Variance()+extra)), nil
	}
	prev, next := seen[i-1], seen[i]
	gap := pl.drift(prev.time, next.time, h.untimed)
	share := (t - prev.time) / (next.time - prev.time)
	// next.in is the drift factor between them: its edge 1 is the earlier
	// skill, edge 0 the later.
	from := h.g.Cavity(h.g.EdgeID(next.in, 1))
	to := h.g.Cavity(h.g.EdgeID(next.in, 0))
	spread := func(m messages.Gaussian, v float64) messages.Gaussian {
		if !m.IsProper() {
			return messages.Uniform()
		}
		return messages.NewGaussian(m.Mean(), m.Variance()+v)
	}
	return point(spread(from, share*gap).Mul(spread(to, (1-share)*gap))), nil
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
