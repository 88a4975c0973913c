package messages

import (
	"math"

	"gonum.org/v1/gonum/integrate/quad"
)

const (
	invSqrt2Pi = 0.398942280401432677939946059934381868 // 1/√(2π)
	logSqrt2Pi = 0.918938533204672741780329736405617640 // log √(2π)
)

// Below millsLo (−5), where the λ table starts, the left-tail tables
// (millsTail) take over: λ, 1 − W and log Φ come from y = −x without
// exponentials, which stay exact where φ and Φ underflow.

// NormPDF returns the standard normal density φ(x) = exp(−x²/2)/√(2π).
func NormPDF(x float64) float64 { return invSqrt2Pi * math.Exp(-0.5*x*x) }

// NormCDF returns the standard normal distribution function
// Φ(x) = erfc(−x/√2)/2. Unlike 1 − erf, erfc keeps full relative accuracy in
// the left tail down to x ≈ −37.5, below which Φ(x) leaves the normal floating
// point range; use LogNormCDF there.
func NormCDF(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

// LogNormCDF returns log Φ(x) with full relative accuracy for every finite x.
// On [−5, 5), where TrueSkill's win factor evaluates its evidence, it is a
// table polynomial (logPhiPoly, evaluated by tablePoly as λ's table is, within
// about 1 ulp): no erfc and no logarithm, whose latency is several times the
// table's (BENCHMARKS.md). log Φ is tabulated directly,
// not −x²/2 − log√(2π) − log λ(x) from the λ table, because that identity
// still needs a logarithm; and no rescaling is needed for x > 0, where
// log Φ(x) ≈ −Φ(−x) is tiny (−2.9e-7 at x = 5), because each interval's
// polynomial is fitted to its own values and so keeps their relative
// accuracy (log Φ has no zero on the real line). Below −5 it is computed as
// −log(y + g₁) − x²/2 − log√(2π) with y = −x and Φ(−y)/φ(y) = 1/(y + g₁)
// from the Laplace continued fraction (millsTailG1), so it never underflows;
// from 5 up it is log1p(−Φ(−x)), which resolves the small negative value
// instead of rounding log(1 − δ) (log(Φ(x)) would keep only 9 digits of it
// at x = 5).
func LogNormCDF(x float64) float64 {
	switch {
	case x >= millsLo && x < millsHi:
		return tablePoly(&logPhiPoly, x)
	case x < millsLo:
		if math.IsInf(x, -1) {
			return math.Inf(-1)
		}
		return -math.Log(-x+millsTailG1(-x)) - 0.5*x*x - logSqrt2Pi
	default: // x ≥ 5 or NaN
		return math.Log1p(-NormCDF(-x))
	}
}

// Log returns the natural logarithm of x, like math.Log, but correct for
// subnormal x (0 < x < 2⁻¹⁰²²) too. The toolchain's math.Log on amd64
// misreads subnormal arguments: it returns about −709.09 at 5e-324, whose
// log is −1074·log 2 ≈ −744.44, and is wrong across the whole subnormal
// range. Probabilities and densities in far tails (Φ, evidence terms,
// products of likelihoods) land there before they underflow to 0, so their
// logs go through Log. For subnormal x it writes x = m·2ᵉ with m in [½, 1)
// (math.Frexp, exact) and returns log m + e·log 2; elsewhere (normal x, 0,
// negative, ±Inf, NaN) it is math.Log.
func Log(x float64) float64 {
	if x > 0 && x < 0x1p-1022 {
		m, e := math.Frexp(x)
		return math.Log(m) + float64(e)*math.Ln2
	}
	return math.Log(x)
}

// NormQuantile returns Φ⁻¹(p), the standard normal quantile, for every p in
// [0, 1]: finite on (0, 1), down to the smallest positive float64 (Φ⁻¹(5e-324)
// ≈ −38.47), ±Inf at p = 0 and 1 and NaN outside [0, 1] or for NaN.
//
// On [1/4, 3/4] it is −√2·erfcinv(2p): there 1 − 2p, which erfcinv forms
// through erfinv(1 − 2p), is exact (Sterbenz), and the result is near 0, where
// an absolute error must stay small. Below 1/4 that subtraction rounds away
// the digits of p (all of them below p ≈ 1.1e-16, where erfcinv returns
// −Inf), so the lower tail solves log Φ(x) = log p instead, in log space so
// that nothing underflows: Halley's iteration on f(x) = log Φ(x) − log p,
// whose derivatives are those of Table 1's win correction at ε = 0,
// f′ = φ/Φ = V(x, 0) and f″ = −V·(V + x) = −W(x, 0) (messages.GreaterThan),
//
//	x ← x − 2f·V/(2V² + f·W),
//
// converging cubically from −√2·erfcinv(2p) or, below p = 1e-10, from the
// tail's asymptotic inverse x₀ = −√(L − log L) with L = −2·log p − log 2π
// (from Φ(x) ≈ φ(x)/|x|). The upper tail is −Φ⁻¹(1 − p), with 1 − p exact
// for p ≥ 1/2, so the quantile is antisymmetric exactly.
func NormQuantile(p float64) float64 {
	switch {
	case !(p >= 0 && p <= 1):
		return math.NaN()
	case p > 0.5:
		return -NormQuantile(1 - p)
	case p >= 0.25:
		return -math.Sqrt2 * math.Erfcinv(2*p)
	case p == 0:
		return math.Inf(-1)
	}
	logP := Log(p) // p may be subnormal
	x := -math.Sqrt2 * math.Erfcinv(2*p)
	if p < 1e-10 {
		l := -2*logP - 2*logSqrt2Pi
		x = -math.Sqrt(l - math.Log(l))
	}
	// Each step roughly triples the correct digits; the bound only keeps a
	// step that rounding makes oscillate from looping.
	for range 8 {
		f := LogNormCDF(x) - logP
		c := GreaterThan(x, 0)
		step := 2 * f * c.V / (2*c.V*c.V + f*c.W)
		x -= step
		if math.Abs(step) <= 0x1p-50*math.Abs(x) {
			break
		}
	}
	return x
}

// InvMillsRatio returns λ(x) = φ(x)/Φ(x), the mean of a unit Gaussian
// truncated to values above −x, shifted by x. It equals the TrueSkill win
// correction V(x, 0). Below −5 it is y + g₁ with y = −x, from Laplace's
// continued fraction Φ(x)/φ(x) = 1/(y + g₁), g₁ = s·P(1/y²) from a table
// (millsTailG1: one division, within 0.55 ulp), which needs no exponential
// and stays exact where φ and Φ both underflow: at x = −1e4 it returns
// 10000.0001 where the naive ratio returns NaN, and λ(x) ~ −x up to the
// largest double. On [−5, 5) it is a table polynomial (millsPoly): no
// exponential, erfc or division, and within about 1 ulp. Above, it is
// φ(x)/(1 − φ(x)·R(−x)) with R(−x) = Φ(−x)/φ(x) from a short continued
// fraction. λ(−∞) = +∞, λ(+∞) = 0 and λ(NaN) = NaN.
func InvMillsRatio(x float64) float64 {
	switch {
	case x >= millsLo && x < millsHi:
		return tablePoly(&millsPoly, x)
	case x < millsLo:
		if math.IsInf(x, -1) {
			return math.Inf(1)
		}
		return -x + millsTailG1(-x)
	}
	// x ≥ 5 or NaN. Φ(−x) = φ(x)·R(−x) ≤ 2.9e-7, so an error δ in R(−x)
	// costs only δ·Φ(−x) in the result, and R(−x) = 1/(x + g₁) needs far
	// fewer continued-fraction terms than g₁ itself to 1 ulp: 16 at x = 5
	// and 8 from x = 6 on leave under 0.05 ulp of the result (checked
	// against mpmath).
	n := 16
	if x >= 6 {
		n = 8
	}
	g := 0.0
	for k := n; k >= 1; k-- {
		g = 1 / (x + float64(k+1)*g)
	}
	p := NormPDF(x)
	return p / (1 - p/(x+g))
}

// tablePoly evaluates a table of degree-10 polynomials on the intervals of
// width 1/8 of [millsLo, millsHi) at x in that range: millsPoly (λ(x) =
// φ(x)/Φ(x)) or logPhiPoly (log Φ(x)), both fitted with mpmath by
// testdata/gen_mills.py, which also bounds their error on a grid of 401
// points per interval (λ: 0.55 ulp below 0, 1.06 ulp up to 5; log Φ: 0.97
// ulp). Horner's or Clenshaw's recurrence would be a chain of ten dependent
// multiply-adds; Estrin's scheme sums the same polynomial as a tree of depth
// four. The constant term c₀ ≈ f(centre) is much the largest below 2 (λ
// changes by 2% across an interval at −5, 10% at 0; log Φ by 4% and 14%),
// so it is added last, and its rounding error (c[11]) first, so that only
// the final addition rounds at the scale of the result. Towards 5 both
// functions fall like φ(x) and change by a factor of up to 1.9 across an
// interval, so the other terms are no longer small beside c₀: hence the
// errors near 1 ulp there.
func tablePoly(tab *[(millsHi - millsLo) * millsPerUnit][12]float64, x float64) float64 {
	// 8x + 40 ∈ [0, 80]: it reaches 80 by rounding just below millsHi.
	k := min(uint(int(millsPerUnit*x-millsPerUnit*millsLo)), uint(len(tab)-1))
	// u = (x − centre)/halfwidth = 16x + 79 − 2k ∈ [−1, 1] has no rounding
	// error this way (16x is exact, 79 − 2k a small integer); 16(x + 5) − …
	// would round x + 5 by up to 4.4e-16, over 2 ulp of λ near x = 0.
	u := 2*millsPerUnit*x + float64(2*millsPerUnit*-millsLo-1-2*int(k))
	c := &tab[k]
	u2 := u * u
	u4 := u2 * u2
	u8 := u4 * u4
	lo := (c[11] + c[1]*u + (c[2]+c[3]*u)*u2) + (c[4]+c[5]*u+(c[6]+c[7]*u)*u2)*u4
	hi := c[8] + c[9]*u + c[10]*u2
	return c[0] + (lo + hi*u8)
}

// millsTailG1 returns g₁ = λ(−y) − y for y > 5, the first tail of Laplace's
// continued fraction Φ(−y)/φ(y) = 1/(y + g₁), g_k = 1/(y + (k+1)·g_{k+1}).
// It is s·P(z) with s = 1/y, z = s²: y·g₁ = 1/(1 + 2z/(1 + 3z/(1 + …))) is
// a smooth function of z on [0, 1/25] that tends to 1 as z → 0 (the
// asymptotic series g₁ ~ 1/y − 2/y³ + 10/y⁵ − …), so one set of polynomials
// in z (millsTailP, fitted with mpmath by testdata/gen_mills.py tail) serves
// every y from 5 to the largest double, with one division and no special
// case for large y; z underflows harmlessly (P(0) = 1). The backward
// recurrence it replaces needed 20 to 40 dependent divisions for 1 ulp.
func millsTailG1(y float64) float64 {
	s := 1 / y
	z := s * s
	k := min(uint(int(z*millsTailPerUnit)), uint(len(millsTailP)-1))
	// 1024z is exact and 2k + 1 a small integer, so u has no rounding error.
	u := 2*millsTailPerUnit*z - float64(2*int(k)+1)
	return s * millsTailPoly(&millsTailP[k], u)
}

// millsTail returns g₁ = λ(−y) − y (as millsTailG1) and 1 − W, the variance
// factor of a unit Gaussian truncated to (y, ∞) shifted by y, for y > 5:
// 1 − W = 1 − λ·(λ − y) = z·Q(z) with z = 1/y², Q from millsTailQ. Q tends
// to 1 (1 − W ~ 1/y² − 6/y⁴ + …), so 1 − W is relatively exact for every y
// and has no cancellation, unlike 1 − V·g₁ (which loses 2·log₁₀ y digits);
// it keeps its relative accuracy down to the subnormal range (y ≈ 1.3e154)
// and underflows to 0 only where the true value does. P and Q share the
// interval and u, and their Estrin trees run side by side.
func millsTail(y float64) (g1, oneMinusW float64) {
	s := 1 / y
	z := s * s
	k := min(uint(int(z*millsTailPerUnit)), uint(len(millsTailP)-1))
	u := 2*millsTailPerUnit*z - float64(2*int(k)+1)
	return s * millsTailPoly(&millsTailP[k], u), z * millsTailPoly(&millsTailQ[k], u)
}

// millsTailPoly sums a degree-7 row of millsTailP or millsTailQ at u by
// Estrin's scheme (a tree of depth three), adding the constant term c₀ ≈ 1
// last and its rounding error c[8] first, as tablePoly does.
func millsTailPoly(c *[9]float64, u float64) float64 {
	u2 := u * u
	u4 := u2 * u2
	return c[0] + ((c[8] + c[1]*u + (c[2]+c[3]*u)*u2) + (c[4]+c[5]*u+(c[6]+c[7]*u)*u2)*u4)
}

// Truncation holds the corrections that moment-match a unit-variance Gaussian
// N(x; t, 1) restricted to a set (Table 1 of Herbrich, Minka and Graepel 2006):
// the truncated distribution has mean t + V and variance 1 − W. OneMinusW is
// computed directly, never as 1 − W, because it sets the new precision
// (π_new = c/(1 − W)) and the subtraction cancels catastrophically in the
// tails (naive code returns 0 at t = −39, i.e. an infinite precision).
type Truncation struct {
	V, W, OneMinusW float64
}

// GreaterThan returns the corrections for the win factor I(x > ε) at a
// standardised cavity mean t and margin ε (both already divided by the cavity
// standard deviation, as in Table 1's V(d/√c, ε√c)):
//
//	V(t, ε) = φ(t−ε)/Φ(t−ε),   W(t, ε) = V·(V + t − ε).
//
// For t − ε < −5 it uses millsTail with y = ε − t: V = y + g₁ with the
// continued-fraction tail g₁ = V − y, and 1 − W = 1 − V·g₁ = Q(1/y²)/y² from
// a table fitted to that quantity, which has no cancellation and keeps
// 1 − W relatively exact (within 3 ulp) down to t = −1e4 and beyond
// (1 − W ~ 1/y² as y → ∞); W is 1 − (1 − W), within 0.6 ulp. The limits
// are V = +∞, W = 1, 1 − W = 0 at t − ε = −∞ and V = 0, W = 0, 1 − W = 1 at
// t − ε = +∞ (no truncation); a NaN t − ε (including ∞ − ∞) gives NaN.
func GreaterThan(t, eps float64) Truncation {
	x := t - eps
	if x < millsLo {
		y := -x
		if math.IsInf(y, 1) {
			return Truncation{V: math.Inf(1), W: 1, OneMinusW: 0}
		}
		g1, omw := millsTail(y)
		return Truncation{V: y + g1, W: 1 - omw, OneMinusW: omw}
	}
	if math.IsInf(x, 1) {
		return Truncation{V: 0, W: 0, OneMinusW: 1}
	}
	v := InvMillsRatio(x)
	w := v * (v + x)
	return Truncation{V: v, W: w, OneMinusW: 1 - w}
}

// Within returns the corrections for the draw factor I(|x| ≤ ε) at a
// standardised cavity mean t and margin ε ≥ 0:
//
//	V(t, ε) = (φ(−ε−t) − φ(ε−t)) / (Φ(ε−t) − Φ(−ε−t)),
//	W(t, ε) = V² + ((ε−t)·φ(ε−t) + (ε+t)·φ(ε+t)) / (Φ(ε−t) − Φ(−ε−t)).
//
// (The paper's text labels these V_{I(|·|>ε)}; the factor they belong to is
// I(|·| ≤ ε), as its Table 1 row says.) The formulas are used as printed only
// where they are well conditioned; elsewhere the same moments are obtained
// without cancellation (see withinMoments). Limits: ε = +∞ with a finite t
// truncates nothing (V = 0, W = 0, 1 − W = 1); t = ±∞ with a finite ε > 0
// gives V = ∓∞, W = 1, 1 − W = 0; NaN inputs, and t = ±∞ with ε = +∞, give
// NaN.
func Within(t, eps float64) Truncation {
	tr, _ := withinMoments(t, eps, false)
	return tr
}

// LogWithinMass returns log(Φ(ε−t) − Φ(−ε−t)), the log probability that a
// unit Gaussian with mean t falls in [−ε, ε], accurate where both terms
// underflow (t = 1e4) and where they nearly cancel (ε = 1e-12).
func LogWithinMass(t, eps float64) float64 {
	_, lz := withinMoments(t, eps, true)
	return lz
}

// glRule is a Gauss–Legendre rule on [0, 1].
type glRule struct{ x, w []float64 }

// Gauss–Legendre rules for the draw factor's quadrature regime (withinMoments
// case 3), computed once and only read afterwards: 24 and 48 nodes, chosen by
// how much the exponent of the integrand varies over the interval (up to 12,
// and up to 40, where the interval is cut), which keeps every value of the
// golden table within 1e-9 (the 48-node rule alone would double a draw's cost).
// That exponent varies by 2p > 4 there (p = tε > seriesMaxP, or the cut at
// 40), so a 12-node rule, once used below 2, would no longer be reached.
var glRules = [2]glRule{legendre(24), legendre(48)}

func legendre(n int) glRule {
	r := glRule{make([]float64, n), make([]float64, n)}
	quad.Legendre{}.FixedLocations(r.x, r.w, 0, 1)
	return r
}

// rule returns the rule for an exponent that varies by v over the interval.
func rule(v float64) glRule {
	if v <= 12 {
		return glRules[0]
	}
	return glRules[1]
}

// seriesMaxP bounds p = tε for withinSeries. The sums below need about 26
// terms at p = 2 and ε = 1/2 (the coefficients fall like 2ᵏ/k!), and the
// variance M₂/M₀ − (M₁/M₀)² cancels 1.4 bits there; beyond it the
// Gauss–Legendre rule on u takes over.
const seriesMaxP = 2

// invInt[k] = 1/k, so that the series recurrence multiplies instead of
// dividing (a division would sit on its chain of dependent operations).
var invInt = func() (r [44]float64) {
	for k := 1; k < len(r); k++ {
		r[k] = 1 / float64(k)
	}
	return r
}()

// withinSeries returns the draw corrections for t ≥ 0 (sign restores the
// sign of the caller's t) on a narrow interval, ε ≤ 1/2 and p = tε ≤
// seriesMaxP, without quadrature or exponentials. With x = εs, s ∈ [−1, 1],
// the kept density is ∝ f(s) = exp(ps − qs²), q = ε²/2, an entire function
// whose Taylor coefficients c_k follow from f′ = (p − 2qs)·f:
//
//	c₀ = 1,  c₁ = p,  (k+1)·c_{k+1} = p·c_k − ε²·c_{k−1},
//
// a three-term recurrence that is stable here because both p and ε² are
// small against k + 1. The half-moments M_j = ∫₀¹ s^j f(s) ds (even part for
// j = 0, 2, odd part for j = 1) then integrate term by term in closed form:
//
//	M₀ = Σ c_{2n}/(2n+1),  M₂ = Σ c_{2n}/(2n+3),  M₁ = Σ c_{2n+1}/(2n+3),
//
// and x has mean εM₁/M₀ and variance ε²(M₂/M₀ − (M₁/M₀)²). Every odd
// coefficient is p times a polynomial in p² and ε², so M₁, hence a tiny mean
// (t = 1e-8), keeps its relative accuracy, as the sinh of the quadrature it
// replaces did; and 1 − W = ε²·(…) stays relatively exact down to ε = 1e-12
// (3e-25). The sums stop once two consecutive coefficients are below 1e-17
// relative to their leading terms (1 and p): the recurrence then shrinks
// every later one, so the rest adds less than that. Typical TrueSkill draws
// (ε ≈ 0.05–0.3, p ≤ 1) need 6 to 20 terms, where the 12-node rule spent an
// exp, cosh and sinh per node.
func withinSeries(t, eps, sign float64, wantLogZ bool) (Truncation, float64) {
	const tiny = 1e-17
	p, e2 := t*eps, eps*eps
	ce, co := 1.0, p // c_{2n}, c_{2n+1}
	m0, m1, m2 := 1.0, p*invInt[3], invInt[3]
	for k := 2; k+3 < len(invInt); k += 2 {
		// (p/k)·c − (ε²/k)·c: the products with 1/k are off the chain.
		ce = (p*invInt[k])*co - (e2*invInt[k])*ce
		co = (p*invInt[k+1])*ce - (e2*invInt[k+1])*co
		m0 += ce * invInt[k+1]
		m2 += ce * invInt[k+3]
		m1 += co * invInt[k+3]
		if math.Abs(ce) <= tiny && math.Abs(co) <= tiny*p {
			break
		}
	}
	s1 := m1 / m0
	variance := e2 * (m2/m0 - s1*s1)
	lz := 0.0
	if wantLogZ {
		// Z0 = φ(t)·∫_{−ε}^{ε} e^{tx − x²/2} dx = φ(t)·2ε·M₀.
		lz = Log(2*eps*m0) - 0.5*t*t - logSqrt2Pi // 2ε may be subnormal
	}
	return Truncation{V: sign * (eps*s1 - t), W: 1 - variance, OneMinusW: variance}, lz
}

// withinMoments computes the draw corrections (and, if wantLogZ, the log
// mass). By symmetry V(−t) = −V(t) and W(−t) = W(t), so it works with t ≥ 0,
// where the kept interval is [a, b] = [−ε−t, ε−t] in units of the standardised
// variable Z = x − t, and β = t − ε = −b is how far the near end lies in the
// left tail. Regimes:
//
//  1. far tail (β ≥ 5 and the far end contributes < e⁻⁴⁰): the one-sided win
//     corrections with y = β, mirrored.
//  2. narrow interval (width 2ε ≤ 1) with p = tε ≤ seriesMaxP, TrueSkill's
//     common case: the Taylor series of the density in closed form
//     (withinSeries), no quadrature and no exponential.
//  3. narrow interval with p > seriesMaxP, or near tail (β ≥ 5): the moments
//     of U = b − Z, whose density ∝ exp(−βu − u²/2) on [0, 2ε] is smooth and
//     positive, by 24- or 48-point Gauss–Legendre quadrature cut where the
//     density has fallen by e⁴⁰; the variance is summed as Σw(u−m)²e, so
//     1 − W keeps its relative accuracy however small it is.
//  4. otherwise (wide interval, near end within 5 of the mean): the printed
//     formulas, with Φ(b) − Φ(a) as a sum of erf terms when 0 ∈ (a, b) and
//     φ(a) − φ(b) as φ(b)·expm1(−2εt).
func withinMoments(t, eps float64, wantLogZ bool) (Truncation, float64) {
	if math.IsNaN(t) || math.IsNaN(eps) {
		return Truncation{V: math.NaN(), W: math.NaN(), OneMinusW: math.NaN()}, math.NaN()
	}
	if math.IsInf(eps, 1) {
		if math.IsInf(t, 0) {
			return Truncation{V: math.NaN(), W: math.NaN(), OneMinusW: math.NaN()}, math.NaN()
		}
		// The whole line is kept: the printed formulas would give 0·∞.
		return Truncation{V: 0, W: 0, OneMinusW: 1}, 0
	}
	sign := 1.0
	if t < 0 {
		t, sign = -t, -1
	}
	beta, width := t-eps, 2*eps
	b, a := -beta, -eps-t
	switch {
	case eps <= 0:
		return Truncation{V: -sign * t, W: 1, OneMinusW: 0}, math.Inf(-1)
	case beta >= 5 && beta*width >= 40:
		if math.IsInf(beta, 1) {
			return Truncation{V: -sign * beta, W: 1, OneMinusW: 0}, math.Inf(-1)
		}
		g1, omw := millsTail(beta)
		lz := 0.0
		if wantLogZ {
			lz = LogNormCDF(b) // the far end's share is below e⁻⁴⁰ ≈ 4e-18
		}
		return Truncation{V: -sign * (beta + g1), W: 1 - omw, OneMinusW: omw}, lz
	case width <= 1 && t*eps <= seriesMaxP:
		return withinSeries(t, eps, sign, wantLogZ)
	case width <= 1 || beta >= 5:
		// u ∈ [0, min(2ε, u*)], density ∝ exp(−βu − u²/2), β ≥ 0.
		span := width
		if cut := 80 / (beta + math.Sqrt(beta*beta+80)); cut < span {
			span = cut // βu + u²/2 = 40 at u = cut
		}
		gl := rule(beta*span + 0.5*span*span)
		var z0, s1 float64
		var es [48]float64 // the integrand at the nodes, reused for the variance
		for i, s := range gl.x {
			u := span * s
			es[i] = gl.w[i] * math.Exp(-beta*u-0.5*u*u)
			z0 += es[i]
			s1 += es[i] * u
		}
		m := s1 / z0
		var variance float64
		for i, s := range gl.x {
			d := span*s - m
			variance += es[i] * d * d
		}
		variance /= z0
		lz := 0.0
		if wantLogZ {
			// Z0 = φ(b)·∫_0^{2ε} e^{−βu − u²/2} du.
			lz = math.Log(span*z0) - 0.5*b*b - logSqrt2Pi
		}
		return Truncation{V: -sign * (beta + m), W: 1 - variance, OneMinusW: variance}, lz
	default:
		var z0 float64
		if b > 0 {
			z0 = 0.5 * (math.Erf(b/math.Sqrt2) + math.Erf(-a/math.Sqrt2))
		} else {
			z0 = NormCDF(b) - NormCDF(a)
		}
		pb := NormPDF(b)
		pa := NormPDF(a)
		v := pb * math.Expm1(-2*eps*t) / z0
		w := v*v + (b*pb-a*pa)/z0
		lz := 0.0
		if wantLogZ {
			lz = math.Log(z0)
		}
		return Truncation{V: sign * v, W: w, OneMinusW: 1 - w}, lz
	}
}
