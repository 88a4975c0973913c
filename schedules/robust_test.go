package schedules_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/exact"
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/schedules"
)

// triangle builds three skills joined in a cycle by Gaussian likelihoods,
// each with a prior, one observed through a GaussianObservation; extra
// factors (given with the variables they join, by index) are added last.
func triangle(t *testing.T, extra ...func(b *graph.Builder, x []graph.VarID)) *graph.Graph {
	t.Helper()
	b := graph.NewBuilder("triangle")
	x := []graph.VarID{b.AddVariable("a"), b.AddVariable("b"), b.AddVariable("c")}
	for i, v := range x {
		b.AddFactor(factors.NewPrior(float64(i), 4), "", v)
	}
	for i := range x {
		b.AddFactor(factors.NewLikelihood(1), "", x[i], x[(i+1)%3])
	}
	b.AddFactor(factors.NewGaussianObservation(2, 0.5), "", x[0])
	for _, f := range extra {
		f(b, x)
	}
	return mustGraph(t, b)
}

// nothing is a factor without edges.
type nothing struct{}

func (nothing) Arity() int                                          { return 0 }
func (nothing) Message(int, graph.Edges) (messages.Gaussian, error) { return messages.Gaussian{}, nil }

// TestDeriveZeroArityFactor: a factor without edges on a loopy graph takes
// no part in Derive's schedule, and the marginals are those of the same
// graph without it (a linear-Gaussian graph: Gaussian belief propagation's
// means are exact, checked against exact.Solve).
func TestDeriveZeroArityFactor(t *testing.T) {
	g := triangle(t, func(b *graph.Builder, _ []graph.VarID) { b.AddFactor(nothing{}, "empty") })
	s, err := schedules.Derive(g)
	if err != nil {
		t.Fatal(err)
	}
	res, err := schedules.Run(bg, g, s)
	if err != nil || !res.Converged || !res.Cyclic {
		t.Fatalf("%+v, %v; want converged, cyclic", res, err)
	}
	sol, err := exact.Solve(triangle(t))
	if err != nil {
		t.Fatal(err)
	}
	for v := range g.NumVariables() {
		got, want := g.Marginal(graph.VarID(v)).Mean(), sol.Marginals[v].Mean()
		if math.Abs(got-want) > 1e-6 {
			t.Errorf("mean of %s %v, exact %v", g.VariableName(graph.VarID(v)), got, want)
		}
	}
}

// nested is a custom schedule that runs inner through Runner.Run, as a
// user may write it, instead of inner.Run(r).
type nested struct{ inner schedules.Schedule }

func (n nested) Run(r *schedules.Runner) (schedules.Convergence, error) {
	return r.Run(context.Background(), n.inner)
}

// TestRunnerRunInsideLoop: a custom schedule that calls Runner.Run inside a
// Loop runs its schedule as part of the run, as the schedule's own Run
// would: the same Result and marginals.
func TestRunnerRunInsideLoop(t *testing.T) {
	body := func(g *graph.Graph) schedules.Schedule { return schedules.Flooding(g).Body }
	g := triangle(t)
	want, err := schedules.Run(bg, g, schedules.Loop(body(g), schedules.Name("plain")))
	if err != nil {
		t.Fatal(err)
	}
	wantMeans := marginals(g)
	g.Reset()
	got, err := schedules.Run(bg, g, schedules.Loop(nested{body(g)}, schedules.Name("nested")))
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("nested Runner.Run: %+v, want %+v", got, want)
	}
	for v, m := range marginals(g) {
		if m != wantMeans[v] {
			t.Errorf("variable %d: %v, want %v", v, m, wantMeans[v])
		}
	}
}

// panicky panics in Message once its cavity is informative.
type panicky struct{}

func (panicky) Arity() int { return 1 }
func (panicky) Message(_ int, e graph.Edges) (messages.Gaussian, error) {
	if !e.Cavity(0).IsUniform() {
		panic("index out of range [3] with length 3")
	}
	return messages.Gaussian{}, nil
}

func (panicky) LogAverageFactor(graph.Edges) (float64, error) { panic("no evidence here") }

// panicObserver panics at the first update.
type panicObserver struct{}

func (panicObserver) Updated(graph.FactorID, int, float64) { panic("observer") }
func (panicObserver) Iterated(string, int, float64)        {}

// TestPanicsBecomeErrors: a user factor that panics fails its update with
// an *graph.UpdateError naming it and holding the panic, through
// schedules.Run, a Runner's Update and graph.Update alike; its panicking
// evidence is an *graph.UpdateError of its LogAverageFactor; a panicking
// observer fails the run with messages.ErrInput. The runner and the graph
// stay usable.
func TestPanicsBecomeErrors(t *testing.T) {
	g := triangle(t, func(b *graph.Builder, x []graph.VarID) { b.AddFactor(panicky{}, "user factor", x[2]) })
	f := graph.FactorID(g.NumFactors() - 1)
	s, err := schedules.Derive(g)
	if err != nil {
		t.Fatal(err)
	}
	named := func(what string, err error) {
		t.Helper()
		var ue *graph.UpdateError
		if !errors.As(err, &ue) || ue.Panic == nil || ue.Factor != f || ue.Label != "user factor" || ue.Method != "Message" {
			t.Errorf("%s: %v, want an *graph.UpdateError of factor %d \"user factor\" holding its panic", what, err, f)
		}
	}
	r := schedules.NewRunner(g)
	_, err = r.Run(bg, s)
	named("Runner.Run", err)
	_, err = schedules.Run(bg, g, schedules.Loop(schedules.Sequence(schedules.Flooding(g).Body)))
	named("Run of a loop", err)
	_, err = r.Update(f, 0)
	named("Runner.Update", err)
	_, _, err = g.Update(f, 0, 0)
	named("graph.Update", err)
	_, err = g.LogEvidence()
	var ee *graph.UpdateError
	if !errors.As(err, &ee) || ee.Panic == nil || ee.Label != "user factor" || ee.Method != "LogAverageFactor" {
		t.Errorf("LogEvidence: %v, want an *graph.UpdateError of \"user factor\"'s LogAverageFactor holding its panic", err)
	}

	// The same runner runs a schedule without the factor afterwards.
	g.Reset()
	res, err := r.Run(bg, schedules.Loop(schedules.Sequence(stepsExcept(g, f)...)))
	if err != nil || !res.Converged {
		t.Errorf("after the panic: %+v, %v", res, err)
	}

	_, err = schedules.Run(bg, g, s, schedules.WithObserver(panicObserver{}))
	if !errors.Is(err, messages.ErrInput) || !strings.Contains(err.Error(), "observer") || !strings.Contains(err.Error(), "panicked") {
		t.Errorf("panicking observer: %v, want messages.ErrInput naming the panic", err)
	}
}

// stepsExcept returns a step for every edge of g but those of factor skip.
func stepsExcept(g *graph.Graph, skip graph.FactorID) []schedules.Schedule {
	var steps []schedules.Schedule
	for f := range g.NumFactors() {
		if graph.FactorID(f) == skip {
			continue
		}
		for i := range g.Arity(graph.FactorID(f)) {
			steps = append(steps, schedules.Step(graph.FactorID(f), i))
		}
	}
	return steps
}

// TestNilOptions: nil functional options are ignored, so the calls below
// give what they give without them.
func TestNilOptions(t *testing.T) {
	g := triangle(t)
	s, err := schedules.Derive(g, nil, schedules.WithLoop(nil), schedules.ByRank(nil))
	if err != nil {
		t.Fatal(err)
	}
	l, ok := s.(*schedules.LoopSchedule)
	if !ok || l.Tolerance != schedules.DefaultTolerance || l.MaxIterations != schedules.DefaultMaxIterations {
		t.Fatalf("Derive with nil options: %#v, want a loop with the defaults", s)
	}
	want, err := schedules.Run(bg, g, s)
	if err != nil {
		t.Fatal(err)
	}
	g.Reset()
	got, err := schedules.Run(bg, g, s, nil)
	if err != nil || got != want {
		t.Errorf("Run with a nil option: %+v, %v; want %+v", got, err, want)
	}
	g.Reset()
	got, err = schedules.NewRunner(g, nil, schedules.WithMetric(nil)).Run(bg, schedules.Loop(l.Body, nil, schedules.Name("sweeps")))
	if err != nil || got != want {
		t.Errorf("Runner and Loop with nil options: %+v, %v; want %+v", got, err, want)
	}
	if fl := schedules.Flooding(g, nil); fl.Tolerance != schedules.DefaultTolerance {
		t.Errorf("Flooding with a nil option: %+v", fl)
	}
}

// TestCyclic: every run reports whether its graph has a cycle through
// latent variables; an observed variable cuts one.
func TestCyclic(t *testing.T) {
	chain := func(observeMiddle bool) *graph.Graph {
		b := graph.NewBuilder("chain")
		x := b.AddVariable("x")
		var y graph.VarID
		if observeMiddle {
			y = b.AddObserved("y", 1)
		} else {
			y = b.AddVariable("y")
		}
		z := b.AddVariable("z")
		b.AddFactor(factors.NewPrior(0, 1), "", x)
		b.AddFactor(factors.NewLikelihood(1), "", x, y)
		b.AddFactor(factors.NewLikelihood(1), "", y, z)
		b.AddFactor(factors.NewWeightedSum(1, 1), "", z, x, y) // z = x + y closes the cycle
		return mustGraph(t, b)
	}
	for _, tc := range []struct {
		name string
		g    *graph.Graph
		want bool
	}{
		{"tree", chainSpec(3).spec.build(t), false},
		{"triangle", triangle(t), true},
		{"cycle through a latent variable", chain(false), true},
		{"cycle cut by an observed variable", chain(true), false},
	} {
		if got := tc.g.HasCycle(); got != tc.want {
			t.Errorf("%s: HasCycle %v, want %v", tc.name, got, tc.want)
		}
		res, err := schedules.Run(bg, tc.g, schedules.Flooding(tc.g, schedules.MaxIterations(3)))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if res.Cyclic != tc.want {
			t.Errorf("%s: Convergence.Cyclic %v, want %v", tc.name, res.Cyclic, tc.want)
		}
	}
	// Observing the middle variable afterwards cuts the cycle.
	g := chain(false)
	y, _ := g.Variable("y")
	if err := g.Observe(y, 1); err != nil {
		t.Fatal(err)
	}
	if g.HasCycle() {
		t.Error("HasCycle after observing the variable on the cycle: true")
	}
}

// TestConvergedMeansThisRun: Converged says that a pass of this run moved
// nothing by more than the tolerance. A graph left at its fixed point by an
// earlier run converges in the one pass a cap of 1 allows (that pass is a
// fixed point); after Reset the same capped run, starting from the priors,
// reports that it did not converge; and capped runs continuing one another
// report convergence only in a run whose last pass moved things by at most
// the tolerance.
func TestConvergedMeansThisRun(t *testing.T) {
	g := triangle(t)
	const tol = 1e-9
	s, err := schedules.Derive(g, schedules.WithLoop(schedules.Tolerance(tol), schedules.MaxIterations(1000)))
	if err != nil {
		t.Fatal(err)
	}
	if res, err := schedules.Run(bg, g, s); err != nil || !res.Converged {
		t.Fatalf("%+v, %v", res, err)
	}
	capped := schedules.Loop(s.(*schedules.LoopSchedule).Body, schedules.Tolerance(tol), schedules.MaxIterations(1))
	res, err := schedules.Run(bg, g, capped)
	if err != nil || !res.Converged || res.Iterations != 1 || res.Delta > tol {
		t.Errorf("capped run of a converged graph: %+v, %v; want one pass, converged", res, err)
	}
	g.Reset()
	res, err = schedules.Run(bg, g, capped)
	if err != nil || res.Converged || res.Iterations != 1 || res.Delta <= tol {
		t.Errorf("capped run after Reset: %+v, %v; want one pass, not converged", res, err)
	}
	g.Reset()
	three := schedules.Loop(capped.Body, schedules.Tolerance(tol), schedules.MaxIterations(3))
	converged := false
	for run := 0; run < 400 && !converged; run++ {
		res, err := schedules.Run(bg, g, three)
		if err != nil {
			t.Fatal(err)
		}
		if res.Converged != (res.Delta <= tol) {
			t.Fatalf("run %d: %+v: Converged disagrees with the last pass's change", run, res)
		}
		converged = res.Converged
	}
	if !converged {
		t.Error("capped runs never converged")
	}
}

// TestUpdateDoesNotAllocate: the bookkeeping that names a panicking
// factor costs Runner.Update no allocation, inside a run or outside one.
func TestUpdateDoesNotAllocate(t *testing.T) {
	g := triangle(t)
	r := schedules.NewRunner(g)
	if n := testing.AllocsPerRun(100, func() {
		if _, err := r.Update(3, 0); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Runner.Update outside a run: %v allocations", n)
	}
	inside := custom(func(r *schedules.Runner) (schedules.Convergence, error) {
		_, err := r.Update(3, 1)
		return schedules.Convergence{Converged: true}, err
	})
	if _, err := r.Run(bg, inside); err != nil { // compiles nothing: a custom schedule
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() {
		if _, err := r.Run(bg, inside); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Runner.Update inside a run: %v allocations", n)
	}
}

// custom is a schedule given by its Run function.
type custom func(r *schedules.Runner) (schedules.Convergence, error)

func (c custom) Run(r *schedules.Runner) (schedules.Convergence, error) { return c(r) }
