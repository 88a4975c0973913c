package factors_test

// Helpers for table1_test.go: tolerances and comparisons, the paper's
// special functions written out from φ and Φ, and Gauss–Legendre quadrature
// of the exact integrals of equations 3-5. Nothing here calls the library's
// own special functions, so both oracles are independent of the code under
// test.

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"

	"github.com/skillgraph/skillgraph/messages"
)

// Every check in table1_test.go must agree to relTol relative error, or to
// absTol absolute error for values near zero.
const (
	relTol = 1e-9
	absTol = 1e-12
)

// assertClose fails the test unless got and want agree to the relative
// tolerance rel (or to absTol, for values near zero).
func assertClose(t *testing.T, name string, got, want, rel float64) {
	t.Helper()
	diff := math.Abs(got - want)
	scale := math.Max(math.Abs(got), math.Abs(want))
	relErr := 0.0
	if diff != 0 {
		relErr = diff / scale // NaN if either is NaN
	}
	switch {
	case relErr <= rel:
		recordError(t, "", relErr)
	case diff <= absTol:
		recordError(t, " (absolute, near 0)", diff)
	default:
		recordError(t, "", relErr)
		t.Errorf("%s = %.17g, want %.17g (relative error %.3g > %.0g)", name, got, want, relErr, rel)
	}
}

// assertNatural compares a message or marginal with the natural parameters
// (precision π and precision-adjusted mean τ) that the test expects.
func assertNatural(t *testing.T, name string, got messages.Gaussian, wantPi, wantTau float64) {
	t.Helper()
	assertClose(t, name+" π", got.Pi, wantPi, relTol)
	assertClose(t, name+" τ", got.Tau, wantTau, relTol)
}

// assertMoments compares a message or marginal with a mean and a variance
// (e.g. ones obtained by quadrature).
func assertMoments(t *testing.T, name string, got messages.Gaussian, wantMean, wantVariance float64) {
	t.Helper()
	assertClose(t, name+" mean", got.Mean(), wantMean, relTol)
	assertClose(t, name+" variance", got.Variance(), wantVariance, relTol)
}

// assertUniform fails unless g is the flat message (π = τ = 0).
func assertUniform(t *testing.T, name string, g messages.Gaussian) {
	t.Helper()
	if g.Pi != 0 || g.Tau != 0 {
		t.Errorf("%s = %v (π=%g, τ=%g), want the uniform message", name, g, g.Pi, g.Tau)
	}
}

// worstErrors keeps, per test function and kind of check (the last element
// of the subtest name, e.g. "paper_formula" or "quadrature"), the largest
// relative error seen; absolute errors, for checks that passed only by
// absTol, are kept apart.
var worstErrors = struct {
	sync.Mutex
	m map[string]float64
}{m: map[string]float64{}}

func recordError(t *testing.T, suffix string, e float64) {
	parts := strings.Split(t.Name(), "/")
	key := parts[0] + "\x00" + parts[len(parts)-1] + suffix
	worstErrors.Lock()
	defer worstErrors.Unlock()
	if old, ok := worstErrors.m[key]; !ok || e > old || math.IsNaN(e) {
		worstErrors.m[key] = e
	}
}

// logWorstErrors makes the top-level test t log (with go test -v), when it
// ends, the worst error of each kind of check made in it.
func logWorstErrors(t *testing.T) {
	t.Cleanup(func() {
		worstErrors.Lock()
		defer worstErrors.Unlock()
		var lines []string
		for k, e := range worstErrors.m {
			if test, kind, _ := strings.Cut(k, "\x00"); test == t.Name() {
				lines = append(lines, fmt.Sprintf("worst error, %s: %.3g", kind, e))
			}
		}
		slices.Sort(lines)
		for _, l := range lines {
			t.Log(l)
		}
	})
}

// ---- the normal distribution and the paper's V and W --------------------

// normPDF is the standard normal density φ(x).
func normPDF(x float64) float64 { return math.Exp(-x*x/2) / math.Sqrt(2*math.Pi) }

// normCDF is the standard normal distribution function Φ(x), via erfc so that
// it keeps its relative accuracy in the left tail.
func normCDF(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

// gaussPDF is the density N(x; mean, variance).
func gaussPDF(x, mean, variance float64) float64 {
	return normPDF((x-mean)/math.Sqrt(variance)) / math.Sqrt(variance)
}

// Below Table 1: the corrections for the win factor I(· > ε),
//
//	V(t, ε) = N(t − ε)/Φ(t − ε),  W(t, ε) = V(t, ε)·(V(t, ε) + t − ε).
func vWin(t, eps float64) float64 { return normPDF(t-eps) / normCDF(t-eps) }
func wWin(t, eps float64) float64 { v := vWin(t, eps); return v * (v + t - eps) }

// Below Table 1: the corrections for the draw factor I(|·| ≤ ε),
//
//	V(t, ε) = (N(−ε − t) − N(ε − t)) / (Φ(ε − t) − Φ(−ε − t)),
//	W(t, ε) = V² + ((ε − t)·N(ε − t) + (ε + t)·N(ε + t)) / (Φ(ε − t) − Φ(−ε − t)).
func vDraw(t, eps float64) float64 {
	return (normPDF(-eps-t) - normPDF(eps-t)) / (normCDF(eps-t) - normCDF(-eps-t))
}
func wDraw(t, eps float64) float64 {
	v := vDraw(t, eps)
	return v*v + ((eps-t)*normPDF(eps-t)+(eps+t)*normPDF(eps+t))/(normCDF(eps-t)-normCDF(-eps-t))
}

// ---- Gauss–Legendre quadrature ------------------------------------------

// normal is a Gaussian N(mean, variance) described by its moments.
type normal struct{ mean, variance float64 }

func (n normal) sd() float64                { return math.Sqrt(n.variance) }
func (n normal) pdf(x float64) float64      { return gaussPDF(x, n.mean, n.variance) }
func (n normal) natural() (pi, tau float64) { return 1 / n.variance, n.mean / n.variance }

// window returns the range mean ± k·sd.
func (n normal) window(k float64) (lo, hi float64) {
	return n.mean - k*n.sd(), n.mean + k*n.sd()
}

// product returns the normalised product of Gaussian densities (precisions
// and precision-adjusted means add).
func product(ns ...normal) normal {
	var pi, tau float64
	for _, n := range ns {
		p, t := n.natural()
		pi, tau = pi+p, tau+t
	}
	return normal{tau / pi, 1 / pi}
}

// cuts returns lo, hi and every jump point strictly between them, sorted:
// the pieces on which an integrand with jumps is smooth.
func cuts(lo, hi float64, jumps ...float64) []float64 {
	c := []float64{lo, hi}
	for _, j := range jumps {
		if j > lo && j < hi {
			c = append(c, j)
		}
	}
	slices.Sort(c)
	return c
}

// integrate returns ∫ f over [c[0], c[len(c)−1]] as a sum of n-point
// Gauss–Legendre rules (quad.Fixed with quad.Legendre), one per piece
// [c[i], c[i+1]].
func integrate(f func(float64) float64, n int, c []float64) float64 {
	var s float64
	for i := 0; i+1 < len(c); i++ {
		s += quad.Fixed(f, c[i], c[i+1], n, quad.Legendre{}, 0)
	}
	return s
}

// densityMoments returns the mass ∫p, the mean ∫x·p/∫p and the variance
// ∫(x − mean)²·p/∫p of the unnormalised density p, by n-point Gauss–Legendre
// rules on each piece of c. p is evaluated once per node, and the variance
// is summed about the mean (two passes), so it does not cancel.
func densityMoments(p func(float64) float64, n int, c []float64) (mass, mean, variance float64) {
	var xs, ws []float64
	for i := 0; i+1 < len(c); i++ {
		x, w := make([]float64, n), make([]float64, n)
		quad.Legendre{}.FixedLocations(x, w, c[i], c[i+1])
		for k := range x {
			w[k] *= p(x[k])
		}
		xs, ws = append(xs, x...), append(ws, w...)
	}
	var m1 float64
	for k := range xs {
		mass += ws[k]
		m1 += ws[k] * xs[k]
	}
	mean = m1 / mass
	for k := range xs {
		d := xs[k] - mean
		variance += ws[k] * d * d
	}
	return mass, mean, variance / mass
}

// constrainedMessage returns the exact message (equation 4) that the
// deterministic factor δ(Σ_k s_k·v_k) sends to its edge i, as a function of
// z = v_i, given the Gaussian messages cav[k] arriving on the other edges:
//
//	m(z) = ∫ δ(s_i·z + Σ_{k≠i} s_k·v_k) ∏_{k≠i} cav_k(v_k) dv_{−i}.
//
// The delta is used to eliminate a pivot variable p (the k ≠ i with the
// largest |s_k|·sd_k:
// v_p = −(s_i·z + Σ s_k·v_k)/s_p, Jacobian 1/|s_p|); the remaining variables
// are integrated numerically, each with an n-point Gauss–Legendre rule on
// its mean ± 16 sd, nested.
func constrainedMessage(s []float64, cav []normal, i, n int) func(z float64) float64 {
	p := -1 // the widest term |s_k|·sd_k, so the remaining integrand is smooth
	for k := range s {
		if k != i && s[k] != 0 && (p < 0 || math.Abs(s[k])*cav[k].sd() > math.Abs(s[p])*cav[p].sd()) {
			p = k
		}
	}
	if p < 0 {
		panic("constrainedMessage: no pivot")
	}
	// Each free variable's rule carries its density in its weights, which
	// do not depend on z, and the pivot's density is written out with its
	// constants taken once: every evaluation of m then costs one
	// exponential per node of the innermost rule.
	type rule struct {
		s    float64   // the variable's coefficient s_k
		x, w []float64 // nodes, and weights times cav_k's density there
	}
	var free []rule
	for k := range s {
		if k == i || k == p {
			continue
		}
		lo, hi := cav[k].window(16)
		x, w := make([]float64, n), make([]float64, n)
		quad.Legendre{}.FixedLocations(x, w, lo, hi)
		for j := range x {
			w[j] *= cav[k].pdf(x[j])
		}
		free = append(free, rule{s[k], x, w})
	}
	// cav_p(v_p)/|s_p| at v_p = −partial/s_p.
	sp, mp, half := s[p], cav[p].mean, 0.5/cav[p].variance
	scale := 1 / (math.Abs(sp) * math.Sqrt(2*math.Pi*cav[p].variance))
	var nest func(depth int, partial float64) float64
	nest = func(depth int, partial float64) float64 {
		if depth == len(free) {
			d := -partial/sp - mp
			return scale * math.Exp(-d*d*half)
		}
		r := free[depth]
		var sum float64
		if depth < len(free)-1 {
			for j, x := range r.x {
				sum += r.w[j] * nest(depth+1, partial+r.s*x)
			}
			return sum
		}
		for j, x := range r.x {
			d := -(partial+r.s*x)/sp - mp
			sum += r.w[j] * (scale * math.Exp(-d*d*half))
		}
		return sum
	}
	return func(z float64) float64 { return nest(0, s[i]*z) }
}

// likelihoodMessage returns the exact message (equation 4) of the factor
// N(x; y, c²) to one of its variables, given the Gaussian message cav that
// arrives from the other one: z ↦ ∫ N(z; u, c²)·cav(u) du, by an n-point
// Gauss–Legendre rule over the range that holds both cav and N(z; ·, c²).
// (The factor is symmetric in x and y, so the same integral serves both
// directions.)
func likelihoodMessage(c2 float64, cav normal, n int) func(z float64) float64 {
	c := math.Sqrt(c2)
	return func(z float64) float64 {
		lo, hi := cav.window(16)
		lo, hi = math.Min(lo, z-16*c), math.Max(hi, z+16*c)
		return integrate(func(u float64) float64 { return gaussPDF(z, u, c2) * cav.pdf(u) }, n, cuts(lo, hi))
	}
}

// TestQuadratureSelfCheck verifies, on integrals known in closed form, that
// the quadrature used as an oracle in table1_test.go reaches far better than
// relTol with the node counts used there.
func TestQuadratureSelfCheck(t *testing.T) {
	logWorstErrors(t)
	t.Run("Gaussian moments on mean ± 12 sd", func(t *testing.T) {
		g := normal{-0.37, 2.9}
		lo, hi := g.window(12)
		mass, mean, variance := densityMoments(g.pdf, 2000, cuts(lo, hi))
		assertClose(t, "mass", mass, 1, 1e-13)
		assertClose(t, "mean", mean, g.mean, 1e-13)
		assertClose(t, "variance", variance, g.variance, 1e-13)
	})
	t.Run("truncated Gaussian mass Φ(b) − Φ(a), split at the jumps", func(t *testing.T) {
		g := normal{0.4, 1.7}
		a, b := -1.1, 2.3
		in := func(x float64) float64 {
			if x < a || x > b {
				return 0
			}
			return g.pdf(x)
		}
		lo, hi := g.window(12)
		got := integrate(in, 2000, cuts(lo, hi, a, b))
		want := normCDF((b-g.mean)/g.sd()) - normCDF((a-g.mean)/g.sd())
		assertClose(t, "mass", got, want, 1e-13)
	})
	t.Run("far-tail mass Φ(−4) above a jump", func(t *testing.T) {
		g := normal{-6, 2.25}
		lo, hi := g.window(14)
		got := integrate(func(x float64) float64 {
			if x < 0 {
				return 0
			}
			return g.pdf(x)
		}, 2000, cuts(lo, hi, 0))
		assertClose(t, "mass", got, normCDF(-4), 1e-12)
	})
	// ∫ N(x; y, c²)·N(y; μ, σ²) dy = N(x; μ, σ² + c²).
	t.Run("Gaussian likelihood against a Gaussian (1-D inner rule)", func(t *testing.T) {
		const c2 = 0.55
		cav := normal{-0.7, 0.35}
		want := normal{cav.mean, cav.variance + c2}
		lo, hi := want.window(14)
		mass, mean, variance := densityMoments(likelihoodMessage(c2, cav, 400), 400, cuts(lo, hi))
		assertClose(t, "mass", mass, 1, 1e-12)
		assertClose(t, "mean", mean, want.mean, 1e-12)
		assertClose(t, "variance", variance, want.variance, 1e-12)
	})
	// The density of a1·y1 + a2·y2 + a3·y3 for independent Gaussians is
	// N(Σ a_j μ_j, Σ a_j² σ_j²); written as δ(x − Σ a_j y_j) it checks the
	// nested rules of constrainedMessage in two and three dimensions.
	t.Run("convolution of two Gaussians (1-D inner rule)", func(t *testing.T) {
		s := []float64{1, -0.8, 1.7}
		cav := []normal{{}, {1.2, 0.6}, {-0.4, 1.9}}
		want := normal{0.8*1.2 + 1.7*0.4, 0.64*0.6 + 2.89*1.9}
		lo, hi := want.window(14)
		mass, mean, variance := densityMoments(constrainedMessage(s, cav, 0, 200), 200, cuts(lo, hi))
		assertClose(t, "mass", mass, 1, 1e-12)
		assertClose(t, "mean", mean, want.mean, 1e-12)
		assertClose(t, "variance", variance, want.variance, 1e-12)
	})
	t.Run("convolution of three Gaussians (2-D inner rule)", func(t *testing.T) {
		s := []float64{1, -0.5, 1.5, -2}
		cav := []normal{{}, {0.3, 1.1}, {-1.2, 0.7}, {0.9, 0.45}}
		want := normal{0.5*0.3 + 1.5*1.2 + 2*0.9, 0.25*1.1 + 2.25*0.7 + 4*0.45}
		lo, hi := want.window(14)
		mass, mean, variance := densityMoments(constrainedMessage(s, cav, 0, 120), 160, cuts(lo, hi))
		assertClose(t, "mass", mass, 1, 1e-12)
		assertClose(t, "mean", mean, want.mean, 1e-12)
		assertClose(t, "variance", variance, want.variance, 1e-12)
	})
}
