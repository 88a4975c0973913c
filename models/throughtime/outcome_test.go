package throughtime

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/models/trueskill"
)

// withFresh declares the graph of each outcome beyond the two-team closed
// form for that call alone, as History.outcomeGraph does without its
// cache.
func withFresh() Option { return func(c *config) { c.fresh = true } }

// outcomePriors gives players h0…h5 β = 2 and z0 β = 0; the others have
// Params.Beta.
func outcomePriors(p Params) Option {
	priors := map[string]Player{"z0": {Mu: p.Mu, Sigma: p.Sigma, Gamma: p.Gamma}}
	for i := range 6 {
		priors[fmt.Sprint("h", i)] = Player{Mu: p.Mu, Sigma: p.Sigma, Beta: 2, Gamma: p.Gamma}
	}
	return WithPriors(priors)
}

// outcomeGames returns n fixed-seed games of three or four teams, each
// of one player or, alternately, two, in finishing order or in another
// with a shared place, half of them with partial-play weights: most
// among p0…p7, the others among every player of outcomePriors too.
func outcomeGames(seed uint64, n int) []Match {
	rng := rand.New(rand.NewPCG(seed, 5))
	var names []string
	for i := range 8 {
		names = append(names, fmt.Sprint("p", i))
	}
	for i := range 6 {
		names = append(names, fmt.Sprint("h", i))
	}
	names = append(names, "z0")
	games := make([]Match, n)
	for k := range games {
		pool := names[:8]
		if rng.IntN(4) == 0 {
			pool = names
		}
		perm := rng.Perm(len(pool))
		teams, pairs := 3+rng.IntN(2), rng.IntN(2)
		g := Match{Time: float64(k/3 + 1), Ranks: [][]int{nil, {1, 0, 2, 3}, {0, 1, 1, 2}}[rng.IntN(3)]}
		if g.Ranks != nil {
			g.Ranks = g.Ranks[:teams]
		}
		weighted := rng.IntN(2) == 0
		for j := range teams {
			team := make([]string, 1+pairs*(j%2))
			w := make([]float64, len(team))
			for i := range team {
				team[i] = pool[perm[0]]
				perm = perm[1:]
				w[i] = 0.25 + 0.7*rng.Float64()
			}
			g.Teams = append(g.Teams, team)
			if weighted {
				g.Weights = append(g.Weights, w)
			}
		}
		games[k] = g
	}
	return games
}

// twins returns the history of games with the shared outcome graphs, and
// its twin that declares one for each call.
func twins(p Params, games []Match, opts ...Option) (shared, fresh *History, err error) {
	if shared, err = New(p, games, opts...); err == nil {
		fresh, err = New(p, games, append(opts, withFresh())...)
	}
	return shared, fresh, err
}

// outcomeHistories returns twins of games (outcomePriors), smoothed.
func outcomeHistories(t *testing.T, p Params, games []Match) (shared, fresh *History) {
	t.Helper()
	shared, fresh, err := twins(p, games, outcomePriors(p))
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []*History{shared, fresh} {
		if _, err := h.Converge(context.Background(), 1e-9, 5); err != nil {
			t.Fatal(err)
		}
	}
	return shared, fresh
}

// TestOutcomeGraphsShared: LogProbability of games of three or more teams
// runs one graph per shape, asked in an order that alternates the shapes
// (and within a shape the players, skills and weights) so that a prior,
// weight or β left from another call would show: each answer is a new
// graph's (the history that declares one for each call), bit for bit;
// where every player of the game has one β it is trueskill.Rate's
// evidence of the match from the players' Predictive skills, from
// trueskill's own evidence code, to 1e-12; and ranks that differ only in
// their values (5, 9, 9 and 0, 1, 1) share a graph.
func TestOutcomeGraphsShared(t *testing.T) {
	p := Params{Mu: 25, Sigma: 3, Beta: 1, Gamma: 0.2, DrawProbability: 0.2}
	h, fresh := outcomeHistories(t, p, outcomeGames(7, 30))
	const at = 20.0
	shapes := []struct {
		teams   [][]string
		ranks   []int
		weights [][]float64
		graph   int // the shape's graph: equal for shapes that share one
	}{
		{[][]string{{"p0"}, {"p1"}, {"p2"}}, nil, nil, 0},
		{[][]string{{"p3"}, {"p1"}, {"p4"}}, []int{5, 9, 9}, nil, 1},
		{[][]string{{"h0"}, {"h1"}, {"h2"}}, nil, nil, 2},
		{[][]string{{"p5"}, {"p2"}, {"p0"}}, []int{0, 1, 1}, nil, 1},
		{[][]string{{"p0", "p1"}, {"p2"}, {"p3", "p4"}}, []int{2, 0, 1}, [][]float64{{1, 0.5}, {0.7}, {0.3, 0.9}}, 3},
		{[][]string{{"p6"}, {"p7"}, {"p1"}, {"p2"}}, []int{2, 0, 1, 0}, nil, 4},
		{[][]string{{"p4", "p5"}, {"p6"}, {"p0", "p7"}}, []int{2, 0, 1}, [][]float64{{0.2, 1}, {0.4}, {1, 1}}, 3},
		{[][]string{{"h3", "h4"}, {"h5"}, {"h0", "h1"}}, []int{1, 1, 0}, [][]float64{{1, 0.6}, {1}, {0.8, 0.1}}, 5},
		{[][]string{{"p0", "p1"}, {"p2"}, {"p3", "p4"}}, []int{2, 0, 1}, nil, 6},
		{[][]string{{"p2", "h2"}, {"z0"}, {"p7"}}, []int{0, 1, 1}, nil, 7},
		{[][]string{{"h5"}, {"h3"}, {"h4"}}, nil, nil, 2},
		{[][]string{{"p1", "p6"}, {"p3"}, {"p5", "p0"}}, []int{2, 0, 1}, [][]float64{{0.9, 0.35}, {1}, {0.5, 0.75}}, 8},
	}
	for round := range 3 {
		for _, s := range shapes {
			g := Match{Time: at + float64(round), Teams: s.teams, Ranks: s.ranks, Weights: s.weights}
			got, err := h.LogProbability(g)
			if err != nil {
				t.Fatal(err)
			}
			want, err := fresh.LogProbability(g)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("%v %v %v: %v, a new graph %v", g.Teams, g.Ranks, g.Weights, got, want)
			}
			if rated, ok := rateEvidence(t, h, g); ok && math.Abs(got-rated) > 1e-12 {
				t.Errorf("%v %v %v: %v, trueskill.Rate %v", g.Teams, g.Ranks, g.Weights, got, rated)
			}
		}
	}
	graphs, slots := map[int]bool{}, 0
	for _, s := range shapes {
		if !graphs[s.graph] {
			graphs[s.graph] = true
			for _, team := range s.teams {
				slots += len(team)
			}
		}
	}
	if len(h.outcomes.graphs) != len(graphs) || h.outcomes.slots != slots || fresh.outcomes.graphs != nil {
		t.Errorf("%d graphs of %d players, want %d of %d (and none without the cache: %d)",
			len(h.outcomes.graphs), h.outcomes.slots, len(graphs), slots, len(fresh.outcomes.graphs))
	}
}

// rateEvidence returns trueskill.Rate's log evidence of g from its
// players' Predictive skills at g.Time, if its players have one β.
func rateEvidence(t *testing.T, h *History, g Match) (float64, bool) {
	t.Helper()
	ts := trueskill.Params{Mu: h.p.Mu, Sigma: h.p.Sigma, DrawProbability: h.p.DrawProbability}
	m := trueskill.Match{Ranks: g.Ranks, Weights: g.Weights}
	for j, team := range g.Teams {
		m.Teams = append(m.Teams, nil)
		for _, name := range team {
			pt, beta, err := h.Predictive(name, g.Time)
			if err != nil {
				t.Fatal(err)
			}
			if ts.Beta != 0 && beta != ts.Beta || beta == 0 {
				return 0, false
			}
			ts.Beta = beta
			m.Teams[j] = append(m.Teams[j], trueskill.Rating{Mu: pt.Mu, Sigma: pt.Sigma})
		}
	}
	res, err := ts.Rate(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	return res.LogEvidence, true
}

// TestLogEvidenceSharedGraphs: a history's log evidence of games of three
// or more teams of varied shapes, weights and β, from the shared outcome
// graphs, is that of a new graph for each game, bit for bit, and stays so
// when asked again after predictions of other shapes have run the graphs.
func TestLogEvidenceSharedGraphs(t *testing.T) {
	p := Params{Mu: 25, Sigma: 3, Beta: 1, Gamma: 0.2, DrawProbability: 0.2}
	games := outcomeGames(11, 80)
	h, fresh := outcomeHistories(t, p, games)
	_, want, err := fresh.LogEvidence()
	if err != nil {
		t.Fatal(err)
	}
	wants, _, _ := fresh.LogEvidence()
	for pass := range 2 {
		gots, got, err := h.LogEvidence()
		if err != nil {
			t.Fatal(err)
		}
		for k := range gots {
			if gots[k] != wants[k] {
				t.Errorf("pass %d: game %d %v: %v, a new graph %v", pass, k, games[k].Teams, gots[k], wants[k])
			}
		}
		if got != want || len(h.outcomes.graphs) == 0 || len(h.outcomes.graphs) >= len(games) {
			t.Errorf("pass %d: log evidence %v, new graphs %v; %d graphs for %d games", pass, got, want, len(h.outcomes.graphs), len(games))
		}
		for _, g := range outcomeGames(13, 10) {
			g.Time = 100
			if _, err := h.LogProbability(g); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestOutcomeGraphsBounded: a stream of games each of a new shape (every
// player with a β of their own) keeps at most outcomeSlots players' graphs,
// and each answer is still a new graph's.
func TestOutcomeGraphsBounded(t *testing.T) {
	p := Params{Sigma: 3, Beta: 1, Gamma: 0.2}
	const players = 3 * (outcomeSlots/3 + 100)
	priors := map[string]Player{}
	for i := range players {
		priors[fmt.Sprint("b", i)] = Player{Sigma: 3, Beta: 1 + float64(i)/players, Gamma: 0.2}
	}
	h, fresh, err := twins(p, nil, WithPriors(priors))
	if err != nil {
		t.Fatal(err)
	}
	most := 0
	for k := range players / 3 {
		g := Match{Teams: [][]string{{fmt.Sprint("b", 3*k)}, {fmt.Sprint("b", 3*k+1)}, {fmt.Sprint("b", 3*k+2)}}}
		got, err := h.LogProbability(g)
		if err != nil {
			t.Fatal(err)
		}
		if k%50 == 0 {
			if want, err := fresh.LogProbability(g); err != nil || got != want {
				t.Errorf("game %d: %v, a new graph %v (%v)", k, got, want, err)
			}
		}
		most = max(most, h.outcomes.slots)
		if n := 3 * len(h.outcomes.graphs); n != h.outcomes.slots {
			t.Fatalf("game %d: %d graphs count %d players", k, len(h.outcomes.graphs), h.outcomes.slots)
		}
	}
	if most > outcomeSlots || h.outcomes.slots >= most {
		t.Errorf("at most %d players held (bound %d), %d at the end", most, outcomeSlots, h.outcomes.slots)
	}
}

// TestOutcomeWeightsRefused: weights that trueskill.Params.Declare refuses
// (below 1e-9) give its error, ErrInput, whether or not the graph of the
// game's shape is held, and the weights of the graph held are untouched.
func TestOutcomeWeightsRefused(t *testing.T) {
	p := Params{Sigma: 3, Beta: 1, Gamma: 0.2}
	h, fresh, err := twins(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	g := Match{Teams: [][]string{{"a", "b"}, {"c"}, {"d", "e"}}, Weights: [][]float64{{1, 0.5}, {0.7}, {0.3, 0.9}}}
	bad := g
	bad.Weights = [][]float64{{1, 1e-12}, {0.7}, {0.3, 0.9}}
	var before float64
	for i, m := range []Match{bad, g, bad, g} {
		got, err := h.LogProbability(m)
		want, werr := fresh.LogProbability(m)
		if m.Weights[0][1] == 1e-12 {
			if !errors.Is(err, ErrInput) || werr == nil || err.Error() != werr.Error() || !strings.Contains(err.Error(), "weight 1e-12") {
				t.Errorf("call %d: %v, a new graph: %v", i, err, werr)
			}
			continue
		}
		if err != nil || got != want || i > 1 && got != before {
			t.Errorf("call %d: %v (%v), a new graph %v, before %v", i, got, err, want, before)
		}
		before = got
	}
}

// TestWeightOutsideDomainRefused checks that a history refuses a weight
// that TrueSkill's Rate refuses, in a 1v1 (the closed form's path) as in a
// larger game, naming it, and takes the domain's edges.
func TestWeightOutsideDomainRefused(t *testing.T) {
	p := Params{Sigma: 3, Beta: 1, Gamma: 0.2}
	ts := trueskill.DefaultParams()
	for _, w := range []float64{0, 1e-9, 1, 1e9, 5e-10, 1.1e9, -1, math.NaN(), math.Inf(1)} {
		for _, teams := range [][][]string{{{"a"}, {"b"}}, {{"a", "b"}, {"c"}}} {
			weights := make([][]float64, len(teams))
			rs := make([][]trueskill.Rating, len(teams))
			for j, team := range teams {
				for range team {
					weights[j] = append(weights[j], 1)
					rs[j] = append(rs[j], ts.NewRating())
				}
			}
			weights[0][0] = w
			_, err := New(p, []Match{{Teams: teams, Weights: weights}})
			_, tsErr := ts.Rate(context.Background(), trueskill.Match{Teams: rs, Weights: weights})
			inDomain := trueskill.ValidWeight(w)
			if inDomain != (tsErr == nil) {
				t.Errorf("weight %v: ValidWeight %v, trueskill.Rate: %v", w, inDomain, tsErr)
			}
			if inDomain && err != nil {
				t.Errorf("weight %v, teams %v: %v", w, teams, err)
			}
			if !inDomain && (!errors.Is(err, ErrInput) || !strings.Contains(err.Error(), fmt.Sprintf("weight %v", w))) {
				t.Errorf("weight %v, teams %v: %v, want ErrInput naming the weight", w, teams, err)
			}
		}
	}
}

// TestOutcomeAbsentTeamRefused checks that a team that took no part (all
// its weights 0) between two others is refused after the same shape with
// weights above 0 has been asked, as a graph of its own refuses it.
func TestOutcomeAbsentTeamRefused(t *testing.T) {
	p := Params{Sigma: 3, Beta: 1, Gamma: 0.2}
	h, fresh, err := twins(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	present := Match{Teams: [][]string{{"a", "b"}, {"c", "d"}, {"e", "f"}}, Weights: [][]float64{{1, 1}, {0.5, 0.5}, {1, 1}}}
	absent := present
	absent.Weights = [][]float64{{1, 1}, {0, 0}, {1, 1}}
	for i, m := range []Match{present, absent, present, absent} {
		got, err := h.LogProbability(m)
		want, werr := fresh.LogProbability(m)
		if m.Weights[1][0] == 0 {
			if !errors.Is(err, ErrInput) || werr == nil || !strings.Contains(err.Error(), "all weights of a team are 0") {
				t.Errorf("call %d: %v (%v), a new graph: %v", i, got, err, werr)
			}
			continue
		}
		if err != nil || got != want {
			t.Errorf("call %d: %v (%v), a new graph %v (%v)", i, got, err, want, werr)
		}
	}
}
