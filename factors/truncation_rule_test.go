package factors_test

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/factors/factortest"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
)

// The truncation of a cavity by every factor that truncates one: the rule
// for a point mass on a bound, and the messages and evidence of proper
// cavities against quadrature of the truncated Gaussian.

// pointCase is a configuration of cavities at least one of which is a
// point mass on, just inside or just outside a bound of the factor's
// event; admitted is that event evaluated on the point masses, as the
// factor's documentation defines it (strict > for the win factors,
// non-strict ≤ for the draw factors).
type pointCase struct {
	name     string
	f        graph.Factor
	cavities []messages.Gaussian
	admitted bool
}

// around returns b, the float64 just above it and the one just below.
func around(b float64) (on, up, down float64) {
	return b, math.Nextafter(b, math.Inf(1)), math.Nextafter(b, math.Inf(-1))
}

func pointCases() []pointCase {
	pm := messages.PointMass
	var cs []pointCase
	add := func(name string, f graph.Factor, admitted bool, cavities ...messages.Gaussian) {
		cs = append(cs, pointCase{name, f, cavities, admitted})
	}
	for _, eps := range []float64{0, 0.7, 0x1p-1050} {
		on, up, down := around(eps)
		for _, x := range []float64{on, up, down} {
			add(fmt.Sprintf("I(x > %v), x = %v", eps, x), factors.NewGreaterThan(eps), x > eps, pm(x))
		}
		for _, b := range []float64{-eps, eps} {
			on, up, down := around(b)
			for _, x := range []float64{on, up, down} {
				add(fmt.Sprintf("I(|x| ≤ %v), x = %v", eps, x), factors.NewWithin(eps), -eps <= x && x <= eps, pm(x))
			}
		}
	}
	for _, m := range []float64{0.7, -0.3, 0} {
		on, up, down := around(m)
		for _, x := range []float64{on, up, down} {
			add(fmt.Sprintf("I(x > m), x = %v, m = %v", x, m), factors.NewExceedsMargin(), x > m, pm(x), pm(m))
		}
	}
	// I(|x| ≤ m): x on ±m, and m on |x|, each just inside and outside.
	for _, x0 := range []float64{0.4, -0.4, 0} {
		on, up, down := around(math.Abs(x0))
		for _, m := range []float64{on, up, down} {
			add(fmt.Sprintf("I(|x| ≤ m), x = %v, m = %v", x0, m), factors.NewWithinMargin(), math.Abs(x0) <= m, pm(x0), pm(m))
		}
	}
	for _, m := range []float64{0.4, -0.4} {
		for _, b := range []float64{-m, m} {
			on, up, down := around(b)
			for _, x := range []float64{on, up, down} {
				add(fmt.Sprintf("I(|x| ≤ m), x = %v, m = %v", x, m), factors.NewWithinMargin(), -m <= x && x <= m, pm(x), pm(m))
			}
		}
	}
	// I(−u ≤ x ≤ v), −u ≤ v: a symmetric interval, one shifted away from
	// 0 ([1.5, 2.5]), one below it ([−3, −1.25]) and a single point.
	for _, iv := range [][2]float64{{-0.7, 0.7}, {1.5, 2.5}, {-3, -1.25}, {0.3, 0.3}} {
		u, v := -iv[0], iv[1]
		for _, b := range iv {
			on, up, down := around(b)
			for _, x := range []float64{on, up, down} {
				add(fmt.Sprintf("I(−u ≤ x ≤ v), x = %v, u = %v, v = %v", x, u, v), factors.NewBetweenMargins(),
					-u <= x && x <= v, pm(x), pm(u), pm(v))
			}
		}
		// The margins on the bounds x sets: u on −x, v on x.
		x := 0.5 * (iv[0] + iv[1])
		for _, uu := range []float64{-x, math.Nextafter(-x, math.Inf(1)), math.Nextafter(-x, math.Inf(-1))} {
			add(fmt.Sprintf("I(−u ≤ x ≤ v), x = %v, u = %v, v = %v", x, uu, v), factors.NewBetweenMargins(),
				-uu <= x && x <= v, pm(x), pm(uu), pm(v))
		}
	}
	// An empty interval (−u > v): nothing is admitted.
	add("I(−u ≤ x ≤ v), x = 0.5, u = −1, v = 0.9", factors.NewBetweenMargins(), false, pm(0.5), pm(-1), pm(0.9))
	return cs
}

// TestPointMassOnABound: every point-mass configuration, on a bound and
// one ulp either side, is admitted exactly when the factor's event holds
// for it, and its message on every edge and its evidence say the same:
// admitted, uniform messages and log evidence 0; excluded,
// messages.ErrImpossible from every message and from LogAverageFactor.
func TestPointMassOnABound(t *testing.T) {
	for _, c := range pointCases() {
		for i := range c.f.Arity() {
			m, err := factortest.Message(c.f, i, c.cavities...)
			switch {
			case c.admitted && (err != nil || !m.IsUniform()):
				t.Errorf("%s: admitted, message %d = %v, %v; want uniform", c.name, i, m, err)
			case !c.admitted && !errors.Is(err, messages.ErrImpossible):
				t.Errorf("%s: excluded, message %d = %v, %v; want messages.ErrImpossible", c.name, i, m, err)
			}
		}
		lz, err := factortest.LogAverageFactor(c.f, c.cavities...)
		switch {
		case c.admitted && (err != nil || lz != 0):
			t.Errorf("%s: admitted, log evidence %v, %v; want 0", c.name, lz, err)
		case !c.admitted && !errors.Is(err, messages.ErrImpossible):
			t.Errorf("%s: excluded, log evidence %v, %v; want messages.ErrImpossible", c.name, lz, err)
		}
	}
}

// TestPointMassOnABoundBesideAProperCavity: point masses on (and one ulp
// beside) a bound while another edge is proper. Admitted, the point-mass
// edges get uniform messages and the proper one a proper message, and the
// evidence is finite; excluded, every edge and the evidence are
// messages.ErrImpossible.
func TestPointMassOnABoundBesideAProperCavity(t *testing.T) {
	pm := messages.PointMass
	proper := gaussMsg(0.8, 0.5)
	type mixed struct {
		name     string
		f        graph.Factor
		cavities []messages.Gaussian
		admitted bool
	}
	var cs []mixed
	for _, x0 := range []float64{0.6, -0.6, 1.7} {
		on, up, down := around(-x0)
		for _, u := range []float64{on, up, down} {
			cs = append(cs, mixed{fmt.Sprintf("x = %v, u = %v, v proper", x0, u), factors.NewBetweenMargins(),
				[]messages.Gaussian{pm(x0), pm(u), proper}, -u <= x0})
		}
		on, up, down = around(x0)
		for _, v := range []float64{on, up, down} {
			cs = append(cs, mixed{fmt.Sprintf("x = %v, u proper, v = %v", x0, v), factors.NewBetweenMargins(),
				[]messages.Gaussian{pm(x0), proper, pm(v)}, x0 <= v})
		}
	}
	// Point-mass margins around an empty interval, x proper.
	for _, u := range []float64{-0.3, math.Nextafter(-0.3, 0), math.Nextafter(-0.3, -1)} {
		cs = append(cs, mixed{fmt.Sprintf("x proper, u = %v, v = 0.3", u), factors.NewBetweenMargins(),
			[]messages.Gaussian{proper, pm(u), pm(0.3)}, -u <= 0.3})
	}
	for _, m := range []float64{0, math.Nextafter(0, -1), -0.5} {
		cs = append(cs, mixed{fmt.Sprintf("x proper, m = %v", m), factors.NewWithinMargin(),
			[]messages.Gaussian{proper, pm(m)}, m >= 0})
	}
	for _, c := range cs {
		lz, lerr := factortest.LogAverageFactor(c.f, c.cavities...)
		zeroWidth := false // a proper cavity on a single point: no mass
		for i, cav := range c.cavities {
			m, err := factortest.Message(c.f, i, c.cavities...)
			switch {
			case !c.admitted:
				if !errors.Is(err, messages.ErrImpossible) {
					t.Errorf("%s: excluded, message %d = %v, %v; want messages.ErrImpossible", c.name, i, m, err)
				}
			case err != nil:
				t.Errorf("%s: admitted, message %d: %v", c.name, i, err)
			case cav.IsPointMass() && !m.IsUniform():
				t.Errorf("%s: admitted, message %d to a point mass = %v; want uniform", c.name, i, m)
			case !cav.IsPointMass() && m.IsPointMass():
				zeroWidth = true
			case !cav.IsPointMass() && !(m.Pi > 0 && m.IsFinite()):
				t.Errorf("%s: admitted, message %d to a proper cavity = %v; want a proper message", c.name, i, m)
			}
		}
		switch {
		case !c.admitted && !errors.Is(lerr, messages.ErrImpossible):
			t.Errorf("%s: excluded, log evidence %v, %v; want messages.ErrImpossible", c.name, lz, lerr)
		case c.admitted && zeroWidth && !errors.Is(lerr, messages.ErrImpossible):
			// The limit of a shrinking interval is the point mass; its
			// mass under a proper cavity is 0.
			t.Errorf("%s: a single point under a proper cavity: log evidence %v, %v; want messages.ErrImpossible", c.name, lz, lerr)
		case c.admitted && !zeroWidth && (lerr != nil || !(lz < 0) || !messages.IsFinite(lz)):
			t.Errorf("%s: admitted, log evidence %v, %v; want finite and < 0", c.name, lz, lerr)
		}
	}
}

// legendre20 is the 20-node Gauss–Legendre rule on [0, 1].
var legendre20 = func() (r struct{ x, w []float64 }) {
	r.x, r.w = make([]float64, 20), make([]float64, 20)
	quad.Legendre{}.FixedLocations(r.x, r.w, 0, 1)
	return r
}()

// truncatedNormal returns log P(a ≤ Z ≤ b) and the mean and variance of
// Z ~ N(0, 1) restricted to [a, b] (a may be −∞, b +∞), by quadrature of
// the density itself: with r the point of [a, b] nearest 0, where the
// density peaks, φ(z) = φ(r)·exp(−(z − r)(z + r)/2), integrated by the
// 20-node Gauss–Legendre rule on 400 equal panels of the part of [a, b]
// where the exponent exceeds −90 (|z| ≤ √(r² + 180)). Working relative to
// r keeps the result finite and relatively accurate 40σ out, where φ
// underflows; the mean is r plus the mean of z − r and the variance is
// summed about the mean, so that neither cancels.
func truncatedNormal(a, b float64) (logZ, mean, variance float64) {
	r := math.Max(a, math.Min(b, 0))
	w := math.Sqrt(r*r + 180)
	lo, hi := math.Max(a, -w), math.Min(b, w)
	const panels = 400
	h := (hi - lo) / panels
	var zs, es []float64
	var s0, s1 float64
	for p := range panels {
		for k, x := range legendre20.x {
			z := lo + h*(float64(p)+x)
			e := legendre20.w[k] * h * math.Exp(-0.5*(z-r)*(z+r))
			zs, es = append(zs, z-r), append(es, e)
			s0 += e
			s1 += e * (z - r)
		}
	}
	m := s1 / s0
	var s2 float64
	for i, d := range zs {
		s2 += es[i] * (d - m) * (d - m)
	}
	return math.Log(s0) - 0.5*r*r - 0.5*math.Log(2*math.Pi), r + m, s2 / s0
}

// truncation is one edge's cavity truncated to [lo, hi] in its own units.
type truncation struct {
	edge   int
	lo, hi float64
}

// properCase is a factor whose proper-cavity edges are each truncated to
// an interval, independently, the others being point masses: its
// evidence is the sum of their log masses.
type properCase struct {
	name     string
	f        graph.Factor
	cavities []messages.Gaussian
	cuts     []truncation
}

// offsets are bounds in cavity standard deviations from the cavity mean:
// from far below it (nothing truncated) to 40σ above (mass e⁻⁸⁰⁰).
var offsets = []float64{-40, -35, -30, -8, -1, 0, 0.5, 3, 8, 30, 35, 40}

// windows are intervals [a, b] in cavity standard deviations from its mean.
var windows = [][2]float64{
	{-1, 2}, {0.3, 0.9}, {-1e-3, 2e-3}, {-2, 30}, {5, 50}, {30, 31}, {30, 40}, {35, 35.001},
	{-40, -30}, {-38, 40}, {-31, -30.5}, {39.5, 40},
}

// cavityShapes are the cavities' (μ, σ) for the cases whose bounds can be
// anywhere.
var cavityShapes = [][2]float64{{0, 1}, {2.5, 0.3}, {-1e3, 7}}

func properCases() []properCase {
	pm := messages.PointMass
	inf := math.Inf(1)
	var cs []properCase
	add := func(name string, f graph.Factor, cuts []truncation, cavities ...messages.Gaussian) {
		cs = append(cs, properCase{name, f, cavities, cuts})
	}
	for _, k := range offsets {
		// I(x > ε), ε = 0.7, with the cavity placed kσ below it.
		const eps = 0.7
		for _, sd := range []float64{1, 0.02} {
			x := gaussMsg(eps-k*sd, sd*sd)
			add(fmt.Sprintf("I(x > %v), x %v", eps, x), factors.NewGreaterThan(eps), []truncation{{0, eps, inf}}, x)
		}
		for _, s := range cavityShapes {
			mu, sd := s[0], s[1]
			b := mu + k*sd
			c := gaussMsg(mu, sd*sd)
			add(fmt.Sprintf("I(x > m), x %v, m = %v", c, b), factors.NewExceedsMargin(), []truncation{{0, b, inf}}, c, pm(b))
			// x fixed: m < x, the half-line below it.
			b = mu - k*sd
			add(fmt.Sprintf("I(x > m), x = %v, m %v", b, c), factors.NewExceedsMargin(), []truncation{{1, -inf, b}}, pm(b), c)
			if b := mu + k*sd; b >= 0 {
				// m ≥ |x| with x = −b.
				add(fmt.Sprintf("I(|x| ≤ m), x = %v, m %v", -b, c), factors.NewWithinMargin(), []truncation{{1, b, inf}}, pm(-b), c)
			}
			// x fixed at x₀: u ≥ −x₀ and v ≥ x₀, u kσ from its bound
			// and v −k/2 σ from its own.
			x0 := mu + k*sd
			v := gaussMsg(x0+0.5*k*0.4, 0.16)
			add(fmt.Sprintf("I(−u ≤ x ≤ v), x = %v, u %v, v %v", x0, c, v), factors.NewBetweenMargins(),
				[]truncation{{1, -x0, inf}, {2, x0, inf}}, pm(x0), gaussMsg(-mu, sd*sd), v)
		}
	}
	for _, w := range windows {
		// I(|x| ≤ ε) and I(|x| ≤ m₀ = ε): the cavity placed so that
		// [−ε, ε] is [a, b] in its standard deviations.
		const eps = 0.7
		sd := 2 * eps / (w[1] - w[0])
		x := gaussMsg(-eps-w[0]*sd, sd*sd)
		add(fmt.Sprintf("I(|x| ≤ %v), x %v", eps, x), factors.NewWithin(eps), []truncation{{0, -eps, eps}}, x)
		add(fmt.Sprintf("I(|x| ≤ m), x %v, m = %v", x, eps), factors.NewWithinMargin(), []truncation{{0, -eps, eps}}, x, pm(eps))
		for _, s := range cavityShapes {
			mu, sd := s[0], s[1]
			lo, hi := mu+w[0]*sd, mu+w[1]*sd
			x := gaussMsg(mu, sd*sd)
			add(fmt.Sprintf("I(−u ≤ x ≤ v), x %v, [%v, %v]", x, lo, hi), factors.NewBetweenMargins(),
				[]truncation{{0, lo, hi}}, x, pm(-lo), pm(hi))
		}
	}
	return cs
}

// TestTruncationsAgainstQuadrature: the marginal each truncating factor
// gives a proper cavity (cavity × message) and its log evidence against
// truncatedNormal, for bounds from 40σ below the cavity mean to 40σ above
// it, half-lines and intervals (symmetric about 0, shifted away from it,
// and of widths from 1e-3σ to 80σ): means to 1e-9 of the truncated
// standard deviation (or of the mean, if larger), variances to 1e-9
// relative, and the mass to 1e-9 relative (log evidence to 1e-9).
func TestTruncationsAgainstQuadrature(t *testing.T) {
	const tol = 1e-9
	var worstMean, worstVar, worstLogZ float64
	for _, c := range properCases() {
		wantLZ := 0.0
		for _, cut := range c.cuts {
			cav := c.cavities[cut.edge]
			mu, sd := cav.Mean(), cav.Sigma()
			lz, zm, zv := truncatedNormal((cut.lo-mu)/sd, (cut.hi-mu)/sd)
			wantLZ += lz
			wantMean, wantVar := mu+sd*zm, sd*sd*zv
			m, err := factortest.Message(c.f, cut.edge, c.cavities...)
			if err != nil {
				t.Errorf("%s: message %d: %v", c.name, cut.edge, err)
				continue
			}
			marg := cav.Mul(m)
			scale := math.Max(math.Sqrt(wantVar), math.Abs(wantMean))
			em := math.Abs(marg.Mean()-wantMean) / scale
			ev := math.Abs(marg.Variance()/wantVar - 1)
			worstMean, worstVar = math.Max(worstMean, em), math.Max(worstVar, ev)
			if !(em <= tol) || !(ev <= tol) {
				t.Errorf("%s: edge %d truncated to [%v, %v]: marginal N(%v, %v), quadrature N(%v, %v)",
					c.name, cut.edge, cut.lo, cut.hi, marg.Mean(), marg.Variance(), wantMean, wantVar)
			}
		}
		for i, cav := range c.cavities {
			if cav.IsPointMass() {
				if m, err := factortest.Message(c.f, i, c.cavities...); err != nil || !m.IsUniform() {
					t.Errorf("%s: message %d to a point mass = %v, %v; want uniform", c.name, i, m, err)
				}
			}
		}
		lz, err := factortest.LogAverageFactor(c.f, c.cavities...)
		el := math.Abs(lz - wantLZ)
		worstLogZ = math.Max(worstLogZ, el)
		if err != nil || !(el <= tol) {
			t.Errorf("%s: log evidence %v, %v; quadrature %v", c.name, lz, err, wantLZ)
		}
	}
	t.Logf("worst errors: mean %.2g (of the truncated σ or |mean|), variance %.2g relative, log evidence %.2g absolute",
		worstMean, worstVar, worstLogZ)
}

// TestTruncatedNormalSelfCheck: the reference quadrature against closed
// forms where float64 holds them: Φ(b) − Φ(a) and the mean
// (φ(a) − φ(b))/(Φ(b) − Φ(a)) on [−0.4, 1.3]; the moments of a one-sided
// truncation at a = 1.5, mean λ = φ(a)/(1 − Φ(a)) and variance
// 1 + aλ − λ²; and 40σ out, where φ underflows, the asymptotic series of
// λ (the coefficients 1, 1, 2, 10, 74, 706, OEIS A000698) and of the
// variance 1 − λ(λ − a) derived from it:
//
//	λ ≈ a + 1/a − 2/a³ + 10/a⁵ − 74/a⁷ + 706/a⁹,
//	1 + aλ − λ² ≈ 1/a² − 6/a⁴ + 50/a⁶ − 518/a⁸ + 6354/a¹⁰,
//
// whose next terms are below 1e-13 and 1e-11 relative at a = 40.
func TestTruncatedNormalSelfCheck(t *testing.T) {
	lz, m, _ := truncatedNormal(-0.4, 1.3)
	if want := math.Log(normCDF(1.3) - normCDF(-0.4)); math.Abs(lz-want) > 1e-14 {
		t.Errorf("log mass on [−0.4, 1.3] = %v, want %v", lz, want)
	}
	if want := (normPDF(-0.4) - normPDF(1.3)) / (normCDF(1.3) - normCDF(-0.4)); math.Abs(m-want) > 1e-14 {
		t.Errorf("mean on [−0.4, 1.3] = %v, want %v", m, want)
	}
	a := 1.5
	lz, m, v := truncatedNormal(a, math.Inf(1))
	lambda := normPDF(a) / normCDF(-a)
	if math.Abs(lz-math.Log(normCDF(-a))) > 1e-14 || math.Abs(m-lambda) > 1e-14 || math.Abs(v-(1+a*lambda-lambda*lambda)) > 1e-14 {
		t.Errorf("(1.5, ∞): %v, %v, %v; want %v, %v, %v", lz, m, v, math.Log(normCDF(-a)), lambda, 1+a*lambda-lambda*lambda)
	}
	a = 40
	_, m, v = truncatedNormal(a, math.Inf(1))
	s := 1 / (a * a)
	wm := a + (1-(2-(10-(74-706*s)*s)*s)*s)/a
	wv := s * (1 - (6-(50-(518-6354*s)*s)*s)*s)
	if math.Abs(m/wm-1) > 1e-13 || math.Abs(v/wv-1) > 1e-11 {
		t.Errorf("(40, ∞): mean %v, variance %v; asymptotics %v, %v", m, v, wm, wv)
	}
}
