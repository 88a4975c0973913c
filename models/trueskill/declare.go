package trueskill

import (
	"fmt"
	"math"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/schedules"
)

// Contest is one match to declare into a caller's graph (see
// Params.Declare): the skill variables of each team's players, which the
// caller has added with their priors and may share between contests, the
// outcome, and optional variables added to a team's performance.
type Contest struct {
	// Name prefixes the names of the contest's variables ("g7." names them
	// g7.p1, g7.t1, g7.d1, …), which must be unique within the graph.
	Name string
	// Skills holds each team's players' skill variables.
	Skills [][]graph.VarID
	// Ranks and Weights are as in Match: one rank per team, lower is better
	// and equal ranks draw (nil: listed in finishing order); partial-play
	// weights with the shape of Skills (nil: all 1).
	Ranks   []int
	Weights [][]float64
	// Bonus, if not nil, holds for each team variables added with weight 1
	// to its performance, t = Σ wᵢpᵢ + Σ bonus: a home advantage shared by
	// every contest, say, added to the home team's.
	Bonus [][]graph.VarID
	// Betas, if not nil, has the shape of Skills: each player's own
	// performance noise β, 0 (the performance is the skill) or in
	// [1e-9, 1e9], instead of Params.Beta. The draw margin between two teams is then
	// Φ⁻¹((p+1)/2)·√(Σβᵢ²) over both teams' players, which is the usual
	// Φ⁻¹((p+1)/2)·√(n₁+n₂)·β when all are equal.
	Betas [][]float64
	// Margins, if not nil, holds one draw-margin variable per team, which
	// the caller has added with its prior (and may share between contests
	// and give dynamics, as Dangauthier, Herbrich, Minka and Graepel 2007
	// do for chess players), instead of the fixed margin ε of Params. Of
	// two adjacent teams in rank order with difference d = t_better −
	// t_worse, the better wins when d exceeds the worse team's margin
	// (factors.ExceedsMargin: a win reads the loser's margin) and they draw
	// when −m_better ≤ d ≤ m_worse (factors.BetweenMargins). Equal fixed
	// margins ε give TrueSkill's game. Params.DrawProbability and
	// DrawMargin are then unused. A margin's posterior should stay several
	// σ above 0: where it crosses 0 the draw region is empty.
	Margins []graph.VarID
	// Compact leaves out the team performance of a team of one player
	// with weight 1 and no bonus: the difference factors take the
	// player's performance itself (Nodes.Teams holds it, and
	// Nodes.TeamFactors −1 for that team). The model is the same, with
	// one variable, one factor and two edges fewer per such team, which
	// a history of a million one-player teams wants; a drawing of the
	// paper's Figure 1 does not.
	Compact bool
}

// Nodes are what Declare adds to the graph, indexed by the caller's team
// and player, except differences and their factors, which follow the
// teams in rank order (best first).
type Nodes struct {
	Performances       [][]graph.VarID    // p ~ N(s, β²)
	Teams              []graph.VarID      // t = Σ wᵢpᵢ (+ bonus)
	Differences        []graph.VarID      // d_k = t_(k) − t_(k+1) in rank order
	PerformanceFactors [][]graph.FactorID // N(p; s, β²): edge 0 to p, 1 to s
	TeamFactors        []graph.FactorID   // edge 0 to t, then the players', then the bonus; −1 where Compact left the team out
	DifferenceFactors  []graph.FactorID   // edge 0 to d, 1 to the better team, 2 to the worse
	// ComparisonFactors are I(d > ε) or, for a draw, I(|d| ≤ ε); with
	// Contest.Margins, I(d > m_worse) (edge 1 to the margin) or
	// I(−m_better ≤ d ≤ m_worse) (edges 1 and 2 to the margins).
	ComparisonFactors []graph.FactorID
	// order lists the caller's teams in rank order, best first; bonus
	// counts each team's bonus variables; margins counts each comparison's
	// edges to margin variables (nil without Contest.Margins).
	order   []int
	bonus   []int
	margins []int
}

// figure1Layers are the rows of the paper's Figure 1, top to bottom.
var figure1Layers = []string{"skill priors", "skills", "performance factors", "performances",
	"team factors", "team performances", "difference factors", "differences", "comparison factors"}

// Declare adds the factor graph of contest c to b, below skill variables
// the caller has declared: Figure 1 of the paper without its priors, so
// that skills (and their priors, and any dynamics between them) can be
// shared by many contests and by factors of the caller's own, such as a
// home advantage. Build the graph and derive its schedule with
// schedules.Derive (or schedules.Tree if it has no loop); Params.NewGame is
// the one-contest graph with the paper's schedule. Without Margins, a draw
// between adjacent teams whose draw margin is 0 (from the parameters, or
// from players' own β of 0) is refused with ErrImpossible, as Rate refuses
// it; so is, with ErrInput, a team whose weights are all 0 and that has no
// bonus, unless it faces a single team that took part.
func (p Params) Declare(b *graph.Builder, c Contest) (Nodes, error) {
	if err := p.validateDeclare(&c); err != nil {
		return Nodes{}, err
	}
	if err := c.validate(); err != nil {
		return Nodes{}, err
	}
	m := Match{Ranks: c.Ranks, Weights: c.Weights, Teams: make([][]Rating, len(c.Skills))}
	if c.Weights != nil {
		// A bonus variable takes part in a team's performance as a player
		// does.
		played := func(j int) bool { return m.played(j) || c.Bonus != nil && len(c.Bonus[j]) > 0 }
		if err := checkAbsent(len(c.Skills), played); err != nil {
			return Nodes{}, err
		}
	}
	order := m.order()
	if c.Margins == nil {
		if err := p.checkDraws(c.Ranks); err != nil {
			return Nodes{}, err
		}
		// checkDraws covers the parameters' margin; players' own β can
		// still make a pair's margin 0.
		for k := 0; c.Betas != nil && k+1 < len(order); k++ {
			if m.drawn(order, k) && p.fixedMargin(&c, order[k], order[k+1]) == 0 {
				return Nodes{}, impossibleDraw(order[k+1], c.Ranks[order[k+1]])
			}
		}
	}
	return p.declare(b, &c, order, &m), nil
}

// validateDeclare is Params.Validate for the fields Declare uses: the
// prior's (Mu, Sigma, Tau) are the caller's priors' business, β is unused
// where every player has its own, and the draw parameters where the
// contest has margin variables.
func (p Params) validateDeclare(c *Contest) error {
	if c.Betas == nil {
		if err := p.validateBeta(); err != nil {
			return err
		}
	}
	if c.Margins == nil {
		if err := p.validateDraw(); err != nil {
			return err
		}
	}
	return p.validateLoop()
}

// validate checks the contest's shape; the variables themselves are
// checked by Build.
func (c *Contest) validate() error {
	if len(c.Skills) < 2 {
		return tooFewTeams("Skills", len(c.Skills))
	}
	if c.Bonus != nil && len(c.Bonus) != len(c.Skills) {
		return shapeErr("Bonus", len(c.Bonus), len(c.Skills))
	}
	if c.Margins != nil && len(c.Margins) != len(c.Skills) {
		return shapeErr("Margins", len(c.Margins), len(c.Skills))
	}
	if c.Betas != nil {
		if len(c.Betas) != len(c.Skills) {
			return shapeErr("Betas", len(c.Betas), len(c.Skills))
		}
		for j, row := range c.Betas {
			if err := checkTeamValues("Betas", row, len(c.Skills[j]), j); err != nil {
				return err
			}
		}
	}
	return checkOutcome(len(c.Skills), func(j int) int { return len(c.Skills[j]) }, c.Ranks, c.Weights, "Skills")
}

// declare adds c's nodes in rank order (order[pos] is the caller's team at
// position pos), so that every match of one shape has the same graph; m
// gives the weights and draws.
func (p Params) declare(b *graph.Builder, c *Contest, order []int, m *Match) Nodes {
	n := len(c.Skills)
	nd := Nodes{
		Performances: make([][]graph.VarID, n), Teams: make([]graph.VarID, n),
		Differences: make([]graph.VarID, n-1), PerformanceFactors: make([][]graph.FactorID, n),
		TeamFactors: make([]graph.FactorID, n), DifferenceFactors: make([]graph.FactorID, n-1),
		ComparisonFactors: make([]graph.FactorID, n-1),
		order:             order, bonus: make([]int, n),
	}
	// compact is whether team j's performance is its one player's.
	compact := func(j int) bool {
		return c.Compact && len(c.Skills[j]) == 1 && m.weight(j, 0) == 1 && (c.Bonus == nil || len(c.Bonus[j]) == 0)
	}
	b.DeclareLayers(figure1Layers...)
	nd.addVariables(b, c, compact)
	p.addPerformanceFactors(b, c, &nd)
	nd.addTeamFactors(b, c, m, compact)
	b.Layer("difference factors")
	for k := range nd.DifferenceFactors {
		nd.DifferenceFactors[k] = b.AddFactor(factors.NewDifference(), "", nd.Differences[k], nd.Teams[order[k]], nd.Teams[order[k+1]])
	}
	p.addComparisonFactors(b, c, m, &nd)
	for j := range c.Bonus {
		nd.bonus[j] = len(c.Bonus[j])
	}
	return nd
}

// addVariables adds the performances, team performances and differences,
// numbering players across teams in the caller's order, as in Figure 1
// (p1; p2, p3; p4).
func (nd *Nodes) addVariables(b *graph.Builder, c *Contest, compact func(j int) bool) {
	first := make([]int, len(c.Skills))
	for j := 1; j < len(c.Skills); j++ {
		first[j] = first[j-1] + len(c.Skills[j-1])
	}
	b.Layer("performances")
	for _, j := range nd.order {
		nd.Performances[j] = make([]graph.VarID, len(c.Skills[j]))
		for i := range c.Skills[j] {
			nd.Performances[j][i] = b.AddVariable(fmt.Sprintf("%sp%d", c.Name, first[j]+i+1))
		}
	}
	b.Layer("team performances")
	for _, j := range nd.order {
		if compact(j) {
			nd.Teams[j] = nd.Performances[j][0]
			continue
		}
		nd.Teams[j] = b.AddVariable(fmt.Sprintf("%st%d", c.Name, j+1))
	}
	b.Layer("differences")
	for k := range nd.Differences {
		nd.Differences[k] = b.AddVariable(fmt.Sprintf("%sd%d", c.Name, k+1))
	}
}

// addPerformanceFactors adds N(p; s, β²) for every player, with the
// player's own β if the contest gives one (p = s for β = 0).
func (p Params) addPerformanceFactors(b *graph.Builder, c *Contest, nd *Nodes) {
	b.Layer("performance factors")
	for _, j := range nd.order {
		nd.PerformanceFactors[j] = make([]graph.FactorID, len(c.Skills[j]))
		for i, s := range c.Skills[j] {
			var f graph.Factor = factors.NewLikelihood(p.Beta * p.Beta)
			if c.Betas != nil {
				if beta := c.Betas[j][i]; beta > 0 {
					f = factors.NewLikelihood(beta * beta)
				} else {
					f = factors.NewEquality() // p = s: edge 0 to p, 1 to s, as a likelihood's
				}
			}
			nd.PerformanceFactors[j][i] = b.AddFactor(f, "", nd.Performances[j][i], s)
		}
	}
}

// addTeamFactors adds t = Σ wᵢpᵢ (+ bonus) for every team not compact.
func (nd *Nodes) addTeamFactors(b *graph.Builder, c *Contest, m *Match, compact func(j int) bool) {
	b.Layer("team factors")
	for _, j := range nd.order {
		if compact(j) {
			nd.TeamFactors[j] = -1
			continue
		}
		w := make([]float64, len(c.Skills[j]))
		for i := range w {
			w[i] = m.weight(j, i)
		}
		vars := append([]graph.VarID{nd.Teams[j]}, nd.Performances[j]...)
		if c.Bonus != nil {
			for _, v := range c.Bonus[j] {
				w = append(w, 1)
				vars = append(vars, v)
			}
		}
		nd.TeamFactors[j] = b.AddFactor(factors.NewWeightedSum(w...), "", vars...)
	}
}

// addComparisonFactors adds the win or draw factor on each difference:
// with the contest's margin variables, or with the fixed margin ε of the
// parameters (from the players' own β if given).
func (p Params) addComparisonFactors(b *graph.Builder, c *Contest, m *Match, nd *Nodes) {
	b.Layer("comparison factors")
	order := nd.order
	if c.Margins != nil {
		nd.margins = make([]int, len(nd.ComparisonFactors))
	}
	for k := range nd.ComparisonFactors {
		if c.Margins != nil {
			better, worse := c.Margins[order[k]], c.Margins[order[k+1]]
			if m.drawn(order, k) {
				nd.ComparisonFactors[k] = b.AddFactor(factors.NewBetweenMargins(), "", nd.Differences[k], better, worse)
				nd.margins[k] = 2
			} else {
				nd.ComparisonFactors[k] = b.AddFactor(factors.NewExceedsMargin(), "", nd.Differences[k], worse)
				nd.margins[k] = 1
			}
			continue
		}
		eps := p.fixedMargin(c, order[k], order[k+1])
		if m.drawn(order, k) {
			nd.ComparisonFactors[k] = b.AddFactor(factors.NewWithin(eps), "", nd.Differences[k])
		} else {
			nd.ComparisonFactors[k] = b.AddFactor(factors.NewGreaterThan(eps), "", nd.Differences[k])
		}
	}
}

// fixedMargin returns the draw margin ε between the contest's teams a and
// b: the parameters', or, with players' own β (Contest.Betas) and no fixed
// DrawMargin, the one their β give, Φ⁻¹((p+1)/2)·√(Σβᵢ²) over both teams.
func (p Params) fixedMargin(c *Contest, a, b int) float64 {
	if c.Betas == nil || p.DrawMargin > 0 {
		return p.Margin(len(c.Skills[a]), len(c.Skills[b]))
	}
	v := 0.0
	for _, j := range [2]int{a, b} {
		for _, beta := range c.Betas[j] {
			v += beta * beta
		}
	}
	return DrawMargin(p.DrawProbability, math.Sqrt(v), 1)
}

// Schedule returns the paper's schedule for a contest declared with
// Declare, given messages arriving at its skills: performances and team
// performances down, the differences (for more than two teams, a chain
// swept forward and back until no message moves more than the tolerance,
// within the iteration cap), then back up to the skills. It is the game's
// own inner schedule, to run as one unit inside a larger one (a history's
// sweeps); NewGame's schedule is the skills' priors followed by it.
func (p Params) Schedule(nd Nodes) schedules.Schedule {
	step := schedules.Step
	var down, up []schedules.Schedule
	for _, j := range nd.order {
		for _, f := range nd.PerformanceFactors[j] {
			down = append(down, step(f, 0))
		}
	}
	for _, j := range nd.order {
		if nd.TeamFactors[j] >= 0 {
			down = append(down, step(nd.TeamFactors[j], 0))
		}
	}
	diff, cmp := nd.DifferenceFactors, nd.ComparisonFactors
	last := len(diff) - 1
	var chain schedules.Schedule
	if last == 0 {
		chain = schedules.Sequence(step(diff[0], 0), step(cmp[0], 0))
	} else {
		// The difference chain: each comparison updates the next team on
		// the way forward and the previous one on the way back.
		var body []schedules.Schedule
		for k := 0; k < last; k++ {
			body = append(body, step(diff[k], 0), step(cmp[k], 0), step(diff[k], 2))
		}
		for k := last; k > 0; k-- {
			body = append(body, step(diff[k], 0), step(cmp[k], 0), step(diff[k], 1))
		}
		// No residual scheduling (schedules.Residual): on chains this
		// short its bookkeeping costs about what the skipped updates save.
		chain = schedules.Loop(schedules.Sequence(body...),
			schedules.Tolerance(p.tolerance()), schedules.MaxIterations(p.maxIterations()),
			schedules.Name("difference chain"))
	}
	// The margins, from the differences the chain left.
	for k, edges := range nd.margins {
		for e := 1; e <= edges; e++ {
			up = append(up, step(cmp[k], e))
		}
	}
	up = append(up, step(diff[0], 1), step(diff[last], 2))
	for _, j := range nd.order {
		for i, f := range nd.PerformanceFactors[j] {
			if nd.TeamFactors[j] >= 0 {
				up = append(up, step(nd.TeamFactors[j], i+1))
			}
			up = append(up, step(f, 1))
		}
		for k := range nd.bonus[j] {
			up = append(up, step(nd.TeamFactors[j], len(nd.PerformanceFactors[j])+1+k))
		}
	}
	return schedules.Sequence(schedules.Sequence(down...), chain, schedules.Sequence(up...))
}
