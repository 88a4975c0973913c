package reliability_test

import (
	"context"
	"errors"
	"testing"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/exact"
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/schedules"
)

// graphErrors are the sentinels an engine call may wrap: the graph's and
// the factors' (an update reports its factor's error), and a context's.
var graphErrors = []error{messages.ErrInput, messages.ErrNumerical, messages.ErrImpossible}

// engineTyped reports whether err is a typed error of the engine's
// packages.
func engineTyped(err error) bool {
	var ue *graph.UpdateError
	var ce *schedules.CoverageError
	return isAny(err, graphErrors...) || errors.As(err, &ue) || errors.As(err, &ce) ||
		isAny(err, schedules.ErrNotTree, context.Canceled, context.DeadlineExceeded)
}

// small is the graph the engine's probes work on: a cycle a − b − c − d − a
// (d = a − c) through likelihoods and a difference, with priors, a
// truncation and a draw factor on d, a Poisson count on c and observations
// of a, and of b with an observed variable o. Its parameters are
// ordinary; the probes' extremes are in their arguments, in messages sent
// into it (warm) and in the factors given to it.
func small() *graph.Graph {
	b := graph.NewBuilder("small")
	a, bb, c := b.AddVariable("a"), b.AddVariable("b"), b.AddVariable("c")
	d, o := b.AddVariable("d"), b.AddObserved("o", 1)
	b.AddFactor(factors.NewPrior(0, 4), "", a)
	b.AddFactor(factors.NewPrior(3, 1), "", bb)
	b.AddFactor(factors.NewPrior(-1, 9), "", c)
	b.AddFactor(factors.NewLikelihood(1), "", a, bb)
	b.AddFactor(factors.NewLikelihood(2), "", bb, c)
	b.AddFactor(factors.NewWeightedSum(1, -1), "", d, a, c)
	b.AddFactor(factors.NewGreaterThan(0.5), "", d)
	b.AddFactor(factors.NewWithin(3), "", d)
	b.AddFactor(factors.NewPoisson(2), "", c)
	b.AddFactor(factors.NewGaussianObservation(1, 2), "", a)
	b.AddFactor(factors.NewLinearGaussian([]float64{1, 2}, 0, 1, 1), "", bb, o)
	g, err := b.Build()
	if err != nil {
		panic(err)
	}
	return g
}

// warm puts the graph in a drawn state: a few updates by its own factors
// and, in an extreme call, a few extreme messages sent in; failures are
// part of the state.
func warm(d *draws, g *graph.Graph) {
	for range d.rng.IntN(8) {
		f := graph.FactorID(d.rng.IntN(g.NumFactors()))
		_, _, _ = g.Update(f, d.rng.IntN(g.Arity(f)), 0)
	}
	if !d.ordinary {
		for range d.rng.IntN(3) {
			_, _, _ = g.Send(graph.EdgeID(d.rng.IntN(g.NumEdges())), gauss(d), 0)
		}
	}
}

// warmGraph is small() in a drawn state; in one call in four extended by
// a hostile user's factor on its first variables.
func warmGraph(d *draws) *graph.Graph {
	g := small()
	if d.rng.IntN(4) == 0 {
		h := hostileOf(d)
		h.panics[2] = false // Build would refuse it
		b := g.Extend()
		vars := make([]graph.VarID, h.arity)
		for i := range vars {
			vars[i] = graph.VarID(i)
		}
		b.AddFactor(h, "", vars...)
		var err error
		if g, err = b.Build(); err != nil {
			panic(err)
		}
	}
	warm(d, g)
	return g
}

// host is a factor of any arity whose messages are uniform: a place for
// the cavities a factor under test is given (see edgesFor).
type host int

func (h host) Arity() int                                        { return int(h) }
func (host) Message(int, graph.Edges) (messages.Gaussian, error) { return messages.Gaussian{}, nil }

// edgesFor returns a view of n edges with drawn cavities: each edge's
// variable has a second factor, whose message (and the host's own) is set
// to a drawn Gaussian, so that the cavity is proper, improper, a point,
// uniform or extreme.
func edgesFor(d *draws, n int) graph.Edges {
	if n < 0 || n > 6 {
		n = 6
	}
	b := graph.NewBuilder("host")
	vars := make([]graph.VarID, n)
	for i := range vars {
		vars[i] = b.AddVariable("")
		b.AddFactor(factors.NewPrior(0, 1), "", vars[i])
	}
	h := b.AddFactor(host(n), "", vars...)
	g, err := b.Build()
	if err != nil {
		panic(err)
	}
	for i := range vars {
		_, _, _ = g.Send(g.EdgeID(graph.FactorID(i), 0), gauss(d), 0)
		if d.rng.IntN(3) == 0 {
			_, _, _ = g.Send(g.EdgeID(h, i), gauss(d), 0)
		}
	}
	return g.Edges(h)
}

// hostile is a user's factor that misbehaves as drawn: its message and
// its evidence are drawn numbers (NaN and ±∞ among them), and each of
// Message, LogAverageFactor, Validate and Label may panic.
type hostile struct {
	arity  int
	msg    messages.Gaussian
	logAvg float64
	panics [4]bool // Message, LogAverageFactor, Validate, Label
}

func (h *hostile) Arity() int { return h.arity }
func (h *hostile) Message(int, graph.Edges) (messages.Gaussian, error) {
	if h.panics[0] {
		panic("hostile message")
	}
	return h.msg, nil
}
func (h *hostile) LogAverageFactor(graph.Edges) (float64, error) {
	if h.panics[1] {
		panic("hostile evidence")
	}
	return h.logAvg, nil
}
func (h *hostile) Validate() error {
	if h.panics[2] {
		panic("hostile validation")
	}
	return nil
}
func (h *hostile) Label([]string) string {
	if h.panics[3] {
		panic("hostile label")
	}
	return "hostile"
}

func hostileOf(d *draws) *hostile {
	h := &hostile{arity: 1 + d.rng.IntN(3), msg: gauss(d), logAvg: d.F()}
	for i := range h.panics {
		h.panics[i] = d.rng.IntN(4) == 0
	}
	d.note("hostile%v", h.panics)
	return h
}

// factorOf draws one of the package's factors with drawn parameters, or a
// hostile user's factor.
func factorOf(d *draws) graph.Factor {
	k := d.rng.IntN(9)
	if k == 8 {
		return hostileOf(d)
	}
	d.note("%s", []string{"Prior", "Likelihood", "GaussianObservation", "GreaterThan", "Within", "Poisson", "WeightedSum", "LinearGaussian"}[k])
	switch k {
	case 0:
		return factors.NewPrior(d.F(), d.F())
	case 1:
		return factors.NewLikelihood(d.F())
	case 2:
		return factors.NewGaussianObservation(d.F(), d.F())
	case 3:
		return factors.NewGreaterThan(d.F())
	case 4:
		return factors.NewWithin(d.F())
	case 5:
		return factors.NewPoisson(d.I())
	case 6:
		return factors.NewWeightedSum(d.Fs()...)
	}
	return factors.NewLinearGaussian(d.Fs(), d.F(), d.F(), d.F())
}

// gv returns the numbers of Gaussians to be finite (gfin of each).
func gv(gs ...messages.Gaussian) []float64 {
	var out []float64
	for _, g := range gs {
		out = append(out, gfin(g)...)
	}
	return out
}

// TestGraphExtremes is the property for package graph.
func TestGraphExtremes(t *testing.T) {
	v := func(d *draws, g *graph.Graph) graph.VarID { return graph.VarID(d.Small(g.NumVariables())) }
	f := func(d *draws, g *graph.Graph) graph.FactorID { return graph.FactorID(d.Small(g.NumFactors())) }
	e := func(d *draws, g *graph.Graph) graph.EdgeID { return graph.EdgeID(d.Small(g.NumEdges())) }
	none := func(func()) ([]float64, error) { return nil, nil }
	g0 := func(name string, call func(d *draws, g *graph.Graph)) probe {
		return probe{name: name, call: func(d *draws) ([]float64, error) {
			g := warmGraph(d)
			return none(func() { call(d, g) })
		}}
	}
	// builder returns a builder (new, zero or extending a graph) with a few
	// drawn nodes: variables, observations, factors with drawn parameters
	// on drawn (possibly missing or repeated) variables.
	builder := func(d *draws) *graph.Builder {
		var b *graph.Builder
		switch d.rng.IntN(3) {
		case 0:
			b = graph.NewBuilder(d.S())
		case 1:
			b = new(graph.Builder)
		default:
			b = warmGraph(d).Extend()
		}
		for range d.rng.IntN(4) {
			switch d.rng.IntN(6) {
			case 0:
				b.AddObserved(d.S(), d.F())
			case 1:
				b.Layer(d.S())
			case 2:
				b.Group(d.S())
			default:
				b.AddVariable(d.S())
			}
		}
		for range d.rng.IntN(4) {
			fac := factorOf(d)
			if d.rng.IntN(8) == 0 {
				fac = nil
			}
			vars := make([]graph.VarID, d.rng.IntN(4))
			for i := range vars {
				vars[i] = graph.VarID(d.Small(b.NumVariables()))
			}
			b.AddFactor(fac, d.S(), vars...)
		}
		return b
	}
	checkAPI(t, api{dir: "graph", calls: 200, typed: engineTyped, probes: []probe{
		{name: "CheckDamping", call: func(d *draws) ([]float64, error) { return nil, graph.CheckDamping(d.F()) }},
		{name: "IsExact", call: func(d *draws) ([]float64, error) {
			var fac graph.Factor
			if d.B() {
				fac = factorOf(d)
			}
			return b2f(graph.IsExact(fac)), nil
		}},
		{name: "Message", call: func(d *draws) ([]float64, error) {
			fac := factorOf(d)
			m, err := graph.Message(fac, d.Small(fac.Arity()), edgesFor(d, fac.Arity()))
			return gv(m), err
		}},
		{name: "NewBuilder", call: func(d *draws) ([]float64, error) { _ = graph.NewBuilder(d.S()); return nil, nil }},
		{name: "Builder.AddFactor", call: func(d *draws) ([]float64, error) {
			b := builder(d)
			b.AddFactor(factorOf(d), d.S(), graph.VarID(d.I()))
			_, err := b.Build()
			return nil, err
		}},
		{name: "Builder.AddObserved", call: func(d *draws) ([]float64, error) {
			b := builder(d)
			b.AddFactor(factors.NewPrior(0, 1), "", b.AddObserved(d.S(), d.F()))
			_, err := b.Build()
			return nil, err
		}},
		{name: "Builder.AddVariable", call: func(d *draws) ([]float64, error) {
			b := builder(d)
			b.AddVariable(d.S())
			_, err := b.Build()
			return nil, err
		}},
		{name: "Builder.Build", call: func(d *draws) ([]float64, error) {
			g, err := builder(d).Build()
			if err == nil {
				lz, lerr := g.LogEvidence()
				if lerr == nil {
					return []float64{lz}, nil
				}
				return nil, lerr
			}
			return nil, err
		}},
		{name: "Builder.DeclareLayers", call: func(d *draws) ([]float64, error) {
			b := builder(d)
			b.DeclareLayers(d.S(), d.S())
			b.DeclareLayers()
			_, err := b.Build()
			return nil, err
		}},
		{name: "Builder.Group", call: func(d *draws) ([]float64, error) { builder(d).Group(d.S()); return nil, nil }},
		{name: "Builder.Layer", call: func(d *draws) ([]float64, error) { builder(d).Layer(d.S()); return nil, nil }},
		{name: "Builder.NumFactors", call: func(d *draws) ([]float64, error) { _ = builder(d).NumFactors(); return nil, nil }},
		{name: "Builder.NumVariables", call: func(d *draws) ([]float64, error) { _ = builder(d).NumVariables(); return nil, nil }},
		{name: "Edges.Cavity", call: func(d *draws) ([]float64, error) {
			g := warmGraph(d)
			return gv(g.Edges(f(d, g)).Cavity(d.Small(3))), nil
		}},
		{name: "Edges.EdgeID", call: func(d *draws) ([]float64, error) {
			g := warmGraph(d)
			_ = g.Edges(f(d, g)).EdgeID(d.Small(3))
			return nil, nil
		}},
		{name: "Edges.Marginal", call: func(d *draws) ([]float64, error) {
			g := warmGraph(d)
			return gv(g.Edges(f(d, g)).Marginal(d.Small(3))), nil
		}},
		{name: "Edges.Message", call: func(d *draws) ([]float64, error) {
			g := warmGraph(d)
			return gv(g.Edges(f(d, g)).Message(d.Small(3))), nil
		}},
		g0("Graph.Arity", func(d *draws, g *graph.Graph) { g.Arity(f(d, g)) }),
		{name: "Graph.Cavity", call: func(d *draws) ([]float64, error) { g := warmGraph(d); return gv(g.Cavity(e(d, g))), nil }},
		g0("Graph.Degree", func(d *draws, g *graph.Graph) { g.Degree(v(d, g)) }),
		g0("Graph.EdgeID", func(d *draws, g *graph.Graph) { g.EdgeID(f(d, g), d.Small(3)) }),
		{name: "Graph.EdgeMessage", call: func(d *draws) ([]float64, error) { g := warmGraph(d); return gv(g.EdgeMessage(e(d, g))), nil }},
		g0("Graph.EdgeVariable", func(d *draws, g *graph.Graph) { g.EdgeVariable(f(d, g), d.Small(3)) }),
		{name: "Graph.Edges", call: func(d *draws) ([]float64, error) {
			g := warmGraph(d)
			es := g.Edges(f(d, g))
			return gv(es.Cavity(d.Small(3)), es.Marginal(d.Small(3)), es.Message(d.Small(3))), nil
		}},
		{name: "Graph.Extend", call: func(d *draws) ([]float64, error) {
			b := warmGraph(d).Extend()
			b.AddFactor(factorOf(d), "", graph.VarID(d.Small(b.NumVariables())))
			_, err := b.Build()
			return nil, err
		}},
		g0("Graph.Factor", func(d *draws, g *graph.Graph) { g.Factor(f(d, g)) }),
		{name: "Graph.FactorEdges", call: func(d *draws) ([]float64, error) {
			g := warmGraph(d)
			fac, es := g.FactorEdges(graph.FactorID(d.rng.IntN(g.NumFactors()))) // f must be in the graph
			m, err := graph.Message(fac, d.Small(fac.Arity()), es)
			return gv(m), err
		}},
		g0("Graph.FactorGroup", func(d *draws, g *graph.Graph) { g.FactorGroup(f(d, g)) }),
		g0("Graph.FactorError", func(d *draws, g *graph.Graph) { _ = g.FactorError(f(d, g), d.S(), d.Small(3), nil, nil).Error() }),
		g0("Graph.FactorLabel", func(d *draws, g *graph.Graph) { g.FactorLabel(f(d, g)) }),
		g0("Graph.FactorLayer", func(d *draws, g *graph.Graph) { g.FactorLayer(f(d, g)) }),
		g0("Graph.Groups", func(_ *draws, g *graph.Graph) { g.Groups() }),
		g0("Graph.HasCycle", func(_ *draws, g *graph.Graph) { g.HasCycle() }),
		g0("Graph.HasEdge", func(d *draws, g *graph.Graph) { g.HasEdge(f(d, g), d.Small(3)) }),
		g0("Graph.HasFactor", func(d *draws, g *graph.Graph) { g.HasFactor(f(d, g)) }),
		g0("Graph.HasVariable", func(d *draws, g *graph.Graph) { g.HasVariable(v(d, g)) }),
		g0("Graph.Layers", func(_ *draws, g *graph.Graph) { g.Layers() }),
		{name: "Graph.LogEvidence", call: func(d *draws) ([]float64, error) {
			lz, err := warmGraph(d).LogEvidence()
			return []float64{lz}, err
		}},
		{name: "Graph.Marginal", call: func(d *draws) ([]float64, error) { g := warmGraph(d); return gv(g.Marginal(v(d, g))), nil }},
		{name: "Graph.Message", call: func(d *draws) ([]float64, error) {
			g := warmGraph(d)
			return gv(g.Message(f(d, g), d.Small(3))), nil
		}},
		g0("Graph.Name", func(_ *draws, g *graph.Graph) { g.Name() }),
		g0("Graph.NumEdges", func(_ *draws, g *graph.Graph) { g.NumEdges() }),
		g0("Graph.NumFactors", func(_ *draws, g *graph.Graph) { g.NumFactors() }),
		g0("Graph.NumObserved", func(_ *draws, g *graph.Graph) { g.NumObserved() }),
		g0("Graph.NumVariables", func(_ *draws, g *graph.Graph) { g.NumVariables() }),
		{name: "Graph.Observe", call: func(d *draws) ([]float64, error) {
			g := warmGraph(d)
			err := g.Observe(v(d, g), d.F())
			lz, lerr := g.LogEvidence()
			if err == nil && lerr == nil {
				return []float64{lz}, nil
			}
			return nil, errors.Join(err, lerr)
		}},
		{name: "Graph.Observed", call: func(d *draws) ([]float64, error) {
			g := warmGraph(d)
			x, _ := g.Observed(v(d, g))
			return []float64{x}, nil
		}},
		{name: "Graph.RecomputeMarginals", call: func(d *draws) ([]float64, error) {
			g := warmGraph(d)
			g.RecomputeMarginals()
			return gv(g.Marginal(v(d, g))), nil
		}},
		{name: "Graph.Reset", call: func(d *draws) ([]float64, error) {
			g := warmGraph(d)
			g.Reset()
			return gv(g.Marginal(v(d, g))), nil
		}},
		{name: "Graph.Send", call: func(d *draws) ([]float64, error) {
			g := warmGraph(d)
			before, after, err := g.Send(e(d, g), gauss(d), d.F())
			return gv(before, after), err
		}},
		{name: "Graph.Update", call: func(d *draws) ([]float64, error) {
			g := warmGraph(d)
			before, after, err := g.Update(f(d, g), d.Small(3), d.F())
			return gv(before, after), err
		}},
		g0("Graph.Variable", func(d *draws, g *graph.Graph) { g.Variable(d.S()) }),
		{name: "Graph.VariableEdge", call: func(d *draws) ([]float64, error) {
			g := warmGraph(d)
			fid, i := g.VariableEdge(v(d, g), d.Small(3))
			if fid >= 0 {
				_ = g.Message(fid, i)
			}
			return nil, nil
		}},
		g0("Graph.VariableGroup", func(d *draws, g *graph.Graph) { g.VariableGroup(v(d, g)) }),
		g0("Graph.VariableLayer", func(d *draws, g *graph.Graph) { g.VariableLayer(v(d, g)) }),
		g0("Graph.VariableName", func(d *draws, g *graph.Graph) { g.VariableName(v(d, g)) }),
		{name: "LogTerm.IsFinite", call: func(d *draws) ([]float64, error) {
			return b2f(graph.LogTerm{Quad: d.F(), Var: d.F(), Norm: d.F()}.IsFinite()), nil
		}},
		{name: "LogTerm.Value", call: func(d *draws) ([]float64, error) {
			t := graph.LogTerm{Quad: d.F(), Var: d.Pos(), Norm: d.F()}
			return []float64{t.Value()}, nil
		}, nonFinite: extremeCall},
		{name: "UpdateError.Error", call: func(d *draws) ([]float64, error) {
			_ = (&graph.UpdateError{Graph: d.S(), Factor: graph.FactorID(d.I()), Label: d.S(), Method: d.S(), Panic: d.S()}).Error()
			return nil, nil
		}},
		{name: "UpdateError.Unwrap", call: func(*draws) ([]float64, error) { return nil, (&graph.UpdateError{}).Unwrap() }},
	}})
}

// TestFactorsExtremes is the property for package factors: every factor
// made with drawn parameters, asked on drawn cavities (see edgesFor).
func TestFactorsExtremes(t *testing.T) {
	// on calls m on a factor made by make with drawn parameters, with a
	// drawn edge and a view of drawn cavities.
	type factor interface {
		graph.Factor
		graph.Evidence
		graph.Labeler
	}
	msg := func(name string, mk func(d *draws) factor) probe {
		return probe{name: name, call: func(d *draws) ([]float64, error) {
			f := mk(d)
			m, err := f.Message(d.Small(f.Arity()), edgesFor(d, f.Arity()))
			return gv(m), err
		}}
	}
	avg := func(name string, mk func(d *draws) factor) probe {
		return probe{name: name, call: func(d *draws) ([]float64, error) {
			f := mk(d)
			l, err := f.LogAverageFactor(edgesFor(d, f.Arity()))
			return []float64{l}, err
		}}
	}
	term := func(name string, mk func(d *draws) factor) probe {
		return probe{name: name, call: func(d *draws) ([]float64, error) {
			f := mk(d)
			t, _, err := f.(graph.GaussianEvidence).LogAverageFactorTerm(edgesFor(d, f.Arity()))
			return []float64{t.Quad, t.Var, t.Norm}, err
		}}
	}
	form := func(name string, mk func(d *draws) factor) probe {
		return probe{name: name, call: func(d *draws) ([]float64, error) {
			f := mk(d)
			if err := f.(graph.Validator).Validate(); err != nil {
				return nil, err
			}
			a, mean, variance := f.(graph.LinearForm).LinearForm()
			return append(a, mean, variance), nil
		}}
	}
	label := func(name string, mk func(d *draws) factor) probe {
		return probe{name: name, call: func(d *draws) ([]float64, error) {
			f := mk(d)
			names := make([]string, d.rng.IntN(4))
			_ = f.Label(names)
			return nil, nil
		}}
	}
	valid := func(name string, mk func(d *draws) factor) probe {
		return probe{name: name, call: func(d *draws) ([]float64, error) { return nil, mk(d).(graph.Validator).Validate() }}
	}
	arity := func(name string, mk func(d *draws) factor) probe {
		return probe{name: name, call: func(d *draws) ([]float64, error) { _ = mk(d).Arity(); return nil, nil }}
	}
	approx := func(name string, mk func(d *draws) factor) probe {
		return probe{name: name, call: func(d *draws) ([]float64, error) {
			_ = mk(d).(graph.Approximate).Approximation()
			return nil, nil
		}}
	}
	prior := func(d *draws) factor { return factors.NewPrior(d.F(), d.F()) }
	lik := func(d *draws) factor { return factors.NewLikelihood(d.F()) }
	obs := func(d *draws) factor { return factors.NewGaussianObservation(d.F(), d.F()) }
	gt := func(d *draws) factor { return factors.NewGreaterThan(d.F()) }
	within := func(d *draws) factor { return factors.NewWithin(d.F()) }
	pois := func(d *draws) factor { return factors.NewPoisson(d.I()) }
	sum := func(d *draws) factor { return factors.NewWeightedSum(d.Fs()...) }
	lin := func(d *draws) factor { return factors.NewLinearGaussian(d.Fs(), d.F(), d.F(), d.F()) }
	probes := []probe{
		{name: "PoissonProject", call: func(d *draws) ([]float64, error) {
			q, _, err := factors.PoissonProject(d.F(), d.F(), d.I())
			return gv(q), err
		}},
		{name: "NewDifference", call: func(d *draws) ([]float64, error) {
			f := factors.NewDifference()
			m, err := f.Message(d.Small(3), edgesFor(d, 3))
			return gv(m), err
		}},
		{name: "NewEquality", call: func(d *draws) ([]float64, error) {
			f := factors.NewEquality()
			m, err := f.Message(d.Small(2), edgesFor(d, 2))
			return gv(m), err
		}},
		{name: "WeightedSum.Coefficients", call: func(d *draws) ([]float64, error) { return factors.NewWeightedSum(d.Fs()...).Coefficients(), nil }, nonFinite: extremeCall},
		{name: "WeightedSum.Coefficient", call: func(d *draws) ([]float64, error) {
			f := factors.NewWeightedSum(d.Fs()...)
			if err := f.Validate(); err != nil {
				return nil, err
			}
			return []float64{f.Coefficient(d.I())}, nil
		}},
		{name: "WeightedSum.SetCoefficients", call: func(d *draws) ([]float64, error) {
			f := factors.NewWeightedSum(1, -1)
			err := f.SetCoefficients(d.Fs()...)
			return f.Coefficients(), err
		}},
		{name: "LinearGaussian.Coefficients", call: func(d *draws) ([]float64, error) {
			return factors.NewLinearGaussian(d.Fs(), 0, 0, 1).Coefficients(), nil
		}, nonFinite: extremeCall},
		{name: "LinearGaussian.Coefficient", call: func(d *draws) ([]float64, error) {
			f := factors.NewLinearGaussian(d.Fs(), 0, 0, 1)
			if err := f.Validate(); err != nil {
				return nil, err
			}
			return []float64{f.Coefficient(d.I())}, nil
		}},
		{name: "LinearGaussian.SetCoefficients", call: func(d *draws) ([]float64, error) {
			f := factors.NewLinearGaussian([]float64{1, 2}, 0, 0, 1)
			err := f.SetCoefficients(d.Fs()...)
			return f.Coefficients(), err
		}},
	}
	for _, k := range []struct {
		name   string
		mk     func(d *draws) factor
		ctor   string
		exact  bool
		approx bool
	}{
		{"Prior", prior, "NewPrior", true, false},
		{"Likelihood", lik, "NewLikelihood", true, false},
		{"GaussianObservation", obs, "NewGaussianObservation", true, false},
		{"GreaterThan", gt, "NewGreaterThan", false, true},
		{"Within", within, "NewWithin", false, true},
		{"Poisson", pois, "NewPoisson", false, true},
		{"WeightedSum", sum, "NewWeightedSum", true, false},
		{"LinearGaussian", lin, "NewLinearGaussian", true, false},
	} {
		probes = append(probes, msg(k.ctor, k.mk), msg(k.name+".Message", k.mk), avg(k.name+".LogAverageFactor", k.mk),
			label(k.name+".Label", k.mk), arity(k.name+".Arity", k.mk), valid(k.name+".Validate", k.mk))
		if k.exact {
			probes = append(probes, term(k.name+".LogAverageFactorTerm", k.mk), form(k.name+".LinearForm", k.mk))
		}
		if k.approx {
			probes = append(probes, approx(k.name+".Approximation", k.mk))
		}
	}
	// The variable-margin factors have no parameters, so no Validate.
	type margin interface {
		graph.Factor
		graph.Evidence
		graph.Labeler
		graph.Approximate
		exact.Tilted
	}
	for _, k := range []struct {
		name, ctor string
		mk         func() margin
	}{
		{"ExceedsMargin", "NewExceedsMargin", func() margin { return factors.NewExceedsMargin() }},
		{"WithinMargin", "NewWithinMargin", func() margin { return factors.NewWithinMargin() }},
		{"BetweenMargins", "NewBetweenMargins", func() margin { return factors.NewBetweenMargins() }},
	} {
		mk := k.mk
		send := func(name string) probe {
			return probe{name: name, call: func(d *draws) ([]float64, error) {
				f := mk()
				m, err := f.Message(d.Small(f.Arity()), edgesFor(d, f.Arity()))
				return gv(m), err
			}}
		}
		probes = append(probes, send(k.ctor), send(k.name+".Message"),
			probe{name: k.name + ".LogAverageFactor", call: func(d *draws) ([]float64, error) {
				f := mk()
				l, err := f.LogAverageFactor(edgesFor(d, f.Arity()))
				return []float64{l}, err
			}},
			probe{name: k.name + ".Label", call: func(d *draws) ([]float64, error) {
				_ = mk().Label(make([]string, d.rng.IntN(4)))
				return nil, nil
			}},
			probe{name: k.name + ".TiltedMoments", call: func(d *draws) ([]float64, error) {
				// A drawn cavity: a covariance LLᵀ from drawn factors (so
				// mostly positive definite, sometimes singular or huge), or,
				// one time in four, drawn entries that need not be a
				// covariance at all.
				f := mk()
				k := f.Arity()
				mean, l, cov := make([]float64, k), make([]float64, k*k), make([]float64, k*k)
				for i := range mean {
					mean[i] = d.F()
					for j := 0; j <= i; j++ {
						l[i*k+j] = d.F()
					}
				}
				raw := d.rng.IntN(4) == 0
				for i := range k {
					for j := range k {
						if raw {
							cov[i*k+j] = d.F()
							continue
						}
						for m := range k {
							cov[i*k+j] += l[i*k+m] * l[j*k+m]
						}
					}
				}
				z, pm, pc, err := f.TiltedMoments(mean, cov)
				return append(append([]float64{z}, pm...), pc...), err
			}},
			probe{name: k.name + ".Arity", call: func(*draws) ([]float64, error) { _ = mk().Arity(); return nil, nil }},
			probe{name: k.name + ".Approximation", call: func(*draws) ([]float64, error) { _ = mk().Approximation(); return nil, nil }})
	}
	checkAPI(t, api{dir: "factors", calls: 300, typed: engineTyped, probes: probes})
}

// scheduleOf draws a schedule for small(): Derive's, Tree's (fails: it is
// loopy), Flooding with drawn options, steps with drawn IDs, nil parts and
// custom schedules, nested in drawn loops.
func scheduleOf(d *draws, g *graph.Graph) schedules.Schedule {
	var s schedules.Schedule
	switch d.rng.IntN(7) {
	case 0:
		s, _ = schedules.Derive(g, schedules.WithLoop(loopOptions(d)...))
	case 1:
		s = schedules.Flooding(g, loopOptions(d)...)
	case 2:
		s = schedules.Step(graph.FactorID(d.Small(g.NumFactors())), d.Small(3))
	case 3:
		s = schedules.Sequence(schedules.AllEdges(g, graph.FactorID(d.Small(g.NumFactors()))), nil)
	case 4:
		s = custom{inner: schedules.Flooding(g, loopOptions(d)...)}
	case 5:
		var p *schedules.Plan
		p, _ = schedules.Compile(g, schedules.Flooding(g, loopOptions(d)...))
		s = p
	}
	if d.rng.IntN(3) == 0 {
		s = schedules.Loop(s, loopOptions(d)...)
	}
	return s
}

// loopOptions draws a loop's options, nil ones among them.
func loopOptions(d *draws) []schedules.LoopOption {
	opts := []schedules.LoopOption{nil}
	for range d.rng.IntN(4) {
		switch d.rng.IntN(5) {
		case 0:
			opts = append(opts, schedules.Tolerance(d.F()))
		case 1:
			n := d.I()
			if d.rng.IntN(2) == 0 || d.capped && n > 1000 {
				n = 1 + d.rng.IntN(50) // a cap with which the loop runs
			}
			d.unbounded = d.unbounded || n > 1000
			opts = append(opts, schedules.MaxIterations(n))
		case 2:
			opts = append(opts, schedules.Damping(d.F()))
		case 3:
			opts = append(opts, schedules.Residual(d.F()))
		default:
			opts = append(opts, schedules.Name(d.S()))
		}
	}
	return opts
}

// custom is a user's schedule that runs inner through the runner, the way
// Runner.Run documents, and updates one edge through Update.
type custom struct{ inner schedules.Schedule }

func (c custom) Run(r *schedules.Runner) (schedules.Convergence, error) {
	if _, err := r.Update(0, 0); err != nil {
		return schedules.Convergence{}, err
	}
	return r.Run(context.Background(), c.inner)
}

// runOptions draws a run's options, nil ones among them.
func runOptions(d *draws) []schedules.RunOption {
	opts := []schedules.RunOption{nil}
	if d.B() {
		opts = append(opts, schedules.WithMetric(messages.MaxDiff))
	}
	if d.B() {
		opts = append(opts, schedules.WithMetric(nil), schedules.WithObserver(nil))
	}
	return opts
}

// result is the numbers of a Result to be finite.
func result(r schedules.Convergence) []float64 { return []float64{r.Delta} }

// TestSchedulesExtremes is the property for package schedules.
func TestSchedulesExtremes(t *testing.T) {
	run := func(name string, s func(d *draws, g *graph.Graph) schedules.Schedule) probe {
		return probe{name: name, call: func(d *draws) ([]float64, error) {
			g := warmGraph(d)
			sched := s(d, g)
			res, err := schedules.Run(d.Ctx(), g, sched, runOptions(d)...)
			return result(res), err
		}}
	}
	schedule := func(name string, s func(d *draws) schedules.Schedule) probe {
		return run(name, func(d *draws, _ *graph.Graph) schedules.Schedule { return s(d) })
	}
	maybeNil := func(d *draws, g *graph.Graph) *graph.Graph {
		if d.rng.IntN(6) == 0 {
			return nil
		}
		return g
	}
	checkAPI(t, api{dir: "schedules", calls: 120, typed: engineTyped, probes: []probe{
		run("Run", scheduleOf),
		run("Derive", func(d *draws, g *graph.Graph) schedules.Schedule {
			rank := func(v graph.VarID) int { return int(v) * d.rng.IntN(3) }
			opts := []schedules.DeriveOption{nil, schedules.WithLoop(loopOptions(d)...)}
			if d.B() {
				opts = append(opts, schedules.ByRank(rank))
			}
			s, err := schedules.Derive(maybeNil(d, g), opts...)
			if err != nil {
				return nil
			}
			return s
		}),
		run("ByRank", func(d *draws, g *graph.Graph) schedules.Schedule {
			s, _ := schedules.Derive(g, schedules.ByRank(func(graph.VarID) int { return d.I() }))
			return s
		}),
		run("WithLoop", func(d *draws, g *graph.Graph) schedules.Schedule {
			s, _ := schedules.Derive(g, schedules.WithLoop(loopOptions(d)...))
			return s
		}),
		run("Flooding", func(d *draws, g *graph.Graph) schedules.Schedule {
			return schedules.Flooding(maybeNil(d, g), loopOptions(d)...)
		}),
		run("AllEdges", func(d *draws, g *graph.Graph) schedules.Schedule {
			return schedules.AllEdges(maybeNil(d, g), graph.FactorID(d.Small(g.NumFactors())))
		}),
		run("Tree", func(d *draws, g *graph.Graph) schedules.Schedule {
			s, err := schedules.Tree(maybeNil(d, g))
			if err != nil {
				return nil
			}
			return s
		}),
		run("TreeOf", func(d *draws, g *graph.Graph) schedules.Schedule {
			fs := make([]graph.FactorID, d.rng.IntN(4))
			for i := range fs {
				fs[i] = graph.FactorID(d.Small(g.NumFactors()))
			}
			s, err := schedules.TreeOf(maybeNil(d, g), fs)
			if err != nil {
				return nil
			}
			return s
		}),
		{name: "Check", call: func(d *draws) ([]float64, error) {
			g := warmGraph(d)
			return nil, schedules.Check(maybeNil(d, g), scheduleOf(d, g))
		}},
		{name: "Compile", call: func(d *draws) ([]float64, error) {
			g := warmGraph(d)
			p, err := schedules.Compile(maybeNil(d, g), scheduleOf(d, g))
			if err != nil {
				return nil, err
			}
			_ = p.Len()
			res, err := schedules.Run(d.Ctx(), g, p)
			return result(res), err
		}},
		{name: "Plan.Len", call: func(d *draws) ([]float64, error) {
			var p *schedules.Plan
			if d.B() {
				p, _ = schedules.Compile(small(), schedules.Flooding(small()))
			}
			_ = p.Len()
			return nil, nil
		}},
		{name: "Plan.Run", call: func(d *draws) ([]float64, error) {
			d.capped = true // run outside Runner.Run: no context bounds it
			g := warmGraph(d)
			p, err := schedules.Compile(g, scheduleOf(d, g))
			if err != nil {
				return nil, err
			}
			var r *schedules.Runner
			if d.B() {
				r = schedules.NewRunner(g, runOptions(d)...)
			}
			res, err := p.Run(r)
			return result(res), err
		}},
		{name: "Walk", call: func(d *draws) ([]float64, error) {
			g := small()
			var fn func(*schedules.StepSchedule, *schedules.LoopSchedule)
			if d.B() {
				fn = func(*schedules.StepSchedule, *schedules.LoopSchedule) {}
			}
			schedules.Walk(scheduleOf(d, g), fn)
			return nil, nil
		}},
		schedule("Step", func(d *draws) schedules.Schedule { return schedules.Step(graph.FactorID(d.I()), d.I()) }),
		schedule("Sequence", func(d *draws) schedules.Schedule {
			return schedules.Sequence(nil, schedules.Step(graph.FactorID(d.Small(11)), d.Small(3)), (*schedules.SequenceSchedule)(nil))
		}),
		schedule("Loop", func(d *draws) schedules.Schedule {
			var body schedules.Schedule
			if d.B() {
				body = schedules.Step(graph.FactorID(d.Small(11)), d.Small(3))
			}
			return schedules.Loop(body, loopOptions(d)...)
		}),
		schedule("Tolerance", func(d *draws) schedules.Schedule { return schedules.Flooding(small(), schedules.Tolerance(d.F())) }),
		schedule("MaxIterations", func(d *draws) schedules.Schedule {
			n := d.I()
			d.unbounded = n > 1000
			return schedules.Flooding(small(), schedules.MaxIterations(n))
		}),
		schedule("Damping", func(d *draws) schedules.Schedule { return schedules.Flooding(small(), schedules.Damping(d.F())) }),
		schedule("Residual", func(d *draws) schedules.Schedule { return schedules.Flooding(small(), schedules.Residual(d.F())) }),
		schedule("Name", func(d *draws) schedules.Schedule { return schedules.Flooding(small(), schedules.Name(d.S())) }),
		{name: "WithMetric", call: func(d *draws) ([]float64, error) {
			g := warmGraph(d)
			x := d.F()
			metric := func(a, b messages.Gaussian) float64 { return x }
			sched := scheduleOf(d, g)
			res, err := schedules.Run(d.Ctx(), g, sched, schedules.WithMetric(metric))
			return result(res), err
		}, nonFinite: func(_ *draws, out []float64) bool { return true }}, // Delta is the user's metric's own value
		{name: "WithObserver", call: func(d *draws) ([]float64, error) {
			g := warmGraph(d)
			sched := scheduleOf(d, g)
			res, err := schedules.Run(d.Ctx(), g, sched, schedules.WithObserver(panicking{d.B()}))
			return result(res), err
		}},
		{name: "NewRunner", call: func(d *draws) ([]float64, error) {
			g := warmGraph(d)
			r := schedules.NewRunner(maybeNil(d, g), runOptions(d)...)
			s1, s2 := scheduleOf(d, g), scheduleOf(d, g)
			res, err := r.Run(d.Ctx(), s1)
			if err == nil {
				res, err = r.Run(d.Ctx(), s2)
			}
			return result(res), err
		}},
		{name: "Runner.Err", call: func(d *draws) ([]float64, error) {
			var r *schedules.Runner
			if d.B() {
				r = schedules.NewRunner(small())
			}
			_ = r.Err()
			return nil, nil
		}},
		{name: "Runner.Run", call: func(d *draws) ([]float64, error) {
			g := warmGraph(d)
			sched := scheduleOf(d, g)
			res, err := schedules.NewRunner(g, runOptions(d)...).Run(d.Ctx(), sched)
			return result(res), err
		}},
		{name: "Runner.Update", call: func(d *draws) ([]float64, error) {
			g := warmGraph(d)
			delta, err := schedules.NewRunner(maybeNil(d, g)).Update(graph.FactorID(d.Small(g.NumFactors())), d.Small(3))
			return []float64{delta}, err
		}},
		{name: "StepSchedule.Run", call: func(d *draws) ([]float64, error) {
			g := warmGraph(d)
			var r *schedules.Runner
			if d.rng.IntN(4) > 0 {
				r = schedules.NewRunner(g)
			}
			res, err := schedules.Step(graph.FactorID(d.Small(g.NumFactors())), d.Small(3)).Run(r)
			return result(res), err
		}},
		{name: "SequenceSchedule.Run", call: func(d *draws) ([]float64, error) {
			g := warmGraph(d)
			res, err := schedules.AllEdges(g, graph.FactorID(d.Small(g.NumFactors()))).Run(schedules.NewRunner(g))
			return result(res), err
		}},
		{name: "LoopSchedule.Run", call: func(d *draws) ([]float64, error) {
			d.capped = true
			g := warmGraph(d)
			res, err := schedules.Flooding(g, loopOptions(d)...).Run(schedules.NewRunner(g, runOptions(d)...))
			return result(res), err
		}},
		{name: "LoopSchedule.Validate", call: func(d *draws) ([]float64, error) {
			var l *schedules.LoopSchedule
			if d.rng.IntN(4) > 0 {
				l = schedules.Loop(schedules.Step(0, 0), loopOptions(d)...)
			}
			return nil, l.Validate()
		}},
		{name: "Convergence.Merge", call: func(d *draws) ([]float64, error) {
			r := schedules.Convergence{Delta: d.Pos(), Iterations: d.I(), Converged: d.B()}.Merge(schedules.Convergence{Delta: d.Pos(), Cyclic: d.B()})
			return result(r), nil
		}},
		{name: "CoverageError.Error", call: func(d *draws) ([]float64, error) {
			err := schedules.Check(small(), schedules.Step(graph.FactorID(d.I()), d.I()))
			var ce *schedules.CoverageError
			if errors.As(err, &ce) {
				_ = ce.Error()
			}
			_ = (&schedules.CoverageError{}).Error()
			return nil, err
		}},
		{name: "CoverageError.Unwrap", call: func(*draws) ([]float64, error) { return nil, (&schedules.CoverageError{}).Unwrap() }},
		{name: "Edge.String", call: func(d *draws) ([]float64, error) {
			_ = schedules.Edge{Factor: graph.FactorID(d.I()), Edge: d.I(), Label: d.S(), Variable: d.S()}.String()
			return nil, nil
		}},
	}})
}

// panicking is an observer that panics at its first update, if set.
type panicking struct{ panics bool }

func (p panicking) Updated(graph.FactorID, int, float64) {
	if p.panics {
		panic("observer")
	}
}
func (panicking) Iterated(string, int, float64) {}
