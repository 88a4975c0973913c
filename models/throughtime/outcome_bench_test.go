package throughtime

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/skillgraph/skillgraph/internal/sharedtest"
)

// The benchmarks of this file run the outcomes beyond the two-team closed
// form on the history's shared graphs (History.outcomeGraph), reported
// against the same calls on its twin that declares a graph for each call
// (withFresh), run alternately with them (x-baseline, below 1 where the
// shared graphs are faster).

// raceHistories returns the fixed-seed history of 600 three-player races
// between 64 players over 200 times, with a draw probability, on the
// shared graphs and on a graph for each call, and 256 races at the time
// after it, each between three players drawn at random, in finishing
// order, with a shared second place, or with the second first.
func raceHistories(b *testing.B) (shared, fresh *History, races []Match) {
	b.Helper()
	rng := rand.New(rand.NewPCG(600, 64))
	race := func(t float64) Match {
		perm := rng.Perm(64)
		g := Match{Time: t, Ranks: [][]int{nil, {0, 1, 1}, {1, 0, 2}}[rng.IntN(3)]}
		for _, i := range perm[:3] {
			g.Teams = append(g.Teams, []string{fmt.Sprint("r", i)})
		}
		return g
	}
	games := make([]Match, 600)
	for k := range games {
		games[k] = race(float64(k/3 + 1))
	}
	races = make([]Match, 256)
	for k := range races {
		races[k] = race(201)
	}
	p := DefaultParams()
	p.DrawProbability = 0.1
	shared, fresh, err := twins(p, games)
	if err != nil {
		b.Fatal(err)
	}
	return shared, fresh, races
}

// BenchmarkLogProbabilityThreeTeams is LogProbability of a three-player
// race (ns/op is one call), a different race of the pool each call.
func BenchmarkLogProbabilityThreeTeams(b *testing.B) {
	shared, fresh, races := raceHistories(b)
	ask := func(h *History) func(n int) {
		next := 0
		return func(n int) {
			for range n {
				if _, err := h.LogProbability(races[next]); err != nil {
					b.Fatal(err)
				}
				next = (next + 1) % len(races)
			}
		}
	}
	sharedtest.Interleave(b, ask(shared), ask(fresh))
}

// BenchmarkLogEvidenceThreeTeams is LogEvidence of the history of 600
// three-player races (ns/op is the whole history's).
func BenchmarkLogEvidenceThreeTeams(b *testing.B) {
	shared, fresh, _ := raceHistories(b)
	evidence := func(h *History) func(n int) {
		return func(n int) {
			for range n {
				if _, _, err := h.LogEvidence(); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	sharedtest.Interleave(b, evidence(shared), evidence(fresh))
}
