package factors

import (
	"math"

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
	z := bvnUpper(-alpha, -beta, rho)
	if !(z >= quadrantMinZ) {
		return 0, nil, nil, false
	}
	s := math.Sqrt((1 - rho) * (1 + rho))
	A := messages.NormPDF(alpha) * messages.NormCDF((beta-rho*alpha)/s) / z
	B := messages.NormPDF(beta) * messages.NormCDF((alpha-rho*beta)/s) / z
	Q := messages.NormPDF(alpha) * messages.NormPDF((beta-rho*alpha)/s) / (s * z)
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
