package exact_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/exact"
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/schedules"
)

// scaledSum is the constraint δ(s·x − Σⱼ yⱼ), edge 0 being x: a sum whose
// own coefficient is not 1, so that integrating x out of it leaves the
// factor 1/|s|. Solve reads only its linear form.
type scaledSum struct {
	scale float64
	terms int
}

func (f scaledSum) Arity() int { return 1 + f.terms }
func (scaledSum) Message(int, graph.Edges) (messages.Gaussian, error) {
	return messages.Gaussian{}, nil
}
func (f scaledSum) LinearForm() (a []float64, mean, variance float64) {
	a = make([]float64, 1+f.terms)
	a[0] = f.scale
	for j := 1; j < len(a); j++ {
		a[j] = -1
	}
	return a, 0, 0
}

// game is one contest of a league: two teams' weighted performances, the
// observed margin between them and, if scaled, an observation of their
// mean.
type game struct {
	teams   [2][]int
	weights [2][]float64
	margin  float64
	scaled  bool
	mean    float64
}

const handicap = 0.25 // an observed term of every home team's sum

func leagueGames(players, games int) []game {
	rng := rand.New(rand.NewPCG(5, 6))
	gs := make([]game, games)
	for g := range gs {
		perm := rng.Perm(players)
		na, nb := 2+rng.IntN(2), 2+rng.IntN(2)
		gs[g].teams = [2][]int{perm[:na], perm[na : na+nb]}
		for s := range 2 {
			for range gs[g].teams[s] {
				gs[g].weights[s] = append(gs[g].weights[s], 0.5+1.5*rng.Float64())
			}
		}
		gs[g].margin = 3 * rng.NormFloat64()
		gs[g].scaled = g%3 == 0
		gs[g].mean = 20 + 3*rng.NormFloat64()
	}
	return gs
}

// league builds players' skills and their performances in games. With
// sums, each team's performance t = Σ wⱼpⱼ (+ handicap for the home team),
// the margin d = t₀ − t₁ and, in scaled games, u with 2u = t₀ + t₁ are
// variables fixed by constraints, observed through d ~ N(margin, 1) and
// u ~ N(mean, 0.5), and the factors are added in a shuffled order. Without,
// those variables are integrated out by hand: the observations become
// linear-Gaussian factors of the performances. The scaled constraints have
// coefficient 2 on u, so the log evidence with sums is lower by log 2 for
// each.
func league(t *testing.T, gs []game, players int, sums bool) *graph.Graph {
	t.Helper()
	b := graph.NewBuilder("league")
	var add []func()
	skill := make([]graph.VarID, players)
	for i := range skill {
		skill[i] = b.AddVariable(fmt.Sprintf("s%d", i))
		add = append(add, func() { b.AddFactor(factors.NewPrior(25+float64(i%5), 4+float64(i%3)), "", skill[i]) })
	}
	var h graph.VarID
	if sums {
		h = b.AddObserved("handicap", handicap)
	}
	for g, gm := range gs {
		var perf [2][]graph.VarID
		for s, team := range gm.teams {
			for _, i := range team {
				p := b.AddVariable(fmt.Sprintf("p%d.%d", g, i))
				perf[s] = append(perf[s], p)
				add = append(add, func() { b.AddFactor(factors.NewLikelihood(2), "", p, skill[i]) })
			}
		}
		if !sums {
			a := append(append([]float64(nil), gm.weights[0]...), neg(gm.weights[1])...)
			vs := append(append([]graph.VarID(nil), perf[0]...), perf[1]...)
			add = append(add, func() { b.AddFactor(factors.NewLinearGaussian(a, handicap, gm.margin, 1), "", vs...) })
			if gm.scaled {
				half := append(append([]float64(nil), gm.weights[0]...), gm.weights[1]...)
				for j := range half {
					half[j] /= 2
				}
				add = append(add, func() { b.AddFactor(factors.NewLinearGaussian(half, handicap/2, gm.mean, 0.5), "", vs...) })
			}
			continue
		}
		t0, t1 := b.AddVariable(fmt.Sprintf("t%d.0", g)), b.AddVariable(fmt.Sprintf("t%d.1", g))
		d := b.AddVariable(fmt.Sprintf("d%d", g))
		w0 := append(append([]float64(nil), gm.weights[0]...), 1)
		add = append(add,
			func() {
				b.AddFactor(factors.NewWeightedSum(w0...), "", append([]graph.VarID{t0}, append(perf[0], h)...)...)
			},
			func() {
				b.AddFactor(factors.NewWeightedSum(gm.weights[1]...), "", append([]graph.VarID{t1}, perf[1]...)...)
			},
			func() { b.AddFactor(factors.NewDifference(), "", d, t0, t1) },
			func() { b.AddFactor(factors.NewGaussianObservation(gm.margin, 1), "", d) })
		if gm.scaled {
			u := b.AddVariable(fmt.Sprintf("u%d", g))
			add = append(add,
				func() { b.AddFactor(scaledSum{scale: 2, terms: 2}, "", u, t0, t1) },
				func() { b.AddFactor(factors.NewGaussianObservation(gm.mean, 0.5), "", u) })
		}
	}
	if sums {
		rng := rand.New(rand.NewPCG(7, 8))
		rng.Shuffle(len(add), func(i, j int) { add[i], add[j] = add[j], add[i] })
	}
	for _, f := range add {
		f()
	}
	return build(t, b)
}

func neg(w []float64) []float64 {
	n := make([]float64, len(w))
	for i, x := range w {
		n[i] = -x
	}
	return n
}

// A loopy league with a few hundred constraints, weighted (so that the
// constraints' pivots are not all 1) and nested (margins of sums), solved
// as written and with the constrained variables integrated out by hand:
// the skills and performances have one posterior, and the evidence differs
// by the Jacobian of the scaled constraints only.
func TestConstraintsAgreeWithIntegratingOutByHand(t *testing.T) {
	const players = 12
	gs := leagueGames(players, 60)
	withSums, without := league(t, gs, players, true), league(t, gs, players, false)
	scaled := 0
	for _, gm := range gs {
		if gm.scaled {
			scaled++
		}
	}
	constraints := 3*len(gs) + scaled
	if n := withSums.NumVariables() - without.NumVariables(); n != constraints+1 { // and the handicap
		t.Fatalf("%d more variables with sums, want %d", n, constraints+1)
	}
	a, err := exact.Solve(withSums)
	if err != nil {
		t.Fatal(err)
	}
	b, err := exact.Solve(without)
	if err != nil {
		t.Fatal(err)
	}
	for v := range without.NumVariables() {
		name := without.VariableName(graph.VarID(v))
		w, ok := withSums.Variable(name)
		if !ok {
			t.Fatalf("no variable %s with sums", name)
		}
		got, want := a.Marginals[w], b.Marginals[v]
		if !close(got.Mean(), want.Mean(), 1e-9) || !close(got.Variance(), want.Variance(), 1e-9) {
			t.Errorf("%s: with sums N(%v, %v), integrated out N(%v, %v)", name, got.Mean(), got.Variance(), want.Mean(), want.Variance())
		}
	}
	// ∫δ(2u − c)·N(y; u, v) du = ½·N(y; c/2, v).
	if want := b.LogEvidence - float64(scaled)*math.Ln2; !close(a.LogEvidence, want, 1e-9) {
		t.Errorf("log evidence with sums %v, want %v (integrated out %v)", a.LogEvidence, want, b.LogEvidence)
	}
}

// A chain of games, each sharing one player with the next: a tree with
// many constraints, on which message passing is exact for every variable,
// the constrained ones included.
func TestConstraintsOnATreeAgreeWithMessagePassing(t *testing.T) {
	b := graph.NewBuilder("chain of games")
	link := b.AddVariable("s0")
	b.AddFactor(factors.NewPrior(25, 8), "", link)
	rng := rand.New(rand.NewPCG(9, 10))
	// team adds a team of the players with skills s (new ones where
	// s[j] < 0) and returns its performance and the last player's skill.
	team := func(name string, s []graph.VarID) (graph.VarID, graph.VarID) {
		vs := []graph.VarID{b.AddVariable("t" + name)}
		var w []float64
		for j := range s {
			if s[j] < 0 {
				s[j] = b.AddVariable(fmt.Sprintf("s%s.%d", name, j))
				b.AddFactor(factors.NewPrior(20+10*rng.Float64(), 2+6*rng.Float64()), "", s[j])
			}
			p := b.AddVariable(fmt.Sprintf("p%s.%d", name, j))
			b.AddFactor(factors.NewLikelihood(4), "", p, s[j])
			vs, w = append(vs, p), append(w, 0.5+rng.Float64())
		}
		b.AddFactor(factors.NewWeightedSum(w...), "", vs...)
		return vs[0], s[len(s)-1]
	}
	for g := range 40 {
		t0, _ := team(fmt.Sprintf("%d.0", g), []graph.VarID{link, -1})
		t1, last := team(fmt.Sprintf("%d.1", g), []graph.VarID{-1, -1, -1})
		d := b.AddVariable(fmt.Sprintf("d%d", g))
		b.AddFactor(factors.NewDifference(), "", d, t0, t1)
		b.AddFactor(factors.NewGaussianObservation(4*rng.NormFloat64(), 1+rng.Float64()), "", d)
		link = last
	}
	g := build(t, b)
	sol, err := exact.Solve(g)
	if err != nil {
		t.Fatal(err)
	}
	s, err := schedules.Tree(g)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := schedules.Run(context.Background(), g, s); err != nil {
		t.Fatal(err)
	}
	for v := range g.NumVariables() {
		got, want := g.Marginal(graph.VarID(v)), sol.Marginals[v]
		if !close(got.Mean(), want.Mean(), 1e-9) || !close(got.Variance(), want.Variance(), 1e-9) {
			t.Errorf("%s: message passing N(%v, %v), exact N(%v, %v)", g.VariableName(graph.VarID(v)), got.Mean(), got.Variance(), want.Mean(), want.Variance())
		}
	}
	lz, err := g.LogEvidence()
	if err != nil {
		t.Fatal(err)
	}
	if !close(lz, sol.LogEvidence, 1e-9) {
		t.Errorf("log evidence: message passing %v, exact %v", lz, sol.LogEvidence)
	}
}

// Constraints that follow from, or contradict, the others only once
// earlier ones are substituted into them.
func TestDependentConstraints(t *testing.T) {
	for _, c := range []struct {
		name string
		u    float64 // the observed value in u = a + o
	}{{"follows", 0.5}, {"contradicts", 0.7}} {
		b := graph.NewBuilder(c.name)
		x, y := b.AddVariable("x"), b.AddVariable("y")
		s, u := b.AddVariable("s"), b.AddVariable("u")
		o1, o2 := b.AddObserved("o1", 0.5), b.AddObserved("o2", c.u)
		b.AddFactor(factors.NewPrior(0, 1), "", x)
		b.AddFactor(factors.NewPrior(0, 1), "", y)
		b.AddFactor(factors.NewWeightedSum(1, 1), "", s, x, y)         // s = x + y
		b.AddFactor(factors.NewWeightedSum(1, -1, 1), "", u, s, y, o1) // u = s − y + o1 = x + 0.5
		b.AddFactor(factors.NewWeightedSum(1, 1), "", u, x, o2)        // u = x + o2
		if _, err := exact.Solve(build(t, b)); !errors.Is(err, messages.ErrInput) || !strings.Contains(err.Error(), "follows from the others or contradicts them") {
			t.Errorf("%s: %v, want %v: the constraint follows from the others or contradicts them", c.name, err, messages.ErrInput)
		}
	}
}
