package factortest

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/integrate/quad"

	"github.com/skillgraph/skillgraph/messages"
)

// tiltedNested is Tilted with Grid.CutsAt: variable i's nodes are placed
// for each value of the variables before it (and the point masses), so that a jump along a line
// such as x₀ = x₁ falls on a cut of the inner rule instead of inside a
// piece. The sums are those of Tilted, over the nested nodes: the
// normaliser and means in one pass, the variances about the means in a
// second.
func tiltedNested(density func(x []float64) float64, cavities []messages.Gaussian, gr Grid) (Moments, error) {
	n := len(cavities)
	for i, c := range cavities {
		if !c.IsProper() {
			return Moments{}, fmt.Errorf("%w: edge %d: %v (Tilted needs a proper or point-mass cavity)", ErrCavity, i, c)
		}
	}
	x := make([]float64, n)
	for i, c := range cavities {
		if c.IsPointMass() {
			x[i] = c.Mean()
		}
	}
	rx, rw := make([]float64, gr.Nodes), make([]float64, gr.Nodes)
	quad.Legendre{}.FixedLocations(rx, rw, 0, 1)
	// One buffer per level: a level's nodes are in use while the levels
	// below it are rebuilt.
	bufX, bufW, bufC := make([][]float64, n), make([][]float64, n), make([][]float64, n)
	var visit func(i int, w float64, f func(w float64))
	visit = func(i int, w float64, f func(w float64)) {
		if i == n {
			f(w * density(x))
			return
		}
		cuts := bufC[i][:0]
		if i < len(gr.Cuts) {
			cuts = append(cuts, gr.Cuts[i]...)
		}
		cuts = append(cuts, gr.CutsAt(i, x)...)
		xs, ws := gr.nodesWith(rx, rw, cavities[i], cuts, bufX[i][:0], bufW[i][:0])
		bufX[i], bufW[i], bufC[i] = xs, ws, cuts
		for k := range xs {
			x[i] = xs[k]
			visit(i+1, w*ws[k], f)
		}
	}
	var z float64
	mean := make([]float64, n)
	visit(0, 1, func(p float64) {
		z += p
		for i := range x {
			mean[i] += p * x[i]
		}
	})
	if !(z > 0) || math.IsInf(z, 1) {
		return Moments{}, tiltedMassError(z)
	}
	for i := range mean {
		mean[i] /= z
	}
	variance := make([]float64, n)
	visit(0, 1, func(p float64) {
		for i := range x {
			d := x[i] - mean[i]
			variance[i] += p * d * d
		}
	})
	for i := range variance {
		variance[i] /= z
	}
	return Moments{LogZ: messages.Log(z), Mean: mean, Variance: variance}, nil // z may be subnormal
}
