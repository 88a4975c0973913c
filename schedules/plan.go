package schedules

import (
	"context"
	"fmt"
	"math"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
)

// Plan is a schedule compiled for one graph: a flat program with one op per
// message update, each step's factor, edge and message slot resolved to
// indices, each Loop a pair of ops that jump. A Runner builds the plan of a
// schedule the first time it runs it and runs the plan from then on, so
// every graph, a user's model and its own factors included, runs on the
// same engine; a Plan is what Compile returns for inspection and tests.
//
// The structure (parts, steps, nesting) is fixed when the plan is
// compiled; each Loop's parameters (tolerance, cap, damping, residual) are
// read from its LoopSchedule every time it starts, so they may be changed
// between runs. Every factor, the engine's own and a user's, is called
// through graph.Factor, so the numbers are those of graph.Update. Running a
// plan does not modify it.
type Plan struct {
	g     *graph.Graph
	ops   []op
	depth int // the deepest nesting of loops
	aux   []aux
}

type opKind uint8

const (
	opStep   opKind = iota // one message update
	opLoop                 // a Loop begins; jump is its opEnd
	opEnd                  // a pass of the loop ends; jump is its opLoop
	opCustom               // a Schedule of another type, run through the Runner
	opBad                  // a step naming an edge the graph lacks: fails when reached
)

// An op is small (16 bytes) because a long history's plan has tens of
// millions of them: a step keeps indices only, and reads its factor, its
// edges and its message's slot from the graph when it runs; a and b mean
// what the kind needs.
type op struct {
	kind opKind
	edge int32 // the factor's edge (opStep, opBad)
	// a is the factor (opStep, opBad) or the index of the loop's other
	// end (opLoop, opEnd).
	a int32
	// b is a step's position in its loop's body, for residual loops (−1
	// outside loops), or the index in Plan.aux (opLoop, opEnd, opCustom).
	b int32
}

func (o *op) factor() graph.FactorID { return graph.FactorID(o.a) }
func (o *op) jump() int              { return int(o.a) }
func (o *op) slot() int32            { return o.b }
func (o *op) aux() int32             { return o.b }

func stepOp(kind opKind, f graph.FactorID, i int) op {
	return op{kind: kind, a: int32(f), edge: int32(i), b: -1}
}

// aux holds what the few ops that are not steps need, outside the ops, so
// that a step, which is nearly every op of a large plan, stays small.
type aux struct {
	loop   *LoopSchedule // (opLoop, opEnd)
	steps  bool          // (opLoop) the body consists of steps only
	custom Schedule      // (opCustom)
}

// Compile builds the plan of s on g. It fails with messages.ErrInput for a
// nil graph, a nil schedule or a nil part; a step naming an edge g lacks
// compiles to an op that fails (messages.ErrInput) when it is reached,
// as the update would. Schedules other than Step, Sequence and Loop become
// one op that calls their Run.
func Compile(g *graph.Graph, s Schedule) (*Plan, error) {
	if g == nil {
		return nil, errNilGraph()
	}
	// Sized first, so that a plan of millions of ops (a long history) holds
	// no spare capacity.
	p := &Plan{g: g, ops: make([]op, 0, size(s))}
	if err := p.add(s, 0, nil); err != nil {
		return nil, err
	}
	return p, nil
}

// size returns the number of ops that s compiles to (for a valid
// schedule; add checks validity).
func size(s Schedule) (ops int) {
	switch s := s.(type) {
	case *SequenceSchedule:
		if s == nil {
			return 0
		}
		for _, part := range s.Parts {
			ops += size(part)
		}
		return ops
	case *LoopSchedule:
		if s == nil || s.Body == nil {
			return 0
		}
		return size(s.Body) + 2
	}
	return 1
}

// add appends the ops of s, nested in depth loops; slot counts the steps of
// the innermost loop's body so far (nil outside loops).
func (p *Plan) add(s Schedule, depth int, slot *int32) error {
	switch s := s.(type) {
	case *StepSchedule:
		if s == nil {
			return fmt.Errorf("schedules: nil step: %w", messages.ErrInput)
		}
		o := stepOp(opBad, s.Factor, s.Edge)
		if s.Edge == int(int32(s.Edge)) && p.g.HasEdge(s.Factor, s.Edge) {
			o.kind = opStep
		}
		if slot != nil {
			o.b = *slot
			*slot++
		}
		p.ops = append(p.ops, o)
	case *SequenceSchedule:
		if s == nil {
			return fmt.Errorf("schedules: nil sequence: %w", messages.ErrInput)
		}
		for j, part := range s.Parts {
			if err := p.add(part, depth, slot); err != nil {
				return fmt.Errorf("part %d: %w", j, err)
			}
		}
	case *LoopSchedule:
		if s == nil || s.Body == nil {
			return fmt.Errorf("schedules: nil loop or loop body: %w", messages.ErrInput)
		}
		begin := len(p.ops)
		ai := int32(len(p.aux))
		p.aux = append(p.aux, aux{loop: s})
		p.ops = append(p.ops, op{kind: opLoop, b: ai})
		p.depth = max(p.depth, depth+1)
		var n int32
		if err := p.add(s.Body, depth+1, &n); err != nil {
			return fmt.Errorf("loop %q: %w", s.Name, err)
		}
		steps := true
		for _, o := range p.ops[begin+1:] {
			steps = steps && (o.kind == opStep || o.kind == opBad)
		}
		p.aux[ai].steps = steps
		p.ops[begin].a = int32(len(p.ops))
		p.ops = append(p.ops, op{kind: opEnd, b: ai, a: int32(begin)})
	default:
		if s == nil {
			return fmt.Errorf("schedules: nil schedule: %w", messages.ErrInput)
		}
		p.aux = append(p.aux, aux{custom: s})
		p.ops = append(p.ops, op{kind: opCustom, b: int32(len(p.aux) - 1)})
	}
	return nil
}

// Run executes the plan on r, which must run the plan's graph: a Plan is a
// Schedule, so a caller may compile a large schedule once, drop the tree
// of Step, Sequence and Loop values it came from (a long history's takes
// more memory than its plan), and run the plan itself.
func (p *Plan) Run(r *Runner) (Convergence, error) {
	if p == nil {
		return Convergence{}, fmt.Errorf("schedules: nil plan: %w", messages.ErrInput)
	}
	if r != nil && r.g != nil && r.idle() {
		return r.Run(context.Background(), p) // outside a run: as Runner.Run
	}
	return r.exec(p)
}

// Len returns the number of ops: one per step, two per loop, one per
// schedule of another type (0 for a nil plan).
func (p *Plan) Len() int {
	if p == nil {
		return 0
	}
	return len(p.ops)
}

// send performs the update o: the factor's message, folded into the graph
// with the damping in force, measured inside loops and for an observer. It returns the change, except where
// nobody reads it: outside loops, and inside a loop that only needs the
// pass's largest change (no observer, the default metric, no residual
// skipping) where the change is certainly below that (it returns 0 then).
func (r *Runner) send(o *op) (float64, error) {
	i := int(o.edge)
	fac, e := r.g.FactorEdges(o.factor())
	// A panic in the factor's Message is recovered by Runner.Run, which
	// names the factor from sending: two stores per update instead of a
	// deferred recover per update.
	r.sending, r.sendingEdge = o.a+1, o.edge
	msg, err := fac.Message(i, e)
	r.sending = 0
	if err != nil {
		return 0, r.g.FactorError(o.factor(), "Message", i, err, nil)
	}
	before, after, err := r.g.Send(e.EdgeID(i), msg, r.damping)
	if err != nil {
		return 0, err
	}
	if r.observer == nil {
		if r.loops == 0 {
			return 0, nil // nobody reads the change outside loops
		}
		if r.metric == nil && r.residual == 0 && messages.DistanceBelow(before, after, r.passMax) {
			return 0, nil // only the pass's largest change is read, and this is not it
		}
	}
	var d float64
	if r.metric == nil {
		d = messages.Distance(before, after) // the default, called directly
	} else {
		d = r.metric(before, after)
	}
	r.passMax = larger(r.passMax, d)
	if r.observer != nil {
		r.observer.Updated(o.factor(), i, d)
	}
	return d, nil
}

// steps runs the run of steps that begins at ops[pc], most of a plan,
// without the dispatch of exec, and returns the index of its last step
// (of the failed one on error). Without an observer or a metric of the
// caller's, it is send written out over the run, with the damping and the
// pass's largest change kept in registers: the same updates, the same
// measure.
func (r *Runner) steps(ops []op, pc int) (int, error) {
	if r.observer != nil || r.metric != nil {
		for ; ; pc++ {
			if _, err := r.send(&ops[pc]); err != nil || pc+1 == len(ops) || ops[pc+1].kind != opStep {
				return pc, err
			}
		}
	}
	g, damping, passMax, measured := r.g, r.damping, r.passMax, r.loops > 0
	var err error
	for ; pc < len(ops) && ops[pc].kind == opStep; pc++ {
		o := &ops[pc]
		f, i := o.factor(), int(o.edge)
		fac, e := g.FactorEdges(f)
		r.sending, r.sendingEdge = o.a+1, o.edge // see send
		msg, merr := fac.Message(i, e)
		if merr != nil {
			err = g.FactorError(f, "Message", i, merr, nil)
			break
		}
		before, after, serr := g.Send(e.EdgeID(i), msg, damping)
		if serr != nil {
			err = serr
			break
		}
		// As send measures: only the pass's largest change is read.
		if measured && !messages.DistanceBelow(before, after, passMax) {
			passMax = larger(passMax, messages.Distance(before, after))
		}
	}
	r.sending, r.passMax = 0, passMax
	if err != nil {
		return pc, err
	}
	return pc - 1, nil
}

// larger returns the larger of a pass's largest change so far and a new
// change d, a NaN counting as the largest and staying so: a NaN change is
// never converged.
func larger(largest, d float64) float64 {
	if d > largest || d != d {
		return d
	}
	return largest
}

// frame is the state of one running loop.
type frame struct {
	begin        int32 // its opLoop
	it, inner    int
	allPasses    float64
	savedMax     float64
	savedDamping float64
	parent       Convergence // what the enclosing body had gathered when the loop began
	res          Convergence // the result of the last pass
	residual     float64     // the loop's Residual threshold; 0: every step runs
}

// exec runs p in the runner's current state (nested inside whatever loops
// are running), as the schedule's tree would run: the same updates in the
// same order, the same Result, the same errors.
func (r *Runner) exec(p *Plan) (Convergence, error) {
	if r == nil || r.g == nil {
		return Convergence{}, fmt.Errorf("schedules: nil runner: %w", messages.ErrInput)
	}
	if p.g != r.g {
		return Convergence{}, fmt.Errorf("schedules: a plan of graph %q run on graph %q: %w", p.g.Name(), r.g.Name(), messages.ErrInput)
	}
	base := len(r.frames)
	acc := Convergence{Converged: true} // the innermost body's results so far
	ops := p.ops
	for pc := 0; pc < len(ops); pc++ {
		o := &ops[pc]
		var err error
		switch o.kind {
		case opStep:
			if r.residual > 0 {
				err = r.residualStep(p, o, &r.frames[r.residual-1])
				break
			}
			pc, err = r.steps(ops, pc)
		case opLoop:
			l := p.aux[o.aux()].loop
			if err = l.Validate(); err != nil {
				acc = acc.Merge(Convergence{})
				break
			}
			r.frames = append(r.frames, frame{begin: int32(pc), savedMax: r.passMax, savedDamping: r.damping, parent: acc, it: 1})
			f := &r.frames[len(r.frames)-1]
			r.damping = l.Damping
			r.loops++
			if l.Residual > 0 {
				if err = p.residualBody(pc); err != nil {
					acc = r.leave(f)
					break
				}
				f.residual = l.Residual
				r.residual = len(r.frames)
				if len(r.changes) < r.g.NumVariables() {
					r.changes = make([]float64, r.g.NumVariables())
				}
				if n := o.jump() - pc - 1; len(r.seen) < n {
					r.seen = make([]float64, n)
				}
				clear(r.changes) // sums restart with the loop, so they stay small and exact
			}
			if err = r.beginPass(f, l); err != nil {
				acc = r.leave(f)
				break
			}
			acc = Convergence{Converged: true}
		case opEnd:
			f := &r.frames[len(r.frames)-1]
			l := p.aux[o.aux()].loop
			r.endPass(f, l, acc)
			if f.res.Delta <= l.Tolerance || f.it >= l.MaxIterations {
				acc = r.leave(f)
				break
			}
			f.it++
			if err = r.beginPass(f, l); err != nil {
				acc = r.leave(f)
				break
			}
			acc = Convergence{Converged: true}
			pc = o.jump()
		case opCustom:
			var cr Convergence
			cr, err = p.aux[o.aux()].custom.Run(r)
			acc = acc.Merge(cr)
		case opBad:
			err = p.badStep(o)
		}
		if err != nil {
			return bounded(r.unwind(p, base, acc)), err
		}
	}
	return bounded(acc), nil
}

// bounded returns res with a Delta of +∞ (a marginal that was uniform
// became informative: an unbounded change) reported as math.MaxFloat64,
// so that every Delta returned is a number; loops judge convergence on
// the change itself.
func bounded(res Convergence) Convergence {
	if res.Delta > math.MaxFloat64 {
		res.Delta = math.MaxFloat64
	}
	return res
}

func (p *Plan) badStep(o *op) error { return noEdge(p.g, o.factor(), int(o.edge)) }

// noEdge is the error of a step naming an edge g lacks, worded as
// graph.Update words it.
func noEdge(g *graph.Graph, f graph.FactorID, i int) error {
	return fmt.Errorf("graph %q: factor %d has no edge %d: %w", g.Name(), f, i, messages.ErrInput)
}

// residualBody reports why the body of the loop beginning at op pc cannot
// be run with residual skipping, if it cannot.
func (p *Plan) residualBody(pc int) error {
	l := p.aux[p.ops[pc].aux()].loop
	for _, o := range p.ops[pc+1 : p.ops[pc].jump()] {
		switch o.kind {
		case opStep:
		case opBad:
			return fmt.Errorf("schedules: loop %q: %w", l.Name, p.badStep(&o))
		default:
			return fmt.Errorf("schedules: loop %q: a residual loop's body must consist of steps and sequences: %w", l.Name, messages.ErrInput)
		}
	}
	return nil
}

// residualStep runs o, a step of the residual loop f, unless this is not
// the loop's first pass and the variables of o's factor have together
// changed by at most the threshold since o last ran. Changes above 1 (or
// +Inf, from a uniform marginal) count as 1: that means "changed" as surely,
// and keeps the sums small enough to resolve a change of the threshold.
func (r *Runner) residualStep(p *Plan, o *op, f *frame) error {
	var in float64
	n := r.g.Arity(o.factor())
	for i := range n {
		in += r.changes[r.g.EdgeVariable(o.factor(), i)]
	}
	if f.it > 1 && in-r.seen[o.slot()] <= f.residual {
		return nil
	}
	d, err := r.send(o)
	if err != nil {
		return err
	}
	if !(d <= 1) {
		d = 1
	}
	r.changes[r.g.EdgeVariable(o.factor(), int(o.edge))] += d
	r.seen[o.slot()] = in + d // the target is one of the inputs
	return nil
}

// beginPass starts a pass of f's loop l: it checks the context first.
func (r *Runner) beginPass(f *frame, l *LoopSchedule) error {
	if err := ctxErr(r.ctx); err != nil {
		f.res.Converged = false
		return fmt.Errorf("schedules: loop %q: %w", l.Name, err)
	}
	r.passMax = 0
	return nil
}

// endPass closes a pass of f's loop l whose body gathered body.
func (r *Runner) endPass(f *frame, l *LoopSchedule, body Convergence) {
	delta := r.passMax
	f.allPasses = math.Max(f.allPasses, delta)
	f.inner += body.Iterations
	f.res = Convergence{Delta: delta, Iterations: f.it + f.inner, Converged: body.Converged && delta <= l.Tolerance}
	if r.observer != nil {
		r.observer.Iterated(l.Name, f.it, delta)
	}
}

// leave pops the loop f (the innermost), restoring the state it saved, and
// returns the enclosing body's results with the loop's merged in.
func (r *Runner) leave(f *frame) Convergence {
	r.damping = f.savedDamping
	r.passMax = math.Max(f.savedMax, f.allPasses)
	r.loops--
	if f.residual > 0 {
		r.residual = 0
	}
	acc := f.parent.Merge(f.res)
	r.frames = r.frames[:len(r.frames)-1]
	return acc
}

// unwind leaves every loop of p still running (those above base) after a
// failure inside them, innermost first, as a loop ends a pass that failed:
// the pass is measured and reported, and the loop has not converged.
func (r *Runner) unwind(p *Plan, base int, acc Convergence) Convergence {
	for len(r.frames) > base {
		f := &r.frames[len(r.frames)-1]
		r.endPass(f, p.aux[p.ops[f.begin].aux()].loop, acc)
		f.res.Converged = false
		acc = r.leave(f)
	}
	return acc
}
