package schedules_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/exact"
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/schedules"
)

var bg = context.Background()

func mustGraph(t testing.TB, b *graph.Builder) *graph.Graph {
	t.Helper()
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// history is a history-shaped graph: players whose skills at successive
// time steps are linked by drift, games between pairs at each step.
type history struct {
	g     *graph.Graph
	rank  []int // time step of each variable
	prior []graph.FactorID
	// Per time step: the drift factors into it (edge 0 is the later skill)
	// and its games' factors with their hand-written two-pass order.
	drift [][]graph.FactorID
	games [][][]*schedules.StepSchedule // per step, per game: the down-then-up order
}

// newHistory builds players×steps with games per step between disjoint
// pairs of randomly chosen players; linear games observe a margin through
// a LinearGaussian factor on the two skills, TrueSkill games add
// performances, a difference and a win factor.
func newHistory(t testing.TB, players, steps, games int, trueskill bool, seed uint64) *history {
	rng := rand.New(rand.NewPCG(seed, 1))
	b := graph.NewBuilder("history")
	h := &history{drift: make([][]graph.FactorID, steps), games: make([][][]*schedules.StepSchedule, steps)}
	last := make([]graph.VarID, players)
	for p := range last {
		last[p] = -1
	}
	addVar := func(name string, step int) graph.VarID {
		v := b.AddVariable(name)
		h.rank = append(h.rank, step)
		return v
	}
	skill := make([]float64, players)
	for p := range skill {
		skill[p] = rng.NormFloat64() * 3
	}
	for step := range steps {
		perm := rng.Perm(players)
		for k := 0; k < games && 2*k+1 < players; k++ {
			pair := [2]int{perm[2*k], perm[2*k+1]}
			var s [2]graph.VarID
			for j, p := range pair {
				s[j] = addVar(fmt.Sprintf("s%d@%d", p, step), step)
				if last[p] < 0 {
					h.prior = append(h.prior, b.AddFactor(factors.NewPrior(0, 9), "", s[j]))
				} else {
					h.drift[step] = append(h.drift[step], b.AddFactor(factors.NewLikelihood(0.5), "", s[j], last[p]))
				}
				last[p] = s[j]
			}
			st := schedules.Step
			if !trueskill {
				margin := skill[pair[0]] - skill[pair[1]] + rng.NormFloat64()
				f := b.AddFactor(factors.NewLinearGaussian([]float64{1, -1}, 0, margin, 2), "", s[0], s[1])
				h.games[step] = append(h.games[step], []*schedules.StepSchedule{st(f, 0), st(f, 1)})
				continue
			}
			var perf [2]graph.VarID
			var like [2]graph.FactorID
			for j := range 2 {
				perf[j] = addVar(fmt.Sprintf("p%d@%d", pair[j], step), step)
				like[j] = b.AddFactor(factors.NewLikelihood(4), "", perf[j], s[j])
			}
			if skill[pair[0]]+rng.NormFloat64()*2 < skill[pair[1]] {
				perf[0], perf[1], like[0], like[1] = perf[1], perf[0], like[1], like[0]
			}
			d := addVar(fmt.Sprintf("d%d,%d@%d", pair[0], pair[1], step), step)
			diff := b.AddFactor(factors.NewDifference(), "", d, perf[0], perf[1])
			win := b.AddFactor(factors.NewGreaterThan(0.1), "", d)
			h.games[step] = append(h.games[step], []*schedules.StepSchedule{
				st(like[0], 0), st(like[1], 0), st(diff, 0), st(win, 0), st(diff, 1), st(diff, 2), st(like[0], 1), st(like[1], 1)})
		}
	}
	h.g = mustGraph(t, b)
	return h
}

// handWritten is the forward-backward order a modeller writes for a
// history: forward through time (drift into each step, then its games),
// then backward (each step's games, then drift back out of it).
func (h *history) handWritten(opts ...schedules.LoopOption) schedules.Schedule {
	var pre, body []schedules.Schedule
	for _, f := range h.prior {
		pre = append(pre, schedules.Step(f, 0))
	}
	game := func(step int) {
		for _, g := range h.games[step] {
			for _, s := range g {
				body = append(body, s)
			}
		}
	}
	for step := range h.drift {
		for _, f := range h.drift[step] {
			body = append(body, schedules.Step(f, 0))
		}
		game(step)
	}
	for step := len(h.drift) - 1; step >= 0; step-- {
		game(step)
		for _, f := range h.drift[step] {
			body = append(body, schedules.Step(f, 1))
		}
	}
	return schedules.Sequence(schedules.Sequence(pre...), schedules.Loop(schedules.Sequence(body...), opts...))
}

func run(t testing.TB, g *graph.Graph, s schedules.Schedule) schedules.Convergence {
	t.Helper()
	g.Reset()
	res, err := schedules.Run(bg, g, s)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// assertExactMeans compares every latent marginal mean of g with the
// exact solve (loopy Gaussian message passing converges to the exact
// means) and reports the worst variance ratio.
func assertExactMeans(t *testing.T, g *graph.Graph, tol float64) (worstVarianceRatio float64) {
	t.Helper()
	sol, err := exact.Solve(g)
	if err != nil {
		t.Fatal(err)
	}
	worstVarianceRatio = 1
	for v := range g.NumVariables() {
		got, want := g.Marginal(graph.VarID(v)), sol.Marginals[v]
		if want.IsPointMass() {
			continue
		}
		if d := math.Abs(got.Mean() - want.Mean()); !(d <= tol*math.Max(1, math.Abs(want.Mean()))) {
			t.Errorf("%s: mean %.12g, exact %.12g", g.VariableName(graph.VarID(v)), got.Mean(), want.Mean())
		}
		worstVarianceRatio = math.Min(worstVarianceRatio, got.Variance()/want.Variance())
	}
	return worstVarianceRatio
}

func TestDeriveTreeIsExact(t *testing.T) {
	b := graph.NewBuilder("tree")
	root := b.AddVariable("root")
	b.AddFactor(factors.NewPrior(1, 4), "", root)
	rng := rand.New(rand.NewPCG(3, 3))
	vars := []graph.VarID{root}
	for i := range 40 {
		parent := vars[rng.IntN(len(vars))]
		v := b.AddVariable(fmt.Sprintf("v%d", i))
		b.AddFactor(factors.NewLikelihood(0.5+rng.Float64()), "", v, parent)
		if i%3 == 0 {
			b.AddFactor(factors.NewGaussianObservation(rng.NormFloat64(), 1), "", v)
		}
		vars = append(vars, v)
	}
	g := mustGraph(t, b)
	s, err := schedules.Derive(g)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.(*schedules.SequenceSchedule); !ok {
		t.Errorf("Derive on a tree: %T, want the two passes", s)
	}
	if err := schedules.Check(g, s); err != nil {
		t.Error(err)
	}
	run(t, g, s)
	if r := assertExactMeans(t, g, 1e-12); math.Abs(r-1) > 1e-12 {
		t.Errorf("variance ratio %v on a tree, want 1", r)
	}
}

// undeclared is a win factor whose author declared neither Approximate nor
// a linear form: schedules must still treat it as approximate.
type undeclared struct{ win *factors.GreaterThan }

func (u undeclared) Arity() int { return 1 }
func (u undeclared) Message(i int, e graph.Edges) (messages.Gaussian, error) {
	return u.win.Message(i, e)
}

// TestDeriveTreeSendsApproximateLast checks that on a tree whose one
// approximate factor does not say so, Derive's two passes reach the EP
// fixed point (flooding run to convergence): the factor must send after
// its cavity is complete, or its message is computed from a flat cavity
// and nothing moves.
func TestDeriveTreeSendsApproximateLast(t *testing.T) {
	b := graph.NewBuilder("one game")
	s1, s2 := b.AddVariable("s1"), b.AddVariable("s2")
	p1, p2, d := b.AddVariable("p1"), b.AddVariable("p2"), b.AddVariable("d")
	b.AddFactor(factors.NewPrior(25, 69), "", s1)
	b.AddFactor(factors.NewPrior(28, 40), "", s2)
	b.AddFactor(factors.NewLikelihood(17), "", p1, s1)
	b.AddFactor(factors.NewLikelihood(17), "", p2, s2)
	b.AddFactor(factors.NewDifference(), "", d, p1, p2)
	b.AddFactor(undeclared{factors.NewGreaterThan(0.7)}, "", d)
	g := mustGraph(t, b)
	s, err := schedules.Derive(g)
	if err != nil {
		t.Fatal(err)
	}
	run(t, g, s)
	got := []messages.Gaussian{g.Marginal(s1), g.Marginal(s2)}
	g.Reset()
	run(t, g, schedules.Flooding(g, schedules.Tolerance(1e-14), schedules.MaxIterations(1000)))
	for i, want := range []messages.Gaussian{g.Marginal(s1), g.Marginal(s2)} {
		if math.Abs(got[i].Mean()-want.Mean()) > 1e-9 || math.Abs(got[i].Variance()-want.Variance()) > 1e-9 {
			t.Errorf("s%d: derived %v, flooding %v", i+1, got[i], want)
		}
	}
	if got[0].Mean() <= 25 {
		t.Errorf("the winner's mean %v did not rise", got[0].Mean())
	}
}

func TestDeriveChainIsExactAfterOnePass(t *testing.T) {
	const n = 300
	b := graph.NewBuilder("chain")
	rng := rand.New(rand.NewPCG(5, 5))
	var prev graph.VarID
	for i := range n {
		v := b.AddVariable(fmt.Sprintf("x%d", i))
		b.AddFactor(factors.NewGaussianObservation(rng.NormFloat64(), 2), "", v)
		if i > 0 {
			b.AddFactor(factors.NewLikelihood(0.1), "", v, prev)
		}
		prev = v
	}
	g := mustGraph(t, b)
	s, err := schedules.Derive(g, schedules.WithLoop(schedules.Tolerance(1e-10)))
	if err != nil {
		t.Fatal(err)
	}
	res := run(t, g, s)
	if res.Iterations > 1 {
		// A chain is a tree: Derive gives two passes and no loop.
		t.Errorf("chain: %d loop passes, want none", res.Iterations)
	}
	assertExactMeans(t, g, 1e-12)
}

func TestDeriveGrid(t *testing.T) {
	const w, hgt = 8, 8
	b := graph.NewBuilder("grid")
	rng := rand.New(rand.NewPCG(7, 7))
	id := func(i, j int) graph.VarID { return graph.VarID(i*hgt + j) }
	for i := range w {
		for j := range hgt {
			b.AddVariable(fmt.Sprintf("x%d,%d", i, j))
		}
	}
	for i := range w {
		for j := range hgt {
			b.AddFactor(factors.NewGaussianObservation(rng.NormFloat64(), 4), "", id(i, j))
			if i+1 < w {
				b.AddFactor(factors.NewLikelihood(1), "", id(i, j), id(i+1, j))
			}
			if j+1 < hgt {
				b.AddFactor(factors.NewLikelihood(1), "", id(i, j), id(i, j+1))
			}
		}
	}
	g := mustGraph(t, b)
	s, err := schedules.Derive(g, schedules.WithLoop(schedules.Tolerance(1e-12), schedules.MaxIterations(1000)))
	if err != nil {
		t.Fatal(err)
	}
	if err := schedules.Check(g, s); err != nil {
		t.Fatal(err)
	}
	derived := run(t, g, s)
	if !derived.Converged {
		t.Fatalf("derived: %+v", derived)
	}
	ratio := assertExactMeans(t, g, 1e-9)
	flood := run(t, g, schedules.Flooding(g, schedules.Tolerance(1e-12), schedules.MaxIterations(5000)))
	t.Logf("8×8 grid to 1e-12: derived %d passes, flooding %d; loopy variances down to %.3f of exact", derived.Iterations, flood.Iterations, ratio)
	if !(ratio < 1) {
		t.Errorf("loopy variance ratio %v, want < 1 on a grid", ratio)
	}
	if derived.Iterations*2 > flood.Iterations {
		t.Errorf("derived %d passes, flooding %d: want at most half", derived.Iterations, flood.Iterations)
	}
}

// TestDeriveHistory is the target of derived schedules: on history-shaped
// graphs, at most 1.5× the passes of the hand-written forward-backward
// order and at least 5× fewer than flooding (see below for linear
// histories), at the default tolerance, reaching the exact means on
// linear-Gaussian histories and the hand-written schedule's fixed point on
// TrueSkill histories.
func TestDeriveHistory(t *testing.T) {
	for _, trueskill := range []bool{false, true} {
		for seed := range uint64(3) {
			name := fmt.Sprintf("linear/%d", seed)
			if trueskill {
				name = fmt.Sprintf("trueskill/%d", seed)
			}
			t.Run(name, func(t *testing.T) {
				h := newHistory(t, 12, 20, 4, trueskill, seed)
				const tol = 1e-6
				loop := []schedules.LoopOption{schedules.Tolerance(tol), schedules.MaxIterations(5000)}
				hand := run(t, h.g, h.handWritten(loop...))
				s, err := schedules.Derive(h.g, schedules.ByRank(func(v graph.VarID) int { return h.rank[v] }), schedules.WithLoop(loop...))
				if err != nil {
					t.Fatal(err)
				}
				if err := schedules.Check(h.g, s); err != nil {
					t.Fatal(err)
				}
				derived := run(t, h.g, s)
				unranked, err := schedules.Derive(h.g, schedules.WithLoop(loop...))
				if err != nil {
					t.Fatal(err)
				}
				plain := run(t, h.g, unranked)
				flood := run(t, h.g, schedules.Flooding(h.g, loop...))
				t.Logf("passes to %g: hand-written %d, derived by time %d, derived in build order %d, flooding %d", tol, hand.Iterations, derived.Iterations, plain.Iterations, flood.Iterations)
				for _, r := range []schedules.Convergence{hand, derived, plain, flood} {
					if !r.Converged {
						t.Fatalf("not converged: %+v", r)
					}
				}
				if 2*derived.Iterations > 3*hand.Iterations {
					t.Errorf("derived %d passes, hand-written %d: want ≤ 1.5×", derived.Iterations, hand.Iterations)
				}
				// On these strongly coupled linear histories the loops' slow
				// mode bounds every sweep order, the hand-written one too,
				// so the gain asked over flooding is smaller than on
				// TrueSkill's.
				gain := 4
				if trueskill {
					gain = 5
				}
				if gain*derived.Iterations > flood.Iterations {
					t.Errorf("derived %d passes, flooding %d: want ≥ 5× fewer on TrueSkill histories, 4× on linear ones", derived.Iterations, flood.Iterations)
				}
				// The same fixed point: a change below the tolerance a pass
				// is not an error below it, so both are run much further.
				tight := []schedules.LoopOption{schedules.Tolerance(1e-13), schedules.MaxIterations(20000)}
				run(t, h.g, h.handWritten(tight...))
				want := marginals(h.g)
				s, err = schedules.Derive(h.g, schedules.ByRank(func(v graph.VarID) int { return h.rank[v] }), schedules.WithLoop(tight...))
				if err != nil {
					t.Fatal(err)
				}
				run(t, h.g, s)
				got := marginals(h.g)
				for v := range got {
					if math.Abs(got[v][0]-want[v][0]) > 1e-9 || math.Abs(got[v][1]-want[v][1]) > 1e-9*want[v][1] {
						t.Errorf("%s: derived N(%v, %v), hand-written N(%v, %v)", h.g.VariableName(graph.VarID(v)), got[v][0], got[v][1], want[v][0], want[v][1])
					}
				}
				if !trueskill {
					// A change below 1e-6 a pass is not an error below 1e-6
					// when passes gain little each: converge fully first.
					tight, err := schedules.Derive(h.g, schedules.ByRank(func(v graph.VarID) int { return h.rank[v] }),
						schedules.WithLoop(schedules.Tolerance(1e-14), schedules.MaxIterations(5000)))
					if err != nil {
						t.Fatal(err)
					}
					run(t, h.g, tight)
					assertExactMeans(t, h.g, 1e-9)
				}
			})
		}
	}
}

func marginals(g *graph.Graph) [][2]float64 {
	out := make([][2]float64, g.NumVariables())
	for v := range out {
		m := g.Marginal(graph.VarID(v))
		out[v] = [2]float64{m.Mean(), m.Variance()}
	}
	return out
}

func TestTreeOfSubgraph(t *testing.T) {
	h := newHistory(t, 6, 3, 3, true, 9)
	// The factors of one game at step 1.
	var game []graph.FactorID
	for _, s := range h.games[1][0] {
		if !slices.Contains(game, s.Factor) {
			game = append(game, s.Factor)
		}
	}
	s, err := schedules.TreeOf(h.g, game)
	if err != nil {
		t.Fatal(err)
	}
	err = schedules.Check(h.g, s)
	var ce *schedules.CoverageError
	if !errors.As(err, &ce) {
		t.Fatalf("Check of one game's schedule on the whole history: %v, want a CoverageError", err)
	}
	// Exactly the edges of the game's factors are covered.
	inGame := map[graph.FactorID]bool{}
	for _, f := range game {
		inGame[f] = true
	}
	for _, m := range ce.Missing {
		if inGame[m.Factor] {
			t.Errorf("TreeOf misses %v", m)
		}
	}
	gameEdges := 0
	for _, f := range game {
		gameEdges += h.g.Arity(f)
	}
	if len(ce.Missing) != h.g.NumEdges()-gameEdges {
		t.Errorf("%d edges missing, want all %d outside the game", len(ce.Missing), h.g.NumEdges()-gameEdges)
	}
	if _, err := schedules.TreeOf(h.g, []graph.FactorID{graph.FactorID(h.g.NumFactors())}); !errors.Is(err, messages.ErrInput) {
		t.Errorf("TreeOf with a missing factor: %v, want messages.ErrInput", err)
	}
}

func TestCheckNamesEveryGap(t *testing.T) {
	b := graph.NewBuilder("gaps")
	x, y := b.AddVariable("x"), b.AddVariable("y")
	o := b.AddObserved("o", 2)
	prior := b.AddFactor(factors.NewPrior(0, 1), "", x)
	like := b.AddFactor(factors.NewLikelihood(1), "link", y, x)
	obs := b.AddFactor(factors.NewLinearGaussian([]float64{1, 1}, 0, 3, 1), "", y, o)
	g := mustGraph(t, b)
	// Forgets like's edge 1 (to x) and obs's edge 0 (to y), names a missing
	// edge; obs's edge 1 goes to an observed variable and is not required.
	s := schedules.Sequence(schedules.Step(prior, 0), schedules.Step(like, 0), schedules.Step(like, 7),
		schedules.Loop(schedules.Step(graph.FactorID(9), 0)))
	err := schedules.Check(g, s)
	var ce *schedules.CoverageError
	if !errors.As(err, &ce) || !errors.Is(err, messages.ErrInput) {
		t.Fatalf("Check: %v", err)
	}
	if len(ce.Missing) != 2 || ce.Missing[0] != (schedules.Edge{Factor: like, Label: "link", Edge: 1, Variable: "x"}) ||
		ce.Missing[1].Factor != obs || ce.Missing[1].Edge != 0 || ce.Missing[1].Variable != "y" {
		t.Errorf("missing %v", ce.Missing)
	}
	if len(ce.Unknown) != 2 || ce.Unknown[0] != (schedules.Edge{Factor: like, Edge: 7}) || ce.Unknown[1] != (schedules.Edge{Factor: 9, Edge: 0}) {
		t.Errorf("unknown %v", ce.Unknown)
	}
	for _, want := range []string{"no step updates factor 1 link edge 1 (to x)", "factor 9 edge 0, which the graph lacks"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	full := schedules.Sequence(s.Parts[0], schedules.AllEdges(g, like), schedules.AllEdges(g, obs))
	if err := schedules.Check(g, full); err != nil {
		t.Errorf("complete schedule: %v", err)
	}
	if err := schedules.Check(nil, full); !errors.Is(err, messages.ErrInput) {
		t.Errorf("nil graph: %v", err)
	}
}
