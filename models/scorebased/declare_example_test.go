package scorebased_test

import (
	"context"
	"fmt"
	"math"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/exact"
	"github.com/skillgraph/skillgraph/models/scorebased"
	"github.com/skillgraph/skillgraph/schedules"
)

// Three teams play each other home and away, and one home advantage,
// shared by the six matches, is added to the home side's expected score.
// The graph has loops, so the derived schedule iterates; the exact solve
// shows that the means agree and how much the loopy variance is off.
func ExampleGaussianOD_Declare() {
	// Goals: a team expects about 1.3 against an average defence.
	p := scorebased.Params{Sigma: 0.5, Beta: 0.3, Gamma: 1.1}
	prior := scorebased.Team{Offence: scorebased.Rating{Mu: 1.3, Sigma: 0.5}, Defence: scorebased.Rating{Mu: 0, Sigma: 0.5}}
	m := scorebased.NewGaussianOD(p)
	b := graph.NewBuilder("mini league")
	home := b.AddVariable("home")
	b.AddFactor(factors.NewPrior(0, 1), "", home)
	teams := map[string]scorebased.TeamVars{}
	for _, name := range []string{"Reds", "Blues", "Greens"} {
		tv, err := p.DeclareTeam(b, name, prior)
		if err != nil {
			fmt.Println(err)
			return
		}
		teams[name] = tv
	}
	for i, r := range []struct {
		home, away string
		score      [2]float64
	}{
		{"Reds", "Blues", [2]float64{2, 0}}, {"Blues", "Greens", [2]float64{1, 1}},
		{"Greens", "Reds", [2]float64{3, 1}}, {"Blues", "Reds", [2]float64{2, 2}},
		{"Greens", "Blues", [2]float64{2, 1}}, {"Reds", "Greens", [2]float64{1, 0}},
	} {
		_, err := m.Declare(b, scorebased.Contest{
			Name: fmt.Sprintf("m%d.", i+1), A: teams[r.home], B: teams[r.away],
			ScoreA: r.score[0], ScoreB: r.score[1], Advantage: []graph.VarID{home},
		})
		if err != nil {
			fmt.Println(err)
			return
		}
	}
	g, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := schedules.Derive(g, schedules.WithLoop(schedules.Tolerance(1e-10)))
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := schedules.Run(context.Background(), g, s); err != nil {
		fmt.Println(err)
		return
	}
	sol, err := exact.Solve(g)
	if err != nil {
		fmt.Println(err)
		return
	}
	h, x := g.Marginal(home), sol.Marginals[home]
	fmt.Printf("home advantage: %.3f ± %.3f goals (exact %.3f ± %.3f)\n", h.Mean(), h.Sigma(), x.Mean(), x.Sigma())
	// Output:
	// home advantage: 0.548 ± 0.473 goals (exact 0.548 ± 0.497)
}

// The score-difference model has one skill per team (DeclareSkill); a
// match declared on it observes the goal difference. Two teams, two
// matches, home advantage shared: the home side won 2-0 and drew 1-1 away.
func ExampleGaussianSD_Declare() {
	p := scorebased.Params{Sigma: 1, Beta: 0.3, Gamma: 1.2}
	m := scorebased.NewGaussianSD(p)
	b := graph.NewBuilder("two matches")
	home := b.AddVariable("home")
	b.AddFactor(factors.NewPrior(0, 0.25), "", home)
	reds, err := p.DeclareSkill(b, "Reds", p.NewRating())
	if err != nil {
		fmt.Println(err)
		return
	}
	blues, err := p.DeclareSkill(b, "Blues", p.NewRating())
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, c := range []scorebased.Contest{
		{A: reds, B: blues, ScoreA: 2, ScoreB: 0},
		{A: blues, B: reds, ScoreA: 1, ScoreB: 1},
	} {
		c.Name, c.Advantage = fmt.Sprintf("m%d.", i+1), []graph.VarID{home}
		if _, err := m.Declare(b, c); err != nil {
			fmt.Println(err)
			return
		}
	}
	g, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := schedules.Derive(g, schedules.WithLoop(schedules.Tolerance(1e-10)))
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := schedules.Run(context.Background(), g, s); err != nil {
		fmt.Println(err)
		return
	}
	for _, v := range []graph.VarID{reds.Offence, blues.Offence, home} {
		fmt.Printf("%-6s %+.3f ± %.3f\n", g.VariableName(v), g.Marginal(v).Mean(), g.Marginal(v).Sigma())
	}
	// Output:
	// lReds  +0.356 ± 0.750
	// lBlues -0.356 ± 0.750
	// home   +0.236 ± 0.464
}

// The Poisson model's scores are counts, and its skills live on the log
// scale of the scoring rate: a home advantage of h multiplies the home
// side's expected goals by eʰ. One match, 3-0 to the home side.
func ExamplePoissonOD_Declare() {
	p := scorebased.Params{Sigma: 0.3, Beta: 0.1, Gamma: 1}
	m := scorebased.NewPoissonOD(p)
	prior := scorebased.Team{Offence: scorebased.Rating{Mu: 0.3, Sigma: 0.3}, Defence: scorebased.Rating{Mu: 0, Sigma: 0.3}}
	b := graph.NewBuilder("one match")
	home := b.AddVariable("home")
	b.AddFactor(factors.NewPrior(0.2, 0.04), "", home)
	a, err := p.DeclareTeam(b, "A", prior)
	if err != nil {
		fmt.Println(err)
		return
	}
	bt, err := p.DeclareTeam(b, "B", prior)
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := m.Declare(b, scorebased.Contest{A: a, B: bt, ScoreA: 3, ScoreB: 0, Advantage: []graph.VarID{home}}); err != nil {
		fmt.Println(err)
		return
	}
	g, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := schedules.Derive(g)
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := schedules.Run(context.Background(), g, s); err != nil {
		fmt.Println(err)
		return
	}
	h := g.Marginal(home)
	fmt.Printf("home advantage %.3f ± %.3f: ×%.2f goals\n", h.Mean(), h.Sigma(), math.Exp(h.Mean()))
	// Output: home advantage 0.233 ± 0.194: ×1.26 goals
}
