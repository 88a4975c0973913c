package compile_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/schedules"
	"github.com/skillgraph/skillgraph/schedules/compile"
	"github.com/skillgraph/skillgraph/schedules/compile/internal/testprograms"
)

// build returns one of the test graphs with its schedule, twice: one to
// compile, one to interpret.
type build func(rng *rand.Rand) (*graph.Graph, schedules.Schedule, error)

func figure1(rng *rand.Rand) (*graph.Graph, schedules.Schedule, error) {
	var mu, v [4]float64
	for i := range mu {
		mu[i], v[i] = 10+30*rng.Float64(), math.Pow(10, 3*rng.Float64()-1)
	}
	return testprograms.Figure1(mu, v)
}

func nested(rng *rand.Rand) (*graph.Graph, schedules.Schedule, error) {
	var mu, v [3]float64
	for i := range mu {
		mu[i], v[i] = 4*rng.NormFloat64(), math.Pow(10, 2*rng.Float64()-1)
	}
	return testprograms.Nested(mu, v, 3*rng.Float64(), 0.1+3*rng.Float64(), 0.5*rng.Float64())
}

// pair builds the same graph twice from the same random draws.
func pair(t *testing.T, b build, seed uint64) (gc, gi *graph.Graph, sc, si schedules.Schedule) {
	t.Helper()
	var err error
	if gc, sc, err = b(rand.New(rand.NewPCG(seed, 1))); err != nil {
		t.Fatal(err)
	}
	if gi, si, err = b(rand.New(rand.NewPCG(seed, 1))); err != nil {
		t.Fatal(err)
	}
	return gc, gi, sc, si
}

func close(a, b float64) bool {
	return a == b || math.Abs(a-b) <= 1e-12*math.Max(math.Abs(a), math.Abs(b))
}

// sameState compares every message and marginal of two graphs.
func sameState(t *testing.T, gc, gi *graph.Graph) {
	t.Helper()
	mc, vc := gc.State()
	mi, vi := gi.State()
	for _, p := range [][2][]messages.Gaussian{{mc, mi}, {vc, vi}} {
		for k := range p[0] {
			a, b := p[0][k], p[1][k]
			if !close(a.Pi, b.Pi) || !close(a.Tau, b.Tau) {
				t.Fatalf("entry %d: compiled %v, interpreted %v", k, a, b)
			}
		}
	}
}

// TestProgramIsTheInterpreter runs each compiled test program on random
// parameters beside the interpreter: every message and marginal agrees to
// 1e-12, and so do the passes and the convergence verdict.
func TestProgramIsTheInterpreter(t *testing.T) {
	ctx := context.Background()
	for name, b := range map[string]build{"figure1": figure1, "nested": nested} {
		fallbacks := 0
		for seed := uint64(0); seed < 300; seed++ {
			gc, gi, sc, si := pair(t, b, seed)
			prog, err := testprograms.Lookup(gc, sc)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			rc, errc := prog.Run(ctx)
			ri, erri := schedules.Run(ctx, gi, si)
			if errors.Is(errc, compile.ErrFallback) {
				fallbacks++
				t.Logf("%s seed %d: fell back (%v); interpreter: %v", name, seed, errc, erri)
				continue
			}
			if errc != nil || erri != nil {
				t.Fatalf("%s seed %d: compiled %v, interpreted %v", name, seed, errc, erri)
			}
			if rc.Iterations != ri.Iterations || rc.Converged != ri.Converged || !close(rc.Delta, ri.Delta) {
				t.Fatalf("%s seed %d: compiled %+v, interpreted %+v", name, seed, rc, ri)
			}
			sameState(t, gc, gi)
			lc, errc := prog.LogEvidence()
			li, erri := gi.LogEvidence()
			if errc != nil || erri != nil || !close(lc, li) {
				t.Fatalf("%s seed %d: evidence compiled %v %v, interpreted %v %v", name, seed, lc, errc, li, erri)
			}
		}
		if fallbacks > 0 {
			t.Errorf("%s: %d of 300 runs fell back", name, fallbacks)
		}
	}
}

// TestFallbackGivesTheInterpretersError breaks a parameter: the program
// falls back and RunWithFallback reports what the interpreter reports.
func TestFallbackGivesTheInterpretersError(t *testing.T) {
	ctx := context.Background()
	gc, gi, sc, si := pair(t, figure1, 7)
	for _, g := range []*graph.Graph{gc, gi} {
		g.Factor(2).(*factors.Prior).Variance = -1
	}
	prog, err := testprograms.BindFigure1(gc, sc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := prog.Run(ctx); err != compile.ErrFallback {
		t.Fatalf("program: %v, want ErrFallback", err)
	}
	_, errc := prog.RunWithFallback(ctx, schedules.NewRunner(gc), sc)
	_, erri := schedules.Run(ctx, gi, si)
	if errc == nil || erri == nil || errc.Error() != erri.Error() || !errors.Is(errc, factors.ErrParameter) {
		t.Fatalf("compiled %v, interpreted %v", errc, erri)
	}
}

// TestFallbackCases covers what the compiled code leaves to the
// interpreter: an observed variable, a zero coefficient, a loop without
// passes. Each result equals the interpreter's.
func TestFallbackCases(t *testing.T) {
	ctx := context.Background()
	cases := map[string]func(g *graph.Graph, s schedules.Schedule){
		"observed":    func(g *graph.Graph, _ schedules.Schedule) { g.Observe(4, 27) }, // p1
		"zero weight": func(g *graph.Graph, _ schedules.Schedule) { g.Factor(9).(*factors.WeightedSum).Coefficients[1] = 0 },
		"infinite shift": func(g *graph.Graph, _ schedules.Schedule) { // τ = μ/σ² overflows
			pr := g.Factor(0).(*factors.Prior)
			pr.Mean, pr.Variance = 1e300, 1e-10
		},
		"no passes": func(_ *graph.Graph, s schedules.Schedule) {
			s.(*schedules.SequenceSchedule).Parts[1].(*schedules.LoopSchedule).MaxIterations = 0
		},
	}
	for name, change := range cases {
		gc, gi, sc, si := pair(t, figure1, 3)
		change(gc, sc)
		change(gi, si)
		prog, err := testprograms.BindFigure1(gc, sc)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := prog.Run(ctx); err != compile.ErrFallback {
			t.Errorf("%s: program %v, want ErrFallback", name, err)
		}
		rc, errc := prog.RunWithFallback(ctx, schedules.NewRunner(gc), sc)
		ri, erri := schedules.Run(ctx, gi, si)
		if (errc == nil) != (erri == nil) || errc != nil && errc.Error() != erri.Error() || rc != ri {
			t.Fatalf("%s: compiled %+v %v, interpreted %+v %v", name, rc, errc, ri, erri)
		}
		if erri == nil {
			sameState(t, gc, gi)
		}
	}
}

// TestLoopParametersAreRead changes a loop's tolerance and cap after
// binding: the program follows them.
func TestLoopParametersAreRead(t *testing.T) {
	ctx := context.Background()
	gc, gi, sc, si := pair(t, figure1, 11)
	prog, err := testprograms.BindFigure1(gc, sc)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range []int{1, 2, 3} {
		for _, s := range []schedules.Schedule{sc, si} {
			l := s.(*schedules.SequenceSchedule).Parts[1].(*schedules.LoopSchedule)
			l.MaxIterations, l.Tolerance = it, 1e-15
		}
		rc, errc := prog.Run(ctx)
		gi.Reset() // the program resets its graph; the interpreter does not
		ri, erri := schedules.Run(ctx, gi, si)
		if errc != nil || erri != nil || rc != ri || rc.Iterations != it || rc.Converged {
			t.Fatalf("cap %d: compiled %+v %v, interpreted %+v %v", it, rc, errc, ri, erri)
		}
		sameState(t, gc, gi)
	}
}

// TestCanceled: a cancelled context stops the program at its first loop
// pass with the interpreter's error.
func TestCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	gc, gi, sc, si := pair(t, nested, 1)
	prog, err := testprograms.BindNested(gc, sc)
	if err != nil {
		t.Fatal(err)
	}
	_, errc := prog.Run(ctx)
	_, erri := schedules.Run(ctx, gi, si)
	if !errors.Is(errc, context.Canceled) || errc.Error() != erri.Error() {
		t.Fatalf("compiled %v, interpreted %v", errc, erri)
	}
}

// TestMismatch binds programs to graphs and schedules of other
// structures.
func TestMismatch(t *testing.T) {
	g1, s1, _ := figure1(rand.New(rand.NewPCG(1, 1)))
	g2, s2, _ := nested(rand.New(rand.NewPCG(1, 1)))
	if _, err := testprograms.BindNested(g1, s1); !errors.Is(err, compile.ErrMismatch) {
		t.Errorf("Nested on Figure1: %v", err)
	}
	if _, err := testprograms.BindFigure1(g1, s2); !errors.Is(err, graph.ErrNoFactor) { // steps Figure1 lacks
		t.Errorf("Figure1 with Nested's schedule: %v", err)
	}
	// A step fewer is another schedule.
	short := schedules.Sequence(s1.(*schedules.SequenceSchedule).Parts[:2]...)
	if _, err := testprograms.Lookup(g1, short); !errors.Is(err, compile.ErrNotCompiled) {
		t.Errorf("shortened schedule: %v", err)
	}
	if _, err := testprograms.Lookup(g2, s2); err != nil {
		t.Errorf("Nested: %v", err)
	}
}

// TestGenerateRejects covers what cannot be compiled.
func TestGenerateRejects(t *testing.T) {
	b := graph.NewBuilder("obs")
	x := b.AddVariable("x")
	y := b.AddObserved("y", 1)
	pr := b.AddFactor(factors.NewPrior(0, 1), "", x)
	ob := b.AddFactor(opaque{}, "", y, x)
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		s    schedules.Schedule
		pkg  string
		want error
	}{
		"no emitter":  {schedules.Sequence(schedules.Step(pr, 0), schedules.Step(ob, 1)), "p", compile.ErrUnsupported},
		"custom part": {schedules.Sequence(schedules.Step(pr, 0), customSchedule{}), "p", compile.ErrUnsupported},
		"no step":     {schedules.Step(5, 0), "p", graph.ErrNoFactor},
		"bad package": {schedules.Step(pr, 0), "p-q", nil},
	} {
		var buf bytes.Buffer
		err := compile.Generate(&buf, compile.File{Package: c.pkg, Programs: []compile.Source{{Name: "X", Graph: g, Schedule: c.s}}})
		if err == nil || c.want != nil && !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", name, err, c.want)
		}
	}
	src := compile.Source{Name: "X", Graph: g, Schedule: schedules.Step(pr, 0)}
	for name, f := range map[string]compile.File{
		"no programs": {Package: "p"},
		"same names":  {Package: "p", Programs: []compile.Source{src, src}},
		"lookup name": {Package: "p", Lookup: "X", Programs: []compile.Source{src}},
		"bad lookup":  {Package: "p", Lookup: "a b", Programs: []compile.Source{src}},
	} {
		if err := compile.Generate(io.Discard, f); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	// The supported part alone compiles.
	var buf bytes.Buffer
	if err := compile.Generate(&buf, compile.File{Package: "p", Generator: "test", Programs: []compile.Source{{Name: "X", Graph: g, Schedule: schedules.Step(pr, 0)}}}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "func X(g *graph.Graph, s schedules.Schedule) (*compile.Program, error)") {
		t.Errorf("no binder in\n%s", buf.String())
	}
}

type customSchedule struct{}

func (customSchedule) Run(*schedules.Runner) (schedules.Result, error) {
	return schedules.Result{}, nil
}

// opaque is a factor that does not implement compile.Emitter.
type opaque struct{}

func (opaque) Arity() int { return 2 }
func (opaque) Message(int, graph.Edges) (messages.Gaussian, error) {
	return messages.Gaussian{}, nil
}

// TestEvidenceFallback asks for the evidence of a graph whose messages are
// uniform (before any run): the compiled evidence hands the case to
// Graph.LogEvidence, which reports it.
func TestEvidenceFallback(t *testing.T) {
	g, s, err := figure1(rand.New(rand.NewPCG(2, 2)))
	if err != nil {
		t.Fatal(err)
	}
	prog, err := testprograms.Lookup(g, s)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := prog.LogEvidence(); err != compile.ErrFallback {
		t.Fatalf("compiled evidence of uniform messages: %v, want ErrFallback", err)
	}
	lc, errc := prog.LogEvidenceWithFallback()
	li, erri := g.LogEvidence()
	if lc != li || (errc == nil) != (erri == nil) || errc != nil && errc.Error() != erri.Error() {
		t.Fatalf("with fallback %v %v, graph %v %v", lc, errc, li, erri)
	}
}
