package throughtime

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/models/trueskill"
	"github.com/skillgraph/skillgraph/schedules"
)

// withObserver has obs watch every run of a game's graph.
func withObserver(obs schedules.Observer) Option { return func(c *config) { c.observer = obs } }

// runCounter counts the runs of games' graphs: every run starts with the
// first prior, factor 0, sending to its skill, once.
type runCounter struct{ runs int }

func (c *runCounter) Updated(f graph.FactorID, edge int, _ float64) {
	if f == 0 && edge == 0 {
		c.runs++
	}
}

func (c *runCounter) Iterated(string, int, float64) {}

// mixedGames returns n fixed-seed games among sixteen players: with
// learned margins 1v1 games, a third of them drawn; otherwise free-for-alls
// of three to five teams with shared places, two-team games of up to three
// players a side (some with partial-play weights) and 1v1 games.
func mixedGames(seed uint64, n int, margins bool) []Match {
	rng := rand.New(rand.NewPCG(seed, 3))
	games := make([]Match, n)
	for k := range games {
		perm := rng.Perm(16)
		teams, most := 2, 1
		if !margins {
			teams, most = 2+rng.IntN(4), 1+rng.IntN(3)
		}
		g := Match{Ranks: make([]int, teams)}
		for j := range teams {
			size := 1 + rng.IntN(most)
			team := make([]string, size)
			for i := range team {
				team[i] = fmt.Sprint("p", perm[0])
				perm = perm[1:]
			}
			g.Teams = append(g.Teams, team)
			g.Ranks[j] = rng.IntN(teams)
		}
		if !margins && teams == 2 && rng.IntN(2) == 0 {
			g.Weights = [][]float64{make([]float64, len(g.Teams[0])), make([]float64, len(g.Teams[1]))}
			for _, row := range g.Weights {
				for i := range row {
					row[i] = 0.3 + 0.7*rng.Float64()
				}
			}
		}
		games[k] = g
	}
	return games
}

// TestFilterRunsEachGraphOnce: the forward pass runs the graph of each game
// that has one (three or more teams, teams of several players, every game
// with learned margins) once, for its update and its filtered evidence
// together, in New and in Add; and that evidence is the one-step-ahead log
// probability of the game, LogProbability's fresh graph of the game from
// the history of the games before it, to 1e-12.
func TestFilterRunsEachGraphOnce(t *testing.T) {
	for _, margins := range []bool{false, true} {
		t.Run(fmt.Sprint("margins=", margins), func(t *testing.T) {
			games := mixedGames(11, 40, margins)
			p := Params{Mu: 25, Sigma: 3, Beta: 1, Gamma: 0.2, DrawProbability: 0.25}
			opts := []Option{Untimed()}
			if margins {
				p.DrawProbability = 0
				opts = append(opts, WithDrawMargins(Margins{Mu: 0.8, Sigma: 0.3, Gamma: 0.05}))
			}
			var count runCounter
			h, err := New(p, games[:30], append(opts, withObserver(&count))...)
			if err != nil {
				t.Fatal(err)
			}
			if count.runs != len(h.gameGraphs) || len(h.gameGraphs) < 20 {
				t.Errorf("New: %d runs of %d games' graphs", count.runs, len(h.gameGraphs))
			}
			before, graphs := count.runs, len(h.gameGraphs)
			if err := h.Add(games[30:]); err != nil {
				t.Fatal(err)
			}
			if runs, added := count.runs-before, len(h.gameGraphs)-graphs; runs != added || added == 0 {
				t.Errorf("Add: %d runs of %d new games' graphs", runs, added)
			}
			filtered := h.Filtered()
			for k := range games {
				if h.games[k].graph < 0 {
					continue
				}
				prior, err := New(p, games[:k], opts...)
				if err != nil {
					t.Fatal(err)
				}
				g := games[k]
				g.Time = float64(k + 1)
				want, err := prior.LogProbability(g)
				if err != nil {
					t.Fatal(err)
				}
				if math.Abs(filtered[k]-want) > 1e-12*math.Abs(want) {
					t.Errorf("game %d %v: filtered %v, one step ahead %v", k, g.Teams, filtered[k], want)
				}
			}
		})
	}
}

// TestMarginGraphsShared: a history with learned margins declares one
// graph for each shape of game (its outcome and its players' β), which its
// games and predictions share, and a run of it after any other gives what
// a new graph gives, bit for bit: after the forward pass and a sweep, each
// prediction equals the evidence of new graphs on the same beliefs.
func TestMarginGraphsShared(t *testing.T) {
	games := mixedGames(5, 40, true)
	p := Params{Sigma: 3, Beta: 1, Gamma: 0.2}
	opts := []Option{WithDrawMargins(Margins{Mu: 0.8, Sigma: 0.3, Gamma: 0.05}),
		WithPriors(map[string]Player{"p3": {Sigma: 3, Beta: 2, Gamma: 0.2}, "p4": {Sigma: 3, Gamma: 0.2}})}
	h, err := New(p, games, opts...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Converge(context.Background(), 1e-9, 1); err != nil {
		t.Fatal(err)
	}
	beta := func(name string) float64 { return p.player(h.priors, name).Beta }
	shapes := map[marginShape]bool{}
	for k, g := range games {
		shape := marginShape{betas: [2]float64{beta(g.Teams[0][0]), beta(g.Teams[1][0])}}
		switch {
		case g.Ranks[0] == g.Ranks[1]:
			shape.outcome = 1
		case g.Ranks[1] < g.Ranks[0]:
			shape.outcome = 2
		}
		shapes[shape] = true
		if gg := h.gameGraphs[h.games[k].graph]; gg != h.marginGraphs[shape] {
			t.Errorf("game %d: not the graph of its shape %+v", k, shape)
		}
	}
	if len(h.marginGraphs) != len(shapes) || len(shapes) < 6 {
		t.Errorf("%d graphs for %d shapes of game", len(h.marginGraphs), len(shapes))
	}
	for _, pair := range [][2]string{{"p0", "p1"}, {"p2", "p5"}, {"p7", "new"}, {"p3", "p6"}, {"p4", "p3"}, {"p0", "p1"}} {
		g := Match{Time: 45, Teams: [][]string{{pair[0]}, {pair[1]}}}
		got, err := h.Predict(g.Time, g.Teams[0], g.Teams[1])
		if err != nil {
			t.Fatal(err)
		}
		beliefs, betas, err := h.marginBeliefs(&g)
		if err != nil {
			t.Fatal(err)
		}
		var prob [3]float64
		for i, ranks := range [][]int{nil, {0, 0}, {1, 0}} {
			gg, err := h.newMarginGraph(ranks, betas)
			if err != nil {
				t.Fatal(err)
			}
			for i, b := range beliefs {
				gg.priors[i].Mean, gg.priors[i].Variance = b.Mean(), b.Variance()
			}
			if err := gg.run(); err != nil {
				t.Fatal(err)
			}
			lz, err := gg.logEvidence()
			if err != nil {
				t.Fatal(err)
			}
			prob[i] = math.Exp(lz)
		}
		sum := prob[0] + prob[1] + prob[2]
		if want := (trueskill.Prediction{Win: prob[0] / sum, Draw: prob[1] / sum, Loss: prob[2] / sum}); got != want {
			t.Errorf("%v: Predict %+v, new graphs %+v", pair, got, want)
		}
	}
}
