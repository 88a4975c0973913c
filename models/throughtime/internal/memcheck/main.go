// Command memcheck measures the memory and time of smoothing a synthetic
// history of 1v1 games, generated in code with a fixed seed: by default
// shaped like the men's professional tennis tour (about 200,000 games
// between 2,000 players over 45 years, days as the time unit, σ = 1.6,
// β = 1, γ = 0.036 a day). It prints the bytes a game the history holds
// after its forward pass and once smoothed, the process's peak resident
// memory (VmHWM; run it under /usr/bin/time -v for the same figure from
// outside), and the sweeps and time to the tolerance.
//
//	go run ./models/throughtime/internal/memcheck                      # tennis-shaped
//	go run ./models/throughtime/internal/memcheck -games 5000000 -players 50000 -years 60
//
// With -chunk n the games are given in pieces of about n games (each a run
// of whole days) through History.Add, so that the input never holds more
// than a piece.
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/skillgraph/skillgraph/models/throughtime"
)

func main() {
	games := flag.Int("games", 200000, "games in the history")
	players := flag.Int("players", 2000, "players in the history")
	years := flag.Float64("years", 45, "years the history spans")
	tol := flag.Float64("tol", 1e-6, "smoothing tolerance")
	sweeps := flag.Int("sweeps", 500, "most smoothing sweeps")
	chunk := flag.Int("chunk", 0, "give the games through Add in pieces of about this many (0: one New)")
	seed := flag.Uint64("seed", 1, "generator seed")
	flag.Parse()
	if err := run(*games, *players, *years, *tol, *sweeps, *chunk, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "memcheck:", err)
		os.Exit(1)
	}
}

func run(n, players int, years, tol float64, sweeps, chunk int, seed uint64) error {
	p := throughtime.Params{Sigma: 1.6, Beta: 1, Gamma: 0.036}
	gen := newGenerator(n, players, years, seed)
	start := time.Now()
	var h *throughtime.History
	for {
		size := chunk
		if size <= 0 {
			size = n
		}
		part := gen.next(size)
		if len(part) == 0 {
			break
		}
		var err error
		if h == nil {
			h, err = throughtime.New(p, part)
		} else {
			err = h.Add(part)
		}
		if err != nil {
			return err
		}
	}
	if h == nil {
		return fmt.Errorf("no games")
	}
	filtered := time.Since(start)
	held := heap()
	fmt.Printf("games %d, players %d, %.0f days; forward pass %.2f s, held %.0f B a game, filtered log evidence %.1f\n",
		gen.made, len(h.Players()), gen.days, filtered.Seconds(), float64(held)/float64(gen.made), h.FilteredLogEvidence())
	start, cpu0 := time.Now(), cpu()
	res, err := h.Converge(context.Background(), tol, sweeps)
	if err != nil {
		return err
	}
	smoothing := time.Since(start)
	_, lz, err := h.LogEvidence()
	if err != nil {
		return err
	}
	fmt.Printf("smoothing: %d sweeps (converged %v, last change %.2g) in %.2f s (%.3f s a sweep, %.1f s of CPU); smoothed log evidence %.1f\n",
		res.Iterations, res.Converged, res.Delta, smoothing.Seconds(), smoothing.Seconds()/float64(res.Iterations), (cpu() - cpu0).Seconds(), lz)
	fmt.Printf("held once smoothed %.0f B a game; peak resident %.0f B a game (%d MB); CPU time %.1f s in all\n",
		float64(heap())/float64(gen.made), float64(peakRSS())/float64(gen.made), peakRSS()>>20, cpu().Seconds())
	runtime.KeepAlive(h)
	return nil
}

// heap returns the bytes of live heap after a collection.
func heap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// cpu returns the CPU time the process has used, user and system, which
// a machine shared with other work does not inflate as it does the wall
// clock.
func cpu() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// peakRSS returns the process's peak resident memory (VmHWM), 0 where
// /proc is missing.
func peakRSS() uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kb uint64
			fmt.Sscan(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), &kb)
			return kb << 10
		}
	}
	return 0
}

// generator makes a history day by day: each player has a career of 3 to
// 20 years somewhere in the span and a true skill that starts at N(0,
// 1.6²) and drifts by N(0, 0.036²) a day; each day's games pair active
// players at random, each at most once a day, and are won by the better
// performance, skill plus N(0, 1).
type generator struct {
	rng          *rand.Rand
	n, made      int
	days         float64
	perDay       float64
	start, end   []int
	skill        []float64
	lastDay      []int
	names        []string
	day          int
	active, pool []int
}

func newGenerator(n, players int, years float64, seed uint64) *generator {
	g := &generator{rng: rand.New(rand.NewPCG(seed, 2)), n: n, days: math.Round(years * 365)}
	span := int(g.days)
	g.start, g.end = make([]int, players), make([]int, players)
	g.skill, g.lastDay = make([]float64, players), make([]int, players)
	g.names = make([]string, players)
	for i := range players {
		length := int((3 + 17*g.rng.Float64()) * 365)
		length = min(length, span)
		g.start[i] = g.rng.IntN(span - length + 1)
		g.end[i] = g.start[i] + length
		g.skill[i] = 1.6 * g.rng.NormFloat64()
		g.lastDay[i] = g.start[i]
		g.names[i] = fmt.Sprintf("p%06d", i)
	}
	g.perDay = float64(n) / g.days
	return g
}

// next returns the games of the next days, at least size games unless the
// history ends first.
func (g *generator) next(size int) []throughtime.Match {
	var out []throughtime.Match
	for len(out) < size && g.made < g.n && g.day < int(g.days) {
		d := g.day
		g.day++
		want := int(math.Round(g.perDay*float64(d+1))) - g.made
		if want <= 0 {
			continue
		}
		g.active = g.active[:0]
		for i := range g.start {
			if g.start[i] <= d && d < g.end[i] {
				g.active = append(g.active, i)
			}
		}
		if len(g.active) < 2 {
			continue
		}
		want = min(want, len(g.active)/2, g.n-g.made)
		// Pick want pairs of neighbours in a noisy order of skill.
		g.pool = g.pool[:0]
		for range 2 * want {
			g.pool = append(g.pool, g.active[g.rng.IntN(len(g.active))])
		}
		used := map[int]bool{}
		for k := 0; k+1 < len(g.pool); k += 2 {
			a, b := g.pool[k], g.pool[k+1]
			if a == b || used[a] || used[b] {
				continue
			}
			used[a], used[b] = true, true
			for _, i := range [2]int{a, b} {
				g.skill[i] += 0.036 * math.Sqrt(float64(d-g.lastDay[i])) * g.rng.NormFloat64()
				g.lastDay[i] = d
			}
			if g.skill[a]+g.rng.NormFloat64() < g.skill[b]+g.rng.NormFloat64() {
				a, b = b, a
			}
			out = append(out, throughtime.Match{Time: float64(d), Teams: [][]string{{g.names[a]}, {g.names[b]}}})
			g.made++
		}
	}
	return out
}
