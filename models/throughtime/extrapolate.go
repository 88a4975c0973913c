package throughtime

import (
	"math"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
)

// extrapolation speeds up the sweeps' slow tail. After some sweeps the
// messages often change by a nearly constant ratio r from one sweep to the
// next (0.96 on a tennis-shaped history: one slow mode, the relative level
// of players linked by many games over long careers, dominates), so the
// remaining change is the geometric series Δ·(r + r² + …) = Δ·r/(1 − r),
// and adding it (Aitken's Δ² process on the whole vector of messages)
// lands near the fixed point. The fixed point is unchanged: only the
// iteration's starting point moves, and the sweeps that follow decide
// convergence. A jump is judged by the sweep after it: that sweep's change
// of the messages, projected on the change of the sweep before the jump
// (the slow mode's direction), is r times it without a jump and near 0
// after a good one. The jump is kept if it removed at least half of the
// slow mode; otherwise the messages go back to where they were and the next
// jump waits for a ratio that has held twice as long (histories of large
// multi-team games, whose changes mix several modes, mostly never jump).
// The sweep after a good jump may still move the skills more than the one
// before it did, as the faster modes the jump disturbed settle: on a
// 200,000-game history the first jumps do, so that size is no test.
type extrapolation struct {
	h *History
	// edges are the skills' edges, whose messages are the state a sweep
	// carries to the next: everything inside a game is computed afresh
	// from its skills' cavities (or, in a game with an inner loop, only
	// starts from what it was), so only these are extrapolated.
	edges []graph.EdgeID
	prev  []messages.Gaussian // their messages after the previous sweep
	cur   []messages.Gaussian // and after this one
	norms []float64           // the size of each sweep's change, since the last jump
	// window is how many successive ratios must agree before a jump.
	window int
	// saved holds the messages before the last jump while it is on trial,
	// and ratio is the r it jumped with.
	saved []messages.Gaussian
	ratio float64
}

func (h *History) newExtrapolation() *extrapolation {
	x := &extrapolation{h: h, window: 3}
	for _, v := range h.skills {
		for i := range h.g.Degree(v) {
			x.edges = append(x.edges, h.g.EdgeID(h.g.VariableEdge(v, i)))
		}
	}
	x.prev = make([]messages.Gaussian, len(x.edges))
	x.cur = make([]messages.Gaussian, len(x.edges))
	x.read(x.prev)
	return x
}

func (x *extrapolation) read(into []messages.Gaussian) {
	for k := range into {
		into[k] = x.h.g.EdgeMessage(x.edges[k])
	}
}

// write sends every edge its message from msgs.
func (x *extrapolation) write(msgs []messages.Gaussian) error {
	for k, m := range msgs {
		if _, _, err := x.h.g.Send(x.edges[k], m, 0); err != nil {
			return err
		}
	}
	return nil
}

// observe is called after each sweep that did not converge, with the
// skills' largest move in it. It judges a jump on trial, and once the
// ratio of successive changes has settled, jumps the messages to the
// extrapolated limit.
func (x *extrapolation) observe(delta float64) error {
	if x.saved != nil {
		saved := x.saved
		x.saved = nil
		// After the jump prev holds its messages and cur those of the sweep
		// before the jump, which moved them to saved.
		var dot, norm float64
		for k := range saved {
			m := x.h.g.EdgeMessage(x.edges[k])
			dp, dt := m.Pi-x.prev[k].Pi, m.Tau-x.prev[k].Tau
			sp, st := saved[k].Pi-x.cur[k].Pi, saved[k].Tau-x.cur[k].Tau
			dot += dp*sp + dt*st
			norm += sp*sp + st*st
		}
		if left := dot / norm; !(math.Abs(left) <= x.ratio/2) || !messages.IsFinite(delta) {
			x.window *= 2
			x.norms = x.norms[:0]
			if err := x.write(saved); err != nil {
				return err
			}
			copy(x.prev, saved)
			return nil
		}
	}
	x.read(x.cur)
	var sq float64
	for i := range x.cur {
		dp, dt := x.cur[i].Pi-x.prev[i].Pi, x.cur[i].Tau-x.prev[i].Tau
		sq += dp*dp + dt*dt
	}
	x.norms = append(x.norms, math.Sqrt(sq))
	x.prev, x.cur = x.cur, x.prev // prev: this sweep's messages; cur: the previous sweep's
	n := len(x.norms)
	if n < x.window+1 {
		return nil
	}
	r := x.norms[n-1] / x.norms[n-2]
	if !(r > 0.5 && r < 0.999) {
		return nil
	}
	for k := n - x.window; k < n; k++ {
		if math.Abs(x.norms[k]/x.norms[k-1]-r) > 0.01 {
			return nil // not (yet) a single geometric mode
		}
	}
	step := r / (1 - r)
	x.saved = append(x.saved[:0:0], x.prev...)
	x.ratio = r
	for k := range x.prev {
		now, was := x.prev[k], x.cur[k]
		pi := now.Pi + step*(now.Pi-was.Pi)
		tau := now.Tau + step*(now.Tau-was.Tau)
		if !(pi >= 0) || !messages.IsFinite(pi) || !messages.IsFinite(tau) {
			continue // a message the jump would make improper stays where it is
		}
		if _, _, err := x.h.g.Send(x.edges[k], messages.Gaussian{Pi: pi, Tau: tau}, 0); err != nil {
			return err
		}
	}
	x.read(x.prev)
	x.norms = x.norms[:0]
	return nil
}
