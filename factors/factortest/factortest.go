package factortest

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
)

// fixed is a unary factor that sends a given message: the cavity a test
// shows the factor under test on one edge.
type fixed struct{ m messages.Gaussian }

func (fixed) Arity() int                                            { return 1 }
func (c fixed) Message(int, graph.Edges) (messages.Gaussian, error) { return c.m, nil }

// ErrCavity reports a cavity the kit cannot show a factor: an improper or
// non-finite message, or (to Tilted) a uniform one, which has no density
// to integrate against. It wraps messages.ErrInput, as every argument
// error of the kit does.
var ErrCavity = fmt.Errorf("factortest: unusable cavity: %w", messages.ErrInput)

// setup builds a graph of f with one variable per edge whose cavity, as f
// sees it, is cavities[i].
func setup(f graph.Factor, cavities []messages.Gaussian) (*graph.Graph, graph.FactorID, error) {
	if f == nil {
		return nil, 0, fmt.Errorf("factortest: nil factor: %w", messages.ErrInput)
	}
	if n := f.Arity(); n != len(cavities) {
		return nil, 0, fmt.Errorf("factortest: %d cavities for a factor of arity %d: %w", len(cavities), n, messages.ErrInput)
	}
	b := graph.NewBuilder("factortest")
	vars := make([]graph.VarID, len(cavities))
	var sources []graph.FactorID
	for i, c := range cavities {
		if !c.IsUniform() && !c.IsProper() {
			return nil, 0, fmt.Errorf("%w: edge %d: %v", ErrCavity, i, c)
		}
		vars[i] = b.AddVariable(fmt.Sprintf("x%d", i))
		if !c.IsUniform() {
			sources = append(sources, b.AddFactor(fixed{c}, fmt.Sprintf("cavity %d", i), vars[i]))
		}
	}
	id := b.AddFactor(f, "", vars...)
	g, err := b.Build()
	if err != nil {
		return nil, 0, fmt.Errorf("factortest: %w", err)
	}
	for _, s := range sources {
		if _, _, err := g.Update(s, 0, 0); err != nil {
			return nil, 0, fmt.Errorf("factortest: %w", err)
		}
	}
	return g, id, nil
}

// Message returns the message f sends on edge i when the cavities of its
// edges, in edge order, are cavities: each a proper Gaussian, a point mass
// or uniform. It calls f through graph.Message, so a panic of f's, or a
// message the graph would refuse, is an error, as in a run.
func Message(f graph.Factor, i int, cavities ...messages.Gaussian) (messages.Gaussian, error) {
	g, id, err := setup(f, cavities)
	if err != nil {
		return messages.Gaussian{}, err
	}
	if i < 0 || i >= len(cavities) {
		return messages.Gaussian{}, fmt.Errorf("factortest: edge %d of a factor of arity %d: %w", i, len(cavities), messages.ErrInput)
	}
	return graph.Message(f, i, g.Edges(id))
}

// LogAverageFactor returns f's evidence term, log ∫ f(x) ∏ĉᵢ(xᵢ) dx, at the
// cavities; f must implement graph.Evidence.
func LogAverageFactor(f graph.Factor, cavities ...messages.Gaussian) (float64, error) {
	ev, ok := f.(graph.Evidence)
	if !ok {
		return 0, fmt.Errorf("factortest: %T: %w", f, messages.ErrInput)
	}
	g, id, err := setup(f, cavities)
	if err != nil {
		return 0, err
	}
	return ev.LogAverageFactor(g.Edges(id))
}

// Moments describes the tilted distribution f(x)·∏ĉᵢ(xᵢ) of a factor and its
// cavities (each ĉᵢ normalised): its normaliser and each variable's mean
// and variance.
type Moments struct {
	LogZ           float64
	Mean, Variance []float64
}

// Grid sets the quadrature of Tilted: per variable, the window of
// ±Width cavity standard deviations around the cavity mean, cut at Cuts
// (points where the density jumps, e.g. a truncation's margin) and into
// Pieces equal parts, each integrated by a Nodes-point Gauss–Legendre rule.
type Grid struct {
	Width  float64     // default 12
	Pieces int         // default 8 for one variable, 6 for more
	Nodes  int         // default 32 for one variable, 24 for two, 20 for more
	Cuts   [][]float64 // per variable (may be shorter than the arity)
	// CutsAt, if not nil, gives more cuts of variable i where they depend
	// on the values of other variables (a jump along x₀ = x₁, say): x[j]
	// holds the value of every variable j < i and of every point-mass
	// variable. Tilted then nests the rules, each variable's placed for
	// the values of those before it.
	CutsAt func(i int, x []float64) []float64
}

func (gr Grid) withDefaults(n int) Grid {
	if gr.Width <= 0 {
		gr.Width = 12
	}
	if gr.Pieces <= 0 {
		gr.Pieces = 6
		if n <= 1 {
			gr.Pieces = 8
		}
	}
	if gr.Nodes <= 0 {
		gr.Nodes = []int{32, 32, 24, 20}[min(n, 3)]
	}
	return gr
}

// nodes returns the quadrature nodes and weights of one variable with
// cavity c, the weights including c's density (a point mass is one node).
func (gr Grid) nodes(c messages.Gaussian, cuts []float64) (xs, ws []float64) {
	rx, rw := make([]float64, gr.Nodes), make([]float64, gr.Nodes)
	quad.Legendre{}.FixedLocations(rx, rw, 0, 1)
	return gr.nodesWith(rx, rw, c, cuts, nil, nil)
}

// nodesWith is nodes with the Gauss–Legendre rule (rx, rw) on [0, 1]
// given, appending to xs and ws (which may be reused buffers, cut to 0).
func (gr Grid) nodesWith(rx, rw []float64, c messages.Gaussian, cuts, xs, ws []float64) ([]float64, []float64) {
	if c.IsPointMass() {
		return append(xs, c.Mean()), append(ws, 1)
	}
	mu, sd := c.Mean(), c.Sigma()
	lo, hi := mu-gr.Width*sd, mu+gr.Width*sd
	bounds := []float64{lo, hi}
	for _, x := range cuts {
		if x > lo && x < hi {
			bounds = append(bounds, x)
		}
	}
	slices.Sort(bounds)
	bounds = slices.Compact(bounds) // a repeated cut is one cut
	norm := 1 / (sd * math.Sqrt(2*math.Pi))
	for s := 0; s+1 < len(bounds); s++ {
		step := (bounds[s+1] - bounds[s]) / float64(gr.Pieces)
		for p := 0; p < gr.Pieces; p++ {
			a := bounds[s] + float64(p)*step
			for k := range rx {
				x := a + step*rx[k]
				z := (x - mu) / sd
				xs = append(xs, x)
				ws = append(ws, step*rw[k]*math.Exp(-0.5*z*z)*norm)
			}
		}
	}
	return xs, ws
}

// Tilted integrates density, a factor's definition f(x) for x in edge
// order, against the cavities (proper Gaussians or point masses) on the
// product grid gr: the tilted distribution's normaliser and moments. The
// cost is the product of the variables' node counts, so it suits factors of
// up to three or four variables. The default grid resolves smooth
// integrands to about 1e-10 where the factor is not much narrower than the
// cavities, and jumps placed on Cuts as well; where the factor is far
// narrower (a prior of width 3 in a cavity of width 100), raise Pieces.
func Tilted(density func(x []float64) float64, cavities []messages.Gaussian, gr Grid) (Moments, error) {
	n := len(cavities)
	gr = gr.withDefaults(n)
	if gr.CutsAt != nil {
		return tiltedNested(density, cavities, gr)
	}
	xs, ws := make([][]float64, n), make([][]float64, n)
	total := 1
	for i, c := range cavities {
		if !c.IsProper() {
			return Moments{}, fmt.Errorf("%w: edge %d: %v (Tilted needs a proper or point-mass cavity)", ErrCavity, i, c)
		}
		var cuts []float64
		if i < len(gr.Cuts) {
			cuts = gr.Cuts[i]
		}
		xs[i], ws[i] = gr.nodes(c, cuts)
		total *= len(xs[i])
	}
	p := make([]float64, total)
	idx := make([]int, n)
	x := make([]float64, n)
	var z float64
	mean := make([]float64, n)
	for k := range p {
		w := 1.0
		for i := range idx {
			x[i] = xs[i][idx[i]]
			w *= ws[i][idx[i]]
		}
		p[k] = w * density(x)
		z += p[k]
		for i := range x {
			mean[i] += p[k] * x[i]
		}
		next(idx, xs)
	}
	if !(z > 0) || math.IsInf(z, 1) {
		return Moments{}, tiltedMassError(z)
	}
	for i := range mean {
		mean[i] /= z
	}
	// The variances about the means, a second pass, so that they do not cancel.
	variance := make([]float64, n)
	clear(idx)
	for k := range p {
		for i := range idx {
			d := xs[i][idx[i]] - mean[i]
			variance[i] += p[k] * d * d
		}
		next(idx, xs)
	}
	for i := range variance {
		variance[i] /= z
	}
	return Moments{LogZ: messages.Log(z), Mean: mean, Variance: variance}, nil // z may be subnormal
}

// tiltedMassError reports a tilted normaliser z that is not a positive
// finite number on the grid: a density that vanishes (or overflows) there.
func tiltedMassError(z float64) error {
	return fmt.Errorf("factortest: tilted mass %v: the density vanishes (or overflows) on the grid: %w", z, messages.ErrNumerical)
}

// next advances the odometer idx over the grids xs.
func next(idx []int, xs [][]float64) {
	for i := len(idx) - 1; i >= 0; i-- {
		idx[i]++
		if idx[i] < len(xs[i]) {
			return
		}
		idx[i] = 0
	}
}

// Case is a factor at chosen cavities, with what it is checked against.
type Case struct {
	Name     string
	Factor   graph.Factor
	Cavities []messages.Gaussian // proper Gaussians or point masses, in edge order
	// Density is the factor's definition f(x), x in edge order: the oracle
	// of the message and evidence checks. Nil for deterministic factors
	// (a density with a δ), which are checked for consistency only.
	Density func(x []float64) float64
	// LogDensity is log f, if not nil: the variational check integrates
	// log f, which log(Density) loses where f underflows (e^{−eˣ} at
	// x = 7). A variational factor's message is checked only where log f
	// is finite on the grid.
	LogDensity func(x []float64) float64
	Grid       Grid
	// Tolerance bounds the relative error of the quadrature checks (means
	// relative to the cavity's standard deviation, variances relative to
	// themselves, the log evidence absolutely); default 1e-8. The
	// consistency checks use finite differences and allow 1e-5.
	Tolerance float64
}

// Check runs every check that applies to c and reports each failure on t.
func Check(t testing.TB, c Case) {
	t.Helper()
	tol := c.Tolerance
	if tol <= 0 {
		tol = 1e-8
	}
	name := c.Name
	if name == "" {
		name = fmt.Sprintf("%T", c.Factor)
	}
	a, ok := c.Factor.(graph.Approximate)
	variational := ok && a.Approximation() == "VMP"
	n := len(c.Cavities)
	msgs := make([]messages.Gaussian, n)
	for i := range n {
		m, err := Message(c.Factor, i, c.Cavities...)
		if err != nil {
			t.Errorf("%s: message %d: %v", name, i, err)
			return
		}
		if math.IsNaN(m.Pi) || !messages.IsFinite(m.Tau) || math.IsInf(m.Pi, -1) {
			t.Errorf("%s: message %d = %v is not finite", name, i, m)
		}
		msgs[i] = m
	}
	var tilted Moments
	if c.Density != nil {
		var err error
		if tilted, err = Tilted(c.Density, c.Cavities, c.Grid); err != nil {
			t.Errorf("%s: %v", name, err)
			return
		}
		for i, cav := range c.Cavities {
			switch {
			case cav.IsPointMass():
			case variational && n == 1:
				checkVariational(t, name, c, msgs[0], tol)
			case variational:
				t.Logf("%s: a variational factor of %d edges; its messages are not checked", name, n)
			default:
				checkMoments(t, fmt.Sprintf("%s: edge %d against quadrature", name, i), cav, msgs[i], tilted.Mean[i], tilted.Variance[i], tol)
			}
		}
		checkLinearForm(t, name, c, tol)
	}
	if _, ok := c.Factor.(graph.Evidence); !ok {
		return
	}
	lz, err := LogAverageFactor(c.Factor, c.Cavities...)
	if err != nil {
		t.Errorf("%s: evidence: %v", name, err)
		return
	}
	if c.Density != nil && !(math.Abs(lz-tilted.LogZ) <= tol*math.Max(1, math.Abs(tilted.LogZ))) {
		t.Errorf("%s: LogAverageFactor = %.15g, quadrature gives %.15g", name, lz, tilted.LogZ)
	}
	if ge, ok := c.Factor.(graph.GaussianEvidence); ok {
		g, id, _ := setup(c.Factor, c.Cavities)
		term, ok, err := ge.LogAverageFactorTerm(g.Edges(id))
		if err != nil {
			t.Errorf("%s: LogAverageFactorTerm: %v", name, err)
		} else if ok && !(math.Abs(term.Value()-lz) <= 1e-12*math.Max(1, math.Abs(lz))) {
			t.Errorf("%s: LogAverageFactorTerm = %.15g, LogAverageFactor = %.15g", name, term.Value(), lz)
		}
	}
	for i, cav := range c.Cavities {
		if cav.IsPointMass() || variational {
			continue // the derivatives give the tilted moments, which VMP does not match
		}
		mean, variance, err := derivedMoments(c.Factor, c.Cavities, i, lz)
		if err != nil {
			t.Errorf("%s: edge %d: evidence near the cavity: %v", name, i, err)
			continue
		}
		checkMoments(t, fmt.Sprintf("%s: edge %d against the evidence's derivatives", name, i), cav, msgs[i], mean, variance, 1e-5)
	}
}

// checkVariational checks the message of a unary variational factor: the
// marginal q = N(m, s) = cavity × message minimises KL(q ‖ cavity·f), so
// (setting its derivatives in m and s to zero, as Guo et al. 2012 do for
// their Lemma 1)
//
//	m = μ + σ²·∂ₘE_q[log f],   1/s = 1/σ² − 2·∂ₛE_q[log f],
//
// where ∂ₘE_q[log f] = E_q[(x − m)·log f]/s and ∂ₛE_q[log f] =
// E_q[((x − m)² − s)·log f]/(2s²) (the derivatives of a Gaussian's
// density in its mean and variance), integrated on q's grid.
func checkVariational(t testing.TB, name string, c Case, msg messages.Gaussian, tol float64) {
	t.Helper()
	cav := c.Cavities[0]
	q := cav.Mul(msg)
	if !q.IsProper() || q.IsPointMass() {
		t.Errorf("%s: marginal %v is not a proper Gaussian", name, q)
		return
	}
	m, s := q.Mean(), q.Variance()
	gr := c.Grid.withDefaults(1)
	var cuts []float64
	if len(gr.Cuts) > 0 {
		cuts = gr.Cuts[0]
	}
	xs, ws := gr.nodes(q, cuts)
	var gm, gs float64
	for k, x := range xs {
		var lf float64
		if c.LogDensity != nil {
			lf = c.LogDensity([]float64{x})
		} else {
			lf = math.Log(c.Density([]float64{x}))
		}
		if !messages.IsFinite(lf) {
			t.Logf("%s: log f(%v) = %v on q's grid; the variational message is not checked", name, x, lf)
			return
		}
		d := x - m
		gm += ws[k] * d * lf
		gs += ws[k] * (d*d - s) * lf
	}
	gm /= s
	gs /= 2 * s * s
	mean := cav.Mean() + cav.Variance()*gm
	variance := 1 / (cav.Pi - 2*gs)
	checkMoments(t, fmt.Sprintf("%s: edge 0 against the variational fixed point", name), cav, msg, mean, variance, tol)
}

// checkMoments compares the marginal cavity × msg with a mean and variance.
func checkMoments(t testing.TB, what string, cav, msg messages.Gaussian, mean, variance, tol float64) {
	t.Helper()
	// The scales allow for a tilted distribution much narrower than the
	// cavity (a point mass through an equality): a thousandth of the
	// cavity's spread.
	m := cav.Mul(msg)
	sd := math.Sqrt(math.Max(variance, 0))
	if !(math.Abs(m.Mean()-mean) <= tol*math.Max(sd, cav.Sigma()*1e-3)) {
		t.Errorf("%s: marginal mean %.15g, want %.15g", what, m.Mean(), mean)
	}
	if !(math.Abs(m.Variance()-variance) <= tol*math.Max(variance, cav.Variance()*1e-3)) {
		t.Errorf("%s: marginal variance %.15g, want %.15g", what, m.Variance(), variance)
	}
}

// derivedMoments returns the tilted mean and variance of edge i predicted
// from the log evidence lz = log Z(μ, v) and its central differences in
// the cavity's mean μ and variance v: mean μ + v·∂μ log Z and variance
// v − v²·((∂μ log Z)² − 2·∂v log Z) (Minka 2001, equations 3.18-3.19).
func derivedMoments(f graph.Factor, cavities []messages.Gaussian, i int, lz float64) (mean, variance float64, err error) {
	mu, v := cavities[i].Mean(), cavities[i].Variance()
	at := func(mu, v float64) (float64, error) {
		cs := slices.Clone(cavities)
		cs[i] = messages.NewGaussian(mu, v)
		return LogAverageFactor(f, cs...)
	}
	// Fourth-order central differences: the error is O(h⁴) and the rounding
	// ~1e-16/h, so h ≈ 1e-3 relative leaves ~1e-12-1e-10.
	h := 1e-3 * math.Sqrt(v)
	d := func(g func(float64) (float64, error), h float64) (float64, error) {
		var vals [4]float64
		for k, s := range []float64{-2, -1, 1, 2} {
			var err error
			if vals[k], err = g(s * h); err != nil {
				return 0, err
			}
		}
		return (vals[0] - 8*vals[1] + 8*vals[2] - vals[3]) / (12 * h), nil
	}
	gmu, err := d(func(s float64) (float64, error) { return at(mu+s, v) }, h)
	if err != nil {
		return 0, 0, err
	}
	gv, err := d(func(s float64) (float64, error) { return at(mu, v+s) }, 1e-3*v)
	if err != nil {
		return 0, 0, err
	}
	return mu + v*gmu, v - v*v*(gmu*gmu-2*gv), nil
}

// checkLinearForm compares a graph.LinearForm's density with c.Density at
// points around the cavities.
func checkLinearForm(t testing.TB, name string, c Case, tol float64) {
	t.Helper()
	lf, ok := c.Factor.(graph.LinearForm)
	if !ok {
		return
	}
	a, mean, variance := lf.LinearForm()
	if len(a) != len(c.Cavities) {
		t.Errorf("%s: LinearForm has %d coefficients for %d edges", name, len(a), len(c.Cavities))
		return
	}
	if variance == 0 {
		return // a constraint has no density to compare
	}
	x := make([]float64, len(a))
	for k := range 5 {
		dot := 0.0
		for i, cav := range c.Cavities {
			x[i] = cav.Mean() + float64(k-2)*0.7*cav.Sigma()*float64(i+1)
			if cav.IsPointMass() {
				x[i] = cav.Mean()
			}
			dot += a[i] * x[i]
		}
		d := dot - mean
		want := -0.5*d*d/variance - 0.5*math.Log(2*math.Pi*variance)
		p := c.Density(x)
		if p < 1e-300 && want < -690 {
			continue // both underflow: nothing to compare
		}
		if got := math.Log(p); !(math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))) {
			t.Errorf("%s: LinearForm's log density at %v is %.15g, the density's %.15g", name, x, want, got)
		}
	}
}
