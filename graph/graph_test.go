package graph_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
)

func TestBuildReportsEveryMistake(t *testing.T) {
	cases := []struct {
		name  string
		build func(b *graph.Builder)
		want  error
		frag  string // what the error says
	}{
		{"nil factor", func(b *graph.Builder) {
			x := b.AddVariable("x")
			b.AddFactor(nil, "oops", x)
		}, messages.ErrInput, "nil factor"},
		{"typed nil factor", func(b *graph.Builder) {
			x := b.AddVariable("x")
			var p *factors.Prior
			b.AddFactor(p, "", x)
		}, messages.ErrInput, "nil factor"},
		{"typed nil factor named by its variables", func(b *graph.Builder) {
			x, y, z := b.AddVariable("x"), b.AddVariable("y"), b.AddVariable("z")
			var w *factors.WeightedSum // its Arity and Label read the nil pointer
			b.AddFactor(factors.NewPrior(0, 1), "", y)
			b.AddFactor(factors.NewPrior(0, 1), "", z)
			b.AddFactor(w, "", x, y, z)
		}, messages.ErrInput, "nil factor"},
		{"wrong arity", func(b *graph.Builder) {
			x := b.AddVariable("x")
			b.AddFactor(factors.NewLikelihood(1), "", x)
		}, messages.ErrInput, "want 2"},
		{"dangling edge", func(b *graph.Builder) {
			x := b.AddVariable("x")
			b.AddFactor(factors.NewLikelihood(1), "", x, graph.VarID(7))
		}, messages.ErrInput, "no variable 7"},
		{"duplicate edge", func(b *graph.Builder) {
			x := b.AddVariable("x")
			b.AddFactor(factors.NewLikelihood(1), "", x, x)
		}, messages.ErrInput, "connected twice"},
		{"duplicate name", func(b *graph.Builder) {
			x, y := b.AddVariable("x"), b.AddVariable("x")
			b.AddFactor(factors.NewLikelihood(1), "", x, y)
		}, messages.ErrInput, "two variables named"},
		{"observed NaN", func(b *graph.Builder) {
			x := b.AddObserved("x", math.NaN())
			b.AddFactor(factors.NewPrior(0, 1), "", x)
		}, messages.ErrInput, "is not finite"},
		{"observed infinity", func(b *graph.Builder) {
			x := b.AddObserved("x", math.Inf(-1))
			b.AddFactor(factors.NewPrior(0, 1), "", x)
		}, messages.ErrInput, "is not finite"},
		{"isolated variable", func(b *graph.Builder) {
			x := b.AddVariable("x")
			b.AddVariable("lonely")
			b.AddFactor(factors.NewPrior(0, 1), "", x)
		}, messages.ErrInput, "connected to no factor"},
		{"invalid parameter", func(b *graph.Builder) {
			x := b.AddVariable("x")
			b.AddFactor(factors.NewPrior(0, -1), "", x)
		}, messages.ErrInput, "variance"},
		{"negative margin", func(b *graph.Builder) {
			x := b.AddVariable("x")
			b.AddFactor(factors.NewPrior(0, 1), "", x)
			b.AddFactor(factors.NewGreaterThan(math.NaN()), "", x)
		}, messages.ErrInput, "margin"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := graph.NewBuilder(c.name)
			c.build(b)
			g, err := b.Build()
			if g != nil || !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.frag) {
				t.Fatalf("Build() = %v, %v; want error %v saying %q", g, err, c.want, c.frag)
			}
			if !strings.Contains(err.Error(), c.name) {
				t.Errorf("error %q does not name the graph", err)
			}
		})
	}
}

// chain builds x ~ N(m, v), y ~ N(x, c²), y observed through N(obs; y, r).
func chain(t *testing.T) (*graph.Graph, graph.VarID, graph.VarID, []graph.FactorID) {
	t.Helper()
	b := graph.NewBuilder("chain")
	x, y := b.AddVariable("x"), b.AddVariable("y")
	fs := []graph.FactorID{
		b.AddFactor(factors.NewPrior(1, 4), "", x),
		b.AddFactor(factors.NewLikelihood(2), "", y, x),
		b.AddFactor(factors.NewGaussianObservation(3, 0.5), "", y),
	}
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return g, x, y, fs
}

func runChain(t *testing.T, g *graph.Graph, fs []graph.FactorID) {
	t.Helper()
	for _, s := range [][2]int{{0, 0}, {2, 0}, {1, 0}, {1, 1}} {
		if _, _, err := g.Update(fs[s[0]], s[1], 0); err != nil {
			t.Fatal(err)
		}
	}
}

// TestChainPosterior checks a linear-Gaussian chain against the conjugate
// posterior written out by hand: x ~ N(1, 4), y | x ~ N(x, 2), 3 | y ~ N(y, 0.5).
func TestChainPosterior(t *testing.T) {
	g, x, y, fs := chain(t)
	runChain(t, g, fs)
	// Marginal likelihood of x: obs ~ N(x, 2 + 0.5) ⇒ posterior of x.
	px := 1/4.0 + 1/2.5
	mx := (1/4.0 + 3/2.5) / px
	// y | obs, prior of y is N(1, 6).
	py := 1/6.0 + 1/0.5
	my := (1/6.0 + 3/0.5) / py
	for _, c := range []struct {
		name       string
		got        messages.Gaussian
		mean, var_ float64
	}{{"x", g.Marginal(x), mx, 1 / px}, {"y", g.Marginal(y), my, 1 / py}} {
		if math.Abs(c.got.Mean()-c.mean) > 1e-14 || math.Abs(c.got.Variance()/c.var_-1) > 1e-14 {
			t.Errorf("%s = %v, want N(%v, %v)", c.name, c.got, c.mean, c.var_)
		}
	}
	// The evidence of the chain is N(3; 1, 4 + 2 + 0.5).
	want := -0.5*math.Log(2*math.Pi*6.5) - 0.5*(3-1)*(3-1)/6.5
	got, err := g.LogEvidence()
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got-want) > 1e-13 {
		t.Errorf("LogEvidence = %.17g, want %.17g", got, want)
	}
}

// TestResetReusesWithoutAllocating checks that a reset graph, re-run with new
// prior parameters, gives the same result as a fresh graph and allocates nothing.
func TestResetReusesWithoutAllocating(t *testing.T) {
	g, x, _, fs := chain(t)
	prior := g.Factor(fs[0]).(*factors.Prior)
	prior.Mean, prior.Variance = -2, 9
	runChain(t, g, fs)
	want := g.Marginal(x)

	allocs := testing.AllocsPerRun(100, func() {
		g.Reset()
		runChain(t, g, fs)
	})
	if allocs != 0 {
		t.Errorf("Reset + run allocates %v times, want 0", allocs)
	}
	if got := g.Marginal(x); got != want {
		t.Errorf("after reuse x = %v, want %v", got, want)
	}
	g.Reset()
	for v := graph.VarID(0); int(v) < g.NumVariables(); v++ {
		if !g.Marginal(v).IsUniform() {
			t.Errorf("after Reset %s = %v, want uniform", g.VariableName(v), g.Marginal(v))
		}
	}
}

func TestRecomputeMarginalsRemovesDrift(t *testing.T) {
	g, x, _, fs := chain(t)
	for i := 0; i < 1000; i++ {
		runChain(t, g, fs)
	}
	drifted := g.Marginal(x)
	g.RecomputeMarginals()
	exact := g.Marginal(x)
	if d := messages.Distance(drifted, exact); d > 1e-12 {
		t.Errorf("drift after 1000 passes %.3g (%v vs %v)", d, drifted, exact)
	}
	want := g.Message(fs[0], 0).Mul(g.Message(fs[1], 1))
	if exact != want {
		t.Errorf("recomputed %v, want product of messages %v", exact, want)
	}
}

func TestObservedVariable(t *testing.T) {
	b := graph.NewBuilder("observed")
	x := b.AddVariable("x")
	y := b.AddObserved("y", 2.5)
	b.AddFactor(factors.NewPrior(0, 1), "", x)
	lik := b.AddFactor(factors.NewLikelihood(3), "", y, x)
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := g.Update(0, 0, 0); err != nil {
		t.Fatal(err)
	}
	if _, _, err := g.Update(lik, 1, 0); err != nil {
		t.Fatal(err)
	}
	// x | y = 2.5: precision 1 + 1/3, mean (2.5/3)/(4/3).
	got := g.Marginal(x)
	if math.Abs(got.Mean()-2.5/4) > 1e-15 || math.Abs(got.Variance()-0.75) > 1e-15 {
		t.Errorf("x = %v, want N(0.625, 0.75)", got)
	}
	if v, ok := g.Observed(y); !ok || v != 2.5 || g.Marginal(y) != messages.PointMass(2.5) {
		t.Errorf("y observed = %v %v, marginal %v", v, ok, g.Marginal(y))
	}
	// Evidence: y ~ N(0, 1 + 3) at 2.5.
	want := -0.5*math.Log(2*math.Pi*4) - 0.5*2.5*2.5/4
	if got, err := g.LogEvidence(); err != nil || math.Abs(got-want) > 1e-14 {
		t.Errorf("LogEvidence = %v, %v; want %v", got, err, want)
	}
}

// badFactor returns a NaN message, as a buggy user factor might.
type badFactor struct{}

func (badFactor) Arity() int { return 1 }
func (badFactor) Message(int, graph.Edges) (messages.Gaussian, error) {
	return messages.Gaussian{Pi: math.NaN()}, nil
}

func TestUpdateRejectsBadMessages(t *testing.T) {
	b := graph.NewBuilder("bad")
	x := b.AddVariable("x")
	p := b.AddFactor(factors.NewPrior(0, 1), "", x)
	bad := b.AddFactor(badFactor{}, "", x)
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := g.Update(p, 0, 0); err != nil {
		t.Fatal(err)
	}
	before := g.Marginal(x)
	_, _, err = g.Update(bad, 0, 0)
	var ue *graph.UpdateError
	if !errors.As(err, &ue) || !errors.Is(err, messages.ErrNumerical) || ue.Factor != bad {
		t.Fatalf("Update(bad) error = %v, want *UpdateError wrapping messages.ErrNumerical", err)
	}
	if g.Marginal(x) != before {
		t.Errorf("a rejected update changed the marginal: %v", g.Marginal(x))
	}
	if _, _, err := g.Update(graph.FactorID(9), 0, 0); !errors.Is(err, messages.ErrInput) {
		t.Errorf("Update of a missing factor: %v, want messages.ErrInput", err)
	}
	if _, _, err := g.Update(p, 1, 0); !errors.Is(err, messages.ErrInput) {
		t.Errorf("Update of a missing edge: %v, want messages.ErrInput", err)
	}
}

func TestDampingBlendsNaturalParameters(t *testing.T) {
	b := graph.NewBuilder("damped")
	x := b.AddVariable("x")
	p := b.AddFactor(factors.NewPrior(2, 0.5), "", x)
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := g.Update(p, 0, 0.25); err != nil {
		t.Fatal(err)
	}
	// new^0.75 · uniform^0.25: precision 0.75·2, τ 0.75·4.
	if got := g.Message(p, 0); math.Abs(got.Pi-1.5) > 1e-15 || math.Abs(got.Tau-3) > 1e-15 {
		t.Errorf("damped message %+v, want {Pi:1.5 Tau:3}", got)
	}
}

func TestLayersAndLabels(t *testing.T) {
	b := graph.NewBuilder("layers")
	b.Layer("skills")
	s := b.AddVariable("s1")
	b.Layer("priors")
	f := b.AddFactor(factors.NewPrior(25, 69.4), "", s)
	b.Layer("skills")
	s2 := b.AddVariable("s2")
	b.AddFactor(factors.NewPrior(25, 1), "custom", s2)
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if got := g.Layers(); len(got) != 3 || got[1] != "skills" || got[2] != "priors" {
		t.Errorf("Layers() = %q", got)
	}
	if g.VariableLayer(s) != 1 || g.VariableLayer(s2) != 1 || g.FactorLayer(f) != 2 {
		t.Errorf("layers: s1 %d, s2 %d, prior %d", g.VariableLayer(s), g.VariableLayer(s2), g.FactorLayer(f))
	}
	if got := g.FactorLabel(f); got != "N(s1; 25, 69.4)" {
		t.Errorf("label %q", got)
	}
	if got := g.FactorLabel(1); got != "custom" {
		t.Errorf("label %q", got)
	}
	if fid, e := g.VariableEdge(s2, 0); fid != 1 || e != 0 {
		t.Errorf("VariableEdge(s2, 0) = %d, %d", fid, e)
	}
}

// TestCavityBesideADominantMessage: when one message carries nearly all of
// a marginal's precision (1e25 beside 0.01, as a draw factor with a tiny
// margin sends), dividing it out of the marginal leaves rounding noise; the
// cavity must still be the other message exactly.
func TestCavityBesideADominantMessage(t *testing.T) {
	b := graph.NewBuilder("dominant")
	y := b.AddVariable("y")
	weak := b.AddFactor(factors.NewPrior(-2.36, 100), "", y)
	probe := &cavityProbe{send: messages.NewGaussian(0, 1e-25)}
	f := b.AddFactor(probe, "", y)
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []graph.FactorID{weak, f, f} {
		if _, _, err := g.Update(id, 0, 0); err != nil {
			t.Fatal(err)
		}
	}
	// The second probe update sees the marginal with its own dominant
	// message inside; its cavity is the weak prior.
	want := messages.NewGaussian(-2.36, 100)
	if got := probe.seen; math.Abs(got.Mean()-want.Mean()) > 1e-12 || math.Abs(got.Variance()/want.Variance()-1) > 1e-12 {
		t.Errorf("cavity beside the dominant message %v, want %v", got, want)
	}
}

type cavityProbe struct {
	send messages.Gaussian
	seen messages.Gaussian
}

func (*cavityProbe) Arity() int { return 1 }
func (c *cavityProbe) Message(_ int, e graph.Edges) (messages.Gaussian, error) {
	c.seen = e.Cavity(0)
	return c.send, nil
}

func TestVariableByName(t *testing.T) {
	b := graph.NewBuilder("names")
	names := []string{"skill[ann,3]", "b", "", "a", "skill[ann,2]", ""}
	ids := make([]graph.VarID, len(names))
	for i, n := range names {
		ids[i] = b.AddVariable(n)
		b.AddFactor(factors.NewPrior(0, 1), "", ids[i])
	}
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range names {
		v, ok := g.Variable(n)
		if n == "" {
			if ok {
				t.Errorf("Variable(%q) = %d, true; want not found", n, v)
			}
			continue
		}
		if !ok || v != ids[i] {
			t.Errorf("Variable(%q) = %d, %v; want %d, true", n, v, ok, ids[i])
		}
	}
	for _, n := range []string{"c", "skill[ann,1]", "A", " a"} {
		if v, ok := g.Variable(n); ok || v != -1 {
			t.Errorf("Variable(%q) = %d, %v; want -1, false", n, v, ok)
		}
	}
}

// TestResetKeepsObservations: Reset returns every latent marginal to
// uniform and every observed one to the point mass of its value, whether
// observed at Build or later by Observe.
func TestResetKeepsObservations(t *testing.T) {
	b := graph.NewBuilder("observed")
	x, y := b.AddVariable("x"), b.AddObserved("y", 1.5)
	z := b.AddVariable("z")
	p := b.AddFactor(factors.NewPrior(0, 4), "", x)
	l := b.AddFactor(factors.NewLikelihood(1), "", y, x)
	m := b.AddFactor(factors.NewLikelihood(2), "", z, x)
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Observe(z, -3); err != nil {
		t.Fatal(err)
	}
	for _, f := range []graph.FactorID{p, l, m} {
		if _, _, err := g.Update(f, g.Arity(f)-1, 0); err != nil {
			t.Fatal(err)
		}
	}
	if g.Marginal(x).IsUniform() {
		t.Fatal("x not updated")
	}
	g.Reset()
	for v, want := range map[graph.VarID]messages.Gaussian{x: {}, y: messages.PointMass(1.5), z: messages.PointMass(-3)} {
		if got := g.Marginal(v); got != want {
			t.Errorf("after Reset %s = %v, want %v", g.VariableName(v), got, want)
		}
	}
	for f := range g.NumFactors() {
		for i := range g.Arity(graph.FactorID(f)) {
			if msg := g.Message(graph.FactorID(f), i); !msg.IsUniform() {
				t.Errorf("after Reset factor %d edge %d sends %v", f, i, msg)
			}
		}
	}
}
