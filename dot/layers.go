package dot

import (
	"fmt"

	"github.com/skillgraph/skillgraph/graph"
)

// rows places each node of a graph in a row of the drawing.
type rows struct {
	names  []string // row names, top to bottom
	varRow []int    // the row of each variable
	facRow []int    // the row of each factor
}

// namedRows uses the graph's own layers.
func namedRows(g *graph.Graph) rows {
	r := rows{names: g.Layers(), varRow: make([]int, g.NumVariables()), facRow: make([]int, g.NumFactors())}
	for v := range r.varRow {
		r.varRow[v] = g.VariableLayer(graph.VarID(v))
	}
	for f := range r.facRow {
		r.facRow[f] = g.FactorLayer(graph.FactorID(f))
	}
	return r
}

// usedLayers counts the layers that hold a node.
func usedLayers(g *graph.Graph) int {
	used := map[int]bool{}
	for v := 0; v < g.NumVariables(); v++ {
		used[g.VariableLayer(graph.VarID(v))] = true
	}
	for f := 0; f < g.NumFactors(); f++ {
		used[g.FactorLayer(graph.FactorID(f))] = true
	}
	return len(used)
}

// StructuralLayers derives rows from the graph's structure, for a graph
// whose builder set no layers: it returns each variable's and each
// factor's row, from 0 at the top.
//
// A factor of several edges is read as generating the variable on its
// edge 0 from the others (package factors' convention: a likelihood's x
// around y, a sum's x from its terms), so the factor goes below its
// inputs and its output below it. A one-edge factor is a prior, placed
// above its variable, if nothing else generates that variable, and
// otherwise evidence about it (an observation, a comparison), placed
// below. Rows are then the longest path from the top (each node one row
// below the lowest node it comes from), which for a TrueSkill game gives
// the paper's Figure 1 rows: priors, skills, performance factors,
// performances, …, comparisons; and for a history, each skill below the
// games that came before it. Where user factors make the directions
// cyclic, the cycle is cut at its lowest-numbered node.
func StructuralLayers(g *graph.Graph) (varRow, facRow []int) {
	nv, nf := g.NumVariables(), g.NumFactors()
	// Nodes: variables 0..nv−1, factors nv..nv+nf−1. out[a] lists the
	// nodes drawn below a.
	out := make([][]int, nv+nf)
	in := make([]int, nv+nf)
	edge := func(a, b int) {
		out[a] = append(out[a], b)
		in[b]++
	}
	generated := make([]bool, nv)
	for f := 0; f < nf; f++ {
		id := graph.FactorID(f)
		if g.Arity(id) > 1 {
			generated[g.EdgeVariable(id, 0)] = true
		}
	}
	for f := 0; f < nf; f++ {
		id := graph.FactorID(f)
		node := nv + f
		switch n := g.Arity(id); {
		case n == 1:
			v := int(g.EdgeVariable(id, 0))
			if generated[v] {
				edge(v, node)
			} else {
				edge(node, v)
			}
		case n > 1:
			edge(node, int(g.EdgeVariable(id, 0)))
			for i := 1; i < n; i++ {
				edge(int(g.EdgeVariable(id, i)), node)
			}
		}
	}
	// Kahn's algorithm in node order, the row of each node one below the
	// lowest of those above it; a node left on a cycle is freed when no
	// other can go.
	row := make([]int, nv+nf)
	done := make([]bool, nv+nf)
	var ready []int
	for a := range in {
		if in[a] == 0 {
			ready = append(ready, a)
		}
	}
	next := 0 // the lowest node that may not be done yet
	for placed := 0; placed < nv+nf; placed++ {
		if len(ready) == 0 {
			for done[next] {
				next++
			}
			in[next] = 0 // cut the cycle here
			ready = append(ready, next)
		}
		a := ready[0]
		ready = ready[1:]
		if done[a] {
			placed--
			continue
		}
		done[a] = true
		for _, b := range out[a] {
			row[b] = max(row[b], row[a]+1)
			if in[b]--; in[b] == 0 && !done[b] {
				ready = append(ready, b)
			}
		}
	}
	// A prior sits just above its variable, not at the top of the page.
	for f := 0; f < nf; f++ {
		id := graph.FactorID(f)
		if g.Arity(id) == 1 && !generated[g.EdgeVariable(id, 0)] {
			row[nv+f] = row[g.EdgeVariable(id, 0)] - 1
		}
	}
	return row[:nv], row[nv:]
}

// derivedRows returns the structural rows, named "row 0", "row 1", ….
func derivedRows(g *graph.Graph) rows {
	varRow, facRow := StructuralLayers(g)
	n := 0
	for _, r := range append(append([]int(nil), varRow...), facRow...) {
		n = max(n, r+1)
	}
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("row %d", i)
	}
	return rows{names: names, varRow: varRow, facRow: facRow}
}
