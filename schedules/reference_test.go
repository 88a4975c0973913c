package schedules_test

import (
	"context"
	"fmt"
	"math"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/schedules"
)

// refRunner is a tree-walking interpreter of Step, Sequence and Loop
// written for the tests alone: each step is one graph.Update, each loop a
// Go for loop, with the documented semantics of Result, damping, residual
// skipping and cancellation (checked before the run, before every loop
// pass and after the run). The plans Runner compiles are checked against
// it.
type refRunner struct {
	g       *graph.Graph
	ctx     context.Context
	damping float64
	passMax float64
	loops   int
	changes []float64
	seen    map[*schedules.LoopSchedule][]float64
}

func refRun(ctx context.Context, g *graph.Graph, s schedules.Schedule) (schedules.Convergence, error) {
	if err := ctx.Err(); err != nil {
		return schedules.Convergence{}, fmt.Errorf("before the run: %w", err)
	}
	r := &refRunner{g: g, ctx: ctx, changes: make([]float64, g.NumVariables()), seen: map[*schedules.LoopSchedule][]float64{}}
	res, err := r.run(s)
	res.Cyclic = refCyclic(g)
	res.Delta = math.Min(res.Delta, math.MaxFloat64) // an unbounded change is reported as the largest float64
	if err == nil {
		if err = ctx.Err(); err != nil {
			err = fmt.Errorf("by the end of the run: %w", err)
		}
	}
	return res, err
}

// refCyclic reports whether g has a cycle through latent variables by
// counting: a graph whose nodes (the factors and the latent variables) and
// edges (those to latent variables) form c connected components is a
// forest exactly when it has nodes − c edges.
func refCyclic(g *graph.Graph) bool {
	n := g.NumFactors() + g.NumVariables()
	seen := make([]bool, n) // factors first, then variables
	latent := func(v graph.VarID) bool { _, obs := g.Observed(v); return !obs }
	edges, components := 0, 0
	for f := range g.NumFactors() {
		for i := range g.Arity(graph.FactorID(f)) {
			if latent(g.EdgeVariable(graph.FactorID(f), i)) {
				edges++
			}
		}
	}
	for start := range n {
		if seen[start] {
			continue
		}
		components++
		seen[start] = true
		stack := []int{start}
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			var next []int
			if x < g.NumFactors() {
				for i := range g.Arity(graph.FactorID(x)) {
					if v := g.EdgeVariable(graph.FactorID(x), i); latent(v) {
						next = append(next, g.NumFactors()+int(v))
					}
				}
			} else if v := graph.VarID(x - g.NumFactors()); latent(v) {
				for k := range g.Degree(v) {
					f, _ := g.VariableEdge(v, k)
					next = append(next, int(f))
				}
			}
			for _, y := range next {
				if !seen[y] {
					seen[y] = true
					stack = append(stack, y)
				}
			}
		}
	}
	return edges > n-components
}

func (r *refRunner) update(f graph.FactorID, i int) (float64, error) {
	before, after, err := r.g.Update(f, i, r.damping)
	if err != nil {
		return 0, err
	}
	if r.loops == 0 {
		return 0, nil
	}
	d := messages.Distance(before, after)
	if d > r.passMax || d != d {
		r.passMax = d
	}
	return d, nil
}

func (r *refRunner) run(s schedules.Schedule) (schedules.Convergence, error) {
	switch s := s.(type) {
	case *schedules.StepSchedule:
		_, err := r.update(s.Factor, s.Edge)
		return schedules.Convergence{Converged: true}, err
	case *schedules.SequenceSchedule:
		res := schedules.Convergence{Converged: true}
		for _, p := range s.Parts {
			pr, err := r.run(p)
			res = res.Merge(pr)
			if err != nil {
				return res, err
			}
		}
		return res, nil
	case *schedules.LoopSchedule:
		return r.loop(s)
	}
	panic(fmt.Sprintf("refRunner: %T", s))
}

func (r *refRunner) loop(l *schedules.LoopSchedule) (schedules.Convergence, error) {
	if err := l.Validate(); err != nil {
		return schedules.Convergence{}, err
	}
	savedDamping, savedMax := r.damping, r.passMax
	r.damping = l.Damping
	r.loops++
	allPasses := 0.0
	defer func() {
		r.damping = savedDamping
		r.passMax = math.Max(savedMax, allPasses)
		r.loops--
	}()
	var steps []*schedules.StepSchedule
	if l.Residual > 0 {
		schedules.Walk(l.Body, func(st *schedules.StepSchedule, _ *schedules.LoopSchedule) { steps = append(steps, st) })
		if r.seen[l] == nil {
			r.seen[l] = make([]float64, len(steps))
		}
	}
	res := schedules.Convergence{}
	inner := 0
	for it := 1; it <= l.MaxIterations; it++ {
		if err := r.ctx.Err(); err != nil {
			res.Converged = false
			return res, fmt.Errorf("schedules: loop %q: %w", l.Name, err)
		}
		r.passMax = 0
		var br schedules.Convergence
		var err error
		if l.Residual > 0 {
			br, err = r.residualPass(steps, r.seen[l], l.Residual, it == 1)
		} else {
			br, err = r.run(l.Body)
		}
		delta := r.passMax
		allPasses = math.Max(allPasses, delta)
		inner += br.Iterations
		res = schedules.Convergence{Delta: delta, Iterations: it + inner, Converged: br.Converged && delta <= l.Tolerance}
		if err != nil {
			res.Converged = false
			return res, err
		}
		if delta <= l.Tolerance {
			break
		}
	}
	return res, nil
}

// residualPass skips, after the first pass, each step whose factor's
// variables have together changed by at most theta since it last ran.
func (r *refRunner) residualPass(steps []*schedules.StepSchedule, seen []float64, theta float64, first bool) (schedules.Convergence, error) {
	if first {
		clear(r.changes)
	}
	for j, st := range steps {
		var in float64
		for i := 0; i < r.g.Arity(st.Factor); i++ {
			in += r.changes[r.g.EdgeVariable(st.Factor, i)]
		}
		if !first && in-seen[j] <= theta {
			continue
		}
		d, err := r.update(st.Factor, st.Edge)
		if err != nil {
			return schedules.Convergence{}, err
		}
		if !(d <= 1) {
			d = 1
		}
		r.changes[r.g.EdgeVariable(st.Factor, st.Edge)] += d
		seen[j] = in + d
	}
	return schedules.Convergence{Converged: true}, nil
}
