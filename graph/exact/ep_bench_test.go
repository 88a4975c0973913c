package exact_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/exact"
	"github.com/skillgraph/skillgraph/internal/repo"
	"github.com/skillgraph/skillgraph/models/evaluation"
	"github.com/skillgraph/skillgraph/models/scorebased"
	"github.com/skillgraph/skillgraph/record"
	"github.com/skillgraph/skillgraph/schedules"
)

// declarer is a score model's Declare.
type declarer func(b *graph.Builder, c scorebased.Contest) (scorebased.Nodes, error)

// homeSeason is the graph of examples/newmodel: a season of the
// offence/defence score model with one home advantage, its scores
// Gaussian or Poisson as declare says.
func homeSeason(tb testing.TB, matches []record.Match, p scorebased.Params, declare declarer) *graph.Graph {
	tb.Helper()
	prior := scorebased.Team{Offence: scorebased.Rating{Mu: 1.1, Sigma: 0.5}, Defence: scorebased.Rating{Mu: 0, Sigma: 0.5}}
	b := graph.NewBuilder("home advantage")
	adv := b.AddVariable("home")
	b.AddFactor(factors.NewPrior(0, 1), "", adv)
	teams := map[string]scorebased.TeamVars{}
	for i, r := range matches {
		home, away := r.Teams[0], r.Teams[1]
		for _, team := range []string{home.Name, away.Name} {
			if _, ok := teams[team]; !ok {
				tv, err := p.DeclareTeam(b, team, prior)
				if err != nil {
					tb.Fatal(err)
				}
				teams[team] = tv
			}
		}
		if _, err := declare(b, scorebased.Contest{
			Name: fmt.Sprintf("m%d.", i+1), A: teams[home.Name], B: teams[away.Name],
			ScoreA: float64(home.Score), ScoreB: float64(away.Score), Advantage: []graph.VarID{adv},
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

// seasons returns a pool of graphs of the Premier League's 20-team
// seasons (2,321 variables each with Gaussian scores).
func seasons(b *testing.B, poisson bool) []*graph.Graph {
	root, err := repo.Root()
	if err != nil {
		b.Fatal(err)
	}
	all, _, err := record.ReadFile(filepath.Join(root, "examples", "data", "epl.csv"))
	if err != nil {
		b.Fatal(err)
	}
	p := scorebased.Params{Sigma: 0.5, Beta: 0.2, Gamma: 1.1}
	declare := declarer(scorebased.NewGaussianOD(p).Declare)
	if poisson {
		declare = scorebased.NewPoissonOD(p).Declare
	}
	var gs []*graph.Graph
	for _, s := range []string{"2005-06", "2006-07", "2007-08", "2008-09"} {
		gs = append(gs, homeSeason(b, evaluation.Season(all, s), p, declare))
	}
	return gs
}

// benchEP times joint EP and loopy EP (the schedule made by derive,
// derived once per graph, run from uniform messages to convergence or
// loopCap passes) on the graphs in turn, interleaved, and reports joint
// EP's time over loopy EP's, loopy EP's time a pass and its passes.
func benchEP(b *testing.B, gs []*graph.Graph, derive func(*graph.Graph, ...schedules.DeriveOption) (schedules.Schedule, error), loopCap int) {
	b.ReportMetric(float64(gs[0].NumVariables()), "variables")
	ctx := context.Background()
	ss := make([]schedules.Schedule, len(gs))
	for i, g := range gs {
		s, err := derive(g, schedules.WithLoop(schedules.MaxIterations(loopCap)))
		if err != nil {
			b.Fatal(err)
		}
		ss[i] = s
	}
	var joint, loopy time.Duration
	sweeps, passes, i := 0, 0, 0
	for b.Loop() {
		g := gs[i%len(gs)]
		start := time.Now()
		sol, err := exact.EP(ctx, g)
		if err != nil || !sol.Converged {
			b.Fatalf("EP: %v", err)
		}
		sweeps += sol.Sweeps
		mid := time.Now()
		g.Reset()
		res, err := schedules.Run(ctx, g, ss[i%len(gs)])
		if err != nil {
			b.Fatalf("loopy EP: %v", err)
		}
		passes += res.Iterations
		joint, loopy = joint+mid.Sub(start), loopy+time.Since(mid)
		i++
	}
	b.ReportMetric(joint.Seconds()/float64(i), "s/EP")
	b.ReportMetric(float64(sweeps)/float64(i), "sweeps")
	b.ReportMetric(joint.Seconds()/loopy.Seconds(), "EP/loopy")
	b.ReportMetric(loopy.Seconds()/float64(passes), "s/loopy-pass")
	b.ReportMetric(float64(passes)/float64(i), "loopy-passes")
}

// The examples/newmodel graph: a Premier League season, 20 teams with
// offence, defence and a home advantage, Gaussian scores (linear: EP is
// one solve) and Poisson scores (refined by sweeps).
func BenchmarkEPSeason(b *testing.B) {
	for _, poisson := range []bool{false, true} {
		name := "gaussian"
		if poisson {
			name = "poisson"
		}
		b.Run(name, func(b *testing.B) { benchEP(b, seasons(b, poisson), schedules.Derive, schedules.DefaultMaxIterations) })
	}
}

// The same model on synthetic double round robins of 100 and 500 teams
// (with -big), Gaussian scores; loopy EP capped at 10 passes, far from
// its convergence, and its schedule at 500 teams the flooding one, whose
// derivation is quick.
func BenchmarkEPLeague(b *testing.B) {
	if !*big {
		b.Skip("the 100- and 500-team leagues run with -big")
	}
	p := scorebased.Params{Sigma: 0.5, Beta: 0.2, Gamma: 1.1}
	for _, teams := range []int{100, 500} {
		b.Run(fmt.Sprint(teams), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(uint64(teams), 1))
			var ms []record.Match
			for h := range teams {
				for a := range teams {
					if h != a {
						ms = append(ms, record.Match{Teams: []record.Team{{Name: fmt.Sprint("t", h), Score: rng.IntN(5)}, {Name: fmt.Sprint("t", a), Score: rng.IntN(4)}}})
					}
				}
			}
			derive := schedules.Derive
			if teams > 100 {
				derive = flooding
			}
			benchEP(b, []*graph.Graph{homeSeason(b, ms, p, scorebased.NewGaussianOD(p).Declare)}, derive, 10)
		})
	}
}

// flooding is schedules.Flooding with Derive's signature, its loop options
// given to Flooding.
func flooding(g *graph.Graph, _ ...schedules.DeriveOption) (schedules.Schedule, error) {
	return schedules.Flooding(g, schedules.MaxIterations(10)), nil
}

// Chess with a draw margin per player (the model of
// TestEPChessPlayerMargins) on a pool of fixed-seed tournaments of 40
// players and 400 games: "joint", results read by ExceedsMargin and
// BetweenMargins, whose joint sites cost a small dense solve per factor
// each sweep, and "differences", the same results as differences and
// truncations at 0, with per-edge sites; each reports joint EP's time
// over loopy EP's on the same graph.
func BenchmarkEPChessMargins(b *testing.B) {
	const players, games, beta2, m0, vm = 40, 400, 0.5, 0.5, 0.04
	for _, linear := range []bool{false, true} {
		name := "joint"
		if linear {
			name = "differences"
		}
		b.Run(name, func(b *testing.B) {
			var gs []*graph.Graph
			for seed := range uint64(4) {
				rng := rand.New(rand.NewPCG(seed, 7))
				truth, margin := make([]float64, players), make([]float64, players)
				for i := range truth {
					truth[i], margin[i] = rng.NormFloat64(), m0+0.2*rng.NormFloat64()
				}
				g, _, _, _ := chessMarginsGraph(b, linear, players, beta2, m0, vm, chessGames(rng, truth, margin, beta2, games))
				gs = append(gs, g)
			}
			benchEP(b, gs, schedules.Derive, schedules.DefaultMaxIterations)
		})
	}
}
