package schedules_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/models/scorebased"
	"github.com/skillgraph/skillgraph/schedules"
)

var big = flag.Bool("big", false, "run BenchmarkDeriveHub on a 500-team league")

// hubLeague is the graph of examples/newmodel on a synthetic double round
// robin of n teams, its matches in an order drawn from rng: the
// offence/defence score model with Gaussian scores and one home advantage
// that every match shares, a variable with an edge per match.
func hubLeague(tb testing.TB, n int, rng *rand.Rand) *graph.Graph {
	tb.Helper()
	p := scorebased.Params{Sigma: 0.5, Beta: 0.2, Gamma: 1.1}
	model := scorebased.NewGaussianOD(p)
	prior := scorebased.Team{Offence: scorebased.Rating{Mu: 1.1, Sigma: 0.5}, Defence: scorebased.Rating{Mu: 0, Sigma: 0.5}}
	b := graph.NewBuilder("home advantage")
	home := b.AddVariable("home")
	b.AddFactor(factors.NewPrior(0, 1), "", home)
	type pair struct{ h, a int }
	var games []pair
	for h := range n {
		for a := range n {
			if h != a {
				games = append(games, pair{h, a})
			}
		}
	}
	rng.Shuffle(len(games), func(i, j int) { games[i], games[j] = games[j], games[i] })
	teams := make([]*scorebased.TeamVars, n)
	for i, gm := range games {
		for _, t := range []int{gm.h, gm.a} {
			if teams[t] == nil {
				tv, err := p.DeclareTeam(b, fmt.Sprint("t", t), prior)
				if err != nil {
					tb.Fatal(err)
				}
				teams[t] = &tv
			}
		}
		if _, err := model.Declare(b, scorebased.Contest{
			Name: fmt.Sprintf("m%d.", i+1), A: *teams[gm.h], B: *teams[gm.a],
			ScoreA: float64(rng.IntN(5)), ScoreB: float64(rng.IntN(4)), Advantage: []graph.VarID{home},
		}); err != nil {
			tb.Fatal(err)
		}
	}
	g, err := b.Build()
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// BenchmarkDeriveHub derives the schedule of leagues of 20 and 100 teams
// (and 500 with -big) whose home advantage is shared by every match, a
// different match order each iteration. The baseline, measured in the
// same iterations, is building the graph: "x-build" is Derive's time over
// the build's, which stays flat as the league grows when Derive is linear
// in the edges, as the build is.
func BenchmarkDeriveHub(b *testing.B) {
	sizes := []int{20, 100}
	if *big {
		sizes = append(sizes, 500)
	}
	for _, n := range sizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			rng := rand.New(rand.NewPCG(uint64(n), 3))
			var build, derive time.Duration
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				start := time.Now()
				g := hubLeague(b, n, rng)
				build += time.Since(start)
				b.StartTimer()
				start = time.Now()
				if _, err := schedules.Derive(g); err != nil {
					b.Fatal(err)
				}
				derive += time.Since(start)
			}
			b.ReportMetric(float64(derive)/float64(build), "x-build")
		})
	}
}
