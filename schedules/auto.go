package schedules

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
)

// Walk calls fn for every update of one pass through s, in execution order,
// with the innermost Loop around it (nil outside loops). A custom Schedule
// takes part by implementing Parts() []Schedule. Nil parts, which no run
// accepts (see Compile), have no updates to visit.
func Walk(s Schedule, fn func(step *StepSchedule, loop *LoopSchedule)) {
	if fn != nil {
		walk(s, nil, fn)
	}
}

func walk(s Schedule, loop *LoopSchedule, fn func(*StepSchedule, *LoopSchedule)) {
	switch s := s.(type) {
	case *StepSchedule:
		if s != nil {
			fn(s, loop)
		}
	case *SequenceSchedule:
		if s == nil {
			return
		}
		for _, p := range s.Parts {
			walk(p, loop, fn)
		}
	case *LoopSchedule:
		if s != nil {
			walk(s.Body, s, fn)
		}
	case interface{ Parts() []Schedule }:
		for _, p := range s.Parts() {
			walk(p, loop, fn)
		}
	}
}

// Flooding returns a loop that updates every edge of every factor of g, in
// factor order, until the largest change is below the loop's tolerance. It
// works for any graph; on loopy graphs pair it with Damping. For a nil
// graph its body is empty.
func Flooding(g *graph.Graph, opts ...LoopOption) *LoopSchedule {
	var steps []Schedule
	for f := 0; g != nil && f < g.NumFactors(); f++ {
		for i := 0; i < g.Arity(graph.FactorID(f)); i++ {
			steps = append(steps, Step(graph.FactorID(f), i))
		}
	}
	return Loop(Sequence(steps...), append([]LoopOption{Name("flooding")}, opts...)...)
}

// ErrNotTree reports a graph with a cycle given to Tree, which a caller
// answers by deriving a schedule with loops instead (Derive does); it
// wraps messages.ErrInput.
var ErrNotTree = fmt.Errorf("factor graph has a cycle: %w", messages.ErrInput)

// Tree returns the two-pass schedule of a tree-shaped (or forest-shaped)
// graph: every message towards a root, leaves first, then every message away
// from it. With exact factors the marginals are then exact (belief
// propagation on a tree). In each connected part the root is a variable
// touched by an approximate factor (one that is not graph.IsExact), if any, and that
// factor sends last on the way up, so that it moment-matches against its
// complete cavity: two passes are then also the EP fixed point when a part
// has at most one approximate factor. With more, wrap the result in a Loop
// (Derive does). It returns ErrNotTree if g has a cycle, and messages.ErrInput if
// g is nil.
func Tree(g *graph.Graph) (*SequenceSchedule, error) {
	if g == nil {
		return nil, errNilGraph()
	}
	return TreeOf(g, allFactors(g))
}

// allFactors lists every factor of g, in ID order.
func allFactors(g *graph.Graph) []graph.FactorID {
	all := make([]graph.FactorID, g.NumFactors())
	for f := range all {
		all[f] = graph.FactorID(f)
	}
	return all
}

// TreeOf returns Tree's two passes over the subgraph of g made of factors
// and their variables, e.g. the inside of one game in a history: messages
// arriving from factors outside the subgraph are part of the cavities, so
// the two passes make the subgraph's messages exact given them. It returns
// ErrNotTree if the subgraph has a cycle, and messages.ErrInput for a nil graph
// or a factor g lacks.
func TreeOf(g *graph.Graph, factors []graph.FactorID) (*SequenceSchedule, error) {
	if g == nil {
		return nil, errNilGraph()
	}
	return newTreeBuilder(g).tree(factors)
}

// treeBuilder is TreeOf's working memory for one graph, kept between
// calls so that Derive, which builds the two passes of many parts of one
// graph, pays for each part in proportion to the part's edges: a variable
// shared by every part (a home advantage in every match of a season) is
// not scanned in full for each.
type treeBuilder struct {
	g          *graph.Graph
	in         []bool // by factor: in the subgraph
	seenFactor []bool
	seenVar    []bool  // by variable
	first      []int32 // by variable: where its edges start in adj
	factors    []graph.FactorID
	vars       []graph.VarID // the subgraph's variables, to clear
	adj        []incidence
}

// incidence is an edge of the subgraph: variable v on edge i of factor f.
type incidence struct {
	v graph.VarID
	f graph.FactorID
	i int
}

func newTreeBuilder(g *graph.Graph) *treeBuilder {
	return &treeBuilder{
		g:          g,
		in:         make([]bool, g.NumFactors()),
		seenFactor: make([]bool, g.NumFactors()),
		seenVar:    make([]bool, g.NumVariables()),
		first:      make([]int32, g.NumVariables()),
	}
}

// tree is TreeOf on the builder's graph. Each variable's factors are
// visited in the order of its edges in the graph (by factor, then edge),
// restricted to the subgraph's, which are gathered and sorted first.
func (tb *treeBuilder) tree(factors []graph.FactorID) (*SequenceSchedule, error) {
	defer tb.clear()
	if err := tb.gather(factors); err != nil {
		return nil, err
	}
	order, err := tb.visit(factors)
	if err != nil {
		return nil, err
	}
	g := tb.g
	var up, down []Schedule
	for j := len(order) - 1; j >= 0; j-- {
		up = append(up, Step(order[j].f, order[j].up))
	}
	for _, o := range order {
		for i := 0; i < g.Arity(o.f); i++ {
			if i != o.up {
				down = append(down, Step(o.f, i))
			}
		}
	}
	return Sequence(Sequence(up...), Sequence(down...)), nil
}

// gather marks the subgraph's factors and lists its edges by variable
// (tb.adj, each variable's from tb.first).
func (tb *treeBuilder) gather(factors []graph.FactorID) error {
	g := tb.g
	edges := 0
	for _, f := range factors {
		if int(f) < 0 || int(f) >= g.NumFactors() {
			return fmt.Errorf("schedules: tree of graph %q: no factor %d: %w", g.Name(), f, messages.ErrInput)
		}
		if !tb.in[f] {
			tb.in[f] = true
			tb.factors = append(tb.factors, f)
			edges += g.Arity(f)
		}
	}
	tb.adj = slices.Grow(tb.adj, edges)
	for _, f := range tb.factors {
		for i := range g.Arity(f) {
			tb.adj = append(tb.adj, incidence{v: g.EdgeVariable(f, i), f: f, i: i})
		}
	}
	slices.SortFunc(tb.adj, func(a, b incidence) int {
		// A factor has at most one edge to a variable.
		return cmp.Or(cmp.Compare(a.v, b.v), cmp.Compare(a.f, b.f))
	})
	for k := len(tb.adj) - 1; k >= 0; k-- {
		tb.first[tb.adj[k].v] = int32(k)
	}
	return nil
}

// treeVisit is a factor reached in the breadth-first walk, and its edge
// towards the root.
type treeVisit struct {
	f  graph.FactorID
	up int
}

// visit walks the gathered subgraph breadth first from its roots (the
// variables of approximate factors first, then every variable) and returns
// the factors in the order reached, or ErrNotTree on reaching a variable
// twice.
func (tb *treeBuilder) visit(factors []graph.FactorID) ([]treeVisit, error) {
	g := tb.g
	var order []treeVisit
	approximate := func(f graph.FactorID) bool { return !graph.IsExact(g.Factor(f)) }
	var roots []graph.VarID
	for _, f := range factors {
		if approximate(f) && g.Arity(f) > 0 {
			roots = append(roots, g.EdgeVariable(f, 0))
		}
	}
	for _, f := range factors {
		for i := 0; i < g.Arity(f); i++ {
			roots = append(roots, g.EdgeVariable(f, i))
		}
	}
	seen := func(v graph.VarID) {
		tb.seenVar[v] = true
		tb.vars = append(tb.vars, v)
	}
	for _, root := range roots {
		if tb.seenVar[root] {
			continue
		}
		seen(root)
		queue := []graph.VarID{root}
		for len(queue) > 0 {
			v := queue[0]
			queue = queue[1:]
			// Approximate factors are visited first, so that on the way up,
			// which runs in reverse order, they send last.
			for pass := 0; pass < 2; pass++ {
				for _, e := range tb.adj[tb.first[v]:] {
					if e.v != v {
						break
					}
					f, up := e.f, e.i
					if approximate(f) != (pass == 0) || tb.seenFactor[f] {
						continue // a seen factor is the one v was reached through
					}
					tb.seenFactor[f] = true
					order = append(order, treeVisit{f: f, up: up})
					for i := 0; i < g.Arity(f); i++ {
						if i == up {
							continue
						}
						w := g.EdgeVariable(f, i)
						if tb.seenVar[w] {
							return nil, fmt.Errorf("schedules: tree of graph %q: %w (through %s)", g.Name(), ErrNotTree, g.VariableName(w))
						}
						seen(w)
						queue = append(queue, w)
					}
				}
			}
		}
	}
	return order, nil
}

// clear undoes what tree marked, in time proportional to the subgraph.
func (tb *treeBuilder) clear() {
	for _, f := range tb.factors {
		tb.in[f], tb.seenFactor[f] = false, false
	}
	for _, v := range tb.vars {
		tb.seenVar[v] = false
	}
	tb.factors, tb.vars, tb.adj = tb.factors[:0], tb.vars[:0], tb.adj[:0]
}
