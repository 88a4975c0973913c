package throughtime_test

import (
	"context"
	"flag"
	"math"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/internal/sharedtest"
	"github.com/skillgraph/skillgraph/internal/synthetic"
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/models/evaluation"
	"github.com/skillgraph/skillgraph/models/throughtime"
	"github.com/skillgraph/skillgraph/record"
)

// The benchmarks of this file run the tennis-shaped history
// (internal/synthetic.Tennis: with -big its 200,000 games between 7,500
// players over 3,400 weekly batches, else a tenth of each) and are
// reported against a baseline run alternately with them
// (sharedtest.Interleave): its forward pass written by hand over flat
// arrays (handHistory.filter), which is online TrueSkill with drift, the
// least any smoothing sweep must do.

var big = flag.Bool("big", false, "benchmark the full 200,000-game tennis-shaped history (default: a tenth of it)")

// tennis is the history and its games as indices, made once per binary.
var tennis = sync.OnceValues(func() ([]throughtime.Match, handHistory) {
	s := synthetic.Tennis()
	if !*big {
		s.Games, s.Players, s.Batches = s.Games/10, s.Players/10, s.Batches/10
	}
	games := synthetic.History(s)
	return games, newHandHistory(games)
})

// handHistory is a history of 1v1 games over flat arrays: players by
// index, winner first.
type handHistory struct {
	players        int
	index          map[string]int32
	time           []float64
	winner, loser  []int32
	mu, v, last    []float64 // the state filterByHand updates
	sigma0, beta   float64
	gamma2, prior0 float64
}

func newHandHistory(games []throughtime.Match) handHistory {
	p := throughtime.DefaultParams()
	index := map[string]int32{}
	id := func(name string) int32 {
		i, ok := index[name]
		if !ok {
			i = int32(len(index))
			index[name] = i
		}
		return i
	}
	h := handHistory{sigma0: p.Sigma, beta: p.Beta, gamma2: p.Gamma * p.Gamma, prior0: p.Mu}
	for _, g := range games {
		h.time = append(h.time, g.Time)
		h.winner = append(h.winner, id(g.Teams[0][0]))
		h.loser = append(h.loser, id(g.Teams[1][0]))
	}
	h.players, h.index = len(index), index
	h.mu, h.v, h.last = make([]float64, h.players), make([]float64, h.players), make([]float64, h.players)
	return h
}

// filter runs the forward pass: a player's variance grows by γ²·Δt once
// per batch they play in, and each game is the closed-form 1v1 update of
// the paper's Table 1 (V and W of the win factor at t = Δμ/c, no margin).
func (h *handHistory) filter() {
	for i := range h.players {
		h.mu[i], h.v[i], h.last[i] = h.prior0, h.sigma0*h.sigma0, math.NaN()
	}
	for k, t := range h.time {
		h.rate(t, h.winner[k], h.loser[k])
	}
}

// rate is one game of the forward pass at time t, a beating c.
func (h *handHistory) rate(t float64, a, c int32) {
	b2 := 2 * h.beta * h.beta
	{
		for _, i := range [2]int32{a, c} {
			if h.last[i] < t { // not already in this batch (NaN: first game)
				h.v[i] += h.gamma2 * (t - h.last[i])
			}
			if h.last[i] != h.last[i] {
				h.v[i] = h.sigma0 * h.sigma0
			}
			h.last[i] = t
		}
		c2 := h.v[a] + h.v[c] + b2
		cs := math.Sqrt(c2)
		tr := messages.GreaterThan((h.mu[a]-h.mu[c])/cs, 0)
		h.mu[a] += h.v[a] / cs * tr.V
		h.mu[c] -= h.v[c] / cs * tr.V
		h.v[a] *= 1 - h.v[a]/c2*tr.W
		h.v[c] *= 1 - h.v[c]/c2*tr.W
	}
}

// add rates games by the players' names, as an online rating system
// adding them would: the least an Add must do.
func (h *handHistory) add(games []throughtime.Match) {
	for _, g := range games {
		h.rate(g.Time, h.index[g.Teams[0][0]], h.index[g.Teams[1][0]])
	}
}

// filterByHand returns the baseline's loop for sharedtest.Interleave: n
// forward passes by hand over the tennis-shaped history.
func filterByHand() func(n int) {
	_, h := tennis()
	return func(n int) {
		for range n {
			h.filter()
		}
	}
}

// TestFilterByHandIsNew checks that the baseline computes what the engine
// computes: on a 20,000-game slice of the same shape, every player's last
// filtered skill from New equals the hand-written pass's to 1e-9.
func TestFilterByHandIsNew(t *testing.T) {
	s := synthetic.Tennis()
	s.Games, s.Players, s.Batches = 20000, 750, 340
	games := synthetic.History(s)
	hh := newHandHistory(games)
	hh.filter()
	h, err := throughtime.New(throughtime.DefaultParams(), games)
	if err != nil {
		t.Fatal(err)
	}
	index := map[string]int32{}
	for _, g := range games {
		for _, team := range g.Teams {
			if _, ok := index[team[0]]; !ok {
				index[team[0]] = int32(len(index))
			}
		}
	}
	for name, i := range index {
		curve := h.LearningCurve(name)
		last := curve[len(curve)-1]
		if math.Abs(last.Mu-hh.mu[i]) > 1e-9 || math.Abs(last.Sigma-math.Sqrt(hh.v[i])) > 1e-9 {
			t.Fatalf("%s: engine %+v, by hand μ %v σ %v", name, last, hh.mu[i], math.Sqrt(hh.v[i]))
		}
	}
}

// BenchmarkTennisSweep is one smoothing sweep of the whole history (after
// a first one, which warms the caches; ns/op is one sweep), reported
// against the hand-written forward pass (x-baseline); progress reports
// after each sweep, with or without the evidence, cost what they add.
func BenchmarkTennisSweep(b *testing.B) {
	games, _ := tennis()
	for _, c := range []struct {
		name string
		opts []throughtime.Option
	}{
		{"plain", nil},
		{"progress", []throughtime.Option{throughtime.WithProgress(func(throughtime.Progress) {}, false)}},
		{"progress-evidence", []throughtime.Option{throughtime.WithProgress(func(throughtime.Progress) {}, true)}},
	} {
		b.Run(c.name, func(b *testing.B) {
			h, err := throughtime.New(throughtime.DefaultParams(), games, c.opts...)
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			if _, err := h.Converge(ctx, 1e-300, 1); err != nil {
				b.Fatal(err)
			}
			sharedtest.Interleave(b, func(n int) {
				for range n {
					if _, err := h.Converge(ctx, 1e-300, 1); err != nil {
						b.Fatal(err)
					}
				}
			}, filterByHand())
		})
	}
}

// BenchmarkAdd adds a batch of ten 1v1 games between players drawn at
// random (fixed seed, different players each time) to the smoothed
// history (ns/op is one Add), reported against the same games rated by
// hand (handHistory.add) alternately with it (x-baseline).
func BenchmarkAdd(b *testing.B) {
	games, hand := tennis()
	h, err := throughtime.New(throughtime.DefaultParams(), games)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := h.Converge(context.Background(), 1e-3, 100); err != nil {
		b.Fatal(err)
	}
	hand.filter()
	// A fixed-seed pool of batches, each of ten games between twenty
	// distinct players, drawn before the timer starts; each side takes
	// them in turn, at times of its own after the history's end.
	names := h.Players()
	rng := rand.New(rand.NewPCG(5, 8))
	batches := make([][]throughtime.Match, 256)
	for i := range batches {
		picked := map[string]bool{}
		batches[i] = make([]throughtime.Match, 10)
		for k := range batches[i] {
			var pair [2]string
			for j := range pair {
				for pair[j] == "" || picked[pair[j]] {
					pair[j] = names[rng.IntN(len(names))]
				}
				picked[pair[j]] = true
			}
			batches[i][k] = throughtime.Match{Teams: [][]string{{pair[0]}, {pair[1]}}}
		}
	}
	// adder returns a loop of n adds with add, each of the next batch
	// one time step after the last.
	adder := func(add func([]throughtime.Match)) func(n int) {
		t, next := games[len(games)-1].Time, 0
		batch := make([]throughtime.Match, 10)
		return func(n int) {
			for range n {
				t++
				copy(batch, batches[next])
				for k := range batch {
					batch[k].Time = t
				}
				next = (next + 1) % len(batches)
				add(batch)
			}
		}
	}
	each := make([]time.Duration, 0, b.N)
	sharedtest.Interleave(b, adder(func(batch []throughtime.Match) {
		t0 := time.Now()
		if err := h.Add(batch); err != nil {
			b.Fatal(err)
		}
		each = append(each, time.Since(t0))
	}), adder(hand.add))
	// The mean (ns/op) carries the occasional copy of the history's
	// arrays when an append outgrows them; the median is what a typical
	// Add costs.
	slices.Sort(each)
	b.ReportMetric(float64(each[len(each)/2].Nanoseconds()), "median-ns/add")
}

// BenchmarkTennisConverge builds the history (untimed) and smooths it to
// 1e-6 (timed), reporting the sweeps it took, the heap the history holds
// once converged, and its time against the hand-written forward pass run
// alternately with it (x-baseline).
func BenchmarkTennisConverge(b *testing.B) {
	games, _ := tennis()
	ctx := context.Background()
	var sweeps, heap float64
	sharedtest.Interleave(b, func(n int) {
		for range n {
			b.StopTimer()
			runtime.GC()
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			h, err := throughtime.New(throughtime.DefaultParams(), games)
			if err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			res, err := h.Converge(ctx, 1e-6, 1000)
			if err != nil || !res.Converged {
				b.Fatalf("%+v, %v", res, err)
			}
			b.StopTimer()
			runtime.GC()
			runtime.ReadMemStats(&m1)
			sweeps += float64(res.Iterations)
			heap += float64(m1.HeapAlloc) - float64(m0.HeapAlloc)
			runtime.KeepAlive(h)
			b.StartTimer()
		}
	}, filterByHand())
	b.ReportMetric(sweeps/float64(b.N), "sweeps")
	b.ReportMetric(heap/float64(b.N)/(1<<20), "heap-MB")
}

// leagueHistory reads a shipped league (examples/data) as a history in
// years (as examples/throughtime does by default, so that γ is a yearly
// drift): Formula 1 races as free-for-alls with shared places, or the
// Premier League as two-team games; draw is the share of drawn adjacent
// pairs the file has.
// year is the unit of time of the league histories.
const year = time.Duration(365.25 * 24 * float64(time.Hour))

func leagueHistory(b *testing.B, file string) ([]throughtime.Match, float64) {
	path := filepath.Join(sharedtest.Root(b), "examples", "data", file)
	ms, _, err := record.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	games := make([]throughtime.Match, len(ms))
	for i, m := range ms {
		at, err := throughtime.At(m.Time, year)
		if err != nil {
			b.Fatal(err)
		}
		games[i] = throughtime.Match{Time: at, Teams: m.Players(), Ranks: m.Ranks()}
	}
	return games, evaluation.DrawProbability(ms)
}

// BenchmarkLeagueConverge smooths the shipped Formula 1 and Premier League
// histories to 1e-6 from their forward pass (built untimed), reporting the
// sweeps and the time against the tennis-shaped history's hand-written
// forward pass run alternately with it (x-baseline).
func BenchmarkLeagueConverge(b *testing.B) {
	for _, file := range []string{"f1_races.csv", "epl.csv"} {
		b.Run(file, func(b *testing.B) {
			games, draw := leagueHistory(b, file)
			p := throughtime.DefaultParams()
			p.DrawProbability = draw
			var sweeps float64
			sharedtest.Interleave(b, func(n int) {
				for range n {
					b.StopTimer()
					h, err := throughtime.New(p, games)
					if err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
					res, err := h.Converge(context.Background(), 1e-6, 1000)
					if err != nil || !res.Converged {
						b.Fatalf("%+v, %v", res, err)
					}
					sweeps += float64(res.Iterations)
				}
			}, filterByHand())
			b.ReportMetric(sweeps/float64(b.N), "sweeps")
		})
	}
}

// BenchmarkFilter runs the forward pass (New) of histories whose games
// run factor graphs: the shipped Formula 1 races, free-for-alls of up to
// 30 drivers, and 2,000 1v1 games with draws between 40 players with
// learned draw margins (drawingHistory), reported against the
// tennis-shaped history's hand-written forward pass run alternately with
// it (x-baseline).
func BenchmarkFilter(b *testing.B) {
	f1, draw := leagueHistory(b, "f1_races.csv")
	f1Params := throughtime.DefaultParams()
	f1Params.DrawProbability = draw
	chess, _, _ := drawingHistory(40, 2000)
	for _, c := range []struct {
		name  string
		p     throughtime.Params
		games []throughtime.Match
		opts  []throughtime.Option
	}{
		{"f1_races.csv", f1Params, f1, nil},
		{"margins", throughtime.DefaultParams(), chess, []throughtime.Option{throughtime.WithDrawMargins(chessMargins())}},
	} {
		b.Run(c.name, func(b *testing.B) {
			sharedtest.Interleave(b, func(n int) {
				for range n {
					if _, err := throughtime.New(c.p, c.games, c.opts...); err != nil {
						b.Fatal(err)
					}
				}
			}, filterByHand())
		})
	}
}

// chessMargins returns the margins' prior and drift of the benchmarks'
// history with learned margins.
func chessMargins() throughtime.Margins { return throughtime.Margins{Mu: 1, Sigma: 0.3, Gamma: 0.01} }

// BenchmarkPredictMargins predicts games between players drawn at random
// (fixed seed, a different pair each time) from the smoothed history of
// BenchmarkFilter's margins case (ns/op is one Predict), reported against
// Predict's closed form on the same games with one draw margin for all
// (x-baseline), run alternately with it.
func BenchmarkPredictMargins(b *testing.B) {
	games, _, draws := drawingHistory(40, 2000)
	margins, err := throughtime.New(throughtime.DefaultParams(), games, throughtime.WithDrawMargins(chessMargins()))
	if err != nil {
		b.Fatal(err)
	}
	p := throughtime.DefaultParams()
	p.DrawProbability = draws
	plain, err := throughtime.New(p, games)
	if err != nil {
		b.Fatal(err)
	}
	for _, h := range []*throughtime.History{margins, plain} {
		if _, err := h.Converge(context.Background(), 1e-4, 50); err != nil {
			b.Fatal(err)
		}
	}
	names := margins.Players()
	rng := rand.New(rand.NewPCG(3, 11))
	pairs := make([][2][]string, 256)
	for i := range pairs {
		a := rng.IntN(len(names))
		c := (a + 1 + rng.IntN(len(names)-1)) % len(names)
		pairs[i] = [2][]string{{names[a]}, {names[c]}}
	}
	predict := func(h *throughtime.History) func(n int) {
		next := 0
		return func(n int) {
			for range n {
				pr := pairs[next]
				next = (next + 1) % len(pairs)
				if _, err := h.Predict(2000, pr[0], pr[1]); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	sharedtest.Interleave(b, predict(margins), predict(plain))
}
