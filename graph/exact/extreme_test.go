package exact_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/exact"
	"github.com/skillgraph/skillgraph/messages"
)

// extremes are the inputs every exported function must survive.
var extremes = []float64{0, math.Copysign(0, -1), 5e-324, -5e-324, 1e-300, 1, -1, 1e308, -1e308, math.MaxFloat64, math.NaN(), math.Inf(1), math.Inf(-1)}

// fixedMessage is a user factor on one variable that sends a given
// message whatever its cavity, with a given evidence.
type fixedMessage struct {
	msg      messages.Gaussian
	evidence float64
}

func (fixedMessage) Arity() int { return 1 }
func (f fixedMessage) Message(int, graph.Edges) (messages.Gaussian, error) {
	return f.msg, nil
}
func (f fixedMessage) LogAverageFactor(graph.Edges) (float64, error) { return f.evidence, nil }

// checked runs one call with a hang detector and checks its answer: a
// typed error, or marginals that are proper and finite with a finite
// log evidence.
func checked(t *testing.T, what string, call func() (*exact.Solution, error)) {
	t.Helper()
	type answer struct {
		sol *exact.Solution
		err error
	}
	done := make(chan answer, 1)
	go func() {
		sol, err := call()
		done <- answer{sol, err}
	}()
	var a answer
	select {
	case a = <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf("%s: no answer", what)
	}
	if a.err != nil {
		var ue *graph.UpdateError
		for _, typed := range []error{messages.ErrInput, messages.ErrNumerical, graph.ErrPanicked, graph.ErrNotFinite, graph.ErrNilGraph, graph.ErrDamping} {
			if errors.Is(a.err, typed) {
				return
			}
		}
		if !errors.As(a.err, &ue) {
			t.Errorf("%s: untyped error %v", what, a.err)
		}
		return
	}
	for v, m := range a.sol.Marginals {
		if !m.IsPointMass() && !(m.Pi > 0 && messages.IsFinite(m.Pi) && messages.IsFinite(m.Tau) && messages.IsFinite(m.Mean()) && messages.IsFinite(m.Variance())) {
			t.Errorf("%s: variable %d marginal %v", what, v, m)
		}
	}
	if !messages.IsFinite(a.sol.LogEvidence) {
		t.Errorf("%s: log evidence %v", what, a.sol.LogEvidence)
	}
}

// Every extreme coefficient, mean and variance of a user's linear form,
// every extreme message and evidence of a user's factor, every extreme
// observed value beside the library's factors, and every extreme option:
// Solve and EP answer with finite numbers or a typed error.
func TestExtremeInputs(t *testing.T) {
	ctx := context.Background()
	for _, a := range extremes {
		for _, m := range extremes {
			for _, v := range extremes {
				b := graph.NewBuilder("linear")
				x, y := b.AddVariable("x"), b.AddVariable("y")
				b.AddFactor(factors.NewPrior(0, 1), "", x)
				b.AddFactor(factors.NewPrior(0, 1), "", y)
				b.AddFactor(userForm{a: []float64{a, 1}, mean: m, variance: v}, "", x, y)
				g := build(t, b)
				what := fmt.Sprintf("linear form (%v, 1), mean %v, variance %v", a, m, v)
				checked(t, "Solve: "+what, func() (*exact.Solution, error) { return exact.Solve(g) })
				checked(t, "EP: "+what, func() (*exact.Solution, error) { return exact.EP(ctx, g) })
			}
		}
	}
	for _, pi := range extremes {
		for _, tau := range extremes {
			for _, ev := range []float64{0, math.NaN(), math.Inf(1), math.Inf(-1)} {
				b := graph.NewBuilder("user")
				x := b.AddVariable("x")
				b.AddFactor(factors.NewPrior(0, 1), "", x)
				b.AddFactor(fixedMessage{messages.Gaussian{Pi: pi, Tau: tau}, ev}, "", x)
				g := build(t, b)
				checked(t, fmt.Sprintf("EP: message (π %v, τ %v), evidence %v", pi, tau, ev), func() (*exact.Solution, error) { return exact.EP(ctx, g) })
			}
		}
	}
	for _, value := range extremes {
		if !messages.IsFinite(value) {
			continue // Build refuses it
		}
		for _, f := range []graph.Factor{factors.NewGreaterThan(0.5), factors.NewWithin(0.5), factors.NewPoisson(3), factors.NewGaussianObservation(1, 1)} {
			b := graph.NewBuilder("observed")
			x, o := b.AddVariable("x"), b.AddObserved("o", value)
			d := b.AddVariable("d")
			b.AddFactor(factors.NewPrior(0, 1), "", x)
			b.AddFactor(factors.NewDifference(), "", d, x, o)
			b.AddFactor(f, "", d)
			g := build(t, b)
			what := fmt.Sprintf("observed %v, %T", value, f)
			checked(t, "EP: "+what, func() (*exact.Solution, error) { return exact.EP(ctx, g) })
		}
	}
	b := graph.NewBuilder("options")
	x := b.AddVariable("x")
	b.AddFactor(factors.NewPrior(0, 1), "", x)
	b.AddFactor(factors.NewGreaterThan(0), "", x)
	g := build(t, b)
	for _, e := range extremes {
		for _, o := range []exact.EPOption{exact.Damping(e), exact.Tolerance(e), nil} {
			checked(t, fmt.Sprintf("EP: option %v", e), func() (*exact.Solution, error) { return exact.EP(ctx, g, o) })
		}
	}
	for _, n := range []int{math.MinInt, -1, 0, 1, math.MaxInt} {
		checked(t, fmt.Sprintf("EP: %d sweeps", n), func() (*exact.Solution, error) { return exact.EP(ctx, g, exact.MaxSweeps(n)) })
	}
	//lint:ignore SA1012 a nil context is an input to survive
	checked(t, "EP: nil context", func() (*exact.Solution, error) { return exact.EP(nil, g) })
	checked(t, "EP: nil graph", func() (*exact.Solution, error) { return exact.EP(ctx, nil) })
	checked(t, "Solve: nil graph", func() (*exact.Solution, error) { return exact.Solve(nil) })
}
