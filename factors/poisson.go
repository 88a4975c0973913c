package factors

import (
	"fmt"
	"math"
	"sync"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
)

// Poisson is the score factor Poisson(k; exp(x)) of Guo, Sanner, Graepel and
// Buntine (2012), section 4.2: a count k observed with log-rate x (in the
// Poisson-OD model, x = offence performance − defence performance). The
// product of the cavity N(x; μ, σ²) and the factor is not Gaussian; its
// message is the variational one of their Lemma 1: q(x) = N(μ', σ'²)
// minimising KL(q ‖ p(x | k)), divided by the cavity.
//
// Setting the derivatives of the KL divergence to zero gives (their eq. 15)
//
//	μ' = μ + σ²(k − e^κ),   σ'² = σ²/(1 + σ²e^κ),   κ = μ' + σ'²/2,
//
// so that κ solves eq. 19, κ = μ + σ²(k − e^κ) + σ²/(2(1 + σ²e^κ)). The
// paper iterates its rearrangement (eq. 16) as a fixed point, which need
// not converge (small σ² with μ ≥ 0 in particular). Here eq. 19 is solved
// instead in z = κ + log σ², where it
// reads z + e^z − σ²/(2(1 + e^z)) = K with K = log σ² + μ + σ²k: the left
// side increases with z, a table of Wright's ω gives the root to about 1e-7
// without exponentials, and one Halley step (rarely two) finishes it to
// double precision (see PoissonProject). The message is then
// π = e^κ, τ = k + e^κ(μ' − 1) — the non-conjugate variational update of a
// Gaussian under exp (it equals Infer.NET's ExpOp with shape k + 1).
type Poisson struct {
	Count int // k ≥ 0
	// Iterations is the number of Halley steps of the last message
	// computation (diagnostics; not safe for concurrent use, like the graph).
	Iterations int
}

// NewPoisson returns the factor Poisson(count; exp(x)).
func NewPoisson(count int) *Poisson { return &Poisson{Count: count} }

// Arity is 1: the edge goes to the log-rate x.
func (*Poisson) Arity() int { return 1 }

// Approximation returns "VMP": the message is a KL(q‖p) projection.
func (*Poisson) Approximation() string { return "VMP" }

// Validate reports a negative count.
func (p *Poisson) Validate() error {
	if p.Count < 0 {
		return fmt.Errorf("Poisson count %d, want ≥ 0: %w", p.Count, messages.ErrInput)
	}
	return nil
}

// Message returns q/cavity for the q of Lemma 1.
func (p *Poisson) Message(i int, e graph.Edges) (messages.Gaussian, error) {
	return checkedMessage(p.message(i, e))
}

func (p *Poisson) message(_ int, e graph.Edges) (messages.Gaussian, error) {
	c := e.Cavity(0)
	switch {
	case c.IsPointMass():
		return messages.Gaussian{}, nil
	case c.IsUniform():
		if p.Count == 0 {
			return messages.Gaussian{}, nil // e^{−e^x} alone is not normalisable
		}
		return poissonFlat(float64(p.Count)), nil
	case p.Count > 0 && c.Pi >= 0 && c.Pi+math.Abs(c.Tau) <= 1e-17*float64(p.Count):
		// Eq. 15 in natural parameters reads e^κ = k + τ − π·μ': a cavity
		// whose π and τ are below 1e-17 of k moves e^κ (and the
		// message) by less than float64 resolves from the flat limit,
		// which it reaches without forming σ²k, which may overflow.
		return poissonFlat(float64(p.Count)), nil
	}
	if err := checkCavity(c); err != nil {
		return messages.Gaussian{}, err
	}
	q, ek, n, err := poissonProject(c.Mean(), c.Variance(), p.Count)
	p.Iterations = n
	if err != nil {
		return messages.Gaussian{}, err
	}
	// τ = τ' − τ_c = k + e^κ(μ' − 1), written without the subtraction.
	msg := messages.Gaussian{Pi: ek, Tau: float64(p.Count) + ek*(q.Mean()-1)}
	if !msg.IsFinite() {
		return messages.Gaussian{}, fmt.Errorf("Poisson message %v for the cavity %v: %w", msg, c, messages.ErrNumerical)
	}
	return msg, nil
}

// poissonFlat is the message of a count k ≥ 1 under a flat cavity, σ² → ∞
// in Lemma 1: e^κ = k, σ'² = 1/k, μ' = log k − 1/(2k).
func poissonFlat(k float64) messages.Gaussian {
	return messages.NewGaussian(math.Log(k)-0.5/k, 1/k)
}

// PoissonProject returns the Gaussian q(x) = N(μ', σ'²) of Lemma 1 that
// minimises KL(q ‖ p) for p(x) ∝ N(x; mean, variance)·Poisson(k; e^x), and the
// number of Halley steps taken on eq. 19 (see Poisson).
//
// Eq. 19 is solved in κ as G(κ) = κ + w − c/(1 + w) − M = 0 with
// w = σ²e^κ, c = σ²/2 and M = μ + σ²k. G increases (G′ = 1 + w +
// cw/(1 + w)² ≥ 1), and its derivatives are bounded by G′ (|G″|, |G‴| ≤ G′),
// so Halley's method contracts the error as e ← A e³ with |A| ≤ 1/4 + 1/6.
// Each step costs one exponential, so the cost is set by the starting point:
// wrightStart gives κ to about 1e-7 without any exponential, one Halley step
// then lands below 1e-19, and the step size certifies it (a step
// |δ| ≤ haltStep leaves an error below (5/12)·haltStep³ ≈ 3e-18), so the
// common case costs one exponential and one logarithm, against about fifteen
// exponentials for the Newton iteration bracketed by two solves of
// z + e^z = K that this replaces. The last w is carried to the new κ by the
// series of e^{−δ} instead of another exponential. The sign of G at every
// iterate keeps a bracket; a step leaving it is replaced by bisection, so
// the iteration also converges from a poor start.
func PoissonProject(mean, variance float64, k int) (messages.Gaussian, int, error) {
	q, _, n, err := poissonProject(mean, variance, k)
	return q, n, err
}

// poissonProject is PoissonProject that also returns e^κ = 1/σ'² − 1/σ²,
// the message's precision, as w/σ² (w = σ²e^κ from the iteration): the
// difference of the precisions cancels where σ² is small.
func poissonProject(mean, variance float64, k int) (q messages.Gaussian, ek float64, n int, err error) {
	if !(variance > 0) || math.IsInf(variance, 1) || !messages.IsFinite(mean) || k < 0 {
		return messages.Gaussian{}, 0, 0, fmt.Errorf("Poisson projection of N(%v, %v) with count %d: %w", mean, variance, k, messages.ErrInput)
	}
	s2, c := variance, variance/2
	M := mean + s2*float64(k)
	logS2 := math.Log(s2)
	if !messages.IsFinite(M + logS2 + c) {
		return messages.Gaussian{}, 0, 0, fmt.Errorf("Poisson projection of N(%v, %v) with count %d: %w", mean, variance, k, messages.ErrNumerical)
	}
	kappa := wrightStart(logS2+M, c) - logS2
	lo, hi := math.Inf(-1), math.Inf(1)
	var w float64
	for n < 100 {
		w = s2 * math.Exp(kappa)
		q := 1 / (1 + w)
		cq := c * q
		G := (kappa - M) + (w - cq)
		n++
		if G == 0 {
			break
		}
		// G′ ≥ 1 puts the root within |G| of κ, on the side G points to.
		if G < 0 {
			lo, hi = kappa, math.Min(hi, kappa-G)
		} else {
			lo, hi = math.Max(lo, kappa-G), kappa
		}
		cwq2 := cq * w * q
		g1 := 1 + w + cwq2     // G′
		g2 := w + cwq2*(1-w)*q // G″
		den := 2*g1*g1 - G*g2  // Halley: δ = 2GG′/(2G′² − GG″)
		var delta float64
		if den > g1*g1 && !math.IsInf(w, 1) {
			delta = 2 * G * g1 / den
		} else {
			delta = G / g1 // far from the root: Newton's step
		}
		next := kappa - delta
		if math.Abs(delta) <= haltStep && next >= lo && next <= hi {
			// e^{−δ} to O(δ⁴) ≤ 1e-24 carries w = σ²e^κ to the new κ.
			kappa = next
			w *= 1 - delta*(1-delta*(0.5-delta/6))
			break
		}
		if !(next > lo && next < hi) {
			// Outside the bracket (or not finite): bisect it (halves
			// first: lo + hi may overflow).
			next = 0.5*lo + 0.5*hi
			if next == lo || next == hi { // the bracket is one ulp wide
				break
			}
		}
		kappa = next
	}
	// μ' = κ − σ'²/2 and σ'² = σ²/(1 + w) (eq. 15); this form of μ' avoids
	// the cancellation in μ + σ²k − w when both terms are large.
	v := s2 / (1 + w)
	mu := kappa - v/2
	q = messages.NewGaussian(mu, v)
	if !messages.IsFinite(mu) || !(v > 0) || !q.IsFinite() || !(q.Pi > 0) {
		return messages.Gaussian{}, 0, n, fmt.Errorf("Poisson projection of N(%v, %v) with count %d: %w", mean, variance, k, messages.ErrNumerical)
	}
	return q, w / s2, n, nil
}

// haltStep is the Halley step below which the iterate after it is accurate to
// double precision: the error after the step is at most (5/12)·haltStep³.
const haltStep = 2e-6

// Wright's ω(u) solves ω + log ω = u (Lawrence, Corless & Jeffrey 2012); in
// z = log ω it is the root r(u) of z + e^z = u. wrightTable holds r on
// u ∈ [wrightLo, wrightHi] as cubic Hermite pieces of width wrightH, built
// from r and r′ = 1/(1 + ω) at the knots. The interpolation error is at most
// h⁴/384·max|r⁗| with r⁗ = −ω(6ω² − 8ω + 1)/(1 + ω)⁷, |r⁗| < 0.025, so about
// 1.6e-7 for h = 1/4.
const (
	wrightLo = -20.0
	wrightHi = 64.0
	wrightH  = 0.25
	wrightN  = int((wrightHi - wrightLo) / wrightH)
)

// wrightTable()[i] holds the coefficients of r(wrightLo + (i + t)h) in
// t ∈ [0, 1]. It is built on first use, so that programs that
// import the package without a Poisson factor do not pay for it at start-up.
var wrightTable = sync.OnceValue(buildWrightTable)

func buildWrightTable() *[wrightN][4]float64 {
	var tab [wrightN][4]float64
	r0 := solveZPlusExpZExact(wrightLo)
	for i := range tab {
		u1 := wrightLo + float64(i+1)*wrightH
		r1 := solveZPlusExpZExact(u1)
		a := wrightH / (1 + (u1 - wrightH - r0)) // h·r′ at the left knot
		b := wrightH / (1 + (u1 - r1))           // h·r′ at the right knot
		d := r1 - r0
		tab[i] = [4]float64{r0, a, 3*d - 2*a - b, a + b - 2*d}
		r0 = r1
	}
	return &tab
}

// wrightR returns an approximation of r(u), the root of z + e^z = u, good to
// about 2e-7 for every u without an exponential: the table inside
// [wrightLo, wrightHi], r = u − ω with ω ≈ e^u < 2.1e-9 below it, and above
// it the asymptotic series ω = u − L + (L/u)(1 + (L − 2)/(2u) +
// (2L² − 9L + 6)/(6u²)) + O(L⁴/u⁴), L = log u (Corless et al. 1996, eq. 4.20).
func wrightR(u float64) float64 {
	switch {
	case u < wrightLo:
		return u
	case u != u:
		return u // NaN: the caller's iteration fails its range check
	case u >= wrightHi:
		L := math.Log(u)
		return L - L/u*(1+(L-2)/(2*u)+(L*(2*L-9)+6)/(6*u*u))
	}
	x := (u - wrightLo) * (1 / wrightH)
	i := int(x)
	t := x - float64(i)
	p := &wrightTable()[i]
	return p[0] + t*(p[1]+t*(p[2]+t*p[3]))
}

// wrightStart returns an approximation (about 1e-7, see wrightR) of the root
// z of eq. 19 in z = κ + log σ²: z + e^z − c/(1 + e^z) = K. In u = z + e^z
// it reads F(u) = u − K − c/(1 + ω(u)) = 0; F′ = 1 + cω/(1 + ω)³ lies in
// [1, 1 + 4c/27] and the root lies in [K, K + c], so Newton's method on F
// with ω from the table (no exponentials) converges in a few steps; a step
// leaving the bracket is replaced by bisection. Then z = r(u).
func wrightStart(K, c float64) float64 {
	lo, hi := K, K+c
	// F″ = −c·ω(2ω − 1)/(1 + ω)⁵: F is convex where ω < 1/2 and concave
	// where ω > 1/2, so Newton's method started at the inflection
	// u = 1/2 − log 2 (or at the end of [K, K + c] nearest to it) converges
	// monotonically, from the right in the convex part and from the left in
	// the concave part.
	u := math.Min(math.Max(0.5-math.Ln2, lo), hi)
	for i := 0; i < 60; i++ {
		z := wrightR(u)
		w := u - z
		q := 1 / (1 + w)
		F := u - K - c*q
		// F′ ≥ 1 puts the root within |F| of u.
		if F < 0 {
			lo, hi = u, math.Min(hi, u-F)
		} else {
			lo, hi = math.Max(lo, u-F), u
		}
		next := u - F/(1+c*w*q*q*q)
		if !(next > lo && next < hi) {
			next = 0.5*lo + 0.5*hi
		}
		if math.Abs(next-u)*q <= 1e-9*(1+math.Abs(z)) || next == lo || next == hi {
			return wrightR(next)
		}
		u = next
	}
	return wrightR(u)
}

// solveZPlusExpZExact returns the root of z + e^z = K by Newton's method
// from the right of the root, where the convex increasing function makes it
// converge monotonically (used to build wrightTable).
func solveZPlusExpZExact(K float64) float64 {
	z := K
	if K > 1 {
		z = math.Log(K)
	}
	for i := 0; i < 100; i++ {
		ez := math.Exp(z)
		next := z - (z+ez-K)/(1+ez)
		if next >= z {
			return z // no more progress from the right
		}
		z = next
	}
	return z
}

// LogAverageFactor returns log ∫ Poisson(k; eˣ) N(x; μ, σ²) dx, the
// probability of the count under the cavity (messages.LogPoissonLogNormal).
func (p *Poisson) LogAverageFactor(e graph.Edges) (float64, error) {
	return checkedLog(p.logAverageFactor(e))
}

func (p *Poisson) logAverageFactor(e graph.Edges) (float64, error) {
	c := e.Cavity(0)
	switch {
	case c.IsPointMass():
		x := c.Mean()
		k := float64(p.Count)
		lgk, _ := math.Lgamma(k + 1)
		return k*x - math.Exp(x) - lgk, nil
	case c.IsUniform():
		return 0, errDiverges
	}
	if err := checkCavity(c); err != nil {
		return 0, err
	}
	lz := messages.LogPoissonLogNormal(p.Count, c.Mean(), c.Variance())
	if !messages.IsFinite(lz) {
		return 0, fmt.Errorf("Poisson evidence of count %d at the cavity %v: %w", p.Count, c, messages.ErrNumerical)
	}
	return lz, nil
}

// Label returns "Poisson(k; exp(x))".
func (p *Poisson) Label(vars []string) string {
	return fmt.Sprintf("Poisson(%d; exp(%s))", p.Count, varName(vars, 0))
}
