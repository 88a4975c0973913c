package throughtime

import (
	"math"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
)

// extrapolation speeds up the sweeps' slow tail. After a few dozen sweeps
// the games' messages to the skills change by a nearly constant ratio r
// from one sweep to the next (0.96 on a tennis-shaped history: one slow
// mode, the relative level of players linked by many games over long
// careers, dominates), so the remaining change is the geometric series
// Δ·(r + r² + …) = Δ·r/(1 − r), and adding it (Aitken's Δ² process on the
// whole vector of messages) lands near the fixed point. The fixed point is
// unchanged: only the iteration's starting point moves, and the sweeps
// that follow decide convergence.
type extrapolation struct {
	h     *History
	edges []edge              // every edge of the graph
	prev  []messages.Gaussian // their messages after the previous sweep
	cur   []messages.Gaussian // and after this one
	norms []float64           // the size of each sweep's change, since the last jump
}

type edge struct {
	f graph.FactorID
	i int
}

func (h *History) newExtrapolation() *extrapolation {
	x := &extrapolation{h: h}
	for f := range h.g.NumFactors() {
		for i := range h.g.Arity(graph.FactorID(f)) {
			x.edges = append(x.edges, edge{graph.FactorID(f), i})
		}
	}
	x.prev = make([]messages.Gaussian, len(x.edges))
	x.cur = make([]messages.Gaussian, len(x.edges))
	x.read(x.prev)
	return x
}

func (x *extrapolation) read(into []messages.Gaussian) {
	for i, e := range x.edges {
		into[i] = x.h.g.Message(e.f, e.i)
	}
}

// observe reads the messages after a sweep and, once the ratio of
// successive changes has settled, jumps them to the extrapolated limit.
func (x *extrapolation) observe() error {
	x.read(x.cur)
	var sq float64
	for i := range x.cur {
		dp, dt := x.cur[i].Pi-x.prev[i].Pi, x.cur[i].Tau-x.prev[i].Tau
		sq += dp*dp + dt*dt
	}
	x.norms = append(x.norms, math.Sqrt(sq))
	x.prev, x.cur = x.cur, x.prev
	n := len(x.norms)
	if n < 4 {
		return nil
	}
	r1, r2, r3 := x.norms[n-1]/x.norms[n-2], x.norms[n-2]/x.norms[n-3], x.norms[n-3]/x.norms[n-4]
	if !(r1 > 0.5 && r1 < 0.99) || math.Abs(r1-r2) > 0.01 || math.Abs(r2-r3) > 0.01 {
		return nil // not (yet) a single geometric mode
	}
	step := r1 / (1 - r1)
	// x.prev now holds this sweep's messages and x.cur the previous one's.
	for i, e := range x.edges {
		now, was := x.prev[i], x.cur[i]
		pi := now.Pi + step*(now.Pi-was.Pi)
		tau := now.Tau + step*(now.Tau-was.Tau)
		if !(pi >= 0) || !messages.IsFinite(pi) || !messages.IsFinite(tau) {
			continue // a message the jump would make improper stays where it is
		}
		if _, _, err := x.h.g.Send(x.h.g.EdgeID(e.f, e.i), messages.Gaussian{Pi: pi, Tau: tau}, 0); err != nil {
			return err
		}
	}
	x.read(x.prev)
	x.norms = x.norms[:0]
	return nil
}
