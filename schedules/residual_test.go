package schedules_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/schedules"
)

// counter counts the updates a run makes.
type counter struct{ updates int }

func (c *counter) Updated(graph.FactorID, int, float64) { c.updates++ }
func (c *counter) Iterated(string, int, float64)        {}

// ffaChain builds an n-player free-for-all as a chain of win factors on
// performance differences (the players ranked in order, the favourites
// last, so the chain has work to do) and returns the graph, the loop over
// the chain with the given options, and the performance variables.
func ffaChain(t *testing.T, n int, opts ...schedules.LoopOption) (*graph.Graph, schedules.Schedule, []graph.VarID) {
	t.Helper()
	b := graph.NewBuilder("ffa")
	perf := make([]graph.VarID, n)
	var prior []schedules.Schedule
	for i := range perf {
		perf[i] = b.AddVariable(fmt.Sprintf("p%d", i))
		prior = append(prior, schedules.Step(b.AddFactor(factors.NewPrior(20+float64(i)*1.5, 30+float64(i%3)*10), "", perf[i]), 0))
	}
	var body []schedules.Schedule
	diff := make([]graph.FactorID, n-1)
	win := make([]graph.FactorID, n-1)
	for k := range diff {
		d := b.AddVariable(fmt.Sprintf("d%d", k))
		diff[k] = b.AddFactor(factors.NewDifference(), "", d, perf[k], perf[k+1])
		win[k] = b.AddFactor(factors.NewGreaterThan(0.5), "", d)
	}
	for k := 0; k < n-2; k++ {
		body = append(body, schedules.Step(diff[k], 0), schedules.Step(win[k], 0), schedules.Step(diff[k], 2))
	}
	for k := n - 2; k > 0; k-- {
		body = append(body, schedules.Step(diff[k], 0), schedules.Step(win[k], 0), schedules.Step(diff[k], 1))
	}
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	s := schedules.Sequence(schedules.Sequence(prior...),
		schedules.Loop(schedules.Sequence(body...), append([]schedules.LoopOption{schedules.MaxIterations(500)}, opts...)...),
		schedules.Step(diff[0], 1), schedules.Step(diff[n-2], 2))
	return g, s, perf
}

// TestResidualLoopReachesTheFixedPoint runs a 12-player chain to 1e-13 as
// the reference, then with the default tolerance with and without residual
// scheduling: both must be within 1e-6 of the reference (in σ units), and
// the residual loop must make fewer updates.
func TestResidualLoopReachesTheFixedPoint(t *testing.T) {
	const n = 12
	run := func(opts ...schedules.LoopOption) ([]messages.Gaussian, int) {
		g, s, perf := ffaChain(t, n, opts...)
		c := &counter{}
		res, err := schedules.Run(context.Background(), g, s, schedules.WithObserver(c))
		if err != nil || !res.Converged {
			t.Fatalf("%+v, %v", res, err)
		}
		var out []messages.Gaussian
		for _, v := range perf {
			out = append(out, g.Marginal(v))
		}
		return out, c.updates
	}
	ref, _ := run(schedules.Tolerance(1e-13))
	plain, plainUpdates := run()
	resid, residUpdates := run(schedules.Residual(1e-7))
	for i := range ref {
		for name, got := range map[string]messages.Gaussian{"plain": plain[i], "residual": resid[i]} {
			sd := ref[i].Sigma()
			if e := math.Max(math.Abs(got.Mean()-ref[i].Mean()), math.Abs(got.Sigma()-sd)) / sd; e > 1e-6 {
				t.Errorf("%s loop, player %d: %v, converged %v (error %.2g σ)", name, i, got, ref[i], e)
			}
		}
	}
	t.Logf("updates: plain %d, residual %d", plainUpdates, residUpdates)
	if residUpdates >= plainUpdates {
		t.Errorf("residual loop made %d updates, the plain loop %d", residUpdates, plainUpdates)
	}
}

func TestResidualLoopConfig(t *testing.T) {
	g, _ := flipFlopGraph(t)
	for _, l := range []*schedules.LoopSchedule{
		schedules.Loop(schedules.Step(0, 0), schedules.Residual(-1)),
		schedules.Loop(schedules.Step(0, 0), schedules.Residual(math.NaN())),
		schedules.Loop(schedules.Loop(schedules.Step(0, 0)), schedules.Residual(1e-7)),
		schedules.Loop(schedules.Step(3, 0), schedules.Residual(1e-7)),
		// At or above the tolerance, a pass that skipped every update
		// still moving would count as converged.
		schedules.Loop(schedules.Step(0, 0), schedules.Residual(schedules.DefaultTolerance)),
		schedules.Loop(schedules.Step(0, 0), schedules.Tolerance(1e-6), schedules.Residual(1e-3)),
		schedules.Loop(schedules.Step(0, 0), schedules.Tolerance(0), schedules.Residual(1e-300)),
	} {
		if _, err := schedules.Run(context.Background(), g, l); err == nil {
			t.Errorf("loop %+v ran", l)
		} else if !errors.Is(err, messages.ErrInput) {
			t.Errorf("loop %+v: error %v", l, err)
		}
	}
}

// TestResidualScheduleSharedAcrossGoroutines runs one residual schedule on
// four graphs of the same structure at once (a schedule is data; each run
// keeps its state in its own Runner): run under -race, and every graph must
// end where a run on its own ends.
func TestResidualScheduleSharedAcrossGoroutines(t *testing.T) {
	g0, s, perf := ffaChain(t, 9, schedules.Residual(1e-7))
	if _, err := schedules.Run(context.Background(), g0, s); err != nil {
		t.Fatal(err)
	}
	want := g0.Marginal(perf[0])
	graphs := make([]*graph.Graph, 4)
	for i := range graphs {
		graphs[i], _, _ = ffaChain(t, 9)
	}
	errs := make(chan error, len(graphs))
	for _, g := range graphs {
		go func() {
			_, err := schedules.Run(context.Background(), g, s)
			errs <- err
		}()
	}
	for range graphs {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	for i, g := range graphs {
		if got := g.Marginal(perf[0]); got != want {
			t.Errorf("graph %d: %v, want %v", i, got, want)
		}
	}
}
