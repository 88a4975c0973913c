package graph

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/skillgraph/skillgraph/messages"
)

// VarID identifies a variable of one graph; IDs are dense, from 0.
type VarID int32

// FactorID identifies a factor of one graph; IDs are dense, from 0.
type FactorID int32

// Factor is the contract every factor satisfies: one operator per edge, in
// the manner of Infer.NET's message operators. The graph owns the topology,
// the stored messages and the cached marginals; a factor holds only its
// parameters and the mathematics.
//
// Message returns the message the factor sends on its edge i, computed from
// the current state of its edges as seen through e. Expectation propagation
// operators read cavities (e.Cavity), variational operators read marginals
// (e.Marginal) and, for non-conjugate updates, their own previous message
// (e.Message); both kinds therefore share this one method. It must not retain
// e after returning. A message that is not messages.Gaussian.IsMessage is
// refused: by Send (and so every engine) with an *UpdateError naming the
// factor, by the function Message with an error wrapping
// messages.ErrNumerical.
type Factor interface {
	// Arity is the number of variables the factor connects; its edges are
	// numbered 0 … Arity()−1 in the order the variables were given to
	// Builder.AddFactor.
	Arity() int
	// Message returns the new factor→variable message on edge i.
	Message(i int, e Edges) (messages.Gaussian, error)
}

// Evidence is implemented by factors that can report their contribution to
// the model evidence: log ∫ f(x) ∏ᵢ ĉᵢ(xᵢ) dx, where ĉᵢ is the cavity on edge i
// normalised to a density (a uniform cavity counts as the constant 1).
// Graph.LogEvidence assembles the EP evidence from these terms.
type Evidence interface {
	LogAverageFactor(e Edges) (float64, error)
}

// LogTerm is a log-evidence term written as
//
//	Quad − ½·log Var − Norm·log √(2π),
//
// the form of the logarithm of a Gaussian density (Quad = −½(x−m)²/v,
// Var = v, Norm = 1) and of its degenerate cases (a constant 1 is Var = 1;
// the 1/|a| of a weighted sum with one flat cavity is Var = a²). A sum of
// many such terms needs one logarithm, of the product of their Var, where
// evaluating each costs one.
type LogTerm struct {
	Quad float64
	Var  float64 // positive and finite
	Norm float64
}

// IsFinite reports whether t is a term LogEvidence can gather: Quad and
// Norm finite, Var positive and finite. It is the one test of a term, for
// the graph and for the factors that return one.
func (t LogTerm) IsFinite() bool {
	return messages.IsFinite(t.Quad) && messages.IsFinite(t.Norm) && t.Var > 0 && t.Var <= math.MaxFloat64
}

// Value returns Quad − ½·log Var − Norm·log √(2π).
func (t LogTerm) Value() float64 { return t.Quad - 0.5*math.Log(t.Var) - t.Norm*logSqrt2Pi }

// GaussianEvidence is implemented by factors whose Evidence term is a
// LogTerm (the exact factors of Table 1); LogEvidence then gathers the
// logarithms of all of them into one. LogAverageFactorTerm returns
// ok = false where the term is not of that form for the current cavities
// (two point masses, an improper cavity); LogEvidence then calls
// LogAverageFactor, which must agree with the term wherever ok is true.
type GaussianEvidence interface {
	LogAverageFactorTerm(e Edges) (t LogTerm, ok bool, err error)
}

// Validator is implemented by factors whose parameters can be invalid; the
// builder calls Validate once and reports the error with the factor's name.
// That is the one check: a factor's Message need not validate its
// parameters again on every update.
type Validator interface {
	Validate() error
}

// Labeler is implemented by factors that can describe themselves with the
// names of their variables, e.g. "N(s1; 25, 69.44)" or "I(d1 > 0.74)", for
// drawings and error messages.
type Labeler interface {
	Label(vars []string) string
}

// LinearForm is implemented by linear-Gaussian factors: those whose
// density is N(aᵀx; mean, variance) over the factor's variables x in edge
// order, normalised as that density of aᵀx, with variance 0 meaning the
// constraint δ(aᵀx − mean). A Prior N(x; m, v) is a = (1), mean m; a
// weighted sum x = bᵀy is a = (1, −b), mean 0, variance 0. A graph whose
// factors all have one is a joint Gaussian that package graph/exact solves
// exactly, to check what message passing computes on it.
type LinearForm interface {
	LinearForm() (a []float64, mean, variance float64)
}

// Approximate is implemented by factors whose messages are projections
// (expectation propagation or variational) rather than exact, to name the
// approximation. Schedules do not need it: see IsExact.
type Approximate interface {
	Approximation() string // "EP" or "VMP"
}

// IsExact reports whether f's messages are exact whatever the cavity: f is
// linear-Gaussian (LinearForm) and does not call itself Approximate. Any
// other factor's Gaussian message is a projection that depends on its
// cavity, so schedules treat it as approximate (it must send after its
// cavity is complete, and more than one needs iterating), whether or not
// its author declared Approximate.
func IsExact(f Factor) bool {
	if _, ok := f.(Approximate); ok {
		return false
	}
	_, ok := f.(LinearForm)
	return ok
}

// UpdateError reports a failure of one of a factor's methods: a message
// update, the factor's evidence term, or its Arity or Validate in Build.
// It names the graph, the factor and, for a message, the edge. A method
// that panics is recovered and reported here too, with the panic's value
// in Panic: engines that run user factors fail one update instead of the
// program.
type UpdateError struct {
	Graph  string
	Factor FactorID
	Label  string
	// Method is the factor's method that failed: "Message",
	// "LogAverageFactor" (its evidence term), "Arity" or "Validate"; in
	// graph/exact's EP also "TiltedMoments", a joint site's update.
	Method string
	Edge   int // the edge of a Message, −1 for the other methods
	// Panic is the value the method panicked with, nil if it returned Err.
	Panic any
	Err   error
}

// Error names the graph (if it has a name), the factor, its label and
// the edge.
func (e *UpdateError) Error() string {
	var sb strings.Builder
	if e.Graph != "" {
		fmt.Fprintf(&sb, "graph %q: ", e.Graph)
	}
	fmt.Fprintf(&sb, "factor %d %s", e.Factor, e.Label)
	if e.Method == "Message" || e.Method == "" {
		fmt.Fprintf(&sb, ", edge %d: ", e.Edge)
	} else {
		fmt.Fprintf(&sb, ": %s: ", e.Method)
	}
	if e.Panic != nil {
		fmt.Fprintf(&sb, "panicked: %v", e.Panic)
	} else {
		fmt.Fprint(&sb, e.Err)
	}
	return sb.String()
}

// Unwrap returns the method's error (nil after a panic).
func (e *UpdateError) Unwrap() error { return e.Err }

// FactorError returns the *UpdateError naming g and factor f (with its
// label) for f's method, on edge (−1 for a method without one), that
// returned err or, if p is not nil, panicked with p: the one way the
// engine and the solvers built on it report a factor's failure.
func (g *Graph) FactorError(f FactorID, method string, edge int, err error, p any) *UpdateError {
	if p != nil {
		err = nil
	}
	return &UpdateError{Graph: g.name, Factor: f, Label: g.FactorLabel(f), Method: method, Edge: edge, Err: err, Panic: p}
}

// notFinite is the error of a message that is not finite (a point mass,
// π = +∞, at a finite location is finite).
func notFinite(msg messages.Gaussian) error {
	return fmt.Errorf("message %v is not finite: %w", msg, messages.ErrNumerical)
}

// Message returns f's message on edge i seen through e, as f.Message does,
// except that a panic of f's is recovered and returned as an *UpdateError
// with its Panic set (naming no graph or factor, which the caller knows),
// and a message that is not finite is an error wrapping
// messages.ErrNumerical, as Send would refuse it: engines that call user
// factors use it so that a faulty factor fails one update instead of the
// program.
func Message(f Factor, i int, e Edges) (messages.Gaussian, error) {
	msg, p, err := safeMessage(f, i, e)
	if p != nil {
		return msg, &UpdateError{Factor: -1, Method: "Message", Edge: i, Panic: p}
	}
	return msg, err
}

// safeMessage is Message returning the value of a panic of f's, if any,
// apart from its error.
func safeMessage(f Factor, i int, e Edges) (msg messages.Gaussian, p any, err error) {
	defer func() {
		if p = recover(); p != nil {
			msg, err = messages.Gaussian{}, nil
		}
	}()
	msg, err = f.Message(i, e)
	if err == nil && !msg.IsMessage() {
		return messages.Gaussian{}, nil, notFinite(msg)
	}
	return msg, nil, err
}

type variable struct {
	name     string
	layer    int32
	observed bool
	value    float64
}

type factorNode struct {
	f     Factor
	first int32 // first edge index
	arity int32
	layer int32
}

// Graph is a bipartite factor graph over real-valued variables whose beliefs
// are Gaussian. Every edge stores the current factor→variable message and
// every variable its cached marginal, the product of its incoming messages,
// so a cavity (the variable→factor message) is one division (equation 6).
// Storage is flat: memory and the cost of every operation except LogEvidence
// and RecomputeMarginals are independent of the graph's size.
//
// An ID the graph lacks (a VarID, FactorID or EdgeID out of range, or an
// edge index beyond a factor's arity) is reported, not a panic: Observe,
// Send and Update return an error wrapping messages.ErrInput,
// and the accessors, which return no error, return the zero value of their
// result (a uniform message, "", 0, false, nil), or −1 for an ID, as
// Variable does for a name it lacks. HasVariable, HasFactor and HasEdge
// tell a real zero from a missing ID.
//
// A Graph is not safe for concurrent use; build one per goroutine, or reuse
// one per goroutine with Reset.
type Graph struct {
	name   string
	layers []string
	vars   []variable
	// groups are the names of Builder.Group, groups[0] = "" (none);
	// varGroup and factorGroup index them, nil when no group was used.
	groups      []string
	varGroup    []int32
	factorGroup []int32
	marg        []messages.Gaussian
	factors     []factorNode
	// labels holds the labels given to the builder, by factor: most
	// factors of a large graph have none, and are named when asked.
	labels  map[FactorID]string
	edgeVar []VarID
	msgs    []messages.Gaussian
	// varEdges lists each variable's edges, those of v at
	// varEdges[varStart[v]:varStart[v+1]] (CSR layout).
	varEdges []int32
	varStart []int32
	// twin is, for an edge of an unobserved variable with two edges, the
	// other edge (−1 otherwise): that variable's cavity on one edge is the
	// message on the other, exactly, with no division.
	twin     []int32
	observed int // the number of observed variables
	// cyclic caches HasCycle: 0 not yet known (or an observation changed
	// it), 1 no cycle, 2 a cycle.
	cyclic int8
	// byName lists the named variables sorted by name, for Variable: a
	// sorted index costs 4 bytes a variable where a map costs ten times that
	// on the largest graphs (a history of hundreds of thousands of skills).
	byName []VarID
}

// edgesOf returns the edges of v, which the graph has.
func (g *Graph) edgesOf(v VarID) []int32 {
	return g.varEdges[g.varStart[v]:g.varStart[v+1]:g.varStart[v+1]]
}

// Edges is a factor's read-only view of its edges during an update. Its
// methods return a uniform message for an edge index the graph lacks.
type Edges struct {
	g     *Graph
	first int32
}

// EdgeID returns the graph's ID of edge i (not checked: i must be one of
// the factor's edges), the ID Graph.Send takes.
func (e Edges) EdgeID(i int) EdgeID { return EdgeID(e.first) + EdgeID(i) }

// Cavity returns the variable→factor message on edge i: the variable's
// marginal divided by the message this factor sends it.
func (e Edges) Cavity(i int) messages.Gaussian { return e.g.Cavity(EdgeID(e.first) + EdgeID(i)) }

// Cavity returns the variable→factor message on edge k: the variable's
// marginal divided by the message on k (equation 6), by the graph's one
// cavity rule; uniform if the graph has no edge k. The common cases come
// first: a variable with two edges whose other message is proper and
// finite (that message is the cavity, exactly), and a marginal and message
// both proper and finite where the division keeps its digits (see
// cancellation); the rest is a call.
func (g *Graph) Cavity(k EdgeID) messages.Gaussian {
	// Every slice indexed by edge has NumEdges elements. An edge is checked
	// against a local copy of each slice it indexes, so that the check
	// replaces the bounds check, and the hot path pays nothing for it.
	j, twin, msgs := int(k), g.twin, g.msgs
	if uint(j) >= uint(len(twin)) || uint(j) >= uint(len(msgs)) {
		return messages.Gaussian{}
	}
	if o := int(twin[j]); uint(o) < uint(len(msgs)) {
		if c := msgs[o]; messages.IsPositiveFinite(c.Pi) {
			return c
		}
	}
	marg, v := g.marg, int(g.edgeVar[j])
	if uint(v) < uint(len(marg)) {
		m, msg := marg[v], msgs[j]
		if c := m.Pi - msg.Pi; c >= cancellation*m.Pi && c > 0 && m.Pi < math.MaxFloat64 {
			return messages.Gaussian{Pi: c, Tau: m.Tau - msg.Tau}
		}
	}
	return g.cavity(int32(k))
}

// cancellation is the share of a marginal's precision below which a cavity
// obtained by division has lost too many digits to the message it removed:
// π_m − π_msg carries a rounding error of about ε·π_m (ε ≈ 1.1e-16), that
// is ε/share relative to the cavity, so at this share the cavity keeps ten
// digits, well within any convergence tolerance, and only rarer, smaller
// shares pay for the product of the other messages.
const cancellation = 1e-6

// cavity returns the marginal of edge k's variable divided by the message on
// k. When that message carries nearly all of the marginal's precision (a
// draw factor with ε = 1e-12 sends a precision of 3e24 beside one of 0.01),
// the division keeps nothing of the rest, and the cavity is recomputed
// exactly as the product of the variable's other messages.
func (g *Graph) cavity(k int32) messages.Gaussian {
	v := g.edgeVar[k]
	m := g.marg[v]
	msg := g.msgs[k]
	var c messages.Gaussian
	if math.IsInf(m.Pi, 1) || math.IsInf(msg.Pi, 1) {
		c = m.Div(msg) // point masses (observations) follow Div's rules
	} else {
		c = messages.Gaussian{Pi: m.Pi - msg.Pi, Tau: m.Tau - msg.Tau}
	}
	if c.Pi == 0 || c.Pi < cancellation*m.Pi && !m.IsPointMass() {
		var p messages.Gaussian
		for _, e := range g.edgesOf(v) {
			if e != k {
				p = p.Mul(g.msgs[e])
			}
		}
		if p.Pi == 0 {
			// Zero precision with a residue of τ is underflow, not an
			// exponential message: the cavity carries no information.
			return messages.Gaussian{}
		}
		return p
	}
	return c
}

// Marginal returns the current marginal of the variable on edge i.
func (e Edges) Marginal(i int) messages.Gaussian {
	k := EdgeID(e.first) + EdgeID(i)
	if k < 0 || int(k) >= len(e.g.edgeVar) {
		return messages.Gaussian{}
	}
	return e.g.marg[e.g.edgeVar[k]]
}

// Message returns the message this factor currently sends on edge i.
func (e Edges) Message(i int) messages.Gaussian {
	k := EdgeID(e.first) + EdgeID(i)
	if k < 0 || int(k) >= len(e.g.msgs) {
		return messages.Gaussian{}
	}
	return e.g.msgs[k]
}

// Name returns the graph's name.
func (g *Graph) Name() string { return g.name }

// NumVariables returns the number of variables.
func (g *Graph) NumVariables() int { return len(g.vars) }

// NumFactors returns the number of factors.
func (g *Graph) NumFactors() int { return len(g.factors) }

// NumEdges returns the number of edges.
func (g *Graph) NumEdges() int { return len(g.edgeVar) }

// Layers returns the layer names in order of first use (a copy).
func (g *Graph) Layers() []string { return append([]string(nil), g.layers...) }

// HasVariable reports whether the graph has variable v.
func (g *Graph) HasVariable(v VarID) bool { return uint(v) < uint(len(g.vars)) }

// HasFactor reports whether the graph has factor f.
func (g *Graph) HasFactor(f FactorID) bool { return uint(f) < uint(len(g.factors)) }

// VariableName returns the name of v ("" if the graph lacks v).
func (g *Graph) VariableName(v VarID) string {
	if !g.HasVariable(v) {
		return ""
	}
	return g.vars[v].name
}

// Variable returns the variable called name, and false if there is none.
// Names are unique (Build rejects duplicates); variables named "" are not
// found.
func (g *Graph) Variable(name string) (VarID, bool) {
	i, ok := slices.BinarySearchFunc(g.byName, name, func(v VarID, name string) int {
		return strings.Compare(g.vars[v].name, name)
	})
	if !ok || name == "" {
		return -1, false
	}
	return g.byName[i], true
}

// Groups returns the group names in order of first use, the first being
// "" (no group) (a copy).
func (g *Graph) Groups() []string { return append([]string(nil), g.groups...) }

// VariableGroup returns the index in Groups of v's group, 0 for none.
func (g *Graph) VariableGroup(v VarID) int {
	if g.varGroup == nil || !g.HasVariable(v) {
		return 0
	}
	return int(g.varGroup[v])
}

// FactorGroup returns the index in Groups of f's group, 0 for none.
func (g *Graph) FactorGroup(f FactorID) int {
	if g.factorGroup == nil || !g.HasFactor(f) {
		return 0
	}
	return int(g.factorGroup[f])
}

// VariableLayer returns the index in Layers of v's layer.
func (g *Graph) VariableLayer(v VarID) int {
	if !g.HasVariable(v) {
		return 0
	}
	return int(g.vars[v].layer)
}

// NumObserved returns the number of observed variables.
func (g *Graph) NumObserved() int { return g.observed }

// Observed reports whether v is observed, and its value.
func (g *Graph) Observed(v VarID) (value float64, ok bool) {
	if !g.HasVariable(v) {
		return 0, false
	}
	return g.vars[v].value, g.vars[v].observed
}

// Degree returns the number of factors connected to v.
func (g *Graph) Degree(v VarID) int {
	if !g.HasVariable(v) {
		return 0
	}
	return len(g.edgesOf(v))
}

// VariableEdge returns the factor and edge index of v's k-th connection
// (−1, −1 if v has no such connection).
func (g *Graph) VariableEdge(v VarID, k int) (FactorID, int) {
	if uint(k) >= uint(g.Degree(v)) {
		return -1, -1
	}
	e := g.edgesOf(v)[k]
	f := g.edgeFactor(e)
	return f, int(e - g.factors[f].first)
}

// edgeFactor finds the factor owning edge e by binary search over the
// factors' first edges (they are increasing).
func (g *Graph) edgeFactor(e int32) FactorID {
	lo, hi := 0, len(g.factors)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if g.factors[m].first+g.factors[m].arity <= e {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return FactorID(lo)
}

// Factor returns the factor f (nil if the graph lacks f).
func (g *Graph) Factor(f FactorID) Factor {
	if !g.HasFactor(f) {
		return nil
	}
	return g.factors[f].f
}

// FactorLabel returns f's label: the one given to the builder, else the
// factor's own Label, else its type ("" if the graph lacks f).
func (g *Graph) FactorLabel(f FactorID) string {
	if !g.HasFactor(f) {
		return ""
	}
	if l := g.labels[f]; l != "" {
		return l
	}
	fn := &g.factors[f]
	return defaultLabel(g, fn.f, g.edgeVar[fn.first:fn.first+fn.arity], true)
}

// FactorLayer returns the index in Layers of f's layer.
func (g *Graph) FactorLayer(f FactorID) int {
	if !g.HasFactor(f) {
		return 0
	}
	return int(g.factors[f].layer)
}

// Arity returns the number of edges of f.
func (g *Graph) Arity(f FactorID) int {
	if !g.HasFactor(f) {
		return 0
	}
	return int(g.factors[f].arity)
}

// EdgeVariable returns the variable on edge i of f (−1 if the graph lacks
// the edge).
func (g *Graph) EdgeVariable(f FactorID, i int) VarID {
	if !g.HasEdge(f, i) {
		return -1
	}
	return g.edgeVar[g.factors[f].first+int32(i)]
}

// Message returns the message f currently sends on its edge i (uniform if
// the graph lacks the edge).
func (g *Graph) Message(f FactorID, i int) messages.Gaussian {
	if !g.HasEdge(f, i) {
		return messages.Gaussian{}
	}
	return g.msgs[g.factors[f].first+int32(i)]
}

// EdgeMessage returns the message on edge k (uniform if the graph lacks
// it): with Send, a way to read and write every message by its EdgeID,
// 0 to NumEdges − 1.
func (g *Graph) EdgeMessage(k EdgeID) messages.Gaussian {
	if k < 0 || int(k) >= len(g.msgs) {
		return messages.Gaussian{}
	}
	return g.msgs[k]
}

// HasEdge reports whether the graph has factor f and f has edge i.
func (g *Graph) HasEdge(f FactorID, i int) bool {
	return uint(f) < uint(len(g.factors)) && uint(i) < uint(g.factors[f].arity)
}

// EdgeID identifies one edge of a graph: its position in the graph's flat
// edge arrays, factor 0's edges first, each factor's in edge order. Engines
// (package schedules) resolve a schedule's (factor, edge) pairs to EdgeIDs
// once, so that running it costs no lookups.
type EdgeID int32

// EdgeID returns the ID of factor f's edge i (−1 if the graph lacks the
// edge).
func (g *Graph) EdgeID(f FactorID, i int) EdgeID {
	if !g.HasEdge(f, i) {
		return -1
	}
	return EdgeID(g.factors[f].first) + EdgeID(i)
}

// Edges returns factor f's view of its edges, as its Message receives it:
// to compute a factor's message outside Update (a custom engine, a unit test
// of a factor at chosen cavities), then Send it. For a factor the graph
// lacks it is a view of no edges, every message uniform.
func (g *Graph) Edges(f FactorID) Edges {
	if !g.HasFactor(f) {
		return Edges{g: &noEdges}
	}
	return Edges{g: g, first: g.factors[f].first}
}

// FactorEdges returns f and its view of its edges, together: what an
// engine running updates reads for every message. f must be in the graph.
func (g *Graph) FactorEdges(f FactorID) (Factor, Edges) {
	fn := &g.factors[f]
	return fn.f, Edges{g: g, first: fn.first}
}

// noEdges is the graph of the view of a missing factor's edges: it has
// none, so every message read from it is uniform. It is never modified.
var noEdges Graph

// Marginal returns the cached marginal of v (uniform if the graph lacks v).
func (g *Graph) Marginal(v VarID) messages.Gaussian {
	if !g.HasVariable(v) {
		return messages.Gaussian{}
	}
	return g.marg[v]
}

// Observe fixes v to value: its marginal becomes a point mass and every
// factor sees value as its cavity. Use it to reuse a graph with new data.
// It rejects a variable the graph lacks and a value that is not finite
// (messages.ErrInput), as Build does, leaving the graph unchanged.
func (g *Graph) Observe(v VarID, value float64) error {
	if !g.HasVariable(v) {
		return fmt.Errorf("graph %q: observe variable %d: no such variable: %w", g.name, v, messages.ErrInput)
	}
	if !messages.IsFinite(value) {
		return fmt.Errorf("graph %q: observe variable %d %s: value %v is not finite: %w", g.name, v, g.vars[v].name, value, messages.ErrInput)
	}
	if !g.vars[v].observed {
		g.observed++
		g.cyclic = 0 // an observation may cut a cycle
		for _, e := range g.edgesOf(v) {
			g.twin[e] = -1 // an observation's cavity is its point mass
		}
	}
	g.vars[v].observed, g.vars[v].value = true, value
	g.marg[v] = messages.PointMass(value)
	return nil
}

// HasCycle reports whether the graph has a cycle through its latent
// variables: a path from a variable back to itself through distinct
// factors, where an observed variable, which passes nothing between its
// factors, cuts every path through it. Message passing on such a graph
// (loopy belief propagation or expectation propagation) counts evidence
// more than once around each cycle, so its marginals are approximate even
// when every factor is exact; on a graph without one they are exact for
// exact factors. It is computed once, in time linear in the edges, and
// again only after Observe fixes another variable.
func (g *Graph) HasCycle() bool {
	if g.cyclic == 0 {
		g.cyclic = 1
		if g.findCycle() {
			g.cyclic = 2
		}
	}
	return g.cyclic == 2
}

// findCycle adds the factors one by one to a union-find over the latent
// variables: a factor closes a cycle exactly when two of its latent
// variables are already connected.
func (g *Graph) findCycle() bool {
	parent := make([]int32, len(g.vars))
	for i := range parent {
		parent[i] = -1
	}
	find := func(v int32) int32 {
		r := v
		for parent[r] >= 0 {
			r = parent[r]
		}
		for parent[v] >= 0 { // path compression
			v, parent[v] = parent[v], r
		}
		return r
	}
	for fi := range g.factors {
		fn := &g.factors[fi]
		root := int32(-1)
		for _, v := range g.edgeVar[fn.first : fn.first+fn.arity] {
			if g.vars[v].observed {
				continue
			}
			r := find(int32(v))
			switch {
			case root < 0:
				root = r
			case r == root:
				return true
			default:
				parent[r] = root
			}
		}
	}
	return false
}

// Reset returns every message to uniform and every marginal to uniform (or to
// its observation), so that running a schedule again starts from the priors
// that the schedule's first steps send. It does not allocate.
func (g *Graph) Reset() {
	clear(g.msgs)
	clear(g.marg)
	if g.observed == 0 {
		return
	}
	for v := range g.vars {
		if g.vars[v].observed {
			g.marg[v] = messages.PointMass(g.vars[v].value)
		}
	}
}

// RecomputeMarginals rebuilds every cached marginal as the product of its
// incoming messages, removing the rounding drift that repeated division and
// multiplication accumulate over long runs.
func (g *Graph) RecomputeMarginals() {
	for v := range g.vars {
		if g.vars[v].observed {
			continue
		}
		var m messages.Gaussian
		for _, e := range g.edgesOf(VarID(v)) {
			m = m.Mul(g.msgs[e])
		}
		g.marg[v] = m
	}
}

// CheckDamping reports a damping weight d that is not in [0, 1)
// (messages.ErrInput): the stored message new^(1−d)·old^d extrapolates past one of
// them for d outside [0, 1], and d = 1 would never change it.
func CheckDamping(d float64) error {
	if !(d >= 0 && d < 1) {
		return fmt.Errorf("damping %v, want a number in [0, 1): %w", d, messages.ErrInput)
	}
	return nil
}

// Update recomputes the message f sends on its edge i and folds it into the
// variable's cached marginal (marginal / old · new): Message (the function,
// which turns a panic of the factor's into an *UpdateError), then Send. With
// damping d in [0, 1) the stored message is new^(1−d)·old^d; d = 0 means no
// damping. It returns the marginal before and after. A message that is not
// finite, or that would leave the marginal improper, is rejected with an
// *UpdateError and the graph is left unchanged.
func (g *Graph) Update(f FactorID, i int, damping float64) (before, after messages.Gaussian, err error) {
	if !g.HasEdge(f, i) {
		return before, after, fmt.Errorf("graph %q: factor %d has no edge %d: %w", g.name, f, i, messages.ErrInput)
	}
	fn := &g.factors[f]
	msg, p, err := safeMessage(fn.f, i, Edges{g: g, first: fn.first})
	if p != nil {
		return before, after, g.FactorError(f, "Message", i, nil, p)
	}
	if err != nil {
		return before, after, g.FactorError(f, "Message", i, err, nil)
	}
	return g.Send(EdgeID(fn.first)+EdgeID(i), msg, damping)
}

// Send stores msg as the message on edge k and folds it into the variable's
// cached marginal, as Update does with the message it computes: the one
// place where a message enters the graph. Damping d must be in [0, 1), and
// k an edge of the graph (messages.ErrInput).
func (g *Graph) Send(k EdgeID, msg messages.Gaussian, damping float64) (before, after messages.Gaussian, err error) {
	// The checks replace the bounds checks of the slices they index, and
	// the error is built elsewhere, so that this, the path of nearly every
	// message, keeps a small frame.
	j, msgs, marg, edgeVar := int(k), g.msgs, g.marg, g.edgeVar
	if uint(j) >= uint(len(msgs)) || uint(j) >= uint(len(edgeVar)) {
		return before, after, g.noEdge(k)
	}
	old, v := msgs[j], int(edgeVar[j])
	if uint(v) >= uint(len(marg)) {
		return before, after, g.noEdge(k) // not reached: every edge has its variable
	}
	before = marg[v]
	after = messages.Gaussian{Pi: before.Pi - old.Pi + msg.Pi, Tau: before.Tau - old.Tau + msg.Tau}
	// The common case in one test: no damping, and a proper and finite
	// result. A sum is finite only if every term is, so the result's
	// finiteness vouches for the old and new messages and the marginal
	// (a point mass among them, π = +∞, leaves it ±∞ or NaN).
	if messages.IsPositiveFinite(after.Pi) && messages.IsFinite(after.Tau) && damping == 0 {
		msgs[j], marg[v] = msg, after
		return before, after, nil
	}
	return g.fold(int32(k), VarID(v), msg, old, before, damping)
}

// noEdge is Send's error for an edge k the graph lacks.
func (g *Graph) noEdge(k EdgeID) error {
	return fmt.Errorf("graph %q: no edge %d: %w", g.name, k, messages.ErrInput)
}

// updateError is the *UpdateError of the message on edge k.
func (g *Graph) updateError(k int32, err error) error {
	f := g.edgeFactor(k)
	return g.FactorError(f, "Message", int(k-g.factors[f].first), err, nil)
}

// fold is the general part of Send: damping, point masses, observations,
// non-finite messages and marginals that cancel to improper.
func (g *Graph) fold(k int32, v VarID, msg, old, before messages.Gaussian, damping float64) (_, after messages.Gaussian, err error) {
	if err := CheckDamping(damping); err != nil {
		return before, before, g.updateError(k, err)
	}
	if damping > 0 && !msg.IsPointMass() && !old.IsPointMass() {
		msg = messages.Gaussian{
			Pi:  (1-damping)*msg.Pi + damping*old.Pi,
			Tau: (1-damping)*msg.Tau + damping*old.Tau,
		}
	}
	if !msg.IsMessage() {
		return before, after, g.updateError(k, notFinite(msg))
	}
	if math.IsInf(before.Pi, 1) && g.vars[v].observed { // an observation's marginal is a point mass
		g.msgs[k] = msg
		return before, before, nil
	}
	if msg.IsPointMass() || old.IsPointMass() {
		g.msgs[k] = msg
		g.recomputeMarginal(v)
		return before, g.marg[v], nil
	}
	after = messages.Gaussian{Pi: before.Pi - old.Pi + msg.Pi, Tau: before.Tau - old.Tau + msg.Tau}
	g.msgs[k] = msg
	if after.Pi <= 0 || math.IsInf(after.Pi, 1) {
		// Cancellation (e.g. the last informative message turning uniform)
		// can leave rounding residue; the exact product decides.
		g.recomputeMarginal(v)
		after = g.marg[v]
		if after.Pi < 0 || math.IsNaN(after.Tau) || (after.Pi == 0 && after.Tau != 0) {
			g.msgs[k] = old
			g.marg[v] = before
			return before, before, g.updateError(k, fmt.Errorf("improper marginal of %s: %v: %w", g.vars[v].name, after, messages.ErrNumerical))
		}
		return before, after, nil
	}
	g.marg[v] = after
	return before, after, nil
}

func (g *Graph) recomputeMarginal(v VarID) {
	var m messages.Gaussian
	for _, e := range g.edgesOf(v) {
		m = m.Mul(g.msgs[e])
	}
	g.marg[v] = m
}

// LogEvidence returns the expectation-propagation estimate of the log
// evidence log Z = log ∫ ∏_f f(x) dx at the current messages:
//
//	log Z = Σ_f log ∫ f ∏ᵢ ĉ_{f,i} + Σ_v [Σ_{e∋v} A(c_e) − (deg v − 1)·A(q_v)],
//
// with ĉ the normalised cavities, A the Gaussian log-normaliser
// (messages.Gaussian.LogNormalizer, taken as 0 for a uniform cavity) and q_v
// the marginals. It follows from writing each factor's approximation as
// s_f·∏ᵢ m_{f→i} and fixing s_f by matching ∫ f·cavities (Minka 2001);
// observed variables (and variables pinned to a point) are conditioned on
// and contribute no terms of their own.
// Each variable's bracket is unchanged by moving its origin (its cavities'
// parameters sum to deg − 1 marginals), so it is evaluated about the
// marginal's mean, where the terms are small: evaluated about 0 they grow
// like μ²/σ² and cancel, costing digits at μ = 1300, σ = 40.
// Every factor must implement Evidence. At a fixed point of a tree-shaped
// graph of exact factors the estimate is exact. A factor whose term fails
// (see factorEvidence), and evidence of probability zero, are an
// *UpdateError naming the factor; the result is never NaN or ±∞.
func (g *Graph) LogEvidence() (float64, error) {
	var sum evidenceSum
	for fi := range g.factors {
		if err := g.factorEvidence(FactorID(fi), &sum); err != nil {
			return 0, err
		}
	}
	for v := range g.vars {
		d := len(g.edgesOf(VarID(v)))
		q := g.marg[v]
		// An observed variable, or one pinned to a point by a deterministic
		// factor (a team whose weights are all 0), is conditioned on: the
		// factors see the point as their cavity and it adds no terms.
		if g.vars[v].observed || q.IsPointMass() || d < 2 {
			continue
		}
		if !(q.Pi > 0) {
			return 0, fmt.Errorf("graph %q: evidence: improper marginal of %s: %v: %w", g.name, g.vars[v].name, q, messages.ErrNumerical)
		}
		// Σ_e A(c_e) − (d−1)·A(q) about the mean of q: A(c) = ½τ_c'²/π_c −
		// ½·log π_c + log√(2π) with τ_c' = τ_c − π_c·μ_q, and τ_q' = 0.
		center := q.Mean()
		var quad float64
		proper := 0
		for _, e := range g.edgesOf(VarID(v)) {
			c := g.Cavity(EdgeID(e))
			switch {
			case c.IsUniform():
			case c.Pi > 0:
				t := c.Tau - c.Pi*center
				quad += 0.5 * t * t / c.Pi
				sum.Mul(c.Pi / q.Pi) // Σ log π_c = Σ log(π_c/π_q) + proper·log π_q
				proper++
			default:
				f := g.edgeFactor(e)
				return 0, fmt.Errorf("graph %q: evidence at factor %d %s edge %d: improper cavity %v: %w",
					g.name, f, g.FactorLabel(f), e-g.factors[f].first, c, messages.ErrNumerical)
			}
		}
		sum.Bracket(quad, proper-d+1, q.Pi)
	}
	l := sum.Value()
	if !messages.IsFinite(l) {
		return 0, fmt.Errorf("graph %q: evidence: log evidence %v is not finite: %w", g.name, l, messages.ErrNumerical)
	}
	return l, nil
}

// factorEvidence adds factor f's term to sum. A term that is NaN or +∞
// (which no average of a factor can be: messages.ErrNumerical), or −∞
// (probability zero: messages.ErrImpossible), an error of the factor's and
// a panic in its methods are an *UpdateError of its LogAverageFactor.
func (g *Graph) factorEvidence(f FactorID, sum *evidenceSum) (err error) {
	fn := &g.factors[f]
	e := Edges{g: g, first: fn.first}
	fail := func(err error) error { return g.FactorError(f, "LogAverageFactor", -1, err, nil) }
	defer func() {
		if p := recover(); p != nil {
			err = g.FactorError(f, "LogAverageFactor", -1, nil, p)
		}
	}()
	// The interfaces are asserted here rather than stored per factor: the
	// evidence is computed far less often than messages, and a large
	// history has millions of factors.
	if gev, ok := fn.f.(GaussianEvidence); ok {
		t, ok, err := gev.LogAverageFactorTerm(e)
		if err != nil {
			return fail(err)
		}
		if ok {
			if !t.IsFinite() {
				return fail(fmt.Errorf("term %+v is not finite: %w", t, messages.ErrNumerical))
			}
			sum.AddTerm(t)
			return nil
		}
	}
	ev, ok := fn.f.(Evidence)
	if !ok {
		return fail(fmt.Errorf("the factor does not report evidence (graph.Evidence): %w", messages.ErrInput))
	}
	l, err := ev.LogAverageFactor(e)
	if err == nil {
		err = messages.CheckLogMass(l)
	}
	if err != nil {
		return fail(err)
	}
	sum.Add(l)
	return nil
}

// evidenceSum assembles a log evidence from its terms as LogEvidence does:
// the values in a compensated sum, and every logarithm of a variance or
// precision gathered into −½·log(product), the product kept within range
// by folding it into logarithms when it grows or shrinks too far; the zero
// value is an empty sum.
type evidenceSum struct {
	total kahan // hundreds of thousands of terms of both signs
	prod  productLog
	norms float64
}

// Add adds the value x.
func (s *evidenceSum) Add(x float64) { s.total.add(x) }

// AddTerm adds t: Quad to the sum, Var to the product, Norm to the count of
// log √(2π).
func (s *evidenceSum) AddTerm(t LogTerm) {
	s.total.add(t.Quad)
	s.prod.mul(t.Var)
	s.norms += t.Norm
}

// Norm adds n to the count of log √(2π) subtracted.
func (s *evidenceSum) Norm(n float64) { s.norms += n }

// Mul multiplies x into the product whose logarithm is subtracted halved.
func (s *evidenceSum) Mul(x float64) { s.prod.mul(x) }

// Bracket closes a variable's bracket Σ_e A(c_e) − (d−1)·A(q): its
// quadratic part quad, and extra = proper − d + 1 more factors of its
// marginal's precision pi in the product (fewer, if negative), for a
// variable of degree d with that many proper cavities, whose ratios
// π_c/π_q were given to Mul.
func (s *evidenceSum) Bracket(quad float64, extra int, pi float64) {
	for range extra {
		s.prod.mul(pi)
	}
	for range -extra {
		s.prod.mul(1 / pi)
	}
	s.total.add(quad)
	s.norms -= float64(extra)
}

// Value returns the log evidence: the sum − ½·log(product) − count·log √(2π).
func (s *evidenceSum) Value() float64 {
	total := s.total
	total.add(-0.5 * s.prod.log())
	total.add(-s.norms * logSqrt2Pi)
	return total.value()
}

// productLog accumulates log Π xᵢ with a logarithm per 10^200 or so of range
// instead of one per factor: the running product p stays within
// [1e-200, 1e200], and an x that would take it out is folded in by
// logarithms (x itself if it lies outside [1e-100, 1e100], 0, +Inf and NaN
// included; otherwise the product with it). Its zero value (p = 0, never a
// product's value) is the empty product.
type productLog struct {
	p    float64
	logs float64
}

func (pl *productLog) mul(x float64) {
	if p := pl.p * x; p >= 1e-200 && p <= 1e200 { // the common case
		pl.p = p
		return
	}
	if !(x >= 1e-100 && x <= 1e100) {
		pl.logs += messages.Log(x) // x may be subnormal
		return
	}
	if pl.p == 0 {
		pl.p = 1
	}
	pl.p *= x
	if pl.p < 1e-200 || pl.p > 1e200 {
		pl.logs += math.Log(pl.p)
		pl.p = 1
	}
}

func (pl *productLog) log() float64 {
	if pl.p == 0 {
		return pl.logs
	}
	return pl.logs + math.Log(pl.p)
}

// logSqrt2Pi is log √(2π).
const logSqrt2Pi = 0.918938533204672741780329736405617640

// kahan is Neumaier's compensated sum.
type kahan struct{ sum, c float64 }

func (k *kahan) value() float64 {
	if math.IsInf(k.sum, 0) {
		return k.sum
	}
	return k.sum + k.c
}

func (k *kahan) add(x float64) {
	// An infinite term (zero probability) makes the compensation NaN;
	// value returns the infinite sum then.
	t := k.sum + x
	if math.Abs(k.sum) >= math.Abs(x) {
		k.c += (k.sum - t) + x
	} else {
		k.c += (x - t) + k.sum
	}
	k.sum = t
}
