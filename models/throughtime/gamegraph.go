package throughtime

import (
	"context"
	"fmt"

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
// margins, is a tree that needs none.
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
	// shared is a graph that several games or predictions run
	// (History.marginGraph), each run from no messages.
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
	gg.offset = h.offset(gg.sizes, gg.weights)
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
			return fmt.Errorf("throughtime: game %d: cavity %v: %w", g.input, c, ErrInput)
		}
		gg.priors[i].Mean, gg.priors[i].Variance = c.Mean()+gg.offset, c.Variance()
	}
	if err := gg.run(); err != nil {
		return fmt.Errorf("throughtime: game %d: %w", g.input, numeric(err))
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
			return fmt.Errorf("throughtime: game %d: message %v: %w", g.input, m, ErrInput)
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
		return 0, fmt.Errorf("throughtime: game %d: %w", h.games[k].input, err)
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
// with each player's skill a prior from skill, run to its fixed point,
// and its EP log evidence.
func (h *History) graphLogOutcome(sizes []int, skill skillFunc, ranks []int, weights [][]float64) (float64, error) {
	b := graph.NewBuilder("game")
	c := trueskill.Contest{Skills: make([][]graph.VarID, len(sizes)), Ranks: ranks, Weights: weights, Betas: make([][]float64, len(sizes))}
	var priors []schedules.Schedule
	for j, n := range sizes {
		for i := range n {
			s, beta, err := skill(j, i)
			if err != nil {
				return 0, err
			}
			v := b.AddVariable("")
			priors = append(priors, schedules.Step(b.AddFactor(factors.NewPrior(s.Mean(), s.Variance()), "", v), 0))
			c.Skills[j] = append(c.Skills[j], v)
			c.Betas[j] = append(c.Betas[j], beta)
		}
	}
	ts := h.p.trueskill()
	nd, err := ts.Declare(b, c)
	if err != nil {
		return 0, err
	}
	g, err := b.Build()
	if err != nil {
		return 0, err
	}
	if _, err := h.runner(g).Run(context.Background(), schedules.Sequence(schedules.Sequence(priors...), ts.Schedule(nd))); err != nil {
		return 0, err
	}
	return g.LogEvidence()
}
