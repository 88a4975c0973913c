package trueskill_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/skillgraph/skillgraph/models/trueskill"
)

// TestRaterReusesGraphs rates matches of a few shapes twice each through
// one Rater, with different ratings, and compares with Params.Rate.
func TestRaterReusesGraphs(t *testing.T) {
	p := trueskill.DefaultParams()
	rt := p.NewRater()
	shapes := []trueskill.Match{
		{Teams: teams(1, 1)},
		{Teams: teams(2, 3), Ranks: []int{1, 0}},
		{Teams: teams(1, 2, 1), Ranks: []int{0, 1, 1}},
		{Teams: teams(1, 2, 1), Ranks: []int{1, 1, 0}},
		{Teams: ffa(8)},
		{Teams: teams(2, 2, 2), Weights: [][]float64{{1, 0.5}, {0, 1}, {1, 1}}, Ranks: []int{2, 0, 1}},
	}
	for round := 0; round < 2; round++ {
		for k, m := range shapes {
			// Shift everyone's rating so the second round differs.
			for j := range m.Teams {
				for i := range m.Teams[j] {
					m.Teams[j][i].Mu += float64(round)*1.5 - float64(k)
					m.Teams[j][i].Sigma += float64(round) * 0.25
				}
			}
			want, err := p.Rate(ctx, m)
			if err != nil {
				t.Fatal(err)
			}
			for _, viaGraph := range []bool{false, true} {
				var got trueskill.Result
				if viaGraph {
					got, err = rt.RateGraph(ctx, m)
				} else {
					got, err = rt.Rate(ctx, m)
				}
				if err != nil {
					t.Fatal(err)
				}
				checkSameRatings(t, fmt.Sprintf("round %d shape %d graph=%v", round, k, viaGraph), got.Ratings, want.Ratings)
				if relErr(got.LogEvidence, want.LogEvidence) > 1e-12 {
					t.Errorf("round %d shape %d: evidence %v, want %v", round, k, got.LogEvidence, want.LogEvidence)
				}
			}
		}
	}
}

// TestSteadyStateAllocations: once a shape has been seen, rating allocates
// nothing, through the graph or the closed form, and Rate1v1 never does.
func TestSteadyStateAllocations(t *testing.T) {
	p := trueskill.DefaultParams()
	rt := p.NewRater()
	for name, m := range map[string]trueskill.Match{
		"1v1":     {Teams: teams(1, 1)},
		"FFA 8":   {Teams: ffa(8)},
		"3 teams": {Teams: teams(1, 2, 1), Ranks: []int{0, 1, 1}},
	} {
		if _, err := rt.RateGraph(ctx, m); err != nil {
			t.Fatal(err)
		}
		if n := testing.AllocsPerRun(50, func() { _, _ = rt.RateGraph(ctx, m) }); n != 0 {
			t.Errorf("%s through the graph: %v allocations per match", name, n)
		}
	}
	m := trueskill.Match{Teams: teams(2, 2)}
	if n := testing.AllocsPerRun(50, func() { _, _ = rt.Rate(ctx, m) }); n != 0 {
		t.Errorf("2v2 closed form: %v allocations per match", n)
	}
	a, b := p.NewRating(), p.NewRating()
	if n := testing.AllocsPerRun(50, func() { a, b, _ = p.Rate1v1(a, b, false) }); n != 0 {
		t.Errorf("Rate1v1: %v allocations", n)
	}
}

// TestZeroRaterUsesDefaults: a zero Rater rates as DefaultParams' does.
func TestZeroRaterUsesDefaults(t *testing.T) {
	var r trueskill.Rater
	p := trueskill.DefaultParams()
	if r.Params() != p {
		t.Errorf("zero Rater's Params = %+v, want the defaults", r.Params())
	}
	for _, m := range []trueskill.Match{{Teams: teams(1, 1)}, {Teams: ffa(5)}} {
		got, err := r.Rate(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		g, err := p.NewGame(m)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.Run(ctx); err != nil {
			t.Fatal(err)
		}
		checkSameRatings(t, fmt.Sprintf("zero Rater, %d teams", len(m.Teams)), got.Ratings, g.Ratings())
	}
}

// blockingContext holds a run at its first check of the context (the
// start of the run) until released. Its Done channel, never closed, makes
// it a context that could end, which a run checks.
type blockingContext struct {
	context.Context
	once                   sync.Once
	entered, release, done chan struct{}
}

func (c *blockingContext) Done() <-chan struct{} { return c.done }

func (c *blockingContext) Err() error {
	c.once.Do(func() {
		close(c.entered)
		<-c.release
	})
	return nil
}

// TestRaterDetectsConcurrentUse: a call on a Rater that another goroutine
// is using returns ErrConcurrentUse and leaves the running call's result
// intact.
func TestRaterDetectsConcurrentUse(t *testing.T) {
	p := trueskill.DefaultParams()
	r := p.NewRater()
	m := trueskill.Match{Teams: ffa(6)}
	want, err := p.Rate(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	bc := &blockingContext{Context: context.Background(), entered: make(chan struct{}), release: make(chan struct{}), done: make(chan struct{})}
	done := make(chan trueskill.Result)
	go func() {
		res, err := r.RateGraph(bc, m)
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	<-bc.entered // the first call is inside its loop
	for _, call := range []func() (trueskill.Result, error){
		func() (trueskill.Result, error) { return r.Rate(ctx, m) },
		func() (trueskill.Result, error) { return r.RateGraph(ctx, trueskill.Match{Teams: teams(1, 1)}) },
	} {
		if _, err := call(); !errors.Is(err, trueskill.ErrConcurrentUse) {
			t.Errorf("second call while the first runs: %v, want ErrConcurrentUse", err)
		}
	}
	close(bc.release)
	got := <-done
	checkSameRatings(t, "the call that held the Rater", got.Ratings, want.Ratings)
	if _, err := r.Rate(ctx, m); err != nil {
		t.Errorf("after the first call returned: %v", err)
	}
}

// TestRateIsSafeForConcurrentUse rates random matches of several shapes
// from many goroutines through Params.Rate (its pooled graphs) and checks
// every result against a fresh game rated alone. Run with -race.
func TestRateIsSafeForConcurrentUse(t *testing.T) {
	p := trueskill.DefaultParams()
	type job struct {
		m    trueskill.Match
		want [][]trueskill.Rating
	}
	rng := rand.New(rand.NewPCG(21, 22))
	var jobs []job
	for k := 0; k < 120; k++ {
		sizes := [][]int{{1, 1, 1}, {1, 1, 1, 1, 1, 1, 1, 1}, {2, 1, 2}, {1, 1, 1, 1}}[k%4]
		m := withRatings(trueskill.Match{Teams: teams(sizes...)}, func() trueskill.Rating {
			return trueskill.Rating{Mu: 50 * rng.Float64(), Sigma: 1 + 7*rng.Float64()}
		})
		m.Ranks = rng.Perm(len(sizes))
		g, err := p.NewGame(m)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.Run(ctx); err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, job{m: m, want: copyTeams(g.Ratings())})
	}
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range jobs {
				j := jobs[(k*7+w*13)%len(jobs)]
				res, err := p.Rate(ctx, j.m)
				if err != nil {
					t.Error(err)
					return
				}
				checkSameRatings(t, "concurrent Rate", res.Ratings, j.want)
			}
		}()
	}
	wg.Wait()
}

func copyTeams(teams [][]trueskill.Rating) [][]trueskill.Rating {
	out := make([][]trueskill.Rating, len(teams))
	for j, t := range teams {
		out[j] = append([]trueskill.Rating(nil), t...)
	}
	return out
}

// TestRateAllocatesOnlyItsResult: Params.Rate of a repeated shape allocates
// the returned ratings alone (one slice of ratings, one of teams).
func TestRateAllocatesOnlyItsResult(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop items")
	}
	p := trueskill.DefaultParams()
	for _, m := range []trueskill.Match{{Teams: ffa(8)}, {Teams: teams(2, 2)}, {Teams: teams(1, 2, 1), Ranks: []int{0, 1, 1}}} {
		if _, err := p.Rate(ctx, m); err != nil {
			t.Fatal(err)
		}
		if n := testing.AllocsPerRun(50, func() { _, _ = p.Rate(ctx, m) }); n > 2 {
			t.Errorf("%d teams: %v allocations per match, want 2", len(m.Teams), n)
		}
	}
}
