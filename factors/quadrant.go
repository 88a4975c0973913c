package factors

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/integrate/quad"

	"github.com/skillgraph/skillgraph/messages"
)

// The tilted distributions of WithinMargin and BetweenMargins keep the
// Gaussian of their edges' cavities on a quadrant {a ≥ 0, b ≥ 0} of two
// linear combinations a = Σ ℓₐᵢyᵢ, b = Σ ℓ_bᵢyᵢ. Where that quadrant holds a
// fair share of the cavities' mass, its moments have a closed form in the
// bivariate normal probability Φ₂ (Tallis 1961, as derivatives of log Z):
// with (a, b) ~ N((μₐ, μ_b), [[vₐ, c], [c, v_b]]), α = μₐ/σₐ, β = μ_b/σ_b,
// ρ = c/(σₐσ_b) and s = √(1 − ρ²),
//
//	Z = Φ₂(α, β; ρ)
//	∂log Z/∂μₐ = A/σₐ,  A = φ(α)·Φ((β − ρα)/s)/Z
//	∂log Z/∂μ_b = B/σ_b, B = φ(β)·Φ((α − ρβ)/s)/Z
//	∂²log Z/∂μₐ² = (−αA − ρQ − A²)/σₐ²,  ∂²log Z/∂μ_b² = (−βB − ρQ − B²)/σ_b²
//	∂²log Z/∂μₐ∂μ_b = (Q − AB)/(σₐσ_b),   Q = φ₂(α, β; ρ)/Z
//
// (the first derivative of Z in μₐ is the density of a at 0 times the
// probability that b ≥ 0 given a = 0; the mixed second derivative is the
// density of (a, b) at the origin, φ₂). For an edge yᵢ with cavity
// N(μᵢ, vᵢ) the chain rule gives gᵢ = ℓₐᵢA/σₐ + ℓ_bᵢB/σ_b and
//
//	Hᵢ = −ℓₐᵢ²αA/σₐ² − ℓ_bᵢ²βB/σ_b² − gᵢ² − Q·Kᵢ,
//	Kᵢ = ρ·(ℓₐᵢ²/σₐ² + ℓ_bᵢ²/σ_b²) − 2ℓₐᵢℓ_bᵢ/(σₐσ_b),
//
// and the tilted mean and variance are μᵢ + vᵢgᵢ and vᵢ·(1 + vᵢHᵢ)
// (Minka 2001, equations 3.18-3.19). Kᵢ is passed by the factor in a form
// that does not cancel (it is a difference of nearly equal terms when ρ is
// near −1). The closed form is used only where it is accurate: Z is
// computed to about 1e-16 absolute (Genz 2004), so Z ≥ quadrantMinZ keeps
// A, B and Q to 1e-13, and 1 + vᵢHᵢ ≥ quadrantMinShrink bounds the
// cancellation in each variance; elsewhere (the tails) the factors
// integrate (tiltedLine).
const (
	quadrantMinZ      = 1e-3
	quadrantMinShrink = 1e-3
)

// quadrantEdge is one edge's coefficients in a and b and its K (above).
type quadrantEdge struct {
	la, lb, k float64
	cavity    messages.Gaussian
}

// quadrantMoments returns log Z and the tilted means and variances of the
// edges, and false where the closed form is not accurate enough.
func quadrantMoments(mua, mub, va, vb, c float64, edges []quadrantEdge) (logZ float64, mean, variance []float64, ok bool) {
	sa, sb := math.Sqrt(va), math.Sqrt(vb)
	rho := c / (sa * sb)
	if !(math.Abs(rho) < 1) {
		return 0, nil, nil, false
	}
	alpha, beta := mua/sa, mub/sb
	z, A, B, Q, ok := quadrantTerms(alpha, beta, rho)
	if !ok {
		return 0, nil, nil, false
	}
	mean, variance = make([]float64, len(edges)), make([]float64, len(edges))
	for i, e := range edges {
		mu, v := e.cavity.Mean(), e.cavity.Variance()
		g := e.la*A/sa + e.lb*B/sb
		h := -e.la*e.la*alpha*A/va - e.lb*e.lb*beta*B/vb - g*g - Q*e.k
		shrink := 1 + v*h
		if !(shrink >= quadrantMinShrink) || shrink > 1+1e-12 {
			return 0, nil, nil, false
		}
		mean[i], variance[i] = mu+v*g, v*math.Min(shrink, 1)
	}
	return math.Log(z), mean, variance, true
}

// quadrantTerms returns Z = Φ₂(α, β; ρ) and the A, B and Q above, and
// false where Z < quadrantMinZ (their closed form is then not accurate).
func quadrantTerms(alpha, beta, rho float64) (z, A, B, Q float64, ok bool) {
	z = bvnUpper(-alpha, -beta, rho)
	if !(z >= quadrantMinZ) {
		return 0, 0, 0, 0, false
	}
	s := math.Sqrt((1 - rho) * (1 + rho))
	A = messages.NormPDF(alpha) * messages.NormCDF((beta-rho*alpha)/s) / z
	B = messages.NormPDF(beta) * messages.NormCDF((alpha-rho*beta)/s) / z
	Q = messages.NormPDF(alpha) * messages.NormPDF((beta-rho*alpha)/s) / (s * z)
	return z, A, B, Q, true
}

// bvnRules are the Gauss–Legendre rules on [0, 2] of 6, 12 and 20 points
// that Genz's algorithm uses for |ρ| < 0.3, < 0.75 and above; computed
// once and only read afterwards.
var bvnRules = func() (r [3]struct{ x, w []float64 }) {
	for i, n := range []int{6, 12, 20} {
		r[i].x, r[i].w = make([]float64, n), make([]float64, n)
		quad.Legendre{}.FixedLocations(r[i].x, r[i].w, 0, 2)
	}
	return r
}()

// bvnUpper returns P(X > h, Y > k) for standard normals of correlation r,
// |r| < 1, by the method of Drezner and Wesolowsky (1990) as refined by
// Genz (2004, "Numerical computation of rectangular bivariate and
// trivariate normal and t probabilities", section 2.1): for |r| < 0.925,
//
//	P = Φ(−h)Φ(−k) + (1/2π)·∫₀^{asin r} exp(−(h² + k² − 2hk·sin θ)/(2cos²θ)) dθ
//
// (Plackett's identity ∂P/∂r = φ₂(h, k; r), integrated from r = 0 with
// r = sin θ), by Gauss–Legendre quadrature; for |r| ≥ 0.925, where that
// integrand is sharp, the integral from the other end, r = ±1, with the
// singular part of the integrand (in x = √(1 − r²)) subtracted in closed
// form and the rest integrated (Genz's equation 3 and its expansion).
// Its absolute error is about 1e-16.
func bvnUpper(h, k, r float64) float64 {
	rule := &bvnRules[2]
	switch {
	case math.Abs(r) < 0.3:
		rule = &bvnRules[0]
	case math.Abs(r) < 0.75:
		rule = &bvnRules[1]
	}
	hk := h * k
	if math.Abs(r) < 0.925 {
		hs := 0.5 * (h*h + k*k)
		asr := 0.5 * math.Asin(r)
		var sum float64
		for i, x := range rule.x {
			sn := math.Sin(asr * x)
			sum += rule.w[i] * math.Exp((sn*hk-hs)/(1-sn*sn))
		}
		return sum*asr/(2*math.Pi) + messages.NormCDF(-h)*messages.NormCDF(-k)
	}
	if r < 0 {
		k, hk = -k, -hk
	}
	as := (1 - r) * (1 + r)
	a := math.Sqrt(as)
	bs := (h - k) * (h - k)
	c := (4 - hk) / 8
	d := (12 - hk) / 80
	var bvn float64
	if asr := -0.5 * (bs/as + hk); asr > -100 {
		bvn = a * math.Exp(asr) * (1 - c*(bs-as)*(1-d*bs)/3 + c*d*as*as)
	}
	if hk > -100 {
		b := math.Sqrt(bs)
		sp := math.Sqrt(2*math.Pi) * messages.NormCDF(-b/a)
		bvn -= math.Exp(-0.5*hk) * sp * b * (1 - c*bs*(1-d*bs)/3)
	}
	a /= 2
	var sum float64
	for i, x := range rule.x {
		xs := (a * x) * (a * x)
		asr := -0.5 * (bs/xs + hk)
		if asr <= -100 {
			continue
		}
		sp := 1 + c*xs*(1+5*d*xs)
		rs := math.Sqrt(1 - xs)
		ep := math.Exp(-0.5*hk*xs/((1+rs)*(1+rs))) / rs
		sum += rule.w[i] * math.Exp(asr) * (sp - ep)
	}
	bvn = (a*sum - bvn) / (2 * math.Pi)
	switch {
	case r > 0:
		return bvn + messages.NormCDF(-math.Max(h, k))
	case h >= k:
		return -bvn
	case h < 0:
		return messages.NormCDF(k) - messages.NormCDF(h) - bvn
	default:
		return messages.NormCDF(-h) - messages.NormCDF(-k) - bvn
	}
}

// Joint tilted moments. A factor f(y) of k edges that reads y only
// through linear combinations dⱼ = aⱼᵀy (a half-space aᵀy > 0, or the
// wedge a₁ᵀy ≥ 0, a₂ᵀy ≥ 0) has, under a joint Gaussian cavity
// N(y; μ, Σ), the tilted distribution f(y)·N(y; μ, Σ)/Z, and with
// S = AᵀΣA (A = [a₁ a₂]) and G = ΣA its moments follow from those of the
// projection d = Aᵀy alone: y given d is Gaussian with mean
// μ + G·S⁻¹(d − Aᵀμ) and a covariance that does not depend on d, so
//
//	E[y]   = μ + G·S⁻¹(E[d] − Aᵀμ),
//	Cov[y] = Σ − G·S⁻¹(S − Cov[d])·S⁻¹·Gᵀ,
//
// and in terms of the derivatives g = ∇ log Z and H = ∇² log Z in the
// projection's mean (E[d] = Aᵀμ + S·g, Cov[d] = S + S·H·S; Minka 2001,
// equations 3.18-3.19),
//
//	E[y] = μ + G·g,   Cov[y] = Σ + G·H·Gᵀ.

// jointCavity checks a joint cavity of k edges: k finite means and a
// symmetric k×k covariance, row-major, of finite entries, a non-negative
// diagonal and correlations within [−1, 1].
func jointCavity(k int, mean, cov []float64) error {
	if len(mean) != k || len(cov) != k*k {
		return fmt.Errorf("%w: a joint cavity of %d means and %d covariances for %d edges", messages.ErrInput, len(mean), len(cov), k)
	}
	for i := range k {
		cii := cov[i*k+i]
		if !messages.IsFinite(mean[i]) || !(cii >= 0) || !messages.IsFinite(cii) {
			return fmt.Errorf("%w: joint cavity of edge %d: mean %v, variance %v", messages.ErrInput, i, mean[i], cii)
		}
		for j := range i {
			c, d := cov[i*k+j], cov[j*k+i]
			if !messages.IsFinite(c) || math.Abs(c-d) > 1e-12*math.Sqrt(cii*cov[j*k+j]) || c*c > cii*cov[j*k+j]*(1+1e-12) {
				return fmt.Errorf("%w: joint cavity covariance of edges %d and %d (%v, %v) with variances %v, %v: not symmetric positive semi-definite",
					messages.ErrInput, i, j, c, d, cii, cov[j*k+j])
			}
		}
	}
	return nil
}

// project returns G = Σa and aᵀμ, aᵀΣa.
func project(mean, cov, a []float64) (g []float64, m, v float64) {
	k := len(mean)
	g = make([]float64, k)
	for i := range k {
		for j, aj := range a {
			g[i] += cov[i*k+j] * aj
		}
		m += a[i] * mean[i]
		v += a[i] * g[i]
	}
	return g, m, v
}

// checkedJoint passes on tilted moments that are finite: a log Z of −∞
// (the cavity puts no mass on the factor's region in float64) is
// messages.ErrImpossible, anything else not finite messages.ErrNumerical. log Z, a
// probability's, is at most 0: quadrature's rounding above it is
// dropped.
func checkedJoint(logZ float64, mean, cov []float64) (float64, []float64, []float64, error) {
	logZ = math.Min(logZ, 0)
	if math.IsInf(logZ, -1) {
		return 0, nil, nil, fmt.Errorf("%w: log Z −∞ under the joint cavity", messages.ErrImpossible)
	}
	ok := messages.IsFinite(logZ)
	for _, x := range mean {
		ok = ok && messages.IsFinite(x)
	}
	for _, x := range cov {
		ok = ok && messages.IsFinite(x)
	}
	if !ok {
		return 0, nil, nil, fmt.Errorf("%w: tilted moments log Z %v, mean %v, covariance %v", messages.ErrNumerical, logZ, mean, cov)
	}
	return logZ, mean, cov, nil
}

// halfSpace returns log Z and the tilted mean and covariance of N(μ, Σ)
// truncated to aᵀy > 0 (or ≥ 0): d = aᵀy is N(m, v) truncated at 0, Table 1's win
// factor with t = m/√v, V = V(t, 0) and W = W(t, 0) (messages.GreaterThan),
// so Z = Φ(t) (messages.LogNormCDF), g = V/√v and H = −W/v, and
//
//	E[y] = μ + Σa·V/√v,   Cov[y] = Σ − Σa·aᵀΣ·W/v = R + Σa·aᵀΣ·(1 − W)/v,
//
// the second form, with R = Cov(y | d) (projectionQR) and 1 − W as
// messages computes it, for the accuracy of a variance that the
// truncation shrinks by many orders of magnitude.
//
// The half-space is open (aᵀy > 0, d in the halfLine (0, ∞)) or closed
// (aᵀy ≥ 0, [0, ∞)) as the factor's inequality is strict or not; it
// matters only to a cavity that fixes d (v = 0), which is left as it is
// if the halfLine admits d (the rule of truncation.go), and is
// messages.ErrImpossible otherwise.
func halfSpace(mean, cov, a []float64, open bool) (float64, []float64, []float64, error) {
	k := len(mean)
	g, m, v := project(mean, cov, a)
	mean, cov = slices.Clone(mean), slices.Clone(cov)
	h := halfLine{open: open}
	switch {
	case !(v >= 0):
		return 0, nil, nil, fmt.Errorf("%w: joint cavity gives aᵀy variance %v", messages.ErrInput, v)
	case v == 0 && h.admits(m):
		return 0, mean, cov, nil
	case v == 0:
		return 0, nil, nil, fmt.Errorf("%w: the joint cavity fixes aᵀy at %v, outside %v", messages.ErrImpossible, m, h)
	}
	sd := math.Sqrt(v)
	t := m / sd
	tr := messages.GreaterThan(t, 0)
	cov = newProjectionQR(covFactor(cov, k), a).residual()
	for i := range k {
		mean[i] += g[i] * tr.V / sd
		for j := range k {
			cov[i*k+j] += g[i] * g[j] * tr.OneMinusW / v
		}
	}
	return checkedJoint(messages.LogNormCDF(t), mean, cov)
}

// wedgeMaxRho bounds the correlation of the two combinations for which
// wedge takes the closed form: H's entries grow as 1/(1 − ρ²), and with
// |ρ| ≤ 0.99 the lift Σ + G·H·Gᵀ loses at most a few hundred ulps.
const wedgeMaxRho = 0.99

// wedge returns log Z and the tilted mean and covariance of N(μ, Σ)
// truncated to a₁ᵀy ≥ 0 and a₂ᵀy ≥ 0. The projection d = (a₁ᵀy, a₂ᵀy) is
// N((m₁, m₂), S); where the closed form is accurate (Z ≥ quadrantMinZ,
// |ρ| ≤ wedgeMaxRho and every variance shrunk by no more than
// quadrantMinShrink) g and H are Tallis's (1961; see quadrantMoments:
// g = (A/σ₁, B/σ₂), H₁₁ = (−αA − ρQ − A²)/σ₁², H₂₂ = (−βB − ρQ − B²)/σ₂²,
// H₁₂ = (Q − AB)/(σ₁σ₂)), lifted as above. Elsewhere (the tails, and
// combinations nearly collinear) wedgeLine integrates, with the residual
// variance σ_c² = S₂₂ − S₁₂²/S₁₁ from projectionQR. A combination the
// cavity fixes reduces the wedge to the other half-space if it is ≥ 0
// (the closed rule of truncation.go, a point on the boundary admitted),
// and rules it out otherwise; two that the cavity makes collinear (σ_c = 0) are messages.ErrInput.
func wedge(mean, cov, a1, a2 []float64) (float64, []float64, []float64, error) {
	k := len(mean)
	g1, m1, s11 := project(mean, cov, a1)
	g2, m2, s22 := project(mean, cov, a2)
	s12 := 0.0
	for i := range k {
		s12 += a1[i] * g2[i]
	}
	switch {
	case !(s11 >= 0 && s22 >= 0):
		return 0, nil, nil, fmt.Errorf("%w: joint cavity gives the combinations variances %v, %v", messages.ErrInput, s11, s22)
	case s11 == 0 && (halfLine{}).admits(m1):
		return halfSpace(mean, cov, a2, false)
	case s22 == 0 && (halfLine{}).admits(m2):
		return halfSpace(mean, cov, a1, false)
	case s11 == 0 || s22 == 0:
		return 0, nil, nil, fmt.Errorf("%w: the joint cavity fixes a combination at %v, outside the region", messages.ErrImpossible, min(m1, m2))
	}
	sd1, sd2 := math.Sqrt(s11), math.Sqrt(s22)
	rho := s12 / (sd1 * sd2)
	f := newProjectionQR(covFactor(cov, k), a1, a2)
	sc := math.Abs(f.r[1][1])
	if !(sc > 0) {
		return 0, nil, nil, fmt.Errorf("%w: the joint cavity makes the region's two combinations collinear (ρ = %v)", messages.ErrInput, rho)
	}
	if math.Abs(rho) <= wedgeMaxRho {
		alpha, beta := m1/sd1, m2/sd2
		if z, A, B, Q, ok := quadrantTerms(alpha, beta, rho); ok {
			gd1, gd2 := A/sd1, B/sd2
			h11 := (-alpha*A - rho*Q - A*A) / s11
			h22 := (-beta*B - rho*Q - B*B) / s22
			h12 := (Q - A*B) / (sd1 * sd2)
			pm, pc := slices.Clone(mean), slices.Clone(cov)
			ok := true
			for i := range k {
				pm[i] += g1[i]*gd1 + g2[i]*gd2
				for j := range k {
					pc[i*k+j] += h11*g1[i]*g1[j] + h22*g2[i]*g2[j] + h12*(g1[i]*g2[j]+g2[i]*g1[j])
				}
				vi := cov[i*k+i]
				ok = ok && pc[i*k+i] >= quadrantMinShrink*vi && pc[i*k+i] <= vi*(1+1e-12)
			}
			if ok {
				return checkedJoint(math.Log(z), pm, pc)
			}
		}
	}
	return wedgeLine(mean, f, m1, m2)
}

// The regression of y on its projection d = Aᵀy (one or two columns a)
// is carried out on Σ's Cholesky factor, Σ = LLᵀ, where it keeps its
// accuracy when y is nearly determined by d or the columns are nearly
// collinear under Σ: with the QR factorisation LᵀA = QR by Householder
// reflections (Golub & Van Loan, Matrix Computations, 4th ed., §5.1.2
// and §5.2.1), backward stable, Q's first columns q₁, q₂ span the
// projection and the others, qⱼ, its complement, so that
//
//	Σa₁ = r₁₁·Lq₁,  S₁₁ = r₁₁²,  β = S₁₂/S₁₁ = r₁₂/r₁₁,
//	σ_c² = S₂₂ − S₁₂²/S₁₁ = r₂₂²,  Cov(y, d₂ − βd₁) = r₂₂·Lq₂,
//	Cov(y | d) = Σ − ΣA·S⁻¹·AᵀΣ = Σⱼ (Lqⱼ)(Lqⱼ)ᵀ:
//
// sums of squares and products of computed columns, where the forms on
// the left cancel.

// projectionQR is the QR factorisation of LᵀA (above).
type projectionQR struct {
	l []float64   // L, k×k
	v [][]float64 // the Householder vectors, one a column of A
	r [2][2]float64
}

// newProjectionQR factorises LᵀA for the columns as (one or two).
func newProjectionQR(l []float64, as ...[]float64) *projectionQR {
	k := len(as[0])
	f := &projectionQR{l: l}
	for c, a := range as {
		x := make([]float64, k) // (LᵀA)'s column c, then its reflections
		for i := range k {
			for r := i; r < k; r++ {
				x[i] += l[r*k+i] * a[r]
			}
		}
		for _, v := range f.v {
			reflect(v, x)
		}
		norm := 0.0
		for _, xi := range x[c:] {
			norm += xi * xi
		}
		norm = math.Sqrt(norm)
		for i := range c {
			f.r[i][c] = x[i]
		}
		f.r[c][c] = -math.Copysign(norm, x[c])
		v := make([]float64, k)
		copy(v[c:], x[c:])
		v[c] += math.Copysign(norm, x[c])
		f.v = append(f.v, v)
	}
	return f
}

// reflect applies the reflection I − 2vvᵀ/vᵀv to x (none for v = 0).
func reflect(v, x []float64) {
	vv, vx := 0.0, 0.0
	for i := range v {
		vv += v[i] * v[i]
		vx += v[i] * x[i]
	}
	if vv == 0 {
		return
	}
	for i := range v {
		x[i] -= 2 * vx / vv * v[i]
	}
}

// lq returns L·qⱼ, qⱼ = H₁…e_j the j-th column of Q.
func (f *projectionQR) lq(j int) []float64 {
	k := len(f.v[0])
	q := make([]float64, k)
	q[j] = 1
	for i := len(f.v) - 1; i >= 0; i-- {
		reflect(f.v[i], q)
	}
	y := make([]float64, k)
	for i := range k {
		for p := range i + 1 {
			y[i] += f.l[i*k+p] * q[p]
		}
	}
	return y
}

// residual returns Cov(y | Aᵀy) = Σⱼ (Lqⱼ)(Lqⱼ)ᵀ over the columns of Q
// past A's, k×k row-major.
func (f *projectionQR) residual() []float64 {
	k := len(f.v[0])
	r := make([]float64, k*k)
	for j := len(f.v); j < k; j++ {
		y := f.lq(j)
		for i := range k {
			for t := range k {
				r[i*k+t] += y[i] * y[t]
			}
		}
	}
	return r
}

// wedgeLine is wedge by one integral, for the tails: with d₁ = z and
// e = d₂ − E[d₂ | d₁] = d₂ − m₂ − β(z − m₁), independent of z, of
// variance σ_c² (projectionQR), the region is z ≥ 0 and e ≥ −c(z),
// c(z) = m₂ + β(z − m₁): given z, e is a one-sided truncation
// (greaterGiven), and tiltedLine integrates over z.
// y = μ + b(z − m₁) + w·e/σ_c + r with b = Σa₁/S₁₁ = Lq₁/r₁₁,
// w = Cov(y, e)/σ_c = ±Lq₂ (no larger than y's σ) and r independent of
// (z, e), of covariance Cov(y | d), so
//
//	E[y]   = μ + b·(E[z] − m₁) + w·E[e]/σ_c,
//	Cov[y] = Cov(y | d) + [b w]·M·[b w]ᵀ,
//	M      = [[Var z, Cov(z, e)/σ_c], [Cov(z, e)/σ_c, Var e/σ_c²]],
//
// every term bounded as σ_c → 0, where e's truncation sharpens into a
// bound on z, and none subtracted from Σ, so that a tilted variance far
// below the cavity's keeps its relative accuracy.
func wedgeLine(mean []float64, f *projectionQR, m1, m2 float64) (float64, []float64, []float64, error) {
	k := len(mean)
	r11, r12, r22 := f.r[0][0], f.r[0][1], f.r[1][1]
	s11, beta, sc := r11*r11, r12/r11, math.Abs(r22)
	seg := lineSegment{lo: 0, hi: math.Inf(1), at: func(z float64, out []condMoments) (l, d1, d2 float64) {
		// e > −c(z): the derivative in z is −β times that in the bound.
		l, d1, d2, out[0] = greaterGiven(0, sc, -(m2 + beta*(z-m1)))
		return l, -beta * d1, beta * beta * d2
	}}
	var feats []lineFeature
	if beta != 0 {
		feats = append(feats, lineFeature{at: m1 - m2/beta, scale: sc / math.Abs(beta)})
	}
	r, err := tiltedLine(m1, s11, 1, []lineSegment{seg}, feats)
	if err != nil {
		return 0, nil, nil, err
	}
	pm, pc := slices.Clone(mean), f.residual()
	b, w := f.lq(0), f.lq(1)
	for i := range k {
		b[i] /= r11
		if r22 < 0 {
			w[i] = -w[i]
		}
		pm[i] += b[i]*(r.mean[0]-m1) + w[i]*r.mean[1]/sc
	}
	vz, ve, cze := r.variance[0], r.variance[1]/(sc*sc), r.cross[0]/sc
	for i := range k {
		for j := range k {
			pc[i*k+j] += b[i]*b[j]*vz + w[i]*w[j]*ve + (b[i]*w[j]+w[i]*b[j])*cze
		}
	}
	return checkedJoint(r.logZ, pm, pc)
}

// covFactor is Σ's Cholesky factor (messages.CholeskyLower), with a zero
// column for each pivot a singular Σ leaves non-positive.
func covFactor(cov []float64, k int) []float64 {
	l, _ := messages.CholeskyLower(cov, k)
	return l
}
