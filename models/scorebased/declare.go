package scorebased

import (
	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
)

// TeamVars are one team's skill variables in a caller's graph. In the
// offence/defence models they are two skills; the score-difference model
// has one skill per team, which DeclareSkill returns as both, so that the
// same formulas (A's offence against B's defence) serve all three models.
type TeamVars struct {
	Offence, Defence graph.VarID
}

// Contest is one match to declare into a caller's graph (see the models'
// Declare methods): the two teams' skill variables, which the caller has
// declared (DeclareTeam, DeclareSkill) and may share between contests, the
// observed scores, and optional variables added to A's side.
type Contest struct {
	// Name prefixes the names of the contest's variables ("m7." names
	// them m7.poA, m7.x, …), which must be unique within the graph.
	Name   string
	A, B   TeamVars
	ScoreA float64
	ScoreB float64
	// Advantage lists variables added with weight 1 to A's side: to the
	// mean of A's score (Gaussian-OD), to its log-rate (Poisson-OD) or to
	// the score difference (Gaussian-SD). With A the home team, one
	// variable shared by every contest is a home advantage.
	Advantage []graph.VarID
}

// Nodes are what a Declare method adds to the graph.
type Nodes struct {
	// Performances are N(p; skill, β²): poA, pdB, poB, pdA for the
	// offence/defence models, pA, pB for Gaussian-SD.
	Performances []graph.VarID
	// Differences are the score factors' variables: x = p_oA − p_dB (+
	// advantage) and y = p_oB − p_dA for the offence/defence models,
	// d = p_A − p_B (+ advantage) for Gaussian-SD.
	Differences []graph.VarID
	// Scores are the score factors, on Differences in the same order.
	Scores []graph.FactorID
}

// scoreLayers are the rows of the paper's Figures 2 and 3, top to bottom.
var scoreLayers = []string{"skill priors", "skills", "performance factors", "performances",
	"difference factors", "differences", "score factors"}

// DeclareTeam adds a team's offence and defence skills, named "o"+name and
// "d"+name, with priors N(μ, σ² + τ²) from t, for the offence/defence
// models.
func (p Params) DeclareTeam(b *graph.Builder, name string, t Team) (TeamVars, error) {
	if err := p.Validate(); err != nil {
		return TeamVars{}, err
	}
	if err := p.checkTeam(t, name); err != nil {
		return TeamVars{}, err
	}
	tv, _ := p.declareSkills(b, []string{"o" + name, "d" + name}, t.Offence, t.Defence)
	return TeamVars{Offence: tv[0], Defence: tv[1]}, nil
}

// DeclareSkill adds a team's one skill, named "l"+name, with prior
// N(μ, σ² + τ²) from r, for the score-difference model.
func (p Params) DeclareSkill(b *graph.Builder, name string, r Rating) (TeamVars, error) {
	if err := p.Validate(); err != nil {
		return TeamVars{}, err
	}
	if err := p.checkRating(r, name, ""); err != nil {
		return TeamVars{}, err
	}
	v, _ := p.declareSkills(b, []string{"l" + name}, r)
	return TeamVars{Offence: v[0], Defence: v[0]}, nil
}

// declareSkills adds one skill variable per name with its prior, and
// returns the variables and the prior factors.
func (p Params) declareSkills(b *graph.Builder, names []string, rs ...Rating) ([]graph.VarID, []graph.FactorID) {
	b.DeclareLayers(scoreLayers...)
	vars := make([]graph.VarID, len(names))
	b.Layer("skills")
	for i, n := range names {
		vars[i] = b.AddVariable(n)
	}
	priors := make([]graph.FactorID, len(names))
	b.Layer("skill priors")
	for i, r := range rs {
		priors[i] = b.AddFactor(factors.NewPrior(r.Mu, p.variance(r)), "", vars[i])
	}
	return vars, priors
}

// Declare adds contest c to b: Figure 2's performances, differences and
// Gaussian score factors N(s; x, γ²) below the teams' skills. Build the
// graph and derive its schedule with schedules.Derive (schedules.Tree if it
// has no loop).
func (m GaussianOD) Declare(b *graph.Builder, c Contest) (Nodes, error) {
	if err := m.Params.Validate(); err != nil {
		return Nodes{}, err
	}
	if err := checkScores(c.ScoreA, c.ScoreB); err != nil {
		return Nodes{}, err
	}
	return m.Params.declareOD(b, &c, m.Params.gaussianScore(c.ScoreA, c.ScoreB)), nil
}

// Declare adds contest c to b: Figure 2's performances, log-rates and
// Poisson score factors below the teams' skills; the scores must be counts.
// Build the graph and derive its schedule with schedules.Derive
// (schedules.Tree if it has no loop).
func (m PoissonOD) Declare(b *graph.Builder, c Contest) (Nodes, error) {
	if err := m.Params.Validate(); err != nil {
		return Nodes{}, err
	}
	if err := checkCounts(c.ScoreA, c.ScoreB); err != nil {
		return Nodes{}, err
	}
	scores := [2]int{int(c.ScoreA), int(c.ScoreB)}
	return m.Params.declareOD(b, &c, func(side int) graph.Factor { return factors.NewPoisson(scores[side]) }), nil
}

// gaussianScore returns the Gaussian score factors of scores a and b.
func (p Params) gaussianScore(a, b float64) func(side int) graph.Factor {
	scores, g2 := [2]float64{a, b}, p.Gamma*p.Gamma
	return func(side int) graph.Factor { return factors.NewGaussianObservation(scores[side], g2) }
}

// declareOD adds Figure 2 for c: each skill's performance N(p; skill, β²),
// the two differences x = p_oA − p_dB (+ advantage) and y = p_oB − p_dA,
// and a score factor on each, score(0) for A's score and score(1) for B's.
// For one match the two halves are independent trees (eqs. 7-8).
func (p Params) declareOD(b *graph.Builder, c *Contest, score func(side int) graph.Factor) Nodes {
	b.DeclareLayers(scoreLayers...)
	b.Layer("performances")
	perf := make([]graph.VarID, 4)
	for i, n := range []string{"poA", "pdB", "poB", "pdA"} {
		perf[i] = b.AddVariable(c.Name + n)
	}
	b.Layer("differences")
	x, y := b.AddVariable(c.Name+"x"), b.AddVariable(c.Name+"y")
	b.Layer("performance factors")
	b2 := p.Beta * p.Beta
	for i, s := range []graph.VarID{c.A.Offence, c.B.Defence, c.B.Offence, c.A.Defence} {
		b.AddFactor(factors.NewLikelihood(b2), "", perf[i], s)
	}
	b.Layer("difference factors")
	addDifference(b, x, perf[0], perf[1], c.Advantage)
	b.AddFactor(factors.NewDifference(), "", y, perf[2], perf[3])
	b.Layer("score factors")
	nd := Nodes{Performances: perf, Differences: []graph.VarID{x, y}}
	nd.Scores = []graph.FactorID{b.AddFactor(score(0), "", x), b.AddFactor(score(1), "", y)}
	return nd
}

// addDifference adds the factor d = a − b + Σ advantage.
func addDifference(b *graph.Builder, d, a, bv graph.VarID, advantage []graph.VarID) {
	if len(advantage) == 0 {
		b.AddFactor(factors.NewDifference(), "", d, a, bv)
		return
	}
	w := []float64{1, -1}
	vars := []graph.VarID{d, a, bv}
	for _, v := range advantage {
		w = append(w, 1)
		vars = append(vars, v)
	}
	b.AddFactor(factors.NewWeightedSum(w...), "", vars...)
}

// Declare adds contest c to b: Figure 3's performances N(p; l, β²), the
// difference d = p_A − p_B (+ advantage) and the observed score
// difference N(s_A − s_B; d, γ²) below the teams' skills (A's Offence and
// B's Defence, which DeclareSkill makes the teams' one skill). Build the
// graph and derive its schedule with schedules.Derive (schedules.Tree if it
// has no loop).
func (m GaussianSD) Declare(b *graph.Builder, c Contest) (Nodes, error) {
	if err := m.Params.Validate(); err != nil {
		return Nodes{}, err
	}
	if err := checkScores(c.ScoreA, c.ScoreB); err != nil {
		return Nodes{}, err
	}
	return m.Params.declareSD(b, &c), nil
}

// declareSD adds Figure 3 for c.
func (p Params) declareSD(b *graph.Builder, c *Contest) Nodes {
	b.DeclareLayers(scoreLayers...)
	b.Layer("performances")
	pA, pB := b.AddVariable(c.Name+"pA"), b.AddVariable(c.Name+"pB")
	b.Layer("differences")
	d := b.AddVariable(c.Name + "d")
	b.Layer("performance factors")
	b.AddFactor(factors.NewLikelihood(p.Beta*p.Beta), "", pA, c.A.Offence)
	b.AddFactor(factors.NewLikelihood(p.Beta*p.Beta), "", pB, c.B.Defence)
	b.Layer("difference factors")
	addDifference(b, d, pA, pB, c.Advantage)
	b.Layer("score factors")
	obs := b.AddFactor(factors.NewGaussianObservation(c.ScoreA-c.ScoreB, p.Gamma*p.Gamma), "", d)
	return Nodes{Performances: []graph.VarID{pA, pB}, Differences: []graph.VarID{d}, Scores: []graph.FactorID{obs}}
}
