package graph_test

import (
	"fmt"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
)

// A skill with a Gaussian prior, a performance around it, and an observed
// performance of 30: the posterior of the skill by hand-ordered updates.
func ExampleBuilder() {
	b := graph.NewBuilder("one player")
	b.Layer("skills")
	s := b.AddVariable("s")
	b.Layer("performances")
	p := b.AddVariable("p")
	prior := b.AddFactor(factors.NewPrior(25, 64), "", s)
	perf := b.AddFactor(factors.NewLikelihood(16), "", p, s)
	obs := b.AddFactor(factors.NewGaussianObservation(30, 1e-6), "", p)
	g, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, step := range []struct {
		f    graph.FactorID
		edge int
	}{{prior, 0}, {obs, 0}, {perf, 1}} {
		if _, _, err := g.Update(step.f, step.edge, 0); err != nil {
			fmt.Println(err)
			return
		}
	}
	fmt.Printf("%s: %v\n", g.FactorLabel(perf), g.Marginal(s))
	// Output:
	// N(p; s, 16): N(29, 12.8)
}

// Variables are found by the names the builder gave them; names are unique.
func ExampleGraph_Variable() {
	b := graph.NewBuilder("names")
	for _, name := range []string{"skill[ann]", "skill[bob]"} {
		b.AddFactor(factors.NewPrior(25, 69), "", b.AddVariable(name))
	}
	g, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	v, ok := g.Variable("skill[bob]")
	fmt.Println(v, ok)
	_, ok = g.Variable("skill[cat]")
	fmt.Println(ok)

	b = graph.NewBuilder("twice")
	x, y := b.AddVariable("x"), b.AddVariable("x")
	b.AddFactor(factors.NewLikelihood(1), "", x, y)
	_, err = b.Build()
	fmt.Println(err)
	// Output:
	// 1 true
	// false
	// graph "twice": variables 0 and 1: two variables named "x": invalid input
}

// Two players' skills over two time steps, each player's chain in its own
// group, so that a drawing (package dot) boxes it.
func ExampleBuilder_Group() {
	b := graph.NewBuilder("history")
	for _, player := range []string{"ann", "ben"} {
		b.Group(player)
		s0, s1 := b.AddVariable(player+"@0"), b.AddVariable(player+"@1")
		b.AddFactor(factors.NewPrior(25, 64), "", s0)
		b.AddFactor(factors.NewLikelihood(0.1), "", s1, s0) // skill drift
	}
	b.Group("") // what follows belongs to no group
	fmt.Printf("%d variables, %d factors\n", b.NumVariables(), b.NumFactors())
	g, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	groups := g.Groups()
	for v := range g.NumVariables() {
		fmt.Printf("%s in %q\n", g.VariableName(graph.VarID(v)), groups[g.VariableGroup(graph.VarID(v))])
	}
	fmt.Printf("drift factor 3 in %q\n", groups[g.FactorGroup(3)])
	// Output:
	// 4 variables, 4 factors
	// ann@0 in "ann"
	// ann@1 in "ann"
	// ben@0 in "ben"
	// ben@1 in "ben"
	// drift factor 3 in "ben"
}

// Linear-Gaussian factors send exact messages; a win factor's message is a
// projection that depends on its cavity, so schedules send it once its
// cavity is complete, and iterate when there are several.
func ExampleIsExact() {
	for _, f := range []graph.Factor{factors.NewPrior(25, 69.4), factors.NewDifference(), factors.NewGreaterThan(0.7), factors.NewPoisson(2)} {
		fmt.Printf("%T exact: %v\n", f, graph.IsExact(f))
	}
	// Output:
	// *factors.Prior exact: true
	// *factors.WeightedSum exact: true
	// *factors.GreaterThan exact: false
	// *factors.Poisson exact: false
}

// A model grows after inference has run: Extend keeps every message, so
// the new observation only adds its own. Here x ~ N(0, 4) was observed
// once as 1 with noise 1, then again as 2.
func ExampleGraph_Extend() {
	b := graph.NewBuilder("online")
	x := b.AddVariable("x")
	prior := b.AddFactor(factors.NewPrior(0, 4), "", x)
	y1 := b.AddObserved("y1", 1)
	first := b.AddFactor(factors.NewLikelihood(1), "", y1, x)
	g, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range []graph.FactorID{prior, first} {
		if _, _, err := g.Update(f, g.Arity(f)-1, 0); err != nil {
			fmt.Println(err)
			return
		}
	}
	fmt.Printf("after y1: %.3f ± %.3f\n", g.Marginal(x).Mean(), g.Marginal(x).Sigma())

	e := g.Extend()
	y2 := e.AddObserved("y2", 2)
	second := e.AddFactor(factors.NewLikelihood(1), "", y2, x)
	h, err := e.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, _, err := h.Update(second, 1, 0); err != nil {
		fmt.Println(err)
		return
	}
	// Precision 1/4 + 1 + 1, mean (1 + 2)/(9/4).
	fmt.Printf("after y2: %.3f ± %.3f\n", h.Marginal(x).Mean(), h.Marginal(x).Sigma())
	// Output:
	// after y1: 0.800 ± 0.894
	// after y2: 1.333 ± 0.667
}
