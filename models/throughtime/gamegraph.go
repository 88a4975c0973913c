package throughtime

import (
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/models/trueskill"
	"github.com/skillgraph/skillgraph/schedules"
)

// gameGraph is a game that the two-player closed form does not cover
// (more teams or players, weights, players whose β are all 0, learned
// margins): its factor graph, TrueSkill's Figure 1
// (trueskill.Params.Declare) on skill (and margin) variables whose priors
// are set to the slots' cavities before each run, so that the game's
// messages to its slots are those of the game in the whole history's
// graph. A game's own graph keeps its inner messages from run to run, as
// they would be kept in that graph; a shared one, of games with learned
// margins, is a tree that needs none. The graphs of outcomes' log
// probabilities (History.outcomeGraph) are shared too, their priors the
// skills of the outcome asked about.
type gameGraph struct {
	g       *graph.Graph
	runner  *schedules.Runner
	plan    *schedules.Plan
	priors  []*factors.Prior // one for each slot: the skills team by team, then any margins
	out     []edgeRef        // each slot's factor and edge (a skill's: its performance factor's edge 1)
	sizes   []int
	ranks   []int
	weights [][]float64
	offset  float64 // added to the cavities' means (see History.offset)
	// sums are the teams' performance sums (by team; nil for a team that
	// has none, being Compact) of a shared graph whose weights each run
	// sets; nil for other graphs.
	sums []*factors.WeightedSum
	// shared is a graph that several games or predictions run
	// (History.marginGraph, History.outcomeGraph), each run from no
	// messages.
	shared bool
}

// edgeRef is a factor's edge; a factor of −1 sends the uniform message.
type edgeRef struct {
	f graph.FactorID
	e int
}

// newGameGraph declares game gm, whose slots are the last ones appended.
func (h *History) newGameGraph(gm *Match) (*gameGraph, error) {
	gg := &gameGraph{ranks: gm.Ranks, weights: gm.Weights}
	c := trueskill.Contest{Ranks: gm.Ranks, Weights: gm.Weights, Betas: make([][]float64, len(gm.Teams))}
	for j, team := range gm.Teams {
		gg.sizes = append(gg.sizes, len(team))
		for _, name := range team {
			c.Betas[j] = append(c.Betas[j], h.players[h.index[name]].prior.Beta)
		}
	}
	if _, err := h.declareGraph(gg, &c); err != nil {
		return nil, err
	}
	gg.offset = h.offset(gg.sizes, gg.weights)
	return gg, nil
}

// declareGraph declares the graph of gg, a game of teams of gg.sizes, by
// trueskill.Params.Declare of c, whose outcome, weights and β the caller
// has set: it adds a variable with a prior for each slot, the skills team
// by team, then, if c.Margins is not nil, the two margins of a 1v1 game in
// team order, and fills c's Skills and Margins with them. Each run sets
// the priors to the slots' cavities, then runs the contest's own
// schedule. A skill slot's message is its performance factor's (edge 1);
// gg.out holds those, which a caller adds the margins' to.
func (h *History) declareGraph(gg *gameGraph, c *trueskill.Contest) (trueskill.Nodes, error) {
	b := graph.NewBuilder("game")
	var steps []schedules.Schedule
	prior := func() graph.VarID {
		v := b.AddVariable("")
		pr := factors.NewPrior(0, 1)
		steps = append(steps, schedules.Step(b.AddFactor(pr, "", v), 0))
		gg.priors = append(gg.priors, pr)
		return v
	}
	c.Name, c.Compact = "g.", true
	c.Skills = make([][]graph.VarID, len(gg.sizes))
	for j, n := range gg.sizes {
		for range n {
			c.Skills[j] = append(c.Skills[j], prior())
		}
	}
	for i := range c.Margins {
		c.Margins[i] = prior()
	}
	ts := h.p.trueskill()
	nd, err := ts.Declare(b, *c)
	if err != nil {
		return nd, numeric(err)
	}
	for _, pf := range nd.PerformanceFactors {
		for _, f := range pf {
			gg.out = append(gg.out, edgeRef{f, 1})
		}
	}
	if gg.g, err = b.Build(); err != nil {
		return nd, numeric(err)
	}
	if gg.plan, err = schedules.Compile(gg.g, schedules.Sequence(schedules.Sequence(steps...), ts.Schedule(nd))); err != nil {
		return nd, numeric(err)
	}
	gg.runner = h.runner(gg.g)
	return nd, nil
}

// runner returns a runner of g, with the history's observer if it has one.
func (h *History) runner(g *graph.Graph) *schedules.Runner {
	if h.observer == nil {
		return schedules.NewRunner(g)
	}
	return schedules.NewRunner(g, schedules.WithObserver(h.observer))
}

// runGraph runs game k's graph from its players' cavities.
func (h *History) runGraph(k int, cavity func(*slot) messages.Gaussian) error {
	g := &h.games[k]
	gg := h.gameGraphs[g.graph]
	s := h.slots[g.slot:h.slotEnd(k)]
	for i := range s {
		c := cavity(&s[i])
		if !c.IsProper() || !c.IsFinite() || !messages.IsFinite(c.Mean()+gg.offset) {
			return gameError(int(g.input), "cavity %v: %w", c, ErrInput)
		}
		gg.priors[i].Mean, gg.priors[i].Variance = c.Mean()+gg.offset, c.Variance()
	}
	if err := gg.run(); err != nil {
		return gameError(int(g.input), "%w", numeric(err))
	}
	return nil
}

// run runs the graph from its priors: from the messages its last run left,
// or, if it is shared, from none.
func (gg *gameGraph) run() error {
	if gg.shared {
		gg.g.Reset()
	}
	_, err := gg.runner.Run(context.Background(), gg.plan)
	return err
}

// updateGraph runs game k's graph from its players' cavities and takes its
// messages to their skills.
func (h *History) updateGraph(k int) error {
	g := &h.games[k]
	gg := h.gameGraphs[g.graph]
	s := h.slots[g.slot:h.slotEnd(k)]
	if err := h.runGraph(k, h.cavity); err != nil {
		return err
	}
	for i := range s {
		var m messages.Gaussian
		if o := gg.out[i]; o.f >= 0 {
			m = gg.g.Message(o.f, o.e)
		}
		if !m.IsFinite() {
			return gameError(int(g.input), "message %v: %w", m, ErrInput)
		}
		h.setMessage(&s[i], m.Shift(-gg.offset))
	}
	return nil
}

// graphLogEvidence returns the log evidence of game k's graph at its
// current messages, the log probability of its outcome from the cavities
// its last run started from (when that run reached the fixed point).
func (h *History) graphLogEvidence(k int) (float64, error) {
	lz, err := h.gameGraphs[h.games[k].graph].logEvidence()
	if err != nil {
		return 0, gameError(int(h.games[k].input), "%w", err)
	}
	return lz, nil
}

// logEvidence returns the log evidence of gg's graph at its current
// messages, as a log probability (checkLog).
func (gg *gameGraph) logEvidence() (float64, error) {
	lz, err := gg.g.LogEvidence()
	if err != nil {
		return 0, numeric(err)
	}
	return checkLog(lz)
}

// graphLogOutcome is the log probability of a game's outcome that the
// two-team closed form does not cover: TrueSkill's graph of the game,
// with each player's skill a prior from skill, run to its fixed point from
// no messages, and its EP log evidence. The graph is the history's graph
// of the game's shape (outcomeGraph), whose priors and weights are set to
// this game's before the run.
func (h *History) graphLogOutcome(sizes []int, skill skillFunc, ranks []int, weights [][]float64) (float64, error) {
	o := &h.outcomes
	o.skills, o.betas = o.skills[:0], o.betas[:0]
	for j, n := range sizes {
		for i := range n {
			s, beta, err := skill(j, i)
			if err != nil {
				return 0, err
			}
			o.skills = append(o.skills, s)
			o.betas = append(o.betas, beta)
		}
	}
	gg, err := h.outcomeGraph(sizes, ranks, weights)
	if err != nil {
		return 0, err
	}
	for k, s := range o.skills {
		pr := gg.priors[k]
		pr.Mean, pr.Variance = s.Mean(), s.Variance()
		// What Build checks of a new graph's priors.
		if err := pr.Validate(); err != nil {
			return 0, fmt.Errorf("prior of player %d: %w", k, err)
		}
	}
	for j, sum := range gg.sums {
		if sum != nil {
			if err := sum.SetCoefficients(weights[j]...); err != nil {
				return 0, fmt.Errorf("weights of team %d: %w", j, err)
			}
		}
	}
	if err := gg.run(); err != nil {
		return 0, err
	}
	return gg.g.LogEvidence()
}

// outcomeSlots bounds the players of the graphs a history keeps for
// outcomes (History.outcomeGraph), all shapes together.
const outcomeSlots = 1 << 12

// outcomeGraphs are a history's graphs of outcomes that the two-team
// closed form does not cover, by shape (outcomeGraphs.shape), and the
// scratch of graphLogOutcome.
type outcomeGraphs struct {
	graphs map[string]*gameGraph
	slots  int // the players of graphs
	key    []byte
	order  []int
	dense  []int
	skills []messages.Gaussian
	betas  []float64 // the players', team by team
}

// outcomeGraph returns the graph of an outcome (ranks) of teams of sizes
// with weights, whose players' β are h.outcomes.betas: the history's graph
// of that shape, declared at the first call of it and shared by all
// (gameGraph.shared: each run starts from no messages, so the graph
// keeps nothing of the calls before). The priors and, with weights, the
// team sums' coefficients are the caller's to set (gameGraph.sums).
//
// The graphs held have at most outcomeSlots players in all: one that would
// pass that empties the cache first, so that shapes without end (every
// call a new one: players' β all different, or games of ever more teams)
// cost what declaring a graph for each call costs, in memory bounded by
// outcomeSlots players and the largest game of the calls.
func (h *History) outcomeGraph(sizes, ranks []int, weights [][]float64) (*gameGraph, error) {
	o := &h.outcomes
	key := o.shape(sizes, ranks, weights)
	keep := !h.fresh
	if gg, ok := o.graphs[string(key)]; ok && keep {
		return gg, nil
	}
	gg := &gameGraph{sizes: slices.Clone(sizes), shared: true}
	c := trueskill.Contest{Ranks: ranks, Weights: weights, Betas: make([][]float64, len(sizes))}
	betas := slices.Clone(o.betas)
	for j, n := range sizes {
		c.Betas[j], betas = betas[:n:n], betas[n:]
	}
	nd, err := h.declareGraph(gg, &c)
	if err != nil {
		return nil, err
	}
	if weights != nil {
		gg.sums = make([]*factors.WeightedSum, len(sizes))
		for j, f := range nd.TeamFactors {
			if f >= 0 {
				gg.sums[j] = gg.g.Factor(f).(*factors.WeightedSum)
			}
		}
	}
	if !keep {
		return gg, nil
	}
	n := len(o.betas)
	if o.graphs == nil || o.slots+n > outcomeSlots {
		o.graphs, o.slots = map[string]*gameGraph{}, 0
	}
	o.graphs[string(key)] = gg
	o.slots += n
	return gg, nil
}

// shape returns the key of the graph of an outcome (ranks) of teams of
// sizes with weights, whose players' β are o.betas, in o's scratch: what
// trueskill.Params.Declare's graph depends on, which is the teams' sizes,
// their ranks up to order (the order of the teams and which adjacent ones
// draw, so ranks are replaced by their dense ranks), whether the game has
// weights and, if so, which one-player teams have weight 1 (they are
// Compact) and which teams took part (a weight above 0), and each player's β (its performance factor and the draw
// margins).
func (o *outcomeGraphs) shape(sizes, ranks []int, weights [][]float64) []byte {
	n := len(sizes)
	o.order, o.dense = o.order[:0], append(o.dense[:0], make([]int, n)...)
	for j := range n {
		o.order = append(o.order, j)
	}
	if ranks != nil {
		slices.SortStableFunc(o.order, func(a, b int) int { return cmp.Compare(ranks[a], ranks[b]) })
	}
	for k := 1; k < n; k++ {
		o.dense[o.order[k]] = o.dense[o.order[k-1]]
		if ranks == nil || ranks[o.order[k]] != ranks[o.order[k-1]] {
			o.dense[o.order[k]]++
		}
	}
	key := append(o.key[:0], flag(weights != nil))
	key = binary.AppendUvarint(key, uint64(n))
	for j, size := range sizes {
		key = binary.AppendUvarint(key, uint64(size))
		key = binary.AppendUvarint(key, uint64(o.dense[j]))
		if weights != nil {
			// Declare refuses a team that took no part (weights all 0)
			// where it must: such a game never shares a graph with one
			// whose team took part.
			key = append(key, flag(size == 1 && weights[j][0] == 1), flag(slices.ContainsFunc(weights[j], func(w float64) bool { return w > 0 })))
		}
	}
	for _, beta := range o.betas {
		key = binary.LittleEndian.AppendUint64(key, math.Float64bits(beta))
	}
	o.key = key
	return key
}

func flag(b bool) byte {
	if b {
		return 1
	}
	return 0
}
