package schedules_test

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/schedules"
)

// flipFlop sends N(±1, 1) alternately, so no loop over it can converge.
type flipFlop struct{ calls int }

func (*flipFlop) Arity() int { return 1 }
func (f *flipFlop) Message(int, graph.Edges) (messages.Gaussian, error) {
	f.calls++
	return messages.NewGaussian(float64(2*(f.calls%2)-1), 1), nil
}

func flipFlopGraph(t *testing.T) (*graph.Graph, *flipFlop) {
	t.Helper()
	b := graph.NewBuilder("flipflop")
	x := b.AddVariable("x")
	ff := &flipFlop{}
	b.AddFactor(ff, "", x)
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return g, ff
}

func TestLoopReportsNonConvergence(t *testing.T) {
	g, ff := flipFlopGraph(t)
	res, err := schedules.Run(context.Background(), g, schedules.Loop(schedules.Step(0, 0), schedules.MaxIterations(7)))
	if err != nil {
		t.Fatal(err)
	}
	if res.Converged || res.Iterations != 7 || ff.calls != 7 {
		t.Errorf("result %+v after %d updates, want 7 iterations, not converged", res, ff.calls)
	}
	// Mean jumps by 2 in units of σ = 1.
	if res.Delta != 2 {
		t.Errorf("last change %v, want 2", res.Delta)
	}
}

func TestLoopStopsWhenCancelled(t *testing.T) {
	g, ff := flipFlopGraph(t)
	ctx, cancel := context.WithCancel(context.Background())
	obs := &cancelAfter{n: 3, cancel: cancel}
	res, err := schedules.Run(ctx, g, schedules.Loop(schedules.Step(0, 0), schedules.MaxIterations(1000)), schedules.WithObserver(obs))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if res.Converged || ff.calls != 3 || res.Iterations != 3 {
		t.Errorf("result %+v after %d updates, want 3 iterations", res, ff.calls)
	}
}

type cancelAfter struct {
	n      int
	cancel func()
	steps  int
}

func (c *cancelAfter) Updated(graph.FactorID, int, float64) { c.steps++ }
func (c *cancelAfter) Iterated(_ string, it int, _ float64) {
	if it == c.n {
		c.cancel()
	}
}

func TestLoopConfigErrors(t *testing.T) {
	g, _ := flipFlopGraph(t)
	for _, opt := range []schedules.LoopOption{
		schedules.MaxIterations(0), schedules.Tolerance(-1), schedules.Damping(1), schedules.Tolerance(math.NaN()),
	} {
		if _, err := schedules.Run(context.Background(), g, schedules.Loop(schedules.Step(0, 0), opt)); !errors.Is(err, messages.ErrInput) {
			t.Errorf("error %v, want messages.ErrInput", err)
		}
	}
	if _, err := schedules.Run(context.Background(), g, schedules.Step(3, 0)); !errors.Is(err, messages.ErrInput) {
		t.Errorf("step naming a missing factor: %v, want messages.ErrInput", err)
	}
}

// TestDampedFloodingReachesTheSameFixedPoint runs the Figure 1 game under
// flooding with and without damping: damping changes the path, not the
// answer.
func TestDampedFloodingReachesTheSameFixedPoint(t *testing.T) {
	f := buildFigure1(t)
	plain, err := schedules.Run(context.Background(), f.g, schedules.Flooding(f.g, schedules.Tolerance(1e-12), schedules.MaxIterations(1000)))
	if err != nil || !plain.Converged {
		t.Fatal(plain, err)
	}
	want := f.posteriors()
	f.g.Reset()
	damped, err := schedules.Run(context.Background(), f.g, schedules.Flooding(f.g, schedules.Tolerance(1e-12), schedules.MaxIterations(1000), schedules.Damping(0.5)))
	if err != nil || !damped.Converged {
		t.Fatal(damped, err)
	}
	if damped.Iterations <= plain.Iterations {
		t.Errorf("damped flooding took %d iterations, plain %d: damping had no effect", damped.Iterations, plain.Iterations)
	}
	for i, g := range f.posteriors() {
		if messages.Distance(g, want[i]) > 1e-9 {
			t.Errorf("s%d damped %v, plain %v", i+1, g, want[i])
		}
	}
}

func TestTreeRejectsCycles(t *testing.T) {
	b := graph.NewBuilder("cycle")
	x, y := b.AddVariable("x"), b.AddVariable("y")
	b.AddFactor(factors.NewLikelihood(1), "", x, y)
	b.AddFactor(factors.NewLikelihood(2), "", y, x)
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := schedules.Tree(g); !errors.Is(err, schedules.ErrNotTree) {
		t.Errorf("Tree on a cycle: %v, want ErrNotTree", err)
	}
}

// TestTreeScheduleOrder checks the two passes on the Figure 1 game's
// structure: every edge is updated exactly once and the approximate factor at
// the root sends last on the way up.
func TestTreeScheduleOrder(t *testing.T) {
	f := buildFigure1(t)
	s, err := schedules.Tree(f.g)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[[2]int]int{}
	var order []graph.FactorID
	schedules.Walk(s, func(st *schedules.StepSchedule, loop *schedules.LoopSchedule) {
		if loop != nil {
			t.Errorf("Tree schedule contains a loop")
		}
		seen[[2]int{int(st.Factor), st.Edge}]++
		order = append(order, st.Factor)
	})
	if len(seen) != f.g.NumEdges() || len(order) != f.g.NumEdges() {
		t.Errorf("tree schedule has %d steps over %d distinct edges, graph has %d edges", len(order), len(seen), f.g.NumEdges())
	}
	// The upward pass is the first NumFactors steps. The root is the
	// variable of the first approximate factor (d1), and that factor sends
	// last, against its complete cavity.
	up := order[:f.g.NumFactors()]
	if up[len(up)-1] != f.win {
		t.Errorf("upward pass ends with factor %d, want the win factor %d", up[len(up)-1], f.win)
	}
}

// buildAndRunTree builds b and runs its automatic tree schedule once.
func buildAndRunTree(t *testing.T, b *graph.Builder) (*graph.Graph, schedules.Convergence) {
	t.Helper()
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	s, err := schedules.Tree(g)
	if err != nil {
		t.Fatal(err)
	}
	res, err := schedules.Run(context.Background(), g, s)
	if err != nil {
		t.Fatal(err)
	}
	return g, res
}

// TestTreeIsExactOnAChain compares the tree schedule with the conjugate
// posterior of a chain of Gaussians written out by hand.
func TestTreeIsExactOnAChain(t *testing.T) {
	b := graph.NewBuilder("chain")
	x, y, z := b.AddVariable("x"), b.AddVariable("y"), b.AddVariable("z")
	b.AddFactor(factors.NewLikelihood(1), "", y, x)
	b.AddFactor(factors.NewGaussianObservation(4, 0.5), "", z)
	b.AddFactor(factors.NewPrior(0, 2), "", x)
	b.AddFactor(factors.NewLikelihood(3), "", z, y)
	g, res := buildAndRunTree(t, b)
	if res.Iterations != 0 || !res.Converged {
		t.Errorf("result %+v", res)
	}
	// x ~ N(0, 2); observation 4 = x + noise of variance 1 + 3 + 0.5.
	px := 1/2.0 + 1/4.5
	if got := g.Marginal(x); math.Abs(got.Mean()-(4/4.5)/px) > 1e-14 || math.Abs(got.Variance()-1/px) > 1e-14 {
		t.Errorf("x = %v, want N(%v, %v)", got, (4/4.5)/px, 1/px)
	}
	// z: prior N(0, 6), observed with variance 0.5.
	pz := 1/6.0 + 1/0.5
	if got := g.Marginal(z); math.Abs(got.Mean()-(4/0.5)/pz) > 1e-14 || math.Abs(got.Variance()-1/pz) > 1e-14 {
		t.Errorf("z = %v, want N(%v, %v)", got, (4/0.5)/pz, 1/pz)
	}
}

func TestSequenceResult(t *testing.T) {
	f := buildFigure1(t)
	s := f.schedule(1e-10)
	res, err := schedules.Run(context.Background(), f.g, s)
	if err != nil {
		t.Fatal(err)
	}
	// Delta reports the loop's last pass, not the infinite first messages.
	if !(res.Delta <= 1e-10) || res.Iterations < 2 || !res.Converged {
		t.Errorf("result %+v", res)
	}
}
