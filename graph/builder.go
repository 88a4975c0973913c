package graph

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/skillgraph/skillgraph/messages"
)

// Builder assembles a Graph. Variables and factors are placed in the current
// layer (see Layer), which is how a drawing arranges them in rows like the
// TrueSkill paper's Figure 1. Mistakes are reported, all together, by Build,
// so a builder can be used without checking every call. The zero Builder
// is ready to use: a builder for a graph named "".
type Builder struct {
	g     Graph
	layer int32
	group int32
	vars  [][]VarID // per factor, until Build
	// from is the graph Extend copied, whose messages and marginals the
	// built graph starts from.
	from *Graph
}

// NewBuilder returns a builder for a graph called name.
func NewBuilder(name string) *Builder {
	b := &Builder{g: Graph{name: name}}
	b.init()
	return b
}

// init gives a zero Builder the unnamed layer and group that index 0 of
// both refers to.
func (b *Builder) init() {
	if len(b.g.layers) == 0 {
		b.g.layers = []string{""}
	}
	if len(b.g.groups) == 0 {
		b.g.groups = []string{""}
	}
}

// Extend returns a builder holding a copy of g's nodes, to which more may
// be added: its Build returns a new graph in which every variable, factor
// and edge of g keeps its ID and its current message, and every new edge
// starts uniform, so the old variables' marginals are unchanged until a
// new factor sends them something. This is how a model grows online (a
// history taking its next batch of games) without losing what inference
// has learned. The factors are shared, not copied; g itself is unchanged
// and stays usable. The nodes added next go to the unnamed layer and group.
func (g *Graph) Extend() *Builder {
	b := &Builder{from: g, g: Graph{
		name:    g.name,
		layers:  slices.Clone(g.layers),
		groups:  slices.Clone(g.groups),
		vars:    slices.Clone(g.vars),
		factors: slices.Clone(g.factors),
		labels:  maps.Clone(g.labels),
	}}
	b.init()
	if g.varGroup != nil {
		b.g.varGroup, b.g.factorGroup = slices.Clone(g.varGroup), slices.Clone(g.factorGroup)
	} else {
		b.g.varGroup, b.g.factorGroup = make([]int32, len(g.vars)), make([]int32, len(g.factors))
	}
	b.vars = make([][]VarID, len(g.factors))
	for fi, fn := range g.factors {
		// Build reads these and never writes them, so they may alias g.
		b.vars[fi] = g.edgeVar[fn.first : fn.first+fn.arity : fn.first+fn.arity]
	}
	return b
}

// Group makes name the group of the nodes added next, "" for none. A
// drawing boxes each group's nodes together (one player's skills over
// time, one game's inside); groups are kept in order of first use, and a
// group may be returned to.
func (b *Builder) Group(name string) {
	b.init()
	b.group = indexOf(&b.g.groups, name)
}

// indexOf returns the index of name in *names, appended if absent.
func indexOf(names *[]string, name string) int32 {
	if i := slices.Index(*names, name); i >= 0 {
		return int32(i)
	}
	*names = append(*names, name)
	return int32(len(*names) - 1)
}

// Layer makes name the layer of the nodes added next; layers are kept in
// order of first use.
func (b *Builder) Layer(name string) {
	b.init()
	b.layer = indexOf(&b.g.layers, name)
}

// DeclareLayers fixes the order of layers (rows, top to bottom, in a
// drawing) before nodes are added to them; it does not change the current
// layer.
func (b *Builder) DeclareLayers(names ...string) {
	cur := b.layer
	for _, n := range names {
		b.Layer(n)
	}
	b.layer = cur
}

// NumVariables returns the number of variables added so far; the next
// variable's ID is this number.
func (b *Builder) NumVariables() int { return len(b.g.vars) }

// NumFactors returns the number of factors added so far; the next
// factor's ID is this number.
func (b *Builder) NumFactors() int { return len(b.g.factors) }

// AddVariable adds a latent variable and returns its ID.
func (b *Builder) AddVariable(name string) VarID {
	b.g.vars = append(b.g.vars, variable{name: name, layer: b.layer})
	b.g.varGroup = append(b.g.varGroup, b.group)
	return VarID(len(b.g.vars) - 1)
}

// AddObserved adds a variable fixed to value (see Graph.Observe); Build
// rejects a value that is not finite.
func (b *Builder) AddObserved(name string, value float64) VarID {
	b.g.vars = append(b.g.vars, variable{name: name, layer: b.layer, observed: true, value: value})
	b.g.varGroup = append(b.g.varGroup, b.group)
	return VarID(len(b.g.vars) - 1)
}

// AddFactor connects f to vars (edge i of f goes to vars[i]) and returns its
// ID. label names the factor in drawings and errors; if empty, the factor's
// own Label (see Labeler) or its type name is used.
func (b *Builder) AddFactor(f Factor, label string, vars ...VarID) FactorID {
	id := FactorID(len(b.g.factors))
	fn := factorNode{f: f, layer: b.layer, arity: int32(len(vars))}
	if label != "" {
		if b.g.labels == nil {
			b.g.labels = map[FactorID]string{}
		}
		b.g.labels[id] = label
	}
	b.g.factors = append(b.g.factors, fn)
	b.g.factorGroup = append(b.g.factorGroup, b.group)
	b.vars = append(b.vars, slices.Clone(vars))
	return id
}

// Build validates the graph and returns it with every message uniform. It
// reports, joined, every factor that is nil (nil itself, or a nil pointer,
// map, slice, func or channel, whose methods have nothing to read), has
// invalid parameters, has the wrong number of edges, an edge to a missing
// variable or two edges to the same variable, every variable connected to
// no factor, every name given to two variables and every observed value
// that is not finite: each wraps messages.ErrInput, except a factor whose
// Arity or Validate panics, an *UpdateError.
func (b *Builder) Build() (*Graph, error) {
	b.init()
	g := b.g
	errs := b.checkFactors(&g)
	errs = append(errs, b.index(&g)...)
	if len(errs) == 0 {
		errs = b.connect(&g)
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("graph %q: %w", g.name, errors.Join(errs...))
	}
	// The builder may go on adding to its own slices; the graph keeps
	// copies.
	g.vars = slices.Clone(g.vars)
	g.factors = slices.Clone(g.factors)
	g.labels = maps.Clone(g.labels)
	g.layers = slices.Clone(g.layers)
	g.groups = slices.Clone(g.groups)
	if len(g.groups) == 1 {
		g.varGroup, g.factorGroup = nil, nil // no groups: nothing to store
	} else {
		g.varGroup, g.factorGroup = slices.Clone(g.varGroup), slices.Clone(g.factorGroup)
	}
	g.findTwins()
	g.msgs = make([]messages.Gaussian, len(g.edgeVar))
	g.marg = make([]messages.Gaussian, len(g.vars))
	g.Reset()
	if b.from != nil {
		// The old factors come first and number their edges as before.
		copy(g.msgs, b.from.msgs)
		copy(g.marg, b.from.marg)
	}
	return &g, nil
}

// checkFactors returns an error for every factor of g that is nil, whose
// Arity or Validate fails, or whose variables do not fit it.
func (b *Builder) checkFactors(g *Graph) []error {
	var errs []error
	for fi := range g.factors {
		f, vars := g.factors[fi].f, b.vars[fi]
		if isNil(f) {
			errs = append(errs, fmt.Errorf("factor %d %q: nil factor (%T): %w", fi, g.labels[FactorID(fi)], f, messages.ErrInput))
			continue
		}
		arity, p := safeArity(f)
		if p != nil {
			errs = append(errs, &UpdateError{Graph: g.name, Factor: FactorID(fi), Label: g.labels[FactorID(fi)], Method: "Arity", Edge: -1, Panic: p})
			continue
		}
		arityOK := arity == len(vars)
		// A factor without a label of the builder's is named when asked
		// (Graph.FactorLabel), not stored, and here only for an error: a
		// large history has millions.
		label := func() string {
			if l := g.labels[FactorID(fi)]; l != "" {
				return l
			}
			return defaultLabel(g, f, vars, arityOK)
		}
		if v, ok := f.(Validator); ok {
			if p, err := safeValidate(v); p != nil {
				errs = append(errs, &UpdateError{Graph: g.name, Factor: FactorID(fi), Label: label(), Method: "Validate", Edge: -1, Panic: p})
			} else if err != nil {
				errs = append(errs, fmt.Errorf("factor %d %s: %w", fi, label(), err))
			}
		}
		if !arityOK {
			errs = append(errs, fmt.Errorf("factor %d %s: %d variables, want %d: %w", fi, label(), len(vars), arity, messages.ErrInput))
		}
		for i, v := range vars {
			if v < 0 || int(v) >= len(g.vars) {
				errs = append(errs, fmt.Errorf("factor %d %s edge %d: no variable %d: %w", fi, label(), i, v, messages.ErrInput))
			} else if slices.Contains(vars[:i], v) {
				errs = append(errs, fmt.Errorf("factor %d %s edge %d: connected twice to %s: %w", fi, label(), i, g.vars[v].name, messages.ErrInput))
			}
		}
	}
	return errs
}

// connect lays out g's edges, factor by factor, and each variable's list of
// them (CSR layout), and returns an error for every variable connected to
// no factor.
func (b *Builder) connect(g *Graph) []error {
	nEdges := 0
	for fi := range g.factors {
		nEdges += len(b.vars[fi])
	}
	g.edgeVar = make([]VarID, 0, nEdges)
	degree := make([]int32, len(g.vars))
	for fi := range g.factors {
		g.factors[fi].first = int32(len(g.edgeVar))
		g.edgeVar = append(g.edgeVar, b.vars[fi]...)
		for _, v := range b.vars[fi] {
			degree[v]++
		}
	}
	var errs []error
	g.varEdges = make([]int32, nEdges)
	g.varStart = make([]int32, len(g.vars)+1)
	for v := range g.vars {
		g.varStart[v+1] = g.varStart[v] + degree[v]
		if degree[v] == 0 {
			errs = append(errs, fmt.Errorf("variable %d %s: connected to no factor: %w", v, g.vars[v].name, messages.ErrInput))
		}
	}
	next := degree // reused: the next free place in each variable's run
	copy(next, g.varStart[:len(g.vars)])
	for k, v := range g.edgeVar {
		g.varEdges[next[v]] = int32(k)
		next[v]++
	}
	return errs
}

// findTwins sets g.twin and counts the observed variables.
func (g *Graph) findTwins() {
	g.twin = make([]int32, len(g.edgeVar))
	for v := range g.vars {
		es := g.edgesOf(VarID(v))
		for _, e := range es {
			g.twin[e] = -1
		}
		if g.vars[v].observed {
			g.observed++
		} else if len(es) == 2 {
			g.twin[es[0]], g.twin[es[1]] = es[1], es[0]
		}
	}
}

// index sorts the named variables of g by name into g.byName and returns
// an error for every name used twice and every observed value that is not
// finite.
func (b *Builder) index(g *Graph) []error {
	var errs []error
	g.byName = make([]VarID, 0, len(g.vars))
	for v := range g.vars {
		if g.vars[v].name != "" {
			g.byName = append(g.byName, VarID(v))
		}
		if g.vars[v].observed && !messages.IsFinite(g.vars[v].value) {
			errs = append(errs, fmt.Errorf("variable %d %s: observed value %v is not finite: %w", v, g.vars[v].name, g.vars[v].value, messages.ErrInput))
		}
	}
	slices.SortStableFunc(g.byName, func(v, w VarID) int { return strings.Compare(g.vars[v].name, g.vars[w].name) })
	for i := 1; i < len(g.byName); i++ {
		if v, w := g.byName[i-1], g.byName[i]; g.vars[v].name == g.vars[w].name {
			errs = append(errs, fmt.Errorf("variables %d and %d: two variables named %q: %w", v, w, g.vars[w].name, messages.ErrInput))
		}
	}
	return errs
}

// safeArity returns f.Arity(), or the value of its panic: Build reports a
// faulty user factor instead of failing with it.
func safeArity(f Factor) (n int, p any) {
	defer func() { p = recover() }()
	return f.Arity(), nil
}

// safeValidate returns v.Validate(), or the value of its panic.
func safeValidate(v Validator) (p any, err error) {
	defer func() { p = recover() }()
	return nil, v.Validate()
}

// isNil reports whether f is nil or holds a nil pointer, map, slice,
// func or channel.
func isNil(f Factor) bool {
	if f == nil {
		return true
	}
	switch v := reflect.ValueOf(f); v.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan:
		return v.IsNil()
	}
	return false
}

// defaultLabel asks a Labeler for its label (only when it has the right
// number of variables to name) and falls back to the factor's type name.
func defaultLabel(g *Graph, f Factor, vars []VarID, arityOK bool) (label string) {
	var typeName string
	if t := reflect.TypeOf(f); t != nil {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		typeName = t.Name()
	}
	if l, ok := f.(Labeler); ok && arityOK {
		// A label is for people, often for an error: a Labeler that
		// panics is named by its type.
		defer func() {
			if recover() != nil {
				label = typeName
			}
		}()
		names := make([]string, len(vars))
		for i, v := range vars {
			if v >= 0 && int(v) < len(g.vars) {
				names[i] = g.vars[v].name
			} else {
				names[i] = "?"
			}
		}
		return l.Label(names)
	}
	return typeName
}
