package factors

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/integrate/quad"

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
// paper iterates its rearrangement (eq. 16) as a fixed point; measured on
// μ ∈ [−10, 25], σ² ∈ [1e-3, 1e3], k ∈ [0, 300] that iteration fails to
// converge in 200 steps at 20 of 144 points (σ² ≤ 0.1 and μ ≥ 0 in
// particular). Here eq. 19 is solved instead in z = κ + log σ², where it
// reads z + e^z − σ²/(2(1 + e^z)) = K with K = log σ² + μ + σ²k: the left
// side increases with z, the root lies between the roots of z + e^z = K and
// z + e^z = K + σ²/2 (found by Newton's method from the right, where it
// converges monotonically), and Newton's method safeguarded by that bracket
// finds it in at most 7 steps on the same grid. The message is then
// π = e^κ, τ = k + e^κ(μ' − 1) — the non-conjugate variational update of a
// Gaussian under exp (it equals Infer.NET's ExpOp with shape k + 1).
type Poisson struct {
	Count int // k ≥ 0
	// Iterations is the number of Newton steps of the last message
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
		return fmt.Errorf("%w: Poisson count %d, want ≥ 0", ErrParameter, p.Count)
	}
	return nil
}

// Message returns q/cavity for the q of Lemma 1.
func (p *Poisson) Message(_ int, e graph.Edges) (messages.Gaussian, error) {
	if err := p.Validate(); err != nil {
		return messages.Gaussian{}, err
	}
	c := e.Cavity(0)
	switch {
	case c.IsPointMass():
		return messages.Gaussian{}, nil
	case c.IsUniform():
		if p.Count == 0 {
			return messages.Gaussian{}, nil // e^{−e^x} alone is not normalisable
		}
		// σ² → ∞ in Lemma 1: e^κ = k, σ'² = 1/k, μ' = log k − 1/(2k).
		k := float64(p.Count)
		return messages.NewGaussian(math.Log(k)-0.5/k, 1/k), nil
	}
	if err := checkCavity(c); err != nil {
		return messages.Gaussian{}, err
	}
	q, n, err := PoissonProject(c.Mean(), c.Variance(), p.Count)
	p.Iterations = n
	if err != nil {
		return messages.Gaussian{}, err
	}
	ek := q.Pi - c.Pi // e^κ, also 1/σ'² − 1/σ²
	// τ = τ' − τ_c = k + e^κ(μ' − 1), written without the subtraction.
	return messages.Gaussian{Pi: ek, Tau: float64(p.Count) + ek*(q.Mean()-1)}, nil
}

// PoissonProject returns the Gaussian q(x) = N(μ', σ'²) of Lemma 1 that
// minimises KL(q ‖ p) for p(x) ∝ N(x; mean, variance)·Poisson(k; e^x), and the
// number of Newton steps taken (see Poisson).
func PoissonProject(mean, variance float64, k int) (messages.Gaussian, int, error) {
	if !(variance > 0) || math.IsInf(variance, 1) || !finite(mean) || k < 0 {
		return messages.Gaussian{}, 0, fmt.Errorf("%w: Poisson projection of N(%v, %v) with count %d", ErrParameter, mean, variance, k)
	}
	s2 := variance
	K := math.Log(s2) + mean + s2*float64(k)
	lo, hi := solveZPlusExpZ(K), solveZPlusExpZ(K+s2/2)
	z := lo
	n := 0
	for ; n < 100; n++ {
		ez := math.Exp(z)
		f := z + ez - K - s2/(2*(1+ez))
		if f == 0 {
			break
		}
		if f < 0 {
			lo = z
		} else {
			hi = z
		}
		next := z - f/(1+ez+s2*ez/(2*(1+ez)*(1+ez)))
		switch {
		case next >= lo && next <= hi:
		case next > hi && z != hi:
			next = hi // the root can sit on the bracket's end (e^z ≈ 0); try it
		case next < lo && z != lo:
			next = lo
		default:
			next = 0.5 * (lo + hi)
		}
		if math.Abs(next-z) <= 1e-14*(1+math.Abs(z)) || hi-lo <= 1e-14*(1+math.Abs(z)) {
			z = next
			n++
			break
		}
		z = next
	}
	w := math.Exp(z) // σ²e^κ
	// μ' = μ + σ²k − w and σ'² = σ²/(1 + w).
	mu := mean + s2*float64(k) - w
	v := s2 / (1 + w)
	if !finite(mu) || !(v > 0) {
		return messages.Gaussian{}, n, fmt.Errorf("Poisson projection of N(%v, %v) with count %d: not finite", mean, variance, k)
	}
	return messages.NewGaussian(mu, v), n, nil
}

// solveZPlusExpZ returns the root of z + e^z = K by Newton's method from the
// right of the root, where the convex increasing function makes it converge
// monotonically.
func solveZPlusExpZ(K float64) float64 {
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
// probability of the count under the cavity. The integrand is log-concave;
// it is integrated in log space by Gauss–Legendre quadrature on each side of
// its mode, out to where it has fallen by e⁻⁴⁵ (the left side keeps the
// prior's Gaussian tail, the right side falls like exp(−eˣ), so each side
// gets its own rule).
func (p *Poisson) LogAverageFactor(e graph.Edges) (float64, error) {
	c := e.Cavity(0)
	k := float64(p.Count)
	lgk, _ := math.Lgamma(k + 1)
	switch {
	case c.IsPointMass():
		x := c.Mean()
		return k*x - math.Exp(x) - lgk, nil
	case c.IsUniform():
		return 0, ErrDiverges
	}
	mean, variance := c.Mean(), c.Variance()
	logf := func(x float64) float64 {
		d := x - mean
		return k*x - math.Exp(x) - lgk - 0.5*d*d/variance - 0.5*math.Log(2*math.Pi*variance)
	}
	// The mode solves k − eˣ − (x − μ)/σ² = 0 (a decreasing function of x);
	// it is the z-root of z + e^z = log σ² + μ + σ²k shifted by −log σ².
	mode := solveZPlusExpZ(math.Log(variance)+mean+variance*k) - math.Log(variance)
	top := logf(mode)
	// Where log f has fallen by 45: the curvature is at least 1/σ², so
	// within √(90σ²) on each side; bisect for the actual points.
	reach := math.Sqrt(90 * variance)
	edge := func(dir float64) float64 {
		near, far := mode, mode+dir*reach
		for i := 0; i < 100; i++ {
			mid := 0.5 * (near + far)
			if logf(mid) > top-45 {
				near = mid
			} else {
				far = mid
			}
		}
		return far
	}
	integrand := func(x float64) float64 { return math.Exp(logf(x) - top) }
	sum := quad.Fixed(integrand, edge(-1), mode, 128, quad.Legendre{}, 0) +
		quad.Fixed(integrand, mode, edge(1), 128, quad.Legendre{}, 0)
	return math.Log(sum) + top, nil
}

// Label returns "Poisson(k; exp(x))".
func (p *Poisson) Label(vars []string) string {
	return fmt.Sprintf("Poisson(%d; exp(%s))", p.Count, vars[0])
}
