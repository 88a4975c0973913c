package messages

import (
	"fmt"
	"math"
)

// Gaussian is a univariate Gaussian message or belief in natural (canonical)
// parameters, as in Table 1 of the TrueSkill paper: Pi = 1/σ² is the
// precision and Tau = μ/σ² the precision-adjusted mean. Products and
// quotients of Gaussians are then sums and differences of parameters.
//
// Three special values are first class:
//   - the zero value (Pi = Tau = 0) is the uniform (flat) message, the
//     identity of Mul;
//   - Pi = +Inf is a point mass; its location is kept in Tau (not π·μ), so an
//     observed value survives products exactly;
//   - Pi < 0 is an improper message. Expectation propagation can produce
//     them as messages; they are never valid as marginals or cavities.
//
// Gaussian is a small value type; its methods never modify the receiver and
// are safe for concurrent use.
type Gaussian struct {
	Pi  float64 // precision 1/σ²
	Tau float64 // precision-adjusted mean μ/σ² (the location, for a point mass)
}

// NewGaussian returns N(mean, variance). A variance of 0, or one so small
// (below about 5.6e-309) that its precision 1/variance overflows, gives the
// point mass at mean, and +Inf the uniform message.
func NewGaussian(mean, variance float64) Gaussian {
	switch {
	case variance == 0:
		return PointMass(mean)
	case math.IsInf(variance, 1):
		return Gaussian{}
	}
	pi := 1 / variance
	if math.IsInf(pi, 1) {
		// τ = mean/variance would then be read as the point mass's
		// location, far from mean.
		return PointMass(mean)
	}
	return Gaussian{Pi: pi, Tau: mean / variance}
}

// Uniform returns the flat message (the zero value).
func Uniform() Gaussian { return Gaussian{} }

// PointMass returns the point mass at x.
func PointMass(x float64) Gaussian { return Gaussian{Pi: math.Inf(1), Tau: x} }

// IsUniform reports whether g is the flat message.
func (g Gaussian) IsUniform() bool { return g.Pi == 0 && g.Tau == 0 }

// IsPointMass reports whether g is a point mass.
func (g Gaussian) IsPointMass() bool { return math.IsInf(g.Pi, 1) }

// IsProper reports whether g is a normalisable distribution (a proper
// Gaussian or a point mass) with finite parameters.
func (g Gaussian) IsProper() bool {
	if g.IsPointMass() {
		return !math.IsNaN(g.Tau) && !math.IsInf(g.Tau, 0)
	}
	return g.Pi > 0 && !math.IsInf(g.Tau, 0) && !math.IsNaN(g.Tau)
}

// IsMessage reports whether g can be sent as a message: τ finite, and π
// finite or +∞ (a point mass at τ). It is the one test of a message's
// finiteness: the graph refuses any other (graph.Graph.Send), and every
// factor of package factors returns an error instead of one.
func (g Gaussian) IsMessage() bool {
	// IsFinite(τ) written out, and π neither NaN nor −∞, so that the
	// operators that return through it stay small enough to inline.
	return g.Tau-g.Tau == 0 && g.Pi >= -math.MaxFloat64
}

// IsFinite reports whether both parameters are finite numbers (a point mass
// is not finite in this sense).
func (g Gaussian) IsFinite() bool { return IsFinite(g.Pi) && IsFinite(g.Tau) }

// IsFinite reports whether x is a finite number, neither NaN nor ±Inf: the
// one finiteness test of skillgraph. x − x is 0 for every finite x and NaN
// otherwise, one subtraction and one comparison; a sum of terms passes it
// only if every term is finite (and the sum does not overflow), which
// checks many numbers with one test.
func IsFinite(x float64) bool { return x-x == 0 }

// IsPositiveFinite reports 0 < x ≤ math.MaxFloat64 in one comparison: the
// bits of exactly those float64s, less one, are below those of the
// largest (a zero wraps around; negative numbers, +∞ and NaN have larger
// bits). It is the test of a proper, finite precision on the hot paths.
func IsPositiveFinite(x float64) bool {
	return math.Float64bits(x)-1 < math.Float64bits(math.MaxFloat64)
}

// IsNormalVariance reports whether v is a positive, normal, finite
// float64: at least 2⁻¹⁰²², below which a variance has lost precision to
// underflow (and its precision 1/v overflows), and at most MaxFloat64.
// It is the range in which a variance can be carried by a Gaussian message.
func IsNormalVariance(v float64) bool { return v >= 0x1p-1022 && v <= math.MaxFloat64 }

// Mean returns μ = τ/π (one division, the most accurate form); the location of
// a point mass; 0 for the uniform message.
func (g Gaussian) Mean() float64 {
	switch {
	case g.IsPointMass():
		return g.Tau
	case g.Pi == 0:
		return 0
	}
	return g.Tau / g.Pi
}

// Variance returns σ² = 1/π: 0 for a point mass, +Inf for the uniform
// message, negative for an improper one.
func (g Gaussian) Variance() float64 {
	if g.IsPointMass() {
		return 0
	}
	return 1 / g.Pi
}

// Sigma returns the standard deviation √(1/π) (NaN for improper messages).
func (g Gaussian) Sigma() float64 { return math.Sqrt(g.Variance()) }

// Mul returns the product g·h: (π_g + π_h, τ_g + τ_h). A point mass absorbs
// any other factor; the product of two point masses at different locations is
// not a distribution and Mul returns g. If the precisions overflow, the result
// is the point mass at the precision-weighted mean.
func (g Gaussian) Mul(h Gaussian) Gaussian {
	switch {
	case g.IsPointMass():
		return g
	case h.IsPointMass():
		return h
	}
	p := Gaussian{Pi: g.Pi + h.Pi, Tau: g.Tau + h.Tau}
	if math.IsInf(p.Pi, 1) {
		wg := 1 / (1 + h.Pi/g.Pi)
		return PointMass(g.Mean()*wg + h.Mean()*(1-wg))
	}
	return p
}

// Div returns the quotient g/h: (π_g − π_h, τ_g − τ_h), the cavity of a
// marginal g with respect to a message h (equation 6). The result may be
// improper. A point mass divided by anything but itself stays a point mass;
// a point mass divided by itself is uniform (the other messages carry no
// information beyond the observation).
func (g Gaussian) Div(h Gaussian) Gaussian {
	switch {
	case g.IsPointMass() && h.IsPointMass():
		return Gaussian{}
	case g.IsPointMass():
		return g
	case h.IsPointMass():
		// Only a point-mass marginal can contain a point-mass message; callers
		// that reach here have an inconsistent marginal. Return uniform rather
		// than NaN parameters.
		return Gaussian{}
	}
	return Gaussian{Pi: g.Pi - h.Pi, Tau: g.Tau - h.Tau}
}

// Shift returns the distribution of x + d for x distributed as g: the mean
// moves by d (τ gains π·d) and the precision is unchanged.
func (g Gaussian) Shift(d float64) Gaussian {
	if g.IsPointMass() {
		return PointMass(g.Tau + d)
	}
	return Gaussian{Pi: g.Pi, Tau: g.Tau + g.Pi*d}
}

// Distance returns the scale-free change between two beliefs used as the
// default convergence metric:
//
//	max(|μ_a − μ_b|·√min(π_a, π_b), |π_a − π_b| / min(π_a, π_b))
//
// the mean shift measured in the narrower of the two standard deviations (the
// stricter choice) and the relative change of precision (≈ |log(σ_a²/σ_b²)| for small changes). Both terms are unchanged
// by any affine change of scale x → k·x + c, so one tolerance means the same
// thing at μ₀ = 25 and at μ₀ = 1500. Equal arguments give 0; a uniform or
// point-mass argument against a different one gives +Inf. For improper
// arguments the relative change of the natural parameters is used.
func Distance(a, b Gaussian) float64 {
	if a == b {
		return 0
	}
	if lo, hi := ordered(a.Pi, b.Pi); inDistanceRange(lo, hi, a.Tau, b.Tau) {
		// A loop measures every update with this, so the common case takes
		// one division where the plain form takes three: over the common
		// denominator D = π_max·π_min·√π_min, the mean shift is
		// |μ_a − μ_b|·√π_min = |τ_a·π_b − τ_b·π_a|·π_min/D and the precision
		// change |π_a − π_b|/π_min = (π_max − π_min)·π_max·√π_min/D. The
		// bounds on π and τ keep every intermediate below 1e201.
		s := math.Sqrt(lo)
		r := 1 / (hi * lo * s)
		dm := math.Abs(a.Tau*b.Pi-b.Tau*a.Pi) * lo * r
		dp := (hi - lo) * hi * s * r
		if dm > dp {
			return dm
		}
		return dp
	}
	if a.IsPointMass() || b.IsPointMass() || a.Pi == 0 || b.Pi == 0 {
		return math.Inf(1)
	}
	if a.Pi < 0 || b.Pi < 0 {
		return math.Max(relDiff(a.Pi, b.Pi), relDiff(a.Tau, b.Tau))
	}
	pmin := math.Min(a.Pi, b.Pi)
	dm := math.Abs(a.Tau/a.Pi-b.Tau/b.Pi) * math.Sqrt(pmin)
	dp := math.Abs(a.Pi-b.Pi) / pmin
	return math.Max(dm, dp)
}

// DistanceBelow reports, without a square root or a division, that
// Distance(a, b) is certainly below m: a loop that needs only the largest
// change of a pass computes Distance for the updates that may raise it.
// From Distance's common case, with lo ≤ hi the two precisions and
// Δ = τ_a·π_b − τ_b·π_a, the mean term is below m exactly when
// Δ² < m²·hi²·lo and the precision term when hi − lo < m·lo; both sides
// are kept below 1e301 by the same bounds on π and τ, and a margin of 1e-9
// on each comparison covers the rounding of both forms, so false means
// "compute Distance", never a wrong answer. NaN gives false.
func DistanceBelow(a, b Gaussian, m float64) bool {
	lo, hi := ordered(a.Pi, b.Pi)
	if !inDistanceRange(lo, hi, a.Tau, b.Tau) || !(m < 1e50) {
		return false
	}
	const margin = 1 + 1e-9
	d := a.Tau*b.Pi - b.Tau*a.Pi
	return (hi-lo)*margin < m*lo && d*d*margin < m*m*hi*hi*lo
}

// ordered returns x and y in increasing order, by one comparison: with a
// NaN it returns them as given, which inDistanceRange then rejects (the
// built-in min and max, which order NaNs and signed zeros, cost more).
func ordered(x, y float64) (lo, hi float64) {
	if y < x {
		return y, x
	}
	return x, y
}

// inDistanceRange reports that precisions lo ≤ hi and means times
// precision τ_a, τ_b are within the bounds of Distance's and DistanceBelow's
// common-case forms: π in (1e-50, 1e50) and |τ| < 1e100 keep every
// intermediate of Distance below 1e201, and both sides of DistanceBelow's
// comparisons (with m < 1e50) below 1e301, so that none overflows.
func inDistanceRange(lo, hi, tauA, tauB float64) bool {
	return lo > 1e-50 && hi < 1e50 && math.Abs(tauA) < 1e100 && math.Abs(tauB) < 1e100
}

func relDiff(x, y float64) float64 {
	if x == y {
		return 0
	}
	return math.Abs(x-y) / math.Max(math.Abs(x), math.Abs(y))
}

// MaxDiff returns max(|τ_a − τ_b|, |π_a − π_b|), Infer.NET's absolute
// metric on natural parameters. It depends on the scale of the model.
func MaxDiff(a, b Gaussian) float64 {
	if a == b {
		return 0
	}
	return math.Max(math.Abs(a.Tau-b.Tau), math.Abs(a.Pi-b.Pi))
}

// AbsDiff returns max(|τ_a − τ_b|, √|π_a − π_b|), the absolute metric used as
// convergence test (with tolerance 1e-4) by the moserware and sublee TrueSkill
// implementations. It is provided to reproduce their stopping points; it is
// not scale-free.
func AbsDiff(a, b Gaussian) float64 {
	if a == b {
		return 0
	}
	return math.Max(math.Abs(a.Tau-b.Tau), math.Sqrt(math.Abs(a.Pi-b.Pi)))
}

// LogNormalizer returns A(π, τ) = log ∫ exp(τx − πx²/2) dx = τ²/(2π) +
// ½·log(2π/π) for a proper Gaussian, the log-partition function of the
// exponential family; +Inf otherwise. With messages represented as the
// unnormalised exp(τx − πx²/2), ∫ m₁·…·m_k dx = exp(A(Σπ, Στ)), which is what
// the EP evidence is assembled from.
func (g Gaussian) LogNormalizer() float64 {
	if !(g.Pi > 0) || g.IsPointMass() {
		return math.Inf(1)
	}
	return 0.5*g.Tau*g.Tau/g.Pi - 0.5*math.Log(g.Pi) + logSqrt2Pi
}

// LogAverageOf returns log ∫ g(x)·h(x) dx for the normalised densities g and
// h, which is log N(μ_g; μ_h, σ_g² + σ_h²) (the Gaussian product rule). A
// point-mass g gives log h(x_g). A uniform factor counts as the constant 1,
// so the result is 0 if either is uniform. It is −Inf for two different
// point masses and NaN never.
func (g Gaussian) LogAverageOf(h Gaussian) float64 {
	if g.IsUniform() || h.IsUniform() {
		return 0
	}
	v := g.Variance() + h.Variance()
	d := g.Mean() - h.Mean()
	if v == 0 {
		if d == 0 {
			return math.Inf(1)
		}
		return math.Inf(-1)
	}
	return -0.5*d*(d/v) - 0.5*math.Log(v) - logSqrt2Pi // d² may overflow where d²/v does not
}

// LogAverageOfRatio returns log ∫ g(x)/h(x) dx for normalised proper densities
// g and h with σ_h² > σ_g² (otherwise the integral diverges and the result is
// +Inf):
//
//	log σ_h² − ½·log(σ_h² − σ_g²) + log√(2π) + (μ_g − μ_h)²/(2(σ_h² − σ_g²)).
//
// It is the normaliser of a cavity computed by division, as used in the
// moserware TrueSkill evidence.
func (g Gaussian) LogAverageOfRatio(h Gaussian) float64 {
	vg, vh := g.Variance(), h.Variance()
	dv := vh - vg
	if !(dv > 0) || !(vg > 0) {
		return math.Inf(1)
	}
	d := g.Mean() - h.Mean()
	return math.Log(vh) - 0.5*math.Log(dv) + logSqrt2Pi + 0.5*d*(d/dv)
}

// String formats g as N(μ, σ²), or as uniform, a point mass, or its natural
// parameters when improper.
func (g Gaussian) String() string {
	switch {
	case g.IsUniform():
		return "Uniform"
	case g.IsPointMass():
		return fmt.Sprintf("PointMass(%g)", g.Tau)
	case g.Pi < 0:
		return fmt.Sprintf("Improper(π=%g, τ=%g)", g.Pi, g.Tau)
	}
	return fmt.Sprintf("N(%.6g, %.6g)", g.Mean(), g.Variance())
}
