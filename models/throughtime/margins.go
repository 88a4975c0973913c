package throughtime

import (
	"fmt"
	"math"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

// Margins are the prior and drift of every player's draw margin
// (WithDrawMargins).
type Margins struct {
	// Mu and Sigma are the prior N(μ, σ²) of a new player's margin; keep μ
	// several σ above 0 (see WithDrawMargins).
	Mu    float64 `json:"mu"`
	Sigma float64 `json:"sigma"`
	// Gamma is the margin's drift: its variance grows by γ²·Δt between two
	// appearances Δt apart (one unit per appearance, Untimed).
	Gamma float64 `json:"gamma"`
}

func (m Margins) validate() error {
	if !messages.IsFinite(m.Mu) || !(m.Sigma > 0) || math.IsInf(m.Sigma, 1) || !(m.Gamma >= 0) || math.IsInf(m.Gamma, 1) {
		return fmt.Errorf("throughtime: margins %+v: %w", m, ErrInput)
	}
	return nil
}

// WithDrawMargins gives each player a draw margin of their own, learned
// from the history with its own drift, in place of the one margin the draw
// probability sets: the model of Dangauthier, Herbrich, Minka and
// Graepel (NIPS 2007, section 3.2). In a game of team 0 ("white", w)
// against team 1 ("black", b), with the performance difference
// d = p_w − p_b,
//
//	w wins ⇔ d > m_b,   b wins ⇔ d < −m_w,   a draw ⇔ −m_w ≤ d ≤ m_b,
//
// so the margin that a win must clear is the loser's: a player with a
// large margin is hard to beat and draws often. Each player's margin has
// the prior N(m.Mu, m.Sigma²) at their first game and drifts by m.Gamma,
// as a skill does; the factors are factors.ExceedsMargin (a win) and
// factors.BetweenMargins (a draw). A margin is learned from draws and
// near-draws only; a player who never draws keeps a margin near its prior
// less what their losses say. A margin whose posterior reaches below 0
// makes the draw region empty for those values (see
// factors.BetweenMargins), which a prior several σ above 0 avoids.
//
// Every game must be between two players (ErrInput otherwise), and
// Params.DrawProbability must be 0 (ErrInput): the margins replace
// it. DrawMargin and MarginCurve read the margins.
func WithDrawMargins(m Margins) Option {
	return func(c *config) { c.margins = &m }
}

// marginOf returns player pi's margin, a player of its own on the history's
// chains, whose prior is the Margins'; it is made at the first call.
func (h *History) marginOf(pi int32) int32 {
	for int(pi) >= len(h.marginIndex) {
		h.marginIndex = append(h.marginIndex, -1)
	}
	if mi := h.marginIndex[pi]; mi >= 0 {
		return mi
	}
	m := h.margins
	mi := int32(len(h.players))
	h.players = append(h.players, player{prior: Player{Mu: m.Mu, Sigma: m.Sigma, Gamma: m.Gamma}, first: -1, last: -1})
	h.marginIndex[pi] = mi
	return mi
}

// newMarginGraph declares a 1v1 game with learned margins, of outcome
// ranks (as in Match) between players whose β are betas: trueskill's
// Figure 1 with a margin variable per team (Contest.Margins), whose
// comparison is factors.ExceedsMargin on the loser's margin for a win and
// factors.BetweenMargins on both for a draw. Its slots are the two skills,
// then the two margins, in team order.
func (h *History) newMarginGraph(ranks []int, betas [2]float64) (*gameGraph, error) {
	gg := &gameGraph{sizes: []int{1, 1}, ranks: ranks}
	c := trueskill.Contest{Ranks: ranks, Betas: [][]float64{{betas[0]}, {betas[1]}}, Margins: make([]graph.VarID, 2)}
	nd, err := h.declareGraph(gg, &c)
	if err != nil {
		return nil, err
	}
	// A margin's message is the comparison's on its edge to it: a win's
	// has an edge to the loser's margin alone.
	cmp := nd.ComparisonFactors[0]
	for _, m := range c.Margins {
		o := edgeRef{f: -1}
		for e := 1; e < gg.g.Arity(cmp); e++ {
			if gg.g.EdgeVariable(cmp, e) == m {
				o = edgeRef{cmp, e}
			}
		}
		gg.out = append(gg.out, o)
	}
	return gg, nil
}

// DrawMargin returns a player's draw margin at time t, as Posterior
// returns a skill; ErrInput if the history has no margins
// (WithDrawMargins).
func (h *History) DrawMargin(name string, t float64) (Point, error) {
	mi, err := h.marginPlayer(name)
	if err != nil {
		return Point{}, err
	}
	m, err := h.posteriorOf(mi, t)
	if err != nil {
		return Point{}, err
	}
	pt, err := h.point(t, m)
	pt.Mu -= h.p.Mu // a margin is not held relative to Params.Mu
	return pt, err
}

// MarginCurve returns a player's draw margin at each batch in which they
// played, as LearningCurve returns the skill (nil for an unknown player or
// a history without margins).
func (h *History) MarginCurve(name string) []Point {
	mi, err := h.marginPlayer(name)
	if err != nil {
		return nil
	}
	out := h.curveOf(mi)
	for i := range out {
		out[i].Mu -= h.p.Mu
	}
	return out
}

func (h *History) marginPlayer(name string) (int32, error) {
	if h.margins == nil {
		return 0, fmt.Errorf("throughtime: the history has no draw margins (WithDrawMargins): %w", ErrInput)
	}
	pi, ok := h.index[name]
	if !ok || int(pi) >= len(h.marginIndex) || h.marginIndex[pi] < 0 {
		return 0, fmt.Errorf("throughtime: %q: %w", name, ErrPlayer)
	}
	return h.marginIndex[pi], nil
}

// declareMargins appends the margin slots of a 1v1 game gm in batch bi at
// time t, whose skill slots start at first, and declares its graph.
func (h *History) declareMargins(gm *Match, first, bi int32, t float64) (*gameGraph, error) {
	if len(gm.Teams) != 2 || len(gm.Teams[0]) != 1 || len(gm.Teams[1]) != 1 || gm.Weights != nil {
		return nil, fmt.Errorf("learned draw margins need games of two players, without weights: %w", ErrInput)
	}
	var betas [2]float64
	for i := range 2 {
		pi := h.skills[h.slots[first+int32(i)].skill].player
		betas[i] = h.players[pi].prior.Beta
		mi := h.marginOf(pi)
		si := h.players[mi].last
		if si < 0 || h.skills[si].batch != bi {
			var err error
			if si, err = h.newSkill(mi, bi, t); err != nil {
				return nil, err
			}
		}
		h.slots = append(h.slots, slot{skill: si})
	}
	return h.marginGraph(gm.Ranks, betas)
}

// marginOutcome returns the log probability that 1v1 game g ends as ranks
// says, from the players' predictive skills and margins at g.Time.
func (h *History) marginOutcome(g *Match, ranks []int) (float64, error) {
	beliefs, betas, err := h.marginBeliefs(g)
	if err != nil {
		return 0, err
	}
	return h.marginLogOutcome(ranks, beliefs, betas)
}

// marginBeliefs returns the predictive skills, then margins, of 1v1 game
// g's players at g.Time, in team order, and the players' β.
func (h *History) marginBeliefs(g *Match) ([4]messages.Gaussian, [2]float64, error) {
	var beliefs [4]messages.Gaussian
	var betas [2]float64
	if len(g.Teams) != 2 || len(g.Teams[0]) != 1 || len(g.Teams[1]) != 1 || g.Weights != nil {
		return beliefs, betas, fmt.Errorf("throughtime: learned draw margins need games of two players, without weights: %w", ErrInput)
	}
	for i := range 2 {
		name := g.Teams[i][0]
		s, beta, err := h.predictive1(name, g.Time)
		if err != nil {
			return beliefs, betas, err
		}
		beliefs[i], betas[i] = s, beta
		beliefs[2+i] = messages.NewGaussian(h.margins.Mu, h.margins.Sigma*h.margins.Sigma)
		if mi, err := h.marginPlayer(name); err == nil {
			m, err := h.posteriorOf(mi, g.Time)
			if err != nil {
				return beliefs, betas, err
			}
			beliefs[2+i] = m
		}
	}
	for _, b := range beliefs {
		if !b.IsProper() || !b.IsFinite() || !messages.IsFinite(b.Variance()) {
			return beliefs, betas, fmt.Errorf("throughtime: belief %v at time %v: %w", b, g.Time, ErrInput)
		}
	}
	return beliefs, betas, nil
}

// marginLogOutcome returns the log probability that a 1v1 game between
// players whose skills and margins are beliefs (as marginBeliefs returns
// them) and whose β are betas ends as ranks says: the evidence of the
// outcome's graph on them.
func (h *History) marginLogOutcome(ranks []int, beliefs [4]messages.Gaussian, betas [2]float64) (float64, error) {
	gg, err := h.marginGraph(ranks, betas)
	if err != nil {
		return 0, err
	}
	for i, b := range beliefs {
		gg.priors[i].Mean, gg.priors[i].Variance = b.Mean(), b.Variance()
	}
	if err := gg.run(); err != nil {
		return 0, numeric(err)
	}
	return gg.logEvidence()
}

// marginShape is what the graph of a 1v1 game with learned margins
// depends on: the outcome (0: team 0 wins, 1: a draw, 2: team 1 wins) and
// the players' β.
type marginShape struct {
	outcome int
	betas   [2]float64
}

// marginGraph returns the graph of a 1v1 game with learned margins that
// ends as ranks says, between players whose β are betas: the history's
// graph of that shape, declared at the first game or prediction of it,
// which all of them share. It is a tree whose one factor that is not
// Gaussian is the outcome's, which one pass from the priors solves: each
// run starts from no messages (gameGraph.shared), and a game needs no
// graph of its own to keep its messages in.
func (h *History) marginGraph(ranks []int, betas [2]float64) (*gameGraph, error) {
	shape := marginShape{betas: betas} // team 0 wins
	if ranks != nil && ranks[1] <= ranks[0] {
		shape.outcome = 1 // a draw
		if ranks[1] < ranks[0] {
			shape.outcome = 2 // team 1 wins
		}
	}
	if gg, ok := h.marginGraphs[shape]; ok {
		return gg, nil
	}
	// The outcome's own ranks: the graph keeps them, and it outlives the
	// caller's.
	gg, err := h.newMarginGraph([][]int{nil, {0, 0}, {1, 0}}[shape.outcome], betas)
	if err != nil {
		return nil, err
	}
	gg.shared = true
	if h.marginGraphs == nil {
		h.marginGraphs = map[marginShape]*gameGraph{}
	}
	h.marginGraphs[shape] = gg
	return gg, nil
}

// predictMargins is Predict with learned margins: each outcome's
// probability, scaled to sum to 1. They sum to more where the margins'
// beliefs let m_a + m_b fall below 0: there the draw region is empty and
// the regions of a win, d > m_b, and a loss, d < −m_a, overlap.
func (h *History) predictMargins(g *Match) (trueskill.Prediction, error) {
	beliefs, betas, err := h.marginBeliefs(g)
	if err != nil {
		return trueskill.Prediction{}, fmt.Errorf("throughtime: Predict: %w", err)
	}
	var p [3]float64
	var sum float64
	for i, ranks := range [][]int{nil, {0, 0}, {1, 0}} {
		lz, err := h.marginLogOutcome(ranks, beliefs, betas)
		if err != nil {
			return trueskill.Prediction{}, fmt.Errorf("throughtime: Predict: %w", err)
		}
		p[i] = math.Exp(lz)
		sum += p[i]
	}
	if !(sum > 0) {
		return trueskill.Prediction{}, fmt.Errorf("throughtime: Predict: outcomes of probability %v: %w", sum, ErrInput)
	}
	return trueskill.Prediction{Win: p[0] / sum, Draw: p[1] / sum, Loss: p[2] / sum}, nil
}
