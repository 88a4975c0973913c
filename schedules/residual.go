package schedules

import (
	"fmt"

	"github.com/skillgraph/skillgraph/graph"
)

// residualState is what a Runner keeps for one residual loop: its steps in
// order, the variables each reads, and the sum of their changes when it
// last ran.
type residualState struct {
	steps  []residualStep
	inputs []graph.VarID
	seen   []float64
}

type residualStep struct {
	f          graph.FactorID
	edge       int
	target     graph.VarID
	first, end int32 // inputs[first:end]
}

// residual returns the runner's state for loop l, built on first use.
func (r *Runner) residual(l *LoopSchedule) (*residualState, error) {
	if rs, ok := r.residuals[l]; ok {
		return rs, nil
	}
	rs := &residualState{}
	var err error
	var collect func(Schedule)
	collect = func(s Schedule) {
		switch s := s.(type) {
		case *StepSchedule:
			g := r.g
			if !g.HasEdge(s.Factor, s.Edge) {
				err = fmt.Errorf("schedules: loop %q: factor %d edge %d: %w", l.Name, s.Factor, s.Edge, graph.ErrNoFactor)
				return
			}
			st := residualStep{f: s.Factor, edge: s.Edge, target: g.EdgeVariable(s.Factor, s.Edge), first: int32(len(rs.inputs))}
			for i := 0; i < g.Arity(s.Factor); i++ {
				rs.inputs = append(rs.inputs, g.EdgeVariable(s.Factor, i))
			}
			st.end = int32(len(rs.inputs))
			rs.steps = append(rs.steps, st)
		case *SequenceSchedule:
			for _, p := range s.Parts {
				collect(p)
			}
		default:
			err = fmt.Errorf("schedules: loop %q: %w: a residual loop's body must consist of steps and sequences, not %T", l.Name, ErrLoopConfig, s)
		}
	}
	collect(l.Body)
	if err != nil {
		return nil, err
	}
	rs.seen = make([]float64, len(rs.steps))
	if r.residuals == nil {
		r.residuals = map[*LoopSchedule]*residualState{}
	}
	if len(r.changes) < r.g.NumVariables() {
		r.changes = make([]float64, r.g.NumVariables())
	}
	r.residuals[l] = rs
	return rs, nil
}

// residualPass runs one pass of a residual loop: every step on the first
// pass, afterwards only those whose inputs changed by more than theta since
// they last ran.
func (r *Runner) residualPass(rs *residualState, theta float64, first bool) (Result, error) {
	if first {
		clear(r.changes) // sums restart with the loop, so they stay small and exact
	}
	for j := range rs.steps {
		st := &rs.steps[j]
		in := r.inputChange(rs.inputs[st.first:st.end])
		if !first && in-rs.seen[j] <= theta {
			continue
		}
		d, err := r.Update(st.f, st.edge)
		if err != nil {
			return Result{}, err
		}
		// A change above 1 (or +Inf, from a uniform marginal) means "changed"
		// as surely as 1 does; clamping keeps the sums small enough that a
		// change of theta is still resolved in them.
		if !(d <= 1) {
			d = 1
		}
		r.changes[st.target] += d
		rs.seen[j] = in + d // the target is one of the inputs
	}
	return Result{Converged: true}, nil
}

func (r *Runner) inputChange(in []graph.VarID) float64 {
	var s float64
	for _, v := range in {
		s += r.changes[v]
	}
	return s
}
