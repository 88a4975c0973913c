package factors_test

// Unit tests against Table 1 of Herbrich, Minka and Graepel, "TrueSkill™: A
// Bayesian Skill Rating System" (NIPS 2006).
//
// Every message m_{f→x} and the marginal p(x) it produces are checked two
// independent ways, to 1e-9 relative error (1e-12 absolute near zero):
//
//   - "paper formula": Table 1's update written out in natural parameters
//     (π = 1/σ², τ = μ/σ²), reading π_x and π_{f→x} from the graph exactly
//     as the paper does, and V, W written from φ and Φ (math.Erfc);
//   - "quadrature": the exact integrals of equations 3-5 (and the moment
//     matching of equation 6 for the truncation factors) evaluated by
//     Gauss–Legendre quadrature, with cavities built from the parameters of
//     the other factors, not read from the graph.
//
// Before each tested update the factor already has a (stale) non-uniform
// message on its edges and the cavity has changed since, so a factor that
// confused the marginal with the cavity π_x − π_{f→x}, or a graph that
// mis-replaced the old message, would fail.
//
// Equation 6 divides the matched marginal by the cavity, i.e. subtracts
// their natural parameters; where the result is tiny next to them (the
// message τ of a narrow draw at TrueSkill scale, |τ| ≈ 5e-7 from terms of
// 0.018) that subtraction, in the library and in both oracles alike, keeps
// only a few 1e-9 of relative accuracy, and the absolute tolerance applies.
//
// The evidence terms (LogAverageFactor, log ∫ f·ĉ with normalised cavities)
// are checked the same two ways, directly and through Graph.LogEvidence on
// small trees. Helpers are in table1_helpers_test.go.

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/schedules"
)

// Quadrature sizes: nodes per piece for 1-D integrals, and per dimension
// for the nested (2-D and 3-D) ones. TestQuadratureSelfCheck shows these
// reach ~1e-15 on integrals known in closed form.
const (
	n1D    = 2000
	nOuter = 240
	nInner = 120
)

func mustBuild(t *testing.T, b *graph.Builder) *graph.Graph {
	t.Helper()
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func mustUpdate(t *testing.T, g *graph.Graph, f graph.FactorID, edge int) {
	t.Helper()
	if _, _, err := g.Update(f, edge, 0); err != nil {
		t.Fatal(err)
	}
}

// hull returns the smallest range holding every Gaussian's mean ± k·sd.
func hull(k float64, ns ...normal) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, n := range ns {
		l, h := n.window(k)
		lo, hi = math.Min(lo, l), math.Max(hi, h)
	}
	return lo, hi
}

// ---------------------------------------------------------------------------
// Table 1, row 1: the prior N(x; m, v²)
// ---------------------------------------------------------------------------

// Table 1, row 1: N(x; m, v²) updates the marginal by π_x ← π_x + 1/v²,
// τ_x ← τ_x + m/v²; its message is the factor itself, N(m, v²).
func TestTable1Row1Prior(t *testing.T) {
	logWorstErrors(t)
	const m, v2 = 1.3, 0.45    // the prior N(x; m, v²) under test
	other := normal{-0.6, 2.2} // a Gaussian observation already on x

	b := graph.NewBuilder("row1")
	x := b.AddVariable("x")
	obs := b.AddFactor(factors.NewGaussianObservation(other.mean, other.variance), "", x)
	prior := b.AddFactor(factors.NewPrior(m, v2), "", x)
	g := mustBuild(t, b)
	mustUpdate(t, g, obs, 0)
	before := g.Marginal(x)
	mustUpdate(t, g, prior, 0)
	msg, marg := g.Message(prior, 0), g.Marginal(x)

	t.Run("paper formula", func(t *testing.T) {
		assertNatural(t, "message f→x", msg, 1/v2, m/v2)
		assertNatural(t, "marginal of x", marg, before.Pi+1/v2, before.Tau+m/v2)
	})
	t.Run("quadrature", func(t *testing.T) {
		f := func(x float64) float64 { return gaussPDF(x, m, v2) }
		lo, hi := hull(14, normal{m, v2}, other)
		_, mean, variance := densityMoments(f, n1D, cuts(lo, hi))
		assertMoments(t, "message f→x", msg, mean, variance)
		// Equation 3: p(x) ∝ the product of the messages into x.
		_, mean, variance = densityMoments(func(x float64) float64 { return f(x) * other.pdf(x) }, n1D, cuts(lo, hi))
		assertMoments(t, "marginal of x", marg, mean, variance)
	})
	t.Run("repeated update is idempotent", func(t *testing.T) {
		mustUpdate(t, g, prior, 0)
		assertNatural(t, "marginal of x", g.Marginal(x), marg.Pi, marg.Tau)
	})
}

// ---------------------------------------------------------------------------
// Table 1, row 2: the likelihood N(x; y, c²), edge 0 = x, edge 1 = y
// ---------------------------------------------------------------------------

// likelihoodGraph is x — N(x; y, c²) — y with a prior on each variable and a
// Gaussian observation on the source variable that arrives after a first
// pass, so the likelihood's edges carry stale, non-uniform messages.
type likelihoodGraph struct {
	g         *graph.Graph
	lik       graph.FactorID
	x, y      graph.VarID
	cavX      normal  // the messages into x from its other factors (equation 5)
	cavY      normal  // the messages into y from its other factors
	piS, tauS float64 // the source variable's marginal π_y, τ_y (or π_x, τ_x)
	piF, tauF float64 // the likelihood's message to the source, π_{f→y}, τ_{f→y}
}

// updateLikelihood builds the graph and updates the likelihood's edge
// target (0: to x, 1: to y), recording the paper's inputs just before.
func updateLikelihood(t *testing.T, c2 float64, priorX, priorY, late normal, target int) *likelihoodGraph {
	t.Helper()
	b := graph.NewBuilder("row2")
	x, y := b.AddVariable("x"), b.AddVariable("y")
	px := b.AddFactor(factors.NewPrior(priorX.mean, priorX.variance), "", x)
	py := b.AddFactor(factors.NewPrior(priorY.mean, priorY.variance), "", y)
	lik := b.AddFactor(factors.NewLikelihood(c2), "", x, y)
	source := []graph.VarID{y, x}[target] // the variable the message comes from
	obs := b.AddFactor(factors.NewGaussianObservation(late.mean, late.variance), "", source)
	g := mustBuild(t, b)
	mustUpdate(t, g, px, 0)
	mustUpdate(t, g, py, 0)
	mustUpdate(t, g, lik, 0) // first pass: stale messages on both edges
	mustUpdate(t, g, lik, 1)
	mustUpdate(t, g, obs, 0) // new evidence on the source variable
	lg := &likelihoodGraph{g: g, lik: lik, x: x, y: y, cavX: priorX, cavY: priorY}
	if target == 0 {
		lg.cavY = product(priorY, late)
	} else {
		lg.cavX = product(priorX, late)
	}
	lg.piS, lg.tauS = g.Marginal(source).Pi, g.Marginal(source).Tau
	lg.piF, lg.tauF = g.Message(lik, 1-target).Pi, g.Message(lik, 1-target).Tau
	if old := g.Message(lik, target); old.IsUniform() {
		t.Fatal("setup: the target edge should carry a stale message")
	}
	mustUpdate(t, g, lik, target)
	return lg
}

// Table 1, row 2, message to x (edge 0):
// a = 1/(1 + c²(π_y − π_{f→y})), π_{f→x} = a(π_y − π_{f→y}),
// τ_{f→x} = a(τ_y − τ_{f→y}).
func TestTable1Row2LikelihoodToX(t *testing.T) {
	logWorstErrors(t)
	const c2 = 0.7
	priorX, priorY := normal{0.3, 4.0}, normal{1.5, 2.0}
	lateY := normal{2.1, 0.5} // observation on y, sent after the first pass
	lg := updateLikelihood(t, c2, priorX, priorY, lateY, 0)
	msg, marg := lg.g.Message(lg.lik, 0), lg.g.Marginal(lg.x)

	t.Run("paper formula", func(t *testing.T) {
		a := 1 / (1 + c2*(lg.piS-lg.piF))
		wantPi, wantTau := a*(lg.piS-lg.piF), a*(lg.tauS-lg.tauF)
		assertNatural(t, "message f→x", msg, wantPi, wantTau)
		// Equation 3: p(x) = m_{prior→x}·m_{f→x}.
		pi, tau := priorX.natural()
		assertNatural(t, "marginal of x", marg, pi+wantPi, tau+wantTau)
	})
	t.Run("quadrature", func(t *testing.T) {
		// Equation 4: m_{f→x}(x) = ∫ N(x; y, c²)·m_{y→f}(y) dy.
		m := likelihoodMessage(c2, lg.cavY, 400)
		lo, hi := hull(14, normal{lg.cavY.mean, math.Pow(lg.cavY.sd()+math.Sqrt(c2), 2)}, priorX)
		_, mean, variance := densityMoments(m, 400, cuts(lo, hi))
		assertMoments(t, "message f→x", msg, mean, variance)
		// Equation 3, with a piece of its own for the prior's window.
		pLo, pHi := priorX.window(14)
		_, mean, variance = densityMoments(func(x float64) float64 { return priorX.pdf(x) * m(x) }, 400, cuts(lo, hi, pLo, pHi))
		assertMoments(t, "marginal of x", marg, mean, variance)
	})
}

// Table 1, row 2, message to y (edge 1): "m_{f→y} follows from
// N(x; y, c²) = N(y; x, c²)": a = 1/(1 + c²(π_x − π_{f→x})),
// π_{f→y} = a(π_x − π_{f→x}), τ_{f→y} = a(τ_x − τ_{f→x}).
func TestTable1Row2LikelihoodToY(t *testing.T) {
	logWorstErrors(t)
	const c2 = 1.3
	priorX, priorY := normal{-0.8, 1.1}, normal{0.4, 3.0}
	lateX := normal{0.9, 0.6} // observation on x, sent after the first pass
	lg := updateLikelihood(t, c2, priorX, priorY, lateX, 1)
	msg, marg := lg.g.Message(lg.lik, 1), lg.g.Marginal(lg.y)

	t.Run("paper formula", func(t *testing.T) {
		a := 1 / (1 + c2*(lg.piS-lg.piF))
		wantPi, wantTau := a*(lg.piS-lg.piF), a*(lg.tauS-lg.tauF)
		assertNatural(t, "message f→y", msg, wantPi, wantTau)
		pi, tau := priorY.natural()
		assertNatural(t, "marginal of y", marg, pi+wantPi, tau+wantTau)
	})
	t.Run("quadrature", func(t *testing.T) {
		// Equation 4: m_{f→y}(y) = ∫ N(x; y, c²)·m_{x→f}(x) dx.
		m := likelihoodMessage(c2, lg.cavX, 400)
		lo, hi := hull(14, normal{lg.cavX.mean, math.Pow(lg.cavX.sd()+math.Sqrt(c2), 2)}, priorY)
		_, mean, variance := densityMoments(m, 400, cuts(lo, hi))
		assertMoments(t, "message f→y", msg, mean, variance)
		// Equation 3, with a piece of its own for the prior's window.
		pLo, pHi := priorY.window(14)
		_, mean, variance = densityMoments(func(y float64) float64 { return priorY.pdf(y) * m(y) }, 400, cuts(lo, hi, pLo, pHi))
		assertMoments(t, "marginal of y", marg, mean, variance)
	})
}

// Table 1, row 2 with y observed (a point mass y₀, π_y → ∞): a·π_y → 1/c²
// and a·τ_y → y₀/c², so GaussianObservation(y₀, c²) sends N(y₀, c²) to x.
func TestTable1Row2GaussianObservation(t *testing.T) {
	logWorstErrors(t)
	const y0, c2 = 2.4, 0.6
	prior := normal{0.5, 1.8}

	b := graph.NewBuilder("observation")
	x := b.AddVariable("x")
	px := b.AddFactor(factors.NewPrior(prior.mean, prior.variance), "", x)
	obs := b.AddFactor(factors.NewGaussianObservation(y0, c2), "", x)
	g := mustBuild(t, b)
	mustUpdate(t, g, px, 0)
	mustUpdate(t, g, obs, 0)
	msg, marg := g.Message(obs, 0), g.Marginal(x)

	t.Run("paper formula", func(t *testing.T) {
		assertNatural(t, "message f→x", msg, 1/c2, y0/c2)
		pi, tau := prior.natural()
		assertNatural(t, "marginal of x", marg, pi+1/c2, tau+y0/c2)
	})
	t.Run("quadrature", func(t *testing.T) {
		f := func(x float64) float64 { return gaussPDF(y0, x, c2) } // N(y₀; x, c²) as a function of x
		lo, hi := hull(14, normal{y0, c2}, prior)
		_, mean, variance := densityMoments(f, n1D, cuts(lo, hi))
		assertMoments(t, "message f→x", msg, mean, variance)
		_, mean, variance = densityMoments(func(x float64) float64 { return prior.pdf(x) * f(x) }, n1D, cuts(lo, hi))
		assertMoments(t, "marginal of x", marg, mean, variance)
	})
	t.Run("same as a Likelihood to an observed y", func(t *testing.T) {
		b := graph.NewBuilder("observed")
		x := b.AddVariable("x")
		y := b.AddObserved("y", y0)
		px := b.AddFactor(factors.NewPrior(prior.mean, prior.variance), "", x)
		lik := b.AddFactor(factors.NewLikelihood(c2), "", x, y)
		g := mustBuild(t, b)
		mustUpdate(t, g, px, 0)
		mustUpdate(t, g, lik, 0)
		assertNatural(t, "message f→x", g.Message(lik, 0), 1/c2, y0/c2)
		assertNatural(t, "marginal of x", g.Marginal(x), marg.Pi, marg.Tau)
	})
}

// ---------------------------------------------------------------------------
// Table 1, rows 3 and 4: the weighted sum I(x = aᵀy), edge 0 = x, edge j+1 = y_j
// ---------------------------------------------------------------------------

// row3 is Table 1, row 3, for I(x = aᵀy), given the cavities
// (π_j, τ_j) = (π_{y_j} − π_{f→y_j}, τ_{y_j} − τ_{f→y_j}):
//
//	π_{f→x} = (Σ_j a_j²/π_j)⁻¹,  τ_{f→x} = π_{f→x}·Σ_j a_j·τ_j/π_j.
func row3(a, cavPi, cavTau []float64) (pi, tau float64) {
	var s, m float64
	for j := range a {
		s += a[j] * a[j] / cavPi[j]
		m += a[j] * cavTau[j] / cavPi[j]
	}
	pi = 1 / s
	return pi, pi * m
}

var weightedSumCases = []struct {
	name   string
	a      []float64 // the coefficients of y_1 … y_n
	priors []normal  // priors on x, y_1, …, y_n
}{
	{"team x = y1 + y2", []float64{1, 1},
		[]normal{{3.1, 2.5}, {1.2, 0.9}, {2.3, 1.6}}},
	{"difference x = y1 − y2", []float64{1, -1},
		[]normal{{-0.5, 1.4}, {0.7, 2.0}, {1.1, 0.8}}},
	{"weighted pair x = 0.3·y1 − 2.5·y2", []float64{0.3, -2.5},
		[]normal{{0.4, 0.6}, {-1.3, 2.2}, {0.2, 0.35}}},
	{"scaling x = −1.7·y1", []float64{-1.7},
		[]normal{{2.0, 3.1}, {-0.6, 0.8}}},
	{"partial play x = 0.5·y1 − 1.5·y2 + 2·y3", []float64{0.5, -1.5, 2},
		[]normal{{1.0, 3.0}, {0.3, 1.1}, {-1.2, 0.7}, {0.9, 0.45}}},
	{"zero coefficient x = y1 + 0·y2 − 0.7·y3", []float64{1, 0, -0.7},
		[]normal{{0.2, 1.7}, {1.4, 0.6}, {-2.0, 1.3}, {0.5, 2.2}}},
}

// Observations that reach x and y_1 after the first pass over the sum.
var lateX, lateY1 = normal{0.8, 1.5}, normal{-0.2, 0.9}

// sumGraph is I(x = aᵀy) with a prior on every variable, after one pass over
// all its edges (so they carry stale messages), followed by observations on
// x and y_1. cav[k] is the product of the other factors' messages into the
// variable of edge k (equation 5).
type sumGraph struct {
	g    *graph.Graph
	ws   graph.FactorID
	vars []graph.VarID // vars[0] = x, vars[j+1] = y_j
	cav  []normal
}

func buildSumGraph(t *testing.T, a []float64, priors []normal) *sumGraph {
	t.Helper()
	b := graph.NewBuilder("weighted sum")
	sg := &sumGraph{}
	var pf []graph.FactorID
	for k, p := range priors {
		v := b.AddVariable([]string{"x", "y1", "y2", "y3"}[k])
		sg.vars = append(sg.vars, v)
		pf = append(pf, b.AddFactor(factors.NewPrior(p.mean, p.variance), "", v))
		sg.cav = append(sg.cav, p)
	}
	sg.ws = b.AddFactor(factors.NewWeightedSum(a...), "", sg.vars...)
	ox := b.AddFactor(factors.NewGaussianObservation(lateX.mean, lateX.variance), "", sg.vars[0])
	oy := b.AddFactor(factors.NewGaussianObservation(lateY1.mean, lateY1.variance), "", sg.vars[1])
	sg.cav[0], sg.cav[1] = product(priors[0], lateX), product(priors[1], lateY1)
	g := mustBuild(t, b)
	for _, f := range pf {
		mustUpdate(t, g, f, 0)
	}
	for k := range sg.vars {
		mustUpdate(t, g, sg.ws, k)
	}
	mustUpdate(t, g, ox, 0)
	mustUpdate(t, g, oy, 0)
	sg.g = g
	return sg
}

// cavity returns the paper's π_v − π_{f→v}, τ_v − τ_{f→v} on edge k, read
// from the graph.
func (sg *sumGraph) cavity(k int) (pi, tau float64) {
	m, f := sg.g.Marginal(sg.vars[k]), sg.g.Message(sg.ws, k)
	return m.Pi - f.Pi, m.Tau - f.Tau
}

// constraint returns s with δ(Σ s_k·v_k) = I(x = aᵀy): s = (1, −a).
func constraint(a []float64) []float64 {
	s := []float64{1}
	for _, aj := range a {
		s = append(s, -aj)
	}
	return s
}

// messageWindow returns a range that holds the exact message to edge i of
// δ(s·v) (the distribution of −Σ_{k≠i} s_k·v_k/s_i) to many standard
// deviations: its mean ± 14·(Σ_{k≠i} |s_k|·sd_k)/|s_i|, an upper bound of the
// standard deviation.
func messageWindow(s []float64, cav []normal, i int) (lo, hi float64) {
	var mean, sd float64
	for k := range s {
		if k != i {
			mean -= s[k] * cav[k].mean / s[i]
			sd += math.Abs(s[k]/s[i]) * cav[k].sd()
		}
	}
	return mean - 14*sd, mean + 14*sd
}

// Table 1, row 3, message to the sum (edge 0):
// π_{f→x} = (Σ a_j²/(π_{y_j} − π_{f→y_j}))⁻¹,
// τ_{f→x} = π_{f→x}·Σ a_j·(τ_{y_j} − τ_{f→y_j})/(π_{y_j} − π_{f→y_j}).
func TestTable1Row3WeightedSumToSum(t *testing.T) {
	logWorstErrors(t)
	for _, tc := range weightedSumCases {
		t.Run(tc.name, func(t *testing.T) {
			sg := buildSumGraph(t, tc.a, tc.priors)
			cPi, cTau := make([]float64, len(tc.a)), make([]float64, len(tc.a))
			for j := range tc.a {
				cPi[j], cTau[j] = sg.cavity(j + 1)
			}
			mustUpdate(t, sg.g, sg.ws, 0)
			msg, marg := sg.g.Message(sg.ws, 0), sg.g.Marginal(sg.vars[0])

			t.Run("paper formula", func(t *testing.T) {
				wantPi, wantTau := row3(tc.a, cPi, cTau)
				assertNatural(t, "message f→x", msg, wantPi, wantTau)
				pi, tau := sg.cav[0].natural()
				assertNatural(t, "marginal of x", marg, pi+wantPi, tau+wantTau)
			})
			t.Run("quadrature", func(t *testing.T) {
				// Equation 4: m_{f→x}(x) = ∫ δ(x − aᵀy) ∏_j m_{y_j→f}(y_j) dy,
				// the density of aᵀy.
				s := constraint(tc.a)
				m := constrainedMessage(s, sg.cav, 0, nInner)
				lo, hi := messageWindow(s, sg.cav, 0)
				_, mean, variance := densityMoments(m, nOuter, cuts(lo, hi))
				assertMoments(t, "message f→x", msg, mean, variance)
				// Equation 3: p(x) ∝ m_{x→f}(x)·m_{f→x}(x); a piece of its own
				// for the cavity's window keeps the narrower product resolved.
				p := func(x float64) float64 { return sg.cav[0].pdf(x) * m(x) }
				cLo, cHi := sg.cav[0].window(14)
				_, mean, variance = densityMoments(p, nOuter, cuts(math.Min(lo, cLo), math.Max(hi, cHi), cLo, cHi))
				assertMoments(t, "marginal of x", marg, mean, variance)
			})
		})
	}
}

// Table 1, row 4, message to each term y_k (edge k): the paper rewrites
// I(x = bᵀy) as I(y_k = a'ᵀ[y_{−k}, x]) with a' = (−b_{−k}, +1)/b_k and
// applies row 3. A zero coefficient b_k leaves y_k unconstrained: the
// message must be uniform.
func TestTable1Row4WeightedSumToTerms(t *testing.T) {
	logWorstErrors(t)
	for _, tc := range weightedSumCases {
		t.Run(tc.name, func(t *testing.T) {
			for k := range tc.a {
				t.Run("to "+[]string{"y1", "y2", "y3"}[k], func(t *testing.T) {
					testMessageToTerm(t, tc.a, tc.priors, k)
				})
			}
		})
	}
}

// testMessageToTerm checks the message of I(x = bᵀy) to y_k (edge k+1).
func testMessageToTerm(t *testing.T, b []float64, priors []normal, k int) {
	edge := k + 1
	sg := buildSumGraph(t, b, priors)
	// Row 4: the cavities of [y_{−k}, x], in that order, and a' = (−b_{−k}, +1)/b_k.
	var cPi, cTau, aPrime []float64
	for j := range b {
		if j != k {
			pi, tau := sg.cavity(j + 1)
			cPi, cTau, aPrime = append(cPi, pi), append(cTau, tau), append(aPrime, -b[j]/b[k])
		}
	}
	pi, tau := sg.cavity(0)
	cPi, cTau, aPrime = append(cPi, pi), append(cTau, tau), append(aPrime, 1/b[k])
	mustUpdate(t, sg.g, sg.ws, edge)
	msg, marg := sg.g.Message(sg.ws, edge), sg.g.Marginal(sg.vars[edge])
	ownPi, ownTau := sg.cav[edge].natural() // m_{y_k→f}

	t.Run("paper formula", func(t *testing.T) {
		if b[k] == 0 { // a' is undefined: y_k does not enter the constraint
			assertUniform(t, "message f→y", msg)
			assertNatural(t, "marginal of y", marg, ownPi, ownTau)
			return
		}
		wantPi, wantTau := row3(aPrime, cPi, cTau)
		assertNatural(t, "message f→y", msg, wantPi, wantTau)
		assertNatural(t, "marginal of y", marg, ownPi+wantPi, ownTau+wantTau)
	})
	t.Run("quadrature", func(t *testing.T) {
		// Equation 4: m_{f→y_k}(y_k) = ∫ δ(x − bᵀy)·m_{x→f}(x) ∏_{j≠k} m_{y_j→f}(y_j) dx dy_{−k}.
		s := constraint(b)
		m := constrainedMessage(s, sg.cav, edge, nInner)
		p := func(y float64) float64 { return sg.cav[edge].pdf(y) * m(y) } // equation 3
		cLo, cHi := sg.cav[edge].window(14)
		if b[k] == 0 {
			// The integral does not depend on y_k: the message is flat and
			// the marginal is the cavity.
			m0 := m(0)
			for _, z := range []float64{-7.5, -1, 2.5, 40} {
				assertClose(t, "m(z)/m(0)", m(z)/m0, 1, relTol)
			}
			assertUniform(t, "message f→y", msg)
			_, mean, variance := densityMoments(p, nOuter, cuts(cLo, cHi))
			assertMoments(t, "marginal of y", marg, mean, variance)
			return
		}
		lo, hi := messageWindow(s, sg.cav, edge)
		_, mean, variance := densityMoments(m, nOuter, cuts(lo, hi))
		assertMoments(t, "message f→y", msg, mean, variance)
		_, mean, variance = densityMoments(p, nOuter, cuts(math.Min(lo, cLo), math.Max(hi, cHi), cLo, cHi))
		assertMoments(t, "marginal of y", marg, mean, variance)
	})
}

// ---------------------------------------------------------------------------
// Table 1, row 5: the truncations I(x > ε) (win) and I(|x| ≤ ε) (draw)
// ---------------------------------------------------------------------------

// epUpdate holds the paper's inputs to row 5, read from the graph just before
// the update, and the message and marginal after it.
type epUpdate struct {
	c, d      float64 // c = π_x − π_{f→x}, d = τ_x − τ_{f→x}
	msg, marg messages.Gaussian
}

// updateTruncation drives the one-edge factor f on x so that its cavity is
// N(mu, v): a prior first sends a stale N(mu + 1, 2v) and f answers it, then
// the prior is changed to N(mu, v) and resent, and f is updated again.
func updateTruncation(t *testing.T, f graph.Factor, mu, v float64) epUpdate {
	t.Helper()
	b := graph.NewBuilder("row5")
	x := b.AddVariable("x")
	prior := factors.NewPrior(mu+1, 2*v)
	pf := b.AddFactor(prior, "", x)
	ff := b.AddFactor(f, "", x)
	g := mustBuild(t, b)
	mustUpdate(t, g, pf, 0)
	mustUpdate(t, g, ff, 0)
	prior.Mean, prior.Variance = mu, v
	mustUpdate(t, g, pf, 0)
	marg, old := g.Marginal(x), g.Message(ff, 0)
	u := epUpdate{c: marg.Pi - old.Pi, d: marg.Tau - old.Tau}
	mustUpdate(t, g, ff, 0)
	u.msg, u.marg = g.Message(ff, 0), g.Marginal(x)
	return u
}

var winCases = []struct {
	name  string
	mu, v float64 // the cavity N(μ, σ²)
	eps   float64 // the margin ε
}{
	{"mean above the margin", 1.2, 0.8, 0.5},
	{"mean below the margin", 0.2, 1.5, 0.9},
	{"no draws: ε = 0", 0.4, 1.0, 0},
	{"upset: mean at −3σ, ε = 0", -4.5, 2.25, 0},
	{"upset: μ − ε at −3σ", -2.26, 1.0, 0.74},
	{"extreme upset: μ − ε at −6σ", -5.26, 1.0, 0.74},
	{"TrueSkill scale: σ² = 2(8.33² + 4.17²)", 3.2, 173.6, 0.74},
}

// Table 1, row 5, I(x > ε): with c = π_x − π_{f→x}, d = τ_x − τ_{f→x},
// π_x^new = c/(1 − W(d/√c, ε√c)), τ_x^new = (d + √c·V(d/√c, ε√c))/(1 − W),
// and (equation 6) m_{f→x} = p̂(x)/m_{x→f}(x).
func TestTable1Row5GreaterThan(t *testing.T) {
	logWorstErrors(t)
	for _, tc := range winCases {
		t.Run(tc.name, func(t *testing.T) {
			u := updateTruncation(t, factors.NewGreaterThan(tc.eps), tc.mu, tc.v)
			cav := normal{tc.mu, tc.v}

			t.Run("paper formula", func(t *testing.T) {
				cPi, cTau := cav.natural()
				assertClose(t, "cavity c", u.c, cPi, relTol)
				assertClose(t, "cavity d", u.d, cTau, relTol)
				sc := math.Sqrt(u.c)
				v, w := vWin(u.d/sc, tc.eps*sc), wWin(u.d/sc, tc.eps*sc)
				piNew, tauNew := u.c/(1-w), (u.d+sc*v)/(1-w)
				assertNatural(t, "marginal of x", u.marg, piNew, tauNew)
				assertNatural(t, "message f→x", u.msg, piNew-u.c, tauNew-u.d)
			})
			t.Run("quadrature", func(t *testing.T) {
				// Moment matching: the mean and variance of I(x > ε)·N(x; μ, σ²).
				p := func(x float64) float64 {
					if x > tc.eps {
						return cav.pdf(x)
					}
					return 0
				}
				lo, hi := cav.window(14)
				_, mean, variance := densityMoments(p, n1D, cuts(lo, hi, tc.eps))
				assertMoments(t, "marginal of x", u.marg, mean, variance)
				cPi, cTau := cav.natural()
				assertNatural(t, "message f→x", u.msg, 1/variance-cPi, mean/variance-cTau)
			})
		})
	}
}

var drawCases = []struct {
	name  string
	mu, v float64 // the cavity N(μ, σ²)
	eps   float64 // the margin ε
}{
	{"mean inside the interval", 0.3, 1.2, 0.6},
	{"centred: V = 0", 0, 1, 0.7},
	{"draw with the mean outside the interval", 2.0, 0.8, 0.5},
	{"draw with the mean far outside: μ − ε = 6σ", 4, 0.25, 1},
	{"narrow interval around the mean: 2ε√c < 1", 0.1, 1.0, 0.3},
	{"narrow interval beside the mean: 2ε√c < 1", -1.1, 2.5, 0.25},
	{"wide interval far from the mean: μ − ε = 6σ, 2ε = 16σ", 5, 0.25, 2},
	{"wide interval", 1.0, 1.0, 3.0},
	{"TrueSkill scale: σ² = 2(8.33² + 4.17²)", 3.2, 173.6, 0.74},
}

// Table 1, row 5, I(|x| ≤ ε): the same update as for I(x > ε) with the
// draw's V and W.
func TestTable1Row5Within(t *testing.T) {
	logWorstErrors(t)
	for _, tc := range drawCases {
		t.Run(tc.name, func(t *testing.T) {
			u := updateTruncation(t, factors.NewWithin(tc.eps), tc.mu, tc.v)
			cav := normal{tc.mu, tc.v}

			t.Run("paper formula", func(t *testing.T) {
				cPi, cTau := cav.natural()
				assertClose(t, "cavity c", u.c, cPi, relTol)
				assertClose(t, "cavity d", u.d, cTau, relTol)
				sc := math.Sqrt(u.c)
				v, w := vDraw(u.d/sc, tc.eps*sc), wDraw(u.d/sc, tc.eps*sc)
				piNew, tauNew := u.c/(1-w), (u.d+sc*v)/(1-w)
				assertNatural(t, "marginal of x", u.marg, piNew, tauNew)
				assertNatural(t, "message f→x", u.msg, piNew-u.c, tauNew-u.d)
			})
			t.Run("quadrature", func(t *testing.T) {
				// Moment matching: the mean and variance of I(|x| ≤ ε)·N(x; μ, σ²).
				p := func(x float64) float64 {
					if math.Abs(x) <= tc.eps {
						return cav.pdf(x)
					}
					return 0
				}
				lo, hi := cav.window(14)
				_, mean, variance := densityMoments(p, n1D, cuts(lo, hi, -tc.eps, tc.eps))
				assertMoments(t, "marginal of x", u.marg, mean, variance)
				cPi, cTau := cav.natural()
				assertNatural(t, "message f→x", u.msg, 1/variance-cPi, mean/variance-cTau)
			})
		})
	}
}

// ---------------------------------------------------------------------------
// Evidence: LogAverageFactor = log ∫ f(v) ∏_i ĉ_i(v_i) dv
// ---------------------------------------------------------------------------

// evidenceProbe wraps a factor; whenever the graph asks it for a message it
// also records the factor's LogAverageFactor at the cavities of that moment.
type evidenceProbe struct {
	graph.Factor
	logZ float64
	err  error
}

func (p *evidenceProbe) Message(i int, e graph.Edges) (messages.Gaussian, error) {
	p.logZ, p.err = p.Factor.(graph.Evidence).LogAverageFactor(e)
	return p.Factor.Message(i, e)
}

// probeEvidence connects f to one new variable per cavity, gives each the
// cavity as a prior, and returns f's LogAverageFactor.
func probeEvidence(t *testing.T, f graph.Factor, cav ...normal) float64 {
	t.Helper()
	b := graph.NewBuilder("evidence")
	probe := &evidenceProbe{Factor: f}
	var vars []graph.VarID
	var priors []graph.FactorID
	for _, c := range cav {
		v := b.AddVariable(fmt.Sprintf("v%d", len(vars)))
		vars = append(vars, v)
		priors = append(priors, b.AddFactor(factors.NewPrior(c.mean, c.variance), "", v))
	}
	pf := b.AddFactor(probe, "", vars...)
	g := mustBuild(t, b)
	for _, p := range priors {
		mustUpdate(t, g, p, 0)
	}
	mustUpdate(t, g, pf, 0)
	if probe.err != nil {
		t.Fatal(probe.err)
	}
	return probe.logZ
}

// The evidence term of each factor, log ∫ f·ĉ with normalised cavities ĉ.
func TestLogAverageFactor(t *testing.T) {
	logWorstErrors(t)
	t.Run("prior N(x; m, v²)", func(t *testing.T) {
		const m, v2 = 1.3, 0.45
		cav := normal{-0.6, 2.2}
		got := probeEvidence(t, factors.NewPrior(m, v2), cav)
		t.Run("closed form", func(t *testing.T) {
			assertClose(t, "log Z", got, math.Log(gaussPDF(m, cav.mean, cav.variance+v2)), relTol)
		})
		t.Run("quadrature", func(t *testing.T) {
			lo, hi := hull(14, cav, normal{m, v2})
			z := integrate(func(x float64) float64 { return gaussPDF(x, m, v2) * cav.pdf(x) }, n1D, cuts(lo, hi))
			assertClose(t, "log Z", got, math.Log(z), relTol)
		})
	})
	t.Run("observation N(y₀; x, c²)", func(t *testing.T) {
		const y0, c2 = 2.4, 0.6
		cav := normal{0.5, 1.8}
		got := probeEvidence(t, factors.NewGaussianObservation(y0, c2), cav)
		t.Run("closed form", func(t *testing.T) {
			assertClose(t, "log Z", got, math.Log(gaussPDF(y0, cav.mean, cav.variance+c2)), relTol)
		})
		t.Run("quadrature", func(t *testing.T) {
			lo, hi := hull(14, cav, normal{y0, c2})
			z := integrate(func(x float64) float64 { return gaussPDF(y0, x, c2) * cav.pdf(x) }, n1D, cuts(lo, hi))
			assertClose(t, "log Z", got, math.Log(z), relTol)
		})
	})
	t.Run("likelihood N(x; y, c²)", func(t *testing.T) {
		const c2 = 0.7
		cavX, cavY := normal{0.3, 1.4}, normal{1.5, 0.8}
		got := probeEvidence(t, factors.NewLikelihood(c2), cavX, cavY)
		t.Run("closed form", func(t *testing.T) {
			want := gaussPDF(cavX.mean, cavY.mean, cavX.variance+cavY.variance+c2)
			assertClose(t, "log Z", got, math.Log(want), relTol)
		})
		t.Run("quadrature", func(t *testing.T) {
			m := likelihoodMessage(c2, cavY, 400) // ∫ N(x; y, c²)·ĉ_y(y) dy
			lo, hi := cavX.window(14)
			z := integrate(func(x float64) float64 { return cavX.pdf(x) * m(x) }, 400, cuts(lo, hi))
			assertClose(t, "log Z", got, math.Log(z), relTol)
		})
	})
	for _, tc := range weightedSumCases {
		t.Run("weighted sum "+tc.name, func(t *testing.T) {
			got := probeEvidence(t, factors.NewWeightedSum(tc.a...), tc.priors...)
			t.Run("closed form", func(t *testing.T) {
				// log N(μ_x; aᵀμ_y, σ_x² + Σ a_j²σ_j²)
				mean, variance := 0.0, tc.priors[0].variance
				for j, aj := range tc.a {
					mean += aj * tc.priors[j+1].mean
					variance += aj * aj * tc.priors[j+1].variance
				}
				assertClose(t, "log Z", got, math.Log(gaussPDF(tc.priors[0].mean, mean, variance)), relTol)
			})
			t.Run("quadrature", func(t *testing.T) {
				// ∫ ĉ_x(x)·(density of aᵀy at x) dx
				s := constraint(tc.a)
				m := constrainedMessage(s, tc.priors, 0, nInner)
				lo, hi := messageWindow(s, tc.priors, 0)
				lo2, hi2 := tc.priors[0].window(14)
				z := integrate(func(x float64) float64 { return tc.priors[0].pdf(x) * m(x) }, nOuter,
					cuts(math.Min(lo, lo2), math.Max(hi, hi2)))
				assertClose(t, "log Z", got, math.Log(z), relTol)
			})
		})
	}
	for _, tc := range winCases {
		t.Run("win "+tc.name, func(t *testing.T) {
			cav := normal{tc.mu, tc.v}
			got := probeEvidence(t, factors.NewGreaterThan(tc.eps), cav)
			t.Run("closed form", func(t *testing.T) {
				// log P(x > ε) = log Φ((μ − ε)/σ)
				assertClose(t, "log Z", got, math.Log(normCDF((tc.mu-tc.eps)/cav.sd())), relTol)
			})
			t.Run("quadrature", func(t *testing.T) {
				lo, hi := cav.window(14)
				z := integrate(func(x float64) float64 {
					if x > tc.eps {
						return cav.pdf(x)
					}
					return 0
				}, n1D, cuts(lo, hi, tc.eps))
				assertClose(t, "log Z", got, math.Log(z), relTol)
			})
		})
	}
	for _, tc := range drawCases {
		t.Run("draw "+tc.name, func(t *testing.T) {
			cav := normal{tc.mu, tc.v}
			got := probeEvidence(t, factors.NewWithin(tc.eps), cav)
			t.Run("closed form", func(t *testing.T) {
				// log P(|x| ≤ ε) = log(Φ((ε − μ)/σ) − Φ((−ε − μ)/σ))
				want := normCDF((tc.eps-tc.mu)/cav.sd()) - normCDF((-tc.eps-tc.mu)/cav.sd())
				assertClose(t, "log Z", got, math.Log(want), relTol)
			})
			t.Run("quadrature", func(t *testing.T) {
				lo, hi := cav.window(14)
				z := integrate(func(x float64) float64 {
					if math.Abs(x) <= tc.eps {
						return cav.pdf(x)
					}
					return 0
				}, n1D, cuts(lo, hi, -tc.eps, tc.eps))
				assertClose(t, "log Z", got, math.Log(z), relTol)
			})
		})
	}
}

// runTree runs the two-pass tree schedule twice, which leaves every message
// of a tree with at most one EP factor at its fixed point, and returns the
// graph's log evidence.
func runTree(t *testing.T, g *graph.Graph) float64 {
	t.Helper()
	s, err := schedules.Tree(g)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := schedules.Run(context.Background(), g, s); err != nil {
			t.Fatal(err)
		}
	}
	logZ, err := g.LogEvidence()
	if err != nil {
		t.Fatal(err)
	}
	return logZ
}

// Graph.LogEvidence on small trees whose evidence Z = ∫ ∏_f f is known: at
// the fixed point it must be exact.
func TestLogEvidenceOnTrees(t *testing.T) {
	logWorstErrors(t)
	t.Run("prior(x) + N(x; y, c²) + prior(y)", func(t *testing.T) {
		const c2 = 0.7
		priorX, priorY := normal{0.3, 4.0}, normal{1.5, 2.0}
		b := graph.NewBuilder("likelihood")
		x, y := b.AddVariable("x"), b.AddVariable("y")
		b.AddFactor(factors.NewPrior(priorX.mean, priorX.variance), "", x)
		b.AddFactor(factors.NewLikelihood(c2), "", x, y)
		b.AddFactor(factors.NewPrior(priorY.mean, priorY.variance), "", y)
		got := runTree(t, mustBuild(t, b))
		t.Run("closed form", func(t *testing.T) {
			want := gaussPDF(priorX.mean, priorY.mean, priorX.variance+priorY.variance+c2)
			assertClose(t, "log Z", got, math.Log(want), relTol)
		})
		t.Run("quadrature", func(t *testing.T) {
			m := likelihoodMessage(c2, priorY, 400)
			lo, hi := priorX.window(14)
			z := integrate(func(x float64) float64 { return priorX.pdf(x) * m(x) }, 400, cuts(lo, hi))
			assertClose(t, "log Z", got, math.Log(z), relTol)
		})
	})
	t.Run("prior(x) + observation N(y₀; x, c²)", func(t *testing.T) {
		const y0, c2 = 2.4, 0.6
		prior := normal{0.5, 1.8}
		b := graph.NewBuilder("observation")
		x := b.AddVariable("x")
		b.AddFactor(factors.NewPrior(prior.mean, prior.variance), "", x)
		b.AddFactor(factors.NewGaussianObservation(y0, c2), "", x)
		got := runTree(t, mustBuild(t, b))
		t.Run("closed form", func(t *testing.T) {
			assertClose(t, "log Z", got, math.Log(gaussPDF(y0, prior.mean, prior.variance+c2)), relTol)
		})
		t.Run("quadrature", func(t *testing.T) {
			lo, hi := hull(14, prior, normal{y0, c2})
			z := integrate(func(x float64) float64 { return prior.pdf(x) * gaussPDF(y0, x, c2) }, n1D, cuts(lo, hi))
			assertClose(t, "log Z", got, math.Log(z), relTol)
		})
	})
	for _, tc := range winCases {
		t.Run("prior + I(x > ε): "+tc.name, func(t *testing.T) {
			cav := normal{tc.mu, tc.v}
			b := graph.NewBuilder("win")
			x := b.AddVariable("x")
			b.AddFactor(factors.NewPrior(tc.mu, tc.v), "", x)
			b.AddFactor(factors.NewGreaterThan(tc.eps), "", x)
			got := runTree(t, mustBuild(t, b))
			t.Run("closed form", func(t *testing.T) {
				assertClose(t, "log Z", got, math.Log(normCDF((tc.mu-tc.eps)/cav.sd())), relTol)
			})
			t.Run("quadrature", func(t *testing.T) {
				lo, hi := cav.window(14)
				z := integrate(func(x float64) float64 {
					if x > tc.eps {
						return cav.pdf(x)
					}
					return 0
				}, n1D, cuts(lo, hi, tc.eps))
				assertClose(t, "log Z", got, math.Log(z), relTol)
			})
		})
	}
	// Two players: x = y1 − y2 must exceed ε (a win) or stay within ±ε (a
	// draw); Z = ∫ I(x ∈ A)·(density of y1 − y2 at x) dx.
	y1, y2 := normal{1.1, 1.7}, normal{-0.3, 0.9}
	for _, tc := range []struct {
		name string
		f    graph.Factor
		in   func(x float64) bool
		eps  float64
		want float64 // the closed form
	}{
		{"win", factors.NewGreaterThan(0.5), func(x float64) bool { return x > 0.5 }, 0.5,
			normCDF((1.4 - 0.5) / math.Sqrt(2.6))},
		{"draw", factors.NewWithin(0.5), func(x float64) bool { return math.Abs(x) <= 0.5 }, 0.5,
			normCDF((0.5-1.4)/math.Sqrt(2.6)) - normCDF((-0.5-1.4)/math.Sqrt(2.6))},
	} {
		t.Run("priors + x = y1 − y2 + "+tc.name, func(t *testing.T) {
			b := graph.NewBuilder("two players")
			x, v1, v2 := b.AddVariable("x"), b.AddVariable("y1"), b.AddVariable("y2")
			b.AddFactor(factors.NewPrior(y1.mean, y1.variance), "", v1)
			b.AddFactor(factors.NewPrior(y2.mean, y2.variance), "", v2)
			b.AddFactor(factors.NewDifference(), "", x, v1, v2)
			b.AddFactor(tc.f, "", x)
			got := runTree(t, mustBuild(t, b))
			t.Run("closed form", func(t *testing.T) {
				assertClose(t, "log Z", got, math.Log(tc.want), relTol)
			})
			t.Run("quadrature", func(t *testing.T) {
				s, cav := []float64{1, -1, 1}, []normal{{}, y1, y2}
				m := constrainedMessage(s, cav, 0, 400) // density of y1 − y2
				lo, hi := messageWindow(s, cav, 0)
				z := integrate(func(x float64) float64 {
					if tc.in(x) {
						return m(x)
					}
					return 0
				}, nOuter, cuts(lo, hi, -tc.eps, tc.eps))
				assertClose(t, "log Z", got, math.Log(z), relTol)
			})
		})
	}
}
