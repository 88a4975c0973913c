package schedules_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/schedules"
)

// refTree is Tree's two passes over a subgraph, written from TreeOf's
// documentation in the plainest way: a breadth-first search from each
// root (variables of approximate factors first, then every variable, in
// factor order) that scans every edge of each variable it reaches, the
// approximate factors' first; a variable reached twice is a cycle. The
// up pass sends each factor's message to its parent, last visited first;
// the down pass sends the others, first visited first.
func refTree(g *graph.Graph, factors []graph.FactorID) ([]schedules.Schedule, bool) {
	in := map[graph.FactorID]bool{}
	for _, f := range factors {
		in[f] = true
	}
	approx := func(f graph.FactorID) bool { return !graph.IsExact(g.Factor(f)) }
	var roots []graph.VarID
	for _, f := range factors {
		if approx(f) {
			roots = append(roots, g.EdgeVariable(f, 0))
		}
	}
	for _, f := range factors {
		for i := range g.Arity(f) {
			roots = append(roots, g.EdgeVariable(f, i))
		}
	}
	reached := map[graph.VarID]bool{}
	done := map[graph.FactorID]bool{}
	type visit struct {
		f  graph.FactorID
		up int
	}
	var order []visit
	for _, r := range roots {
		if reached[r] {
			continue
		}
		reached[r] = true
		for queue := []graph.VarID{r}; len(queue) > 0; queue = queue[1:] {
			v := queue[0]
			for _, wantApprox := range []bool{true, false} {
				for k := range g.Degree(v) {
					f, up := g.VariableEdge(v, k)
					if !in[f] || done[f] || approx(f) != wantApprox {
						continue
					}
					done[f] = true
					order = append(order, visit{f, up})
					for i := range g.Arity(f) {
						if w := g.EdgeVariable(f, i); i != up {
							if reached[w] {
								return nil, false
							}
							reached[w] = true
							queue = append(queue, w)
						}
					}
				}
			}
		}
	}
	var steps []schedules.Schedule
	for _, o := range slices.Backward(order) {
		steps = append(steps, schedules.Step(o.f, o.up))
	}
	for _, o := range order {
		for i := range g.Arity(o.f) {
			if i != o.up {
				steps = append(steps, schedules.Step(o.f, i))
			}
		}
	}
	return steps, true
}

// step is one update of a walk through a schedule, with the name of the
// loop around it.
type step struct {
	f    graph.FactorID
	edge int
	loop string
}

func walkSteps(s schedules.Schedule) []step {
	var out []step
	schedules.Walk(s, func(st *schedules.StepSchedule, l *schedules.LoopSchedule) {
		name := "-"
		if l != nil {
			name = l.Name
		}
		out = append(out, step{st.Factor, st.Edge, name})
	})
	return out
}

// refDerive is the pass of Derive's schedule as its documentation states
// it, by brute force: a tree's two passes (in a loop named "tree passes"
// if more than one factor is approximate); otherwise slices of factors by
// the highest rank of their variables (the first factor on a variable
// unless rank is given), consecutive slices merged while refTree finds
// their union a tree, a slice that is loopy by itself updated factor by
// factor, and the parts run forward then backward in a loop named
// "sweeps".
func refDerive(g *graph.Graph, rank func(graph.VarID) int) []step {
	all := make([]graph.FactorID, g.NumFactors())
	approximate := 0
	for f := range all {
		all[f] = graph.FactorID(f)
		if !graph.IsExact(g.Factor(all[f])) {
			approximate++
		}
	}
	label := func(steps []schedules.Schedule, loop string) []step {
		return walkSteps(schedules.Loop(schedules.Sequence(steps...), schedules.Name(loop)))
	}
	if steps, ok := refTree(g, all); ok {
		if approximate <= 1 {
			return walkSteps(schedules.Sequence(steps...))
		}
		return label(steps, "tree passes")
	}
	if rank == nil {
		rank = func(v graph.VarID) int {
			r := g.NumFactors()
			for k := range g.Degree(v) {
				f, _ := g.VariableEdge(v, k)
				r = min(r, int(f))
			}
			return r
		}
	}
	byRank := map[int][]graph.FactorID{}
	for _, f := range all {
		r := rank(g.EdgeVariable(f, 0))
		for i := range g.Arity(f) {
			r = max(r, rank(g.EdgeVariable(f, i)))
		}
		byRank[r] = append(byRank[r], f)
	}
	ranks := make([]int, 0, len(byRank))
	for r := range byRank {
		ranks = append(ranks, r)
	}
	slices.Sort(ranks)
	var parts [][]schedules.Schedule
	var chunk []graph.FactorID
	flush := func() {
		if len(chunk) == 0 {
			return
		}
		steps, ok := refTree(g, chunk)
		if !ok {
			steps = nil
			for _, f := range chunk {
				for i := range g.Arity(f) {
					steps = append(steps, schedules.Step(f, i))
				}
			}
		}
		parts = append(parts, steps)
		chunk = nil
	}
	for _, r := range ranks {
		s := byRank[r]
		if _, ok := refTree(g, append(slices.Clone(chunk), s...)); ok {
			chunk = append(chunk, s...)
			continue
		}
		flush()
		chunk = s
		if _, ok := refTree(g, s); !ok {
			flush()
		}
	}
	flush()
	var body []schedules.Schedule
	for _, p := range parts {
		body = append(body, p...)
	}
	for _, p := range slices.Backward(parts) {
		body = append(body, p...)
	}
	return label(body, "sweeps")
}

// randomGraph returns a graph of n variables: a random tree (each variable
// after the first joined to earlier ones by a factor of two or three
// edges) or, if loopy, factors of one to three edges on random variables,
// with priors, observations and truncations (approximate) on some, its
// factors added in a random order.
func randomGraph(t *testing.T, rng *rand.Rand, n int, loopy bool) *graph.Graph {
	t.Helper()
	type factor struct {
		f    graph.Factor
		vars []int
	}
	var fs []factor
	pair := func(a, b int) factor {
		if rng.IntN(2) == 0 {
			return factor{factors.NewLikelihood(1 + rng.Float64()), []int{a, b}}
		}
		return factor{factors.NewEquality(), []int{a, b}}
	}
	triple := func(a, b, c int) factor { return factor{factors.NewDifference(), []int{a, b, c}} }
	single := func(a int) factor {
		switch rng.IntN(3) {
		case 0:
			return factor{factors.NewGreaterThan(0), []int{a}}
		case 1:
			return factor{factors.NewGaussianObservation(rng.NormFloat64(), 1), []int{a}}
		}
		return factor{factors.NewPrior(0, 4), []int{a}}
	}
	fs = append(fs, factor{factors.NewPrior(0, 4), []int{0}})
	if loopy {
		for range 2 * n {
			p := rng.Perm(n)
			switch rng.IntN(3) {
			case 0:
				fs = append(fs, single(p[0]))
			case 1:
				fs = append(fs, pair(p[0], p[1]))
			default:
				fs = append(fs, triple(p[0], p[1], p[2]))
			}
		}
	}
	for v := 1; v < n; v++ {
		if loopy {
			fs = append(fs, single(v)) // no variable is isolated
			continue
		}
		if v+1 < n && rng.IntN(3) == 0 {
			fs = append(fs, triple(v, v+1, rng.IntN(v)))
			v++
			continue
		}
		fs = append(fs, pair(v, rng.IntN(v)))
	}
	for v := range n {
		if rng.IntN(4) == 0 {
			fs = append(fs, single(v))
		}
	}
	rng.Shuffle(len(fs), func(i, j int) { fs[i], fs[j] = fs[j], fs[i] })
	b := graph.NewBuilder("random")
	vars := make([]graph.VarID, n)
	for v := range vars {
		vars[v] = b.AddVariable(fmt.Sprint("x", v))
	}
	for _, f := range fs {
		ids := make([]graph.VarID, len(f.vars))
		for k, v := range f.vars {
			ids[k] = vars[v]
		}
		b.AddFactor(f.f, "", ids...)
	}
	return mustGraph(t, b)
}

// TestDeriveMatchesReference compares every step of Derive's schedule,
// and the loop around it, with refDerive's on random trees, random loopy
// graphs (in build order and under a random ByRank) and small leagues
// with a home advantage in every match.
func TestDeriveMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 4))
	check := func(t *testing.T, g *graph.Graph, rank func(graph.VarID) int) {
		t.Helper()
		var opts []schedules.DeriveOption
		if rank != nil {
			opts = append(opts, schedules.ByRank(rank))
		}
		s, err := schedules.Derive(g, opts...)
		if err != nil {
			t.Fatal(err)
		}
		got, want := walkSteps(s), refDerive(g, rank)
		if !slices.Equal(got, want) {
			t.Fatalf("%d steps, want %d; first difference at %d", len(got), len(want), firstDiff(got, want))
		}
		if err := schedules.Check(g, s); err != nil {
			t.Fatal(err)
		}
	}
	loops := map[string]int{}
	for trial := range 300 {
		loopy := trial%2 == 1
		g := randomGraph(t, rng, 3+rng.IntN(40), loopy)
		t.Run(fmt.Sprintf("random%d", trial), func(t *testing.T) { check(t, g, nil) })
		s, _ := schedules.Derive(g)
		if l, ok := s.(*schedules.LoopSchedule); ok {
			loops[l.Name]++
		} else {
			loops["tree"]++
		}
		if loopy {
			ranks := make([]int, g.NumVariables())
			for v := range ranks {
				ranks[v] = rng.IntN(10)
			}
			t.Run(fmt.Sprintf("ranked%d", trial), func(t *testing.T) {
				check(t, g, func(v graph.VarID) int { return ranks[v] })
			})
		}
	}
	// Each of Derive's three shapes must have been compared many times.
	for _, shape := range []string{"tree", "tree passes", "sweeps"} {
		if loops[shape] < 20 {
			t.Errorf("%d graphs derived as %q, want at least 20 (%v)", loops[shape], shape, loops)
		}
	}
	for _, n := range []int{4, 7} {
		g := hubLeague(t, n, rng)
		t.Run(fmt.Sprintf("league%d", n), func(t *testing.T) { check(t, g, nil) })
	}
}

func firstDiff(a, b []step) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestDeriveHub derives a league's schedule on 20,000 matches that all
// share one variable (and 200 teams): a per-edge scan of the shared
// variable in each match, as in a derivation quadratic in its degree,
// would take minutes. The schedule is checked as Derive's documentation
// states it: a loop of sweeps whose forward half, then its backward half,
// updates every edge exactly once (each part's two passes update each of
// its edges once), the second half running the first's parts in reverse.
func TestDeriveHub(t *testing.T) {
	const teams, matches = 200, 20_000
	rng := rand.New(rand.NewPCG(20, 0))
	b := graph.NewBuilder("hub")
	hub := b.AddVariable("hub")
	b.AddFactor(factors.NewPrior(0, 1), "", hub)
	skill := make([]graph.VarID, teams)
	for i := range skill {
		skill[i] = b.AddVariable(fmt.Sprint("s", i))
		b.AddFactor(factors.NewPrior(0, 4), "", skill[i])
	}
	for m := range matches {
		home := rng.IntN(teams)
		away := (home + 1 + rng.IntN(teams-1)) % teams
		d := b.AddVariable(fmt.Sprint("d", m))
		b.AddFactor(factors.NewWeightedSum(1, -1, 1), "", d, skill[home], skill[away], hub)
		b.AddFactor(factors.NewGreaterThan(0), "", d)
	}
	g := mustGraph(t, b)
	s, err := schedules.Derive(g)
	if err != nil {
		t.Fatal(err)
	}
	l, ok := s.(*schedules.LoopSchedule)
	if !ok || l.Name != "sweeps" {
		t.Fatalf("Derive returned %T, want the loop of sweeps", s)
	}
	parts := l.Body.(*schedules.SequenceSchedule).Parts
	if len(parts)%2 != 0 || len(parts) < 2 {
		t.Fatalf("%d parts, want the forward ones and as many backward", len(parts))
	}
	half := len(parts) / 2
	for j := range half {
		if parts[j] != parts[len(parts)-1-j] {
			t.Fatalf("backward part %d is not forward part %d", len(parts)-1-j, j)
		}
	}
	times := make([]int, g.NumEdges())
	for _, p := range parts[:half] {
		schedules.Walk(p, func(st *schedules.StepSchedule, _ *schedules.LoopSchedule) {
			times[g.EdgeID(st.Factor, st.Edge)]++
		})
	}
	for k, n := range times {
		if n != 1 {
			t.Fatalf("edge %d updated %d times in a forward half, want once", k, n)
		}
	}
}
