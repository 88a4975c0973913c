package throughtime

import (
	"math"

	"github.com/skillgraph/skillgraph/messages"
)

// mixDepth is how many past sweeps are mixed: deeper mixing converges in
// fewer sweeps on long histories (BENCHMARKS.md), and its buffers, two
// single-precision columns per game message per sweep mixed, are most of
// the memory a history takes while smoothing.
const mixDepth = 10

// anderson accelerates the sweeps by Anderson mixing (Anderson 1965; Walker
// and Ni 2011): the sweep is a fixed-point map G of the games' messages to
// their skills x (the messages each skill has from its past follow from
// them, and are recomputed after mixing), and instead of x ← G(x) the
// next point is the combination of the last few G(x_j) whose residuals
// G(x_j) − x_j combine to the least residual. On a history, the slowest
// part of the error is the whole population's level drifting together,
// only weakly held by the new players' priors, along with other smooth
// modes over time: each game holds such a mode only weakly, so a plain
// sweep shrinks it by a factor close to 1, and mixing over a few sweeps
// extrapolates along it as a Krylov method would. The fixed point is the
// same: a point where G(x) = x has no residual to mix, and Converge still
// decides convergence by a sweep that moves no skill by more than its
// tolerance.
type anderson struct {
	h     *History
	depth int       // how many past steps are mixed
	x     []float64 // the messages before this sweep (π, τ pairs)
	gPrev []float64 // G of the previous point
	fPrev []float64 // its residual
	// dG and dF are the last depth differences of G and of the residual,
	// oldest first, in single precision: they only set the mixing, and
	// halving them halves the mixing's memory.
	dG, dF [][]float32
	// gram[i][j] = dF[i]·dF[j], kept as columns come and go, so that a
	// sweep computes only the new column's products.
	gram [][]float64
	best float64 // the smallest residual norm since the history was cleared
	have bool    // gPrev and fPrev hold a step
	// known is true when x holds the messages observe left in the graph.
	known bool
}

func (h *History) newAnderson(depth int) *anderson {
	a := &anderson{h: h, depth: depth, best: math.Inf(1)}
	n := 2 * len(h.slots)
	a.x, a.gPrev, a.fPrev = make([]float64, n), make([]float64, n), make([]float64, n)
	return a
}

// start reads the point x the next sweep starts from, unless observe has
// just written it (known is true then).
func (a *anderson) start() {
	if a.known {
		a.known = false
		return
	}
	for k := range a.h.slots {
		m := a.h.slots[k].msg
		a.x[2*k], a.x[2*k+1] = m.Pi, m.Tau
	}
}

// observe is called after a sweep that did not converge: the games'
// messages are G(x). It records the step and moves the messages to the
// mixed point, and the skills' messages from their past with them.
func (a *anderson) observe() {
	if a.depth == 0 {
		return
	}
	norm, ok := a.record()
	if !ok {
		return
	}
	a.have = true
	if norm > 10*a.best {
		// The mixing has led away from the fixed point: start again from
		// plain sweeps.
		a.dG, a.dF, a.gram, a.best = nil, nil, nil, norm
		return
	}
	a.best = math.Min(a.best, norm)
	if len(a.dF) == 0 {
		return
	}
	gamma, ok := a.coefficients()
	if !ok {
		a.dG, a.dF, a.gram = nil, nil, nil
		return
	}
	a.mix(gamma)
}

// record takes the step to G(x): the residual f = G(x) − x, whose norm
// it returns (false if it is not finite), G(x) and f as the previous
// step's, and after the first step the new columns of ΔG and ΔF and
// their products in the Gram matrix, the oldest dropped at depth.
func (a *anderson) record() (float64, bool) {
	var dg, df []float32
	if a.have {
		if len(a.dG) == a.depth {
			dg, df = a.dG[0], a.dF[0] // reuse the oldest columns
			a.dG, a.dF = a.dG[1:], a.dF[1:]
			a.gram = a.gram[1:]
			for i := range a.gram {
				a.gram[i] = a.gram[i][1:]
			}
		} else {
			dg, df = make([]float32, len(a.x)), make([]float32, len(a.x))
		}
	}
	var norm float64
	for k := range a.h.slots {
		m := a.h.slots[k].msg
		for j, gv := range [2]float64{m.Pi, m.Tau} {
			i := 2*k + j
			f := gv - a.x[i]
			norm += f * f
			if dg != nil {
				dg[i], df[i] = float32(gv-a.gPrev[i]), float32(f-a.fPrev[i])
			}
			a.gPrev[i], a.fPrev[i] = gv, f
		}
	}
	norm = math.Sqrt(norm)
	if !messages.IsFinite(norm) {
		return norm, false
	}
	if dg != nil {
		a.dG, a.dF = append(a.dG, dg), append(a.dF, df)
		row := make([]float64, len(a.dF))
		for i, col := range a.dF {
			row[i] = dot32(col, df)
			if i < len(a.gram) {
				a.gram[i] = append(a.gram[i], row[i])
			}
		}
		a.gram = append(a.gram, row)
	}
	return norm, true
}

// coefficients returns the γ that minimises |f − ΔF·γ|, from the normal
// equations with a ridge of 1e-10 of their scale against columns that
// have become parallel; false if they cannot be solved.
func (a *anderson) coefficients() ([]float64, bool) {
	m := len(a.dF)
	ata := make([]float64, m*m)
	atb := make([]float64, m)
	for i := range m {
		copy(ata[i*m:(i+1)*m], a.gram[i])
		atb[i] = dot(a.dF[i], a.fPrev)
	}
	var scale float64
	for i := range m {
		scale = math.Max(scale, ata[i*m+i])
	}
	for i := range m {
		ata[i*m+i] += 1e-10 * scale
	}
	return solve(ata, atb, m)
}

// mix moves every game's message to the mixed point G(x) − ΔG·γ, keeping
// G's where the mixed one would be improper, and refreshes the skills'
// messages from their past.
func (a *anderson) mix(gamma []float64) {
	h := a.h
	for k := range h.slots {
		pi, tau := a.gPrev[2*k], a.gPrev[2*k+1]
		for j := range gamma {
			pi -= gamma[j] * float64(a.dG[j][2*k])
			tau -= gamma[j] * float64(a.dG[j][2*k+1])
		}
		if !(pi >= 0) || !messages.IsFinite(pi) || !messages.IsFinite(tau) {
			a.x[2*k], a.x[2*k+1] = a.gPrev[2*k], a.gPrev[2*k+1]
			continue
		}
		h.setMessage(&h.slots[k], messages.Gaussian{Pi: pi, Tau: tau})
		a.x[2*k], a.x[2*k+1] = pi, tau
	}
	h.refreshPast()
	a.known = true
}

func dot(x []float32, y []float64) float64 {
	var s float64
	for i := range x {
		s += float64(x[i]) * y[i]
	}
	return s
}

func dot32(x, y []float32) float64 {
	var s float64
	for i := range x {
		s += float64(x[i]) * float64(y[i])
	}
	return s
}

// solve solves the m×m system A·x = b (A row-major) by Gaussian
// elimination with partial pivoting; ok is false if A is singular.
func solve(a, b []float64, m int) (x []float64, ok bool) {
	for c := range m {
		p := c
		for r := c + 1; r < m; r++ {
			if math.Abs(a[r*m+c]) > math.Abs(a[p*m+c]) {
				p = r
			}
		}
		if a[p*m+c] == 0 || !messages.IsFinite(a[p*m+c]) {
			return nil, false
		}
		for j := range m {
			a[c*m+j], a[p*m+j] = a[p*m+j], a[c*m+j]
		}
		b[c], b[p] = b[p], b[c]
		for r := c + 1; r < m; r++ {
			f := a[r*m+c] / a[c*m+c]
			for j := c; j < m; j++ {
				a[r*m+j] -= f * a[c*m+j]
			}
			b[r] -= f * b[c]
		}
	}
	x = make([]float64, m)
	for r := m - 1; r >= 0; r-- {
		s := b[r]
		for j := r + 1; j < m; j++ {
			s -= a[r*m+j] * x[j]
		}
		x[r] = s / a[r*m+r]
	}
	return x, true
}
