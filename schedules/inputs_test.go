package schedules_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/schedules"
)

// TestExpiredContext runs schedules with and without loops, through Run,
// a fresh Runner and a Runner that has already compiled the schedule,
// under a context whose deadline has passed (and one cancelled): every run
// fails with the context's error before making an update.
func TestExpiredContext(t *testing.T) {
	c := chainSpec(3)
	g := c.spec.build(t)
	tree, err := schedules.Tree(g)
	if err != nil {
		t.Fatal(err)
	}
	bg := context.Background()
	expired, cancel := context.WithDeadline(bg, time.Unix(0, 0))
	defer cancel()
	cancelled, cancel := context.WithCancel(bg)
	cancel()
	for _, tc := range []struct {
		name string
		s    schedules.Schedule
	}{
		{"step", c.prior[0]},
		{"sequence", schedules.Sequence(c.prior...)},
		{"tree", tree},
		{"custom", &customSchedule{pre: []*schedules.StepSchedule{schedules.Step(0, 0)}, inner: schedules.Sequence()}},
		{"loop", c.schedule()},
	} {
		warm := schedules.NewRunner(g)
		g.Reset()
		if _, err := warm.Run(bg, tc.s); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for _, ctx := range []context.Context{expired, cancelled} {
			for _, run := range []struct {
				name string
				run  func() (schedules.Convergence, error)
			}{
				{"Run", func() (schedules.Convergence, error) { return schedules.Run(ctx, g, tc.s) }},
				{"new Runner", func() (schedules.Convergence, error) { return schedules.NewRunner(g).Run(ctx, tc.s) }},
				{"compiled Runner", func() (schedules.Convergence, error) { return warm.Run(ctx, tc.s) }},
			} {
				g.Reset()
				res, err := run.run()
				if !errors.Is(err, ctx.Err()) || res != (schedules.Convergence{}) {
					t.Errorf("%s, %s, %v: %+v, %v; want no result and %v", tc.name, run.name, ctx.Err(), res, err, ctx.Err())
				}
				for v := range g.NumVariables() {
					if m := g.Marginal(graph.VarID(v)); !m.IsUniform() {
						t.Errorf("%s, %s, %v: variable %d updated to %v", tc.name, run.name, ctx.Err(), v, m)
					}
				}
			}
		}
	}
}

// lateTimer is a context whose deadline the test moves and whose timer
// never fires (Err stays nil): a deadline that has just passed, before
// the context's timer has run.
type lateTimer struct {
	context.Context
	deadline time.Time
}

func (c *lateTimer) Deadline() (time.Time, bool) { return c.deadline, true }

// expireOnUpdate calls expire at the nth update.
type expireOnUpdate struct {
	expire  func()
	n, seen int
}

func (o *expireOnUpdate) Updated(graph.FactorID, int, float64) {
	if o.seen++; o.seen == o.n {
		o.expire()
	}
}

func (*expireOnUpdate) Iterated(string, int, float64) {}

// TestDeadlinePassesDuringRun lets the deadline pass (or the context be
// cancelled) while a schedule runs: a schedule without loops makes all its
// updates and then reports the context's error, with its result; one with
// a loop stops at the next pass. The deadline is seen from the clock,
// although the context's own timer has not fired.
func TestDeadlinePassesDuringRun(t *testing.T) {
	bg := context.Background()
	if err := (&lateTimer{Context: bg, deadline: time.Now()}).Err(); err != nil {
		t.Fatalf("lateTimer.Err() = %v; the test needs a timer that has not fired", err)
	}
	c := chainSpec(3)
	steps := schedules.Sequence(c.prior...)

	late := &lateTimer{Context: bg, deadline: time.Now().Add(time.Hour)}
	obs := &expireOnUpdate{n: 1, expire: func() { late.deadline = time.Now().Add(-time.Nanosecond) }}
	res, err := schedules.Run(late, c.spec.build(t), steps, schedules.WithObserver(obs))
	if !errors.Is(err, context.DeadlineExceeded) || res != (schedules.Convergence{Converged: true}) || obs.seen != len(c.prior) {
		t.Errorf("steps past the deadline: %+v after %d updates, %v; want all %d updates and DeadlineExceeded", res, obs.seen, err, len(c.prior))
	}

	ctx, cancel := context.WithCancel(bg)
	defer cancel()
	obs = &expireOnUpdate{n: 1, expire: cancel}
	res, err = schedules.Run(ctx, c.spec.build(t), steps, schedules.WithObserver(obs))
	if !errors.Is(err, context.Canceled) || res != (schedules.Convergence{Converged: true}) || obs.seen != len(c.prior) {
		t.Errorf("steps cancelled: %+v after %d updates, %v; want all %d updates and Canceled", res, obs.seen, err, len(c.prior))
	}

	late = &lateTimer{Context: bg, deadline: time.Now().Add(time.Hour)}
	pass := len(c.prior) + len(c.down) + len(c.body)
	obs = &expireOnUpdate{n: pass, expire: func() { late.deadline = time.Now().Add(-time.Nanosecond) }} // in the loop's first pass
	res, err = schedules.Run(late, c.spec.build(t), c.schedule(schedules.Tolerance(0)), schedules.WithObserver(obs))
	if !errors.Is(err, context.DeadlineExceeded) || res.Iterations != 1 || res.Converged || obs.seen != pass {
		t.Errorf("loop past the deadline: %+v after %d updates, %v; want 1 iteration, %d updates and DeadlineExceeded", res, obs.seen, err, pass)
	}
}

// TestNilArguments gives every function of the package that takes a graph
// or a schedule a nil one, or a schedule holding nil parts: errors
// wrapping messages.ErrInput (saying "nil graph" for a graph), or an empty
// result, never a panic.
func TestNilArguments(t *testing.T) {
	c := chainSpec(3)
	g := c.spec.build(t)
	ctx := context.Background()
	nilGraph := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, messages.ErrInput) || !strings.Contains(err.Error(), "nil graph") {
			t.Errorf("%s: %v, want messages.ErrInput saying \"nil graph\"", what, err)
		}
	}
	_, err := schedules.Run(ctx, nil, c.prior[0])
	nilGraph("Run", err)
	custom := &customSchedule{pre: []*schedules.StepSchedule{schedules.Step(0, 0)}, inner: schedules.Sequence()}
	_, err = schedules.NewRunner(nil).Run(ctx, custom)
	nilGraph("NewRunner(nil).Run", err)
	_, err = schedules.NewRunner(nil).Update(0, 0)
	nilGraph("NewRunner(nil).Update", err)
	_, err = schedules.Compile(nil, c.prior[0])
	nilGraph("Compile", err)
	_, err = schedules.Tree(nil)
	nilGraph("Tree", err)
	_, err = schedules.TreeOf(nil, []graph.FactorID{0})
	nilGraph("TreeOf", err)
	_, err = schedules.Derive(nil)
	nilGraph("Derive", err)
	nilGraph("Check", schedules.Check(nil, c.prior[0]))

	if _, err := schedules.Step(0, 0).Run(nil); !errors.Is(err, messages.ErrInput) {
		t.Errorf("Step.Run(nil): %v, want messages.ErrInput", err)
	}
	if err := (*schedules.LoopSchedule)(nil).Validate(); !errors.Is(err, messages.ErrInput) {
		t.Errorf("nil loop's Validate: %v, want messages.ErrInput", err)
	}
	if err := schedules.Loop(nil).Validate(); !errors.Is(err, messages.ErrInput) {
		t.Errorf("Loop(nil).Validate: %v, want messages.ErrInput", err)
	}
	if n := (*schedules.Plan)(nil).Len(); n != 0 {
		t.Errorf("nil plan's Len = %d", n)
	}
	if err := schedules.Check(g, schedules.Sequence(schedules.Flooding(g).Body, nil)); !errors.Is(err, messages.ErrInput) {
		t.Errorf("Check of a sequence holding nil: %v, want messages.ErrInput", err)
	}
	if l := schedules.Flooding(nil); l == nil || l.Body == nil || countSteps(l) != 0 {
		t.Errorf("Flooding(nil) = %+v, want a loop with an empty body", l)
	}
	for _, ge := range []struct {
		g *graph.Graph
		f graph.FactorID
	}{{nil, 0}, {g, -1}, {g, graph.FactorID(g.NumFactors())}} {
		if s := schedules.AllEdges(ge.g, ge.f); s == nil || len(s.Parts) != 0 {
			t.Errorf("AllEdges of factor %d (nil graph: %v) = %+v, want an empty sequence", ge.f, ge.g == nil, s)
		}
	}

	// Walk visits the one step among nil parts, and nothing for a nil fn.
	holey := schedules.Sequence(nil, (*schedules.StepSchedule)(nil), schedules.Loop(nil),
		(*schedules.LoopSchedule)(nil), (*schedules.SequenceSchedule)(nil), schedules.Loop(schedules.Sequence(c.prior[1], nil)))
	if n := countSteps(holey); n != 1 {
		t.Errorf("Walk visited %d steps, want 1", n)
	}
	schedules.Walk(holey, nil)
}

func countSteps(s schedules.Schedule) int {
	n := 0
	schedules.Walk(s, func(st *schedules.StepSchedule, _ *schedules.LoopSchedule) {
		if st == nil {
			panic("Walk passed a nil step")
		}
		n++
	})
	return n
}

// TestLoopDamping: a loop's damping outside [0, 1) is an invalid loop, by
// the graph's rule (messages.ErrInput, naming the damping), from Validate
// and from a run, which makes no update; several bad parameters are each
// named, and a valid damping is not.
func TestLoopDamping(t *testing.T) {
	c := chainSpec(3)
	ctx := context.Background()
	for _, d := range []float64{2, -1, 1, math.NaN(), math.Inf(-1)} {
		l := schedules.Loop(schedules.Sequence(c.body...), schedules.Damping(d))
		if err := l.Validate(); !errors.Is(err, messages.ErrInput) || !strings.Contains(err.Error(), "invalid loop") || !strings.Contains(err.Error(), "damping") || strings.Count(err.Error(), messages.ErrInput.Error()) != 1 {
			t.Errorf("damping %v: Validate: %v, want an invalid loop's damping, messages.ErrInput (said once)", d, err)
		}
		g := c.spec.build(t)
		res, err := schedules.Run(ctx, g, l)
		if !errors.Is(err, messages.ErrInput) || !strings.Contains(err.Error(), "damping") || res.Iterations != 0 {
			t.Errorf("damping %v: Run: %+v, %v; want an invalid loop's damping, messages.ErrInput", d, res, err)
		}
		for v := range g.NumVariables() {
			if m := g.Marginal(graph.VarID(v)); !m.IsUniform() {
				t.Errorf("damping %v: variable %d updated to %v", d, v, m)
			}
		}
	}
	err := schedules.Loop(c.prior[0], schedules.MaxIterations(0), schedules.Tolerance(math.NaN()), schedules.Residual(-1)).Validate()
	if !errors.Is(err, messages.ErrInput) || !strings.Contains(err.Error(), "invalid loop") || strings.Contains(err.Error(), "damping") {
		t.Fatalf("Validate: %v, want an invalid loop, messages.ErrInput, its damping not named", err)
	}
	for _, want := range []string{"max iterations 0", "tolerance NaN", "residual -1"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Validate: %q does not name %q", err, want)
		}
	}
}

// neverEnds is a context that can never end (no Done channel, no
// deadline) whose Err must not be called.
type neverEnds struct{ context.Context }

func (neverEnds) Err() error { panic("Err of a context that can never end") }

// TestEndlessContextIsNotChecked: a run under a context that can never
// end makes every update, loops included, without reading its Err.
func TestEndlessContextIsNotChecked(t *testing.T) {
	c := chainSpec(3)
	g := c.spec.build(t)
	loop := schedules.Loop(schedules.Sequence(c.prior...), schedules.MaxIterations(3))
	res, err := schedules.Run(neverEnds{context.Background()}, g, loop)
	if err != nil || res.Iterations == 0 {
		t.Fatalf("run under a context that never ends: %+v, %v", res, err)
	}
}
