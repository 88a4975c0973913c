package throughtime

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// withGraphs sends every game through its own factor graph.
func withGraphs() Option { return func(c *config) { c.graphs = true } }

// flatHistory is a fixed-seed history of 1v1 games, with draws, among a
// dozen players over twenty times, some players with their own β.
func flatHistory() ([]Match, Params, Option) {
	rng := rand.New(rand.NewPCG(17, 4))
	var games []Match
	for t := range 20 {
		perm := rng.Perm(12)
		for k := range 3 {
			g := Match{Time: float64(2 * t), Teams: [][]string{{fmt.Sprint(perm[2*k])}, {fmt.Sprint(perm[2*k+1])}}}
			switch rng.IntN(4) {
			case 0:
				g.Ranks = []int{0, 0}
			case 1:
				g.Ranks = []int{1, 0}
			}
			games = append(games, g)
		}
	}
	p := DefaultParams()
	p.Mu, p.DrawProbability = 25, 0.2
	priors := WithPriors(map[string]Player{"3": {Mu: 27, Sigma: 4, Beta: 2, Gamma: 0.1}, "5": {Mu: 25, Sigma: 6, Beta: 0, Gamma: 0}, "7": {Mu: 25, Sigma: 5, Beta: 0, Gamma: 0.05}})
	return games, p, priors
}

// TestClosedFormIsGraph: a history of 1v1 games updated by the closed
// form (trueskill's Rate1v1) and the same history with every game run
// through its own factor graph agree to 1e-9 in every message after the
// forward pass and in every skill and evidence once smoothed.
func TestClosedFormIsGraph(t *testing.T) {
	games, p, priors := flatHistory()
	flat, err := New(p, games, priors)
	if err != nil {
		t.Fatal(err)
	}
	graphs, err := New(p, games, priors, withGraphs())
	if err != nil {
		t.Fatal(err)
	}
	// Players 5 and 7 have β = 0: their games with each other have no
	// closed form, and each history runs them through their graphs.
	pairs, want := 0, 0
	for k := range flat.games {
		if flat.games[k].graph < 0 {
			pairs++
		}
	}
	for _, g := range games {
		if a, b := g.Teams[0][0], g.Teams[1][0]; !(a == "5" && b == "7" || a == "7" && b == "5") {
			want++
		}
	}
	if pairs != want || want == len(games) || len(graphs.gameGraphs) != len(games) {
		t.Fatalf("%d of %d games by the closed form, want %d; %d graphs", pairs, len(games), want, len(graphs.gameGraphs))
	}
	same := func(stage string) {
		t.Helper()
		// The slots of a game the closed form holds are winner first.
		for k := range flat.games {
			a, b := flat.slots[flat.games[k].slot:flat.slotEnd(k)], graphs.slots[graphs.games[k].slot:graphs.slotEnd(k)]
			if a[0].skill != b[0].skill {
				a = []slot{a[1], a[0]}
			}
			for i := range a {
				m, n := a[i].msg, b[i].msg
				if a[i].skill != b[i].skill || math.Abs(m.Pi-n.Pi) > 1e-9 || math.Abs(m.Tau-n.Tau) > 1e-9 {
					t.Fatalf("%s: game %d slot %d: closed form %+v, graph %+v", stage, k, i, a[i], b[i])
				}
			}
		}
		for k, lz := range flat.Filtered() {
			if math.Abs(lz-graphs.filtered[k]) > 1e-9 {
				t.Errorf("%s: game %d: filtered %v and %v", stage, k, lz, graphs.filtered[k])
			}
		}
	}
	same("filtered")
	for _, h := range []*History{flat, graphs} {
		if res, err := h.Converge(context.Background(), 1e-10, 500); err != nil || !res.Converged {
			t.Fatalf("%+v, %v", res, err)
		}
	}
	for _, name := range flat.Players() {
		a, b := flat.LearningCurve(name), graphs.LearningCurve(name)
		for i := range a {
			if math.Abs(a[i].Mu-b[i].Mu) > 1e-9 || math.Abs(a[i].Sigma-b[i].Sigma) > 1e-9 {
				t.Errorf("%s at %v: closed form %+v, graph %+v", name, a[i].Time, a[i], b[i])
			}
		}
	}
	_, la, _ := flat.LogEvidence()
	_, lb, _ := graphs.LogEvidence()
	if math.Abs(la-lb) > 1e-9 {
		t.Errorf("smoothed evidence %v and %v", la, lb)
	}
}

// TestFailedAddUndone: an Add whose games pass the checks but fail while
// being rated (a game whose cavities float64 cannot hold) leaves the
// history as it was, its next Add and its smoothing as if it had not
// happened.
func TestFailedAddUndone(t *testing.T) {
	games, p, priors := flatHistory()
	h, err := New(p, games[:30], priors)
	if err != nil {
		t.Fatal(err)
	}
	twin, err := New(p, games[:30], priors)
	if err != nil {
		t.Fatal(err)
	}
	last := games[29].Time
	// A new player whose prior drift overflows the drift to their second
	// game; the returning players "0" and "1" are relinked first.
	h.priors["huge"] = Player{Sigma: 1, Beta: 1, Gamma: 1e200}
	bad := []Match{
		{Time: last + 1, Teams: [][]string{{"0"}, {"huge"}}},
		{Time: last + 2, Teams: [][]string{{"1"}, {"newcomer"}}},
		{Time: last + 3, Teams: [][]string{{"huge"}, {"1"}}},
	}
	if err := h.Add(bad); err == nil {
		t.Fatal("an Add that overflows the drift succeeded")
	}
	delete(h.priors, "huge")
	if len(h.skills) != len(twin.skills) || len(h.games) != len(twin.games) || len(h.players) != len(twin.players) ||
		len(h.names) != len(twin.names) || len(h.index) != len(twin.index) || len(h.filtered) != len(twin.filtered) {
		t.Fatalf("a failed Add left %d skills, %d games, %d players; before it %d, %d, %d", len(h.skills), len(h.games), len(h.players), len(twin.skills), len(twin.games), len(twin.players))
	}
	for i := range h.skills {
		if h.skills[i] != twin.skills[i] {
			t.Fatalf("skill %d: %+v, before %+v", i, h.skills[i], twin.skills[i])
		}
	}
	for i := range h.players {
		if h.players[i] != twin.players[i] {
			t.Fatalf("player %d: %+v, before %+v", i, h.players[i], twin.players[i])
		}
	}
	for _, x := range []*History{h, twin} {
		if err := x.Add(games[30:]); err != nil {
			t.Fatal(err)
		}
		if _, err := x.Converge(context.Background(), 1e-9, 300); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range twin.Players() {
		a, b := h.LearningCurve(name), twin.LearningCurve(name)
		if len(a) != len(b) {
			t.Fatalf("%s: %d points, %d", name, len(a), len(b))
		}
		for i := range a {
			if a[i] != b[i] {
				t.Errorf("%s: %+v, %+v", name, a[i], b[i])
			}
		}
	}
}
