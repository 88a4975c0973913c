package trueskill_test

import (
	"context"
	"fmt"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/models/trueskill"
	"github.com/skillgraph/skillgraph/schedules"
)

// Three games between Ann and Ben in one graph, with a home advantage
// shared by all three: Ann wins twice at home and loses once away. The
// skills and the advantage are learned together (the graph has loops, so
// Derive iterates), which rating game by game cannot do.
func ExampleParams_Declare() {
	p := trueskill.DefaultParams()
	b := graph.NewBuilder("home and away")
	skill := func(name string) graph.VarID {
		v := b.AddVariable(name)
		b.AddFactor(factors.NewPrior(p.Mu, p.Sigma*p.Sigma), "", v)
		return v
	}
	ann, ben := skill("Ann"), skill("Ben")
	home := b.AddVariable("home")
	b.AddFactor(factors.NewPrior(0, 4*4), "", home)
	for k, g := range []struct {
		host, guest graph.VarID
		ranks       []int
	}{{ann, ben, []int{1, 2}}, {ann, ben, []int{1, 2}}, {ben, ann, []int{1, 2}}} {
		_, err := p.Declare(b, trueskill.Contest{
			Name:   fmt.Sprintf("g%d.", k+1),
			Skills: [][]graph.VarID{{g.host}, {g.guest}},
			Ranks:  g.ranks,
			Bonus:  [][]graph.VarID{{home}, nil},
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
	s, err := schedules.Derive(g)
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := schedules.Run(context.Background(), g, s); err != nil {
		fmt.Println(err)
		return
	}
	for _, v := range []graph.VarID{ann, ben, home} {
		m := g.Marginal(v)
		fmt.Printf("%-4s μ = %5.2f, σ = %.2f\n", g.VariableName(v), m.Mean(), m.Sigma())
	}
	// Output:
	// Ann  μ = 26.15, σ = 5.23
	// Ben  μ = 23.85, σ = 5.23
	// home μ =  4.47, σ = 3.50
}

// A chess game as Dangauthier, Herbrich, Minka and Graepel (2007) model
// it: each player has a draw margin of their own, learned with the skills,
// and white has an advantage. White, the stronger and with the advantage,
// was expected to beat black's margin (a win reads the loser's margin), so
// the draw raises black's margin more than white's.
func ExampleContest_margins() {
	p := trueskill.Params{Beta: 4} // the priors are the graph's own
	b := graph.NewBuilder("chess")
	prior := func(name string, mu, sigma float64) graph.VarID {
		v := b.AddVariable(name)
		b.AddFactor(factors.NewPrior(mu, sigma*sigma), "", v)
		return v
	}
	white, black := prior("white", 27, 5), prior("black", 24, 6)
	adv := prior("advantage", 1, 1.5)
	mWhite, mBlack := prior("margin of white", 3, 1), prior("margin of black", 3, 1)
	_, err := p.Declare(b, trueskill.Contest{
		Skills:  [][]graph.VarID{{white}, {black}},
		Ranks:   []int{1, 1}, // a draw
		Bonus:   [][]graph.VarID{{adv}, nil},
		Margins: []graph.VarID{mWhite, mBlack},
	})
	if err != nil {
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
	for _, v := range []graph.VarID{white, black, adv, mWhite, mBlack} {
		m := g.Marginal(v)
		fmt.Printf("%-15s μ = %5.2f, σ = %.2f\n", g.VariableName(v), m.Mean(), m.Sigma())
	}
	// Output:
	// white           μ = 25.99, σ = 4.33
	// black           μ = 25.45, σ = 4.79
	// advantage       μ =  0.91, σ = 1.48
	// margin of white μ =  3.14, σ = 0.98
	// margin of black μ =  3.18, σ = 0.98
}
