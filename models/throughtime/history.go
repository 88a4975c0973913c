package throughtime

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"slices"

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

// Match is one game of a history: its time, its teams of players by name,
// the outcome as ranks, and optional partial-play weights.
type Match struct {
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

// The errors the package returns wrap one of these (errors.Is), the
// project's vocabulary of messages: ErrInput for a parameter, game, time
// or player the caller can correct (ErrPlayer among them), ErrImpossible
// as well for a tie whose draw margin is 0 (it has probability zero, as
// trueskill says of it, until the caller sets a draw probability), and
// ErrNumerical for an answer float64 cannot carry. The error's text says
// which input.
var (
	ErrInput      = messages.ErrInput
	ErrImpossible = messages.ErrImpossible
	ErrNumerical  = messages.ErrNumerical
)

// Option configures New.
type Option func(*config)

type config struct {
	priors   map[string]Player
	untimed  bool
	progress func(Progress)
	evidence bool
	margins  *Margins
	// graphs sends every game, 1v1 or not, through its own factor graph;
	// the tests compare the two ways of updating a 1v1 game.
	graphs bool
	// observer, if not nil, watches every run of a game's graph; the
	// tests count the runs.
	observer schedules.Observer
	// fresh declares the graph of each outcome that the two-team closed
	// form does not cover for that call alone (History.outcomeGraph); the
	// tests and benchmarks compare the shared graphs with it.
	fresh bool
}

// WithPriors gives some players their own prior, β and γ.
func WithPriors(priors map[string]Player) Option {
	return func(c *config) { c.priors = priors }
}

// Untimed ignores the games' times: game k (in input order) is its own
// batch at time k+1, and every reappearance of a player counts as one unit
// of time, however many games came between.
func Untimed() Option { return func(c *config) { c.untimed = true } }

// History is a history of games: a skill per player per batch, linked
// across a player's batches by drift N(s_t; s_t', γ²·(t − t')), each game
// TrueSkill's Figure 1 on the skills of its batch. New runs the forward
// (filtering) pass; Converge smooths the whole history. A History is for
// one goroutine at a time, its reading methods too: LogEvidence,
// LogProbability and Predict run factor graphs that the history keeps and
// shares between calls.
//
// The history is the factor graph of the model with its messages held in
// flat arrays: for each skill (a player in a batch) the messages from its
// past and its future on the drift chain and the product of its games'
// messages, and for each game its message to each of its players' skills.
// A game of two one-player teams is updated by trueskill's two-team
// closed form (Params.Rate1v1), which is the graph's update exactly; any
// other game by running its graph (trueskill.Params.Declare) from the
// skills' cavities: its own, or the one that 1v1 games with learned
// margins of its outcome and players' β share.
//
// Means are held relative to Params.Mu, so that a history is the same at
// any prior mean (Params.Mu is added back to every skill the history
// returns).
type History struct {
	p        Params
	priors   map[string]Player // WithPriors, for players who first appear in Add
	untimed  bool
	graphs   bool
	observer schedules.Observer
	progress func(Progress)
	evidence bool
	// margins, if not nil, are the players' draw margins' prior; each
	// player's margin is the player marginIndex[i] on the chains.
	margins     *Margins
	marginIndex []int32
	// marginGraphs are the graphs of 1v1 games with learned margins, one
	// for each shape, which every game and prediction of it runs.
	marginGraphs map[marginShape]*gameGraph
	// outcomes are the graphs of outcomes' log probabilities beyond the
	// two-team closed form, one for each shape, which every call of it
	// runs (History.outcomeGraph); fresh declares one for each call.
	outcomes outcomeGraphs
	fresh    bool

	index      map[string]int32
	players    []player // in order of first appearance
	names      []string // sorted
	batches    []batch  // in time order
	skills     []skill  // batch by batch
	games      []game   // batch by batch, in input order within a batch
	slots      []slot   // each game's players, game by game
	gameGraphs []*gameGraph
	// filtered holds each game's log evidence in the forward pass (by
	// input index): the one-step-ahead log probability of its outcome.
	filtered []float64
	mix      *anderson // kept across Converge calls until they converge
	before   []messages.Gaussian
	// relinked logs the players whose last skill an Add has moved on,
	// with the skill it was, so that a failed Add can undo it.
	relinked []relink
}

type relink struct{ player, last int32 }

// player is a player's prior (its mean relative to Params.Mu) and the
// first and last of their skills.
type player struct {
	prior       Player
	first, last int32
}

// batch is the games sharing a time: its skills from skills[skill] and its
// games from games[game], each to the next batch's.
type batch struct {
	time        float64
	skill, game int32
}

// skill is a player's skill in one batch: the messages from its past
// (the prior, or the drift from the previous skill), from its future
// (the drift from the next skill; uniform for the last) and the product
// of its games' messages; the marginal is their product.
type skill struct {
	past, future, games messages.Gaussian
	prev, next          int32 // the player's previous and next skills, −1 if none
	player, batch       int32
}

func (s *skill) marginal() messages.Gaussian { return s.past.Mul(s.future).Mul(s.games) }

// game is a game: its players' slots from slots[slot] to the next game's,
// its input index, and how it is updated: by the two-player closed form
// (graph −1; slot first the winner, then the loser, or two who drew) or
// by its graph h.gameGraphs[graph], its own or one it shares
// (History.marginGraph).
type game struct {
	slot, input, graph int32
	drawn              bool
}

// slot is one player's part in a game: their skill and the game's message
// to it.
type slot struct {
	skill int32
	msg   messages.Gaussian
}

// New declares the history of games and runs its forward pass, which is
// online TrueSkill with drift over time: each game rated from the skills
// as the games before it (in time order) left them. A nil option is
// ignored.
func New(p Params, games []Match, opts ...Option) (*History, error) {
	var c config
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	if err := p.validate(); err != nil {
		return nil, err
	}
	for name, pl := range c.priors {
		if err := pl.validate(name); err != nil {
			return nil, err
		}
		if d := pl.Mu - p.Mu; !messages.IsFinite(d) || !meanInRange(d, pl.Sigma) {
			return nil, fmt.Errorf("throughtime: player %q: prior mean %v is %v from Params.Mu, beyond float64's precision at σ = %v: %w (%w)", name, pl.Mu, d, pl.Sigma, ErrInput, messages.ErrNumerical)
		}
	}
	if c.margins != nil {
		if err := c.margins.validate(); err != nil {
			return nil, err
		}
		if p.DrawProbability != 0 {
			return nil, fmt.Errorf("throughtime: DrawProbability %v with learned draw margins: %w", p.DrawProbability, ErrInput)
		}
	}
	h := &History{p: p, priors: maps.Clone(c.priors), untimed: c.untimed, graphs: c.graphs, observer: c.observer, fresh: c.fresh,
		progress: c.progress, evidence: c.evidence, index: map[string]int32{}, margins: c.margins}
	if err := h.grow(games); err != nil {
		return nil, err
	}
	return h, nil
}

// Add appends games later than every game already in the history (times
// strictly greater than the latest; in an Untimed history each added game
// is its own next batch), runs their forward pass and records their
// filtered evidence, keeping every message the history has so far: the
// new games are predicted from the skills as smoothing left them.
// Converge(ctx, tol, k) then runs up to k more sweeps over the whole
// history, which is the online mode: add a batch, sweep k times. An Add
// costs its games and, for each of their players, a step along the drift
// chain from their last skill; on an error the history is unchanged.
func (h *History) Add(games []Match) error {
	if len(games) == 0 {
		return nil
	}
	return h.grow(games)
}

// grow appends games: it checks them all, then declares and filters them,
// and on an error puts the history back as it was.
func (h *History) grow(games []Match) error {
	first := len(h.filtered)
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
		t := time(k)
		if err := h.checkGame(&games[k], first+k, t); err != nil {
			return err
		}
		if t <= latest {
			return gameError(first+k, "time %v is not after the history's latest, %v: %w", t, latest, ErrInput)
		}
	}
	order := make([]int, len(games))
	for k := range order {
		order[k] = k
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(time(a), time(b)) })

	if len(h.games) == 0 {
		// A first pass knows the sizes: each player of each game is a
		// slot, and at most a skill.
		slots := 0
		for k := range games {
			for _, team := range games[k].Teams {
				slots += len(team)
			}
		}
		h.games, h.slots, h.skills = make([]game, 0, len(games)), make([]slot, 0, slots), make([]skill, 0, slots)
	}
	undo := h.mark()
	nn := len(h.names)
	if err := h.declare(games, order, time, first); err != nil {
		undo()
		return err
	}
	// The new names, appended by declare, merge into the sorted ones.
	if len(h.names) > nn {
		slices.Sort(h.names[nn:])
		if nn > 0 {
			h.names = mergeSorted(h.names[:nn:nn], h.names[nn:])
		}
	}
	h.mix = nil
	return nil
}

// mark returns a function that puts the history back as it is now, undoing
// appends to it: grow only appends, and links each returning player's last
// skill to their new one (newSkill logs those in h.relinked).
func (h *History) mark() func() {
	nb, ns, ng, nslot, ngraph, nf, np, nn := len(h.batches), len(h.skills), len(h.games), len(h.slots), len(h.gameGraphs), len(h.filtered), len(h.players), len(h.names)
	h.relinked = h.relinked[:0]
	return func() {
		for i := len(h.relinked) - 1; i >= 0; i-- {
			r := h.relinked[i]
			h.players[r.player].last = r.last
			h.skills[r.last].next = -1
		}
		for _, name := range h.names[nn:] {
			delete(h.index, name)
		}
		for i := range h.marginIndex {
			if int(h.marginIndex[i]) >= np {
				h.marginIndex[i] = -1
			}
		}
		h.batches, h.skills, h.games, h.slots = h.batches[:nb], h.skills[:ns], h.games[:ng], h.slots[:nslot]
		h.gameGraphs, h.filtered, h.players, h.names = h.gameGraphs[:ngraph], h.filtered[:nf], h.players[:np], h.names[:nn]
	}
}

// declare appends the games (in the given time order) and runs their
// forward pass: each batch's skills receive their past, then its games are
// rated in input order, each game's filtered evidence taken from its
// players' skills just before.
func (h *History) declare(games []Match, order []int, time func(int) float64, first int) error {
	h.filtered = append(h.filtered, make([]float64, len(games))...)
	for start := 0; start < len(order); {
		t := time(order[start])
		end := start
		for end < len(order) && time(order[end]) == t {
			end++
		}
		bi := int32(len(h.batches))
		h.batches = append(h.batches, batch{time: t, skill: int32(len(h.skills)), game: int32(len(h.games))})
		for _, k := range order[start:end] {
			if err := h.declareGame(&games[k], first+k, bi, t); err != nil {
				return err
			}
		}
		start = end
	}
	return nil
}

// declareGame appends game gm (input index input) to batch bi at time t:
// a slot for each of its players, the closed form or a graph, then its
// update and its filtered evidence.
func (h *History) declareGame(gm *Match, input int, bi int32, t float64) error {
	g := game{slot: int32(len(h.slots)), input: int32(input), graph: -1}
	for _, team := range gm.Teams {
		for _, name := range team {
			si, err := h.skillAt(name, bi, t)
			if err != nil {
				return gameError(input, "%w", err)
			}
			h.slots = append(h.slots, slot{skill: si})
		}
	}
	pair := !h.graphs && len(gm.Teams) == 2 && len(gm.Teams[0]) == 1 && len(gm.Teams[1]) == 1 && gm.Weights == nil
	if h.margins != nil {
		gg, err := h.declareMargins(gm, g.slot, bi, t)
		if err != nil {
			return gameError(input, "%w", err)
		}
		g.graph = int32(len(h.gameGraphs))
		h.gameGraphs = append(h.gameGraphs, gg)
		pair = false
	} else if pair {
		// Two players whose β are both 0 have no closed form
		// (trueskill's needs β > 0): their game has a graph.
		s := h.slots[g.slot : g.slot+2]
		pair = h.pairBeta(s) > 0
		g.drawn = pair && gm.Ranks != nil && gm.Ranks[0] == gm.Ranks[1]
		if pair && gm.Ranks != nil && gm.Ranks[1] < gm.Ranks[0] {
			s[0], s[1] = s[1], s[0]
		}
	}
	if !pair && g.graph < 0 {
		gg, err := h.newGameGraph(gm)
		if err != nil {
			return gameError(input, "%w", err)
		}
		g.graph = int32(len(h.gameGraphs))
		h.gameGraphs = append(h.gameGraphs, gg)
	}
	h.games = append(h.games, g)
	return h.filter(len(h.games) - 1)
}

// filter rates game k, the last declared, from its players' cavities and
// records its filtered evidence: its outcome's log probability from those
// cavities. A game whose evidence is a graph's (hasGraphEvidence) takes it
// from the run of its graph that updates it, which starts from no
// messages (the game's own graph is new; a shared one is reset), as a
// graph built for the evidence alone would: the graph runs once. Any other
// game has its evidence in closed form.
func (h *History) filter(k int) error {
	g := &h.games[k]
	var lz float64
	var err error
	if h.hasGraphEvidence(k) {
		if err = h.updateGraph(k); err == nil {
			lz, err = h.graphLogEvidence(k)
		}
	} else if lz, err = h.gameEvidence(k, h.cavity); err == nil {
		err = h.update(k)
	}
	if err != nil {
		return err
	}
	h.filtered[g.input] = lz
	return nil
}

// skillAt returns the skill of player name in batch bi at time t: the
// one the batch has given them already, or a new one, after a new
// player's prior if the history has not seen them.
func (h *History) skillAt(name string, bi int32, t float64) (int32, error) {
	pi, ok := h.index[name]
	if !ok {
		pr := h.p.player(h.priors, name)
		pr.Mu -= h.p.Mu
		pi = int32(len(h.players))
		h.players = append(h.players, player{prior: pr, first: -1, last: -1})
		h.index[name] = pi
		h.names = append(h.names, name)
	}
	if si := h.players[pi].last; si >= 0 && h.skills[si].batch == bi {
		return si, nil
	}
	return h.newSkill(pi, bi, t)
}

// mergeSorted merges two sorted lists into a new one.
func mergeSorted(a, b []string) []string {
	out := make([]string, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if a[0] < b[0] {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return append(append(out, a...), b...)
}

// newSkill appends player pi's skill in batch bi at time t, with its past:
// the prior at the first appearance, else the drift from the last skill.
func (h *History) newSkill(pi, bi int32, t float64) (int32, error) {
	pl := &h.players[pi]
	si := int32(len(h.skills))
	s := skill{prev: pl.last, next: -1, player: pi, batch: bi}
	if pl.last < 0 {
		s.past = messages.NewGaussian(pl.prior.Mu, pl.prior.Sigma*pl.prior.Sigma)
		pl.first = si
	} else {
		h.relinked = append(h.relinked, relink{pi, pl.last})
		prev := &h.skills[pl.last]
		if v := h.drift(pi, h.batches[prev.batch].time, t); !messages.IsFinite(v) {
			return 0, fmt.Errorf("drift %v from time %v to %v: %w", v, h.batches[prev.batch].time, t, ErrInput)
		}
		prev.next = si
	}
	pl.last = si
	h.skills = append(h.skills, s)
	if s.prev >= 0 {
		h.skills[si].past = h.fromPast(si)
	}
	return si, nil
}

// drift is the variance player pi's skill gains from time t0 to t1: γ² per
// unit of time, or γ² per reappearance in an untimed history.
func (h *History) drift(pi int32, t0, t1 float64) float64 {
	g := h.players[pi].prior.Gamma
	if g == 0 {
		return 0 // an equality, however long the gap
	}
	if h.untimed {
		return g * g
	}
	return g * g * (t1 - t0)
}

// spread is the message N(s_t; s_t', v) sends on from a belief m about the
// other end, N(m.Mean(), m.Variance() + v) in natural parameters (π and τ
// over 1 + πv), which keeps a uniform m uniform.
func spread(m messages.Gaussian, v float64) messages.Gaussian {
	d := 1 + m.Pi*v
	return messages.Gaussian{Pi: m.Pi / d, Tau: m.Tau / d}
}

// fromPast is the drift's message to skill si from the previous skill:
// that skill's marginal without what si sent back, spread by the drift.
func (h *History) fromPast(si int32) messages.Gaussian {
	s := &h.skills[si]
	prev := &h.skills[s.prev]
	return spread(prev.past.Mul(prev.games), h.drift(s.player, h.batches[prev.batch].time, h.batches[s.batch].time))
}

// fromFuture is the drift's message to skill si from the next skill.
func (h *History) fromFuture(si int32) messages.Gaussian {
	s := &h.skills[si]
	next := &h.skills[s.next]
	return spread(next.future.Mul(next.games), h.drift(s.player, h.batches[s.batch].time, h.batches[next.batch].time))
}

// cavity is the belief about a slot's skill without the slot's game.
func (h *History) cavity(sl *slot) messages.Gaussian {
	return h.skills[sl.skill].marginal().Div(sl.msg)
}

// setMessage replaces a slot's message, and its skill's product of games'
// messages with it.
func (h *History) setMessage(sl *slot, m messages.Gaussian) {
	s := &h.skills[sl.skill]
	s.games = messages.Gaussian{Pi: s.games.Pi - sl.msg.Pi + m.Pi, Tau: s.games.Tau - sl.msg.Tau + m.Tau}
	sl.msg = m
}

// pairBeta is the β that two players' β give a 1v1 game whose noise is
// β_a² + β_b² = 2β².
func (h *History) pairBeta(s []slot) float64 {
	a, b := h.players[h.skills[s[0].skill].player].prior.Beta, h.players[h.skills[s[1].skill].player].prior.Beta
	return math.Sqrt((a*a + b*b) / 2)
}

// slotEnd is the end of game k's slots.
func (h *History) slotEnd(k int) int32 {
	if k+1 < len(h.games) {
		return h.games[k+1].slot
	}
	return int32(len(h.slots))
}

// update rates game k from its players' cavities and replaces its messages
// to them with posterior / cavity.
func (h *History) update(k int) error {
	g := &h.games[k]
	if g.graph >= 0 {
		return h.updateGraph(k)
	}
	s := h.slots[g.slot : g.slot+2]
	ca, cb := h.cavity(&s[0]), h.cavity(&s[1])
	if !ca.IsProper() || !cb.IsProper() || !ca.IsFinite() || !cb.IsFinite() {
		return gameError(int(g.input), "cavities %v and %v: %w", ca, cb, ErrInput)
	}
	// The closed form is unchanged by one scale of every mean, σ and β
	// (the draw margin is proportional to β): the game is rated in units
	// of 2^−e, e set so that the smallest and the largest of σ_a, σ_b and β
	// sit about 1 alike, where all three lie within trueskill's domain
	// ([1e-9, 1e9]) whatever the history's scale, unless they are more
	// than 1e18 apart. A power of two scales without rounding, so that a
	// game whose numbers are in the domain already gets the same bits.
	beta := h.pairBeta(s)
	sa, sb := ca.Sigma(), cb.Sigma()
	_, lo := math.Frexp(math.Min(beta, math.Min(sa, sb)))
	_, hi := math.Frexp(math.Max(beta, math.Max(sa, sb)))
	e := -(lo + hi) / 2
	ts := trueskill.Params{Sigma: 1, Beta: math.Ldexp(beta, e), DrawProbability: h.p.DrawProbability}
	a, b, err := ts.Rate1v1(trueskill.Rating{Mu: math.Ldexp(ca.Mean(), e), Sigma: math.Ldexp(sa, e)},
		trueskill.Rating{Mu: math.Ldexp(cb.Mean(), e), Sigma: math.Ldexp(sb, e)}, g.drawn)
	if err != nil {
		// err, trueskill's, wraps ErrInput.
		return gameError(int(g.input), "cavities %v and %v with β = %v, scales too far apart for float64 (%w): %w", ca, cb, beta, ErrNumerical, err)
	}
	h.setMessage(&s[0], messages.NewGaussian(math.Ldexp(a.Mu, -e), math.Ldexp(a.Sigma*a.Sigma, -2*e)).Div(ca))
	h.setMessage(&s[1], messages.NewGaussian(math.Ldexp(b.Mu, -e), math.Ldexp(b.Sigma*b.Sigma, -2*e)).Div(cb))
	return nil
}

// sweep is one smoothing iteration, in the reference's order: backward
// over the batches (each receiving its future, then its games), then
// forward (each receiving its past, then its games). A single batch is
// just its games, iterated.
func (h *History) sweep() error {
	n := len(h.batches)
	if n == 1 {
		return h.rate(0)
	}
	for bi := n - 2; bi >= 0; bi-- {
		if err := h.receive(bi, false); err != nil {
			return err
		}
	}
	for bi := 1; bi < n; bi++ {
		if err := h.receive(bi, true); err != nil {
			return err
		}
	}
	return nil
}

// receive gives batch bi's skills their messages from the past (forward)
// or from the future, then rates its games.
func (h *History) receive(bi int, forward bool) error {
	lo, hi := h.skillRange(bi)
	for si := lo; si < hi; si++ {
		sk := &h.skills[si]
		switch {
		case forward && sk.prev >= 0:
			sk.past = h.fromPast(si)
		case !forward && sk.next >= 0:
			sk.future = h.fromFuture(si)
		}
	}
	return h.rate(bi)
}

// rate updates batch bi's games in order.
func (h *History) rate(bi int) error {
	lo, hi := h.gameRange(bi)
	for k := lo; k < hi; k++ {
		if err := h.update(k); err != nil {
			return err
		}
	}
	return nil
}

func (h *History) skillRange(bi int) (int32, int32) {
	if bi+1 < len(h.batches) {
		return h.batches[bi].skill, h.batches[bi+1].skill
	}
	return h.batches[bi].skill, int32(len(h.skills))
}

func (h *History) gameRange(bi int) (int, int) {
	if bi+1 < len(h.batches) {
		return int(h.batches[bi].game), int(h.batches[bi+1].game)
	}
	return int(h.batches[bi].game), len(h.games)
}

// refreshPast recomputes every skill's message from its past, in time
// order, from the games' messages: after a forward pass they are these
// already, and after the mixing moves the games' messages they follow.
func (h *History) refreshPast() {
	for si := range h.skills {
		if h.skills[si].prev >= 0 {
			h.skills[si].past = h.fromPast(int32(si))
		}
	}
}

// Progress is what Converge reports after each sweep (WithProgress).
type Progress struct {
	// Sweep counts the sweeps of this Converge call, from 1.
	Sweep int `json:"sweep"`
	// Change is the largest move of a skill's μ or σ in the sweep.
	Change float64 `json:"change"`
	// LogEvidence is the history's log evidence after the sweep
	// (LogEvidence's sum), when WithProgress asked for it (HasEvidence).
	LogEvidence float64 `json:"log_evidence"`
	HasEvidence bool    `json:"has_evidence"`
}

// WithProgress has Converge call report after each sweep. With evidence
// true each report carries the history's log evidence, one more pass over
// the games; without it a report costs nothing. report may read the
// history (LearningCurve, Posterior, LogEvidence) but not change it (Add,
// Converge).
func WithProgress(report func(Progress), evidence bool) Option {
	return func(c *config) { c.progress, c.evidence = report, evidence }
}

// Converge runs smoothing sweeps, backward then forward over the whole
// history, until no skill's μ or σ moves by more than tol in a sweep, or
// maxSweeps have run; the result tells which, with the last sweep's
// largest move as Delta. After each sweep the games' messages move to the
// Anderson mix of the last sweeps (see anderson), which removes the
// smooth modes over time that each plain sweep shrinks only a little, as
// no one game holds them much. It may be called again to continue, and
// stops with ctx's error between sweeps; with WithProgress it reports each
// sweep.
func (h *History) Converge(ctx context.Context, tol float64, maxSweeps int) (schedules.Convergence, error) {
	if !(tol > 0) || maxSweeps < 1 {
		return schedules.Convergence{}, fmt.Errorf("throughtime: tolerance %v and %d sweeps: %w", tol, maxSweeps, ErrInput)
	}
	if ctx == nil {
		ctx = context.Background()
	}
	if len(h.before) != len(h.skills) {
		h.before = make([]messages.Gaussian, len(h.skills))
	}
	before := h.before
	if h.mix == nil {
		h.mix = h.newAnderson(mixDepth)
	}
	var res schedules.Convergence
	for res.Iterations < maxSweeps {
		if err := ctx.Err(); err != nil {
			return res, fmt.Errorf("throughtime: %w", err)
		}
		for i := range h.skills {
			before[i] = h.skills[i].marginal()
		}
		h.mix.start()
		if err := h.sweep(); err != nil {
			return res, fmt.Errorf("throughtime: sweep %d: %w", res.Iterations+1, err)
		}
		res.Iterations++
		res.Delta = 0
		for i := range h.skills {
			a, b := before[i], h.skills[i].marginal()
			res.Delta = max(res.Delta, math.Abs(b.Mean()-a.Mean()), math.Abs(b.Sigma()-a.Sigma()))
		}
		if !messages.IsFinite(res.Delta) {
			return res, fmt.Errorf("throughtime: sweep %d: a skill moved by %v: %w", res.Iterations, res.Delta, ErrInput)
		}
		if res.Delta <= tol {
			res.Converged = true
			h.mix = nil // its buffers are most of the history's memory
		} else {
			h.mix.observe()
		}
		// The report sees the state the history would have if this were
		// the call's last sweep.
		if err := h.report(res); err != nil {
			return res, err
		}
		if res.Converged {
			break
		}
	}
	return res, nil
}

// report calls the progress callback, if any, after a sweep.
func (h *History) report(res schedules.Convergence) error {
	if h.progress == nil {
		return nil
	}
	pr := Progress{Sweep: res.Iterations, Change: res.Delta}
	if h.evidence {
		_, lz, err := h.LogEvidence()
		if err != nil {
			return err
		}
		pr.LogEvidence, pr.HasEvidence = lz, true
	}
	h.progress(pr)
	return nil
}

// Point is a player's skill at one time.
type Point struct {
	Time  float64 `json:"time"`
	Mu    float64 `json:"mu"`
	Sigma float64 `json:"sigma"`
}

// ErrPlayer reports a player the history has not seen, which Predict
// and LogProbability treat as new; it wraps ErrInput.
var ErrPlayer = fmt.Errorf("unknown player: %w", messages.ErrInput)

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
// times count games, and a gap's drift is split in proportion to them. A
// time so far from the player's games that the drift overflows is
// ErrInput.
func (h *History) Posterior(name string, t float64) (Point, error) {
	m, err := h.posterior(name, t)
	if err != nil {
		return Point{}, err
	}
	return h.point(t, m)
}

// point returns a belief (relative to Params.Mu) as a Point, or
// ErrInput if it cannot be one.
func (h *History) point(t float64, m messages.Gaussian) (Point, error) {
	pt := Point{Time: t, Mu: m.Mean() + h.p.Mu, Sigma: m.Sigma()}
	if !m.IsProper() || !messages.IsFinite(pt.Mu) || !(pt.Sigma > 0) || math.IsInf(pt.Sigma, 1) {
		return Point{}, fmt.Errorf("throughtime: the skill at time %v is N(%v, %v²): %w", t, pt.Mu, pt.Sigma, ErrInput)
	}
	return pt, nil
}

// posterior is Posterior's belief, relative to Params.Mu.
func (h *History) posterior(name string, t float64) (messages.Gaussian, error) {
	pi, ok := h.index[name]
	if !ok {
		return messages.Gaussian{}, fmt.Errorf("throughtime: %q: %w", name, ErrPlayer)
	}
	return h.posteriorOf(pi, t)
}

// posteriorOf is posterior for player pi.
func (h *History) posteriorOf(pi int32, t float64) (messages.Gaussian, error) {
	if !messages.IsFinite(t) {
		return messages.Gaussian{}, fmt.Errorf("throughtime: time %v: %w", t, ErrInput)
	}
	time := func(si int32) float64 { return h.batches[h.skills[si].batch].time }
	// After the last appearance, the common case of a prediction, needs
	// no walk along the chain.
	if last := h.players[pi].last; t > time(last) {
		return spread(h.skills[last].marginal(), h.drift(pi, time(last), t)), nil
	}
	seen := h.chain(pi)
	i, found := slices.BinarySearchFunc(seen, t, func(si int32, t float64) int { return cmp.Compare(time(si), t) })
	switch {
	case found:
		return h.skills[seen[i]].marginal(), nil
	case i == 0:
		return h.skills[seen[0]].marginal(), nil
	case i == len(seen):
		last := seen[i-1]
		return spread(h.skills[last].marginal(), h.drift(pi, time(last), t)), nil
	}
	prev, next := &h.skills[seen[i-1]], &h.skills[seen[i]]
	t0, t1 := time(seen[i-1]), time(seen[i])
	gap := h.drift(pi, t0, t1)
	share := (t - t0) / (t1 - t0)
	return spread(prev.past.Mul(prev.games), share*gap).Mul(spread(next.future.Mul(next.games), (1-share)*gap)), nil
}

// chain returns player pi's skills in time order.
func (h *History) chain(pi int32) []int32 {
	var out []int32
	for si := h.players[pi].first; si >= 0; si = h.skills[si].next {
		out = append(out, si)
	}
	return out
}

// Players returns the players' names, sorted.
func (h *History) Players() []string { return slices.Clone(h.names) }

// LearningCurve returns a player's skill at each batch in which they
// played, in time order (nil for an unknown player).
func (h *History) LearningCurve(name string) []Point {
	pi, ok := h.index[name]
	if !ok {
		return nil
	}
	return h.curveOf(pi)
}

// curveOf is LearningCurve for player pi.
func (h *History) curveOf(pi int32) []Point {
	seen := h.chain(pi)
	out := make([]Point, len(seen))
	for i, si := range seen {
		m := h.skills[si].marginal()
		out[i] = Point{Time: h.batches[h.skills[si].batch].time, Mu: m.Mean() + h.p.Mu, Sigma: m.Sigma()}
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
		lz, err := h.gameEvidence(k, h.cavity)
		if err != nil {
			return nil, 0, err
		}
		out[h.games[k].input] = lz
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
