package scorebased

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mathext"

	"github.com/skillgraph/skillgraph/messages"
)

// Skellam is the distribution of X − Y for independent X ~ Poisson(Lambda1)
// and Y ~ Poisson(Lambda2): the score difference of the Poisson-OD model.
//
// The probabilities are sums of Poisson probabilities computed in log space
// over exactly the range of counts the rates need (from the mode outwards
// until terms fall below 1e-17 of the largest), rather than the Bessel-
// function form summed to a fixed k = 100, which overflows for large rates
// and truncates for scoring sports such as Australian football. The work
// grows like √λ; above ExactRateLimit the normal approximation
// N(λ₁ − λ₂, λ₁ + λ₂) with a continuity correction is used instead (at the
// limit the two agree to 1e-7), so that no rate, however large, hangs.
type Skellam struct {
	Lambda1, Lambda2 float64
}

// ExactRateLimit is the largest rate for which Skellam sums exactly.
const ExactRateLimit = 1e6

func (s Skellam) exact() bool { return math.Max(s.Lambda1, s.Lambda2) <= ExactRateLimit }

// normal returns the mean and standard deviation of the approximation.
func (s Skellam) normal() (mu, sd float64) {
	return s.Lambda1 - s.Lambda2, math.Sqrt(s.Lambda1 + s.Lambda2)
}

func (s Skellam) validate() error {
	if !(s.Lambda1 > 0) || !(s.Lambda2 > 0) || math.IsInf(s.Lambda1, 1) || math.IsInf(s.Lambda2, 1) {
		return fmt.Errorf("scorebased: Skellam(%v, %v): rates must be finite and positive: %w", s.Lambda1, s.Lambda2, ErrInput)
	}
	return nil
}

// logPoisson returns log Pois(n; λ) for a count n ≥ 0 held as a float64,
// so that no count, however large, overflows an int.
func logPoisson(n, lambda float64) float64 {
	lg, _ := math.Lgamma(n + 1)
	return n*math.Log(lambda) - lambda - lg
}

// maxTerms bounds LogProb's sums on either side of the mode. The terms
// fall below 1e-17 of the largest within some 40·√λ + 40 counts of it
// (about 4e4 at ExactRateLimit), so valid rates never reach the bound; it
// makes every loop finite whatever the arithmetic does.
const maxTerms = 1 << 20

// LogProb returns log P(X − Y = k) = log Σₙ Pois(n + k; λ₁)·Pois(n; λ₂)
// (k ≥ 0; for k < 0 the roles of the rates swap), for every int k
// (math.MinInt included): a finite number, or −Inf where the probability
// is below float64's range. Rates that are not finite and positive are
// ErrInput.
func (s Skellam) LogProb(k int) (float64, error) {
	if err := s.validate(); err != nil {
		return 0, err
	}
	kf := float64(k) // exact in sign, and −kf cannot overflow as −k can
	if !s.exact() {
		// P(k − ½ < N(μ, sd²) < k + ½), the mass of [−e, e] about t.
		mu, sd := s.normal()
		return messages.LogWithinMass((mu-kf)/sd, 0.5/sd), nil
	}
	l1, l2 := s.Lambda1, s.Lambda2
	if kf < 0 {
		kf, l1, l2 = -kf, l2, l1
	}
	term := func(n float64) float64 { return logPoisson(n+kf, l1) + logPoisson(n, l2) }
	if kf+1 == kf {
		// From 2⁵³ on, n + k rounds to k and the sum below cannot step
		// through its terms. There each term is at most λ₁λ₂/k ≤ 1e12/2⁵³
		// ≈ 1e-4 times the one before (rates ≤ ExactRateLimit), so the sum
		// is its first term times 1 + O(1e-4): a part in 1e20 of a log
		// probability below −1e17.
		return term(0), nil
	}
	// The terms are unimodal in n; the ratio of successive terms,
	// λ₁λ₂/((n+k+1)(n+1)), crosses 1 at the mode.
	mode := math.Max(0, math.Floor((-(kf+2)+math.Sqrt(kf*kf+4*l1*l2))/2))
	top := term(mode)
	sum := 1.0
	for i := 1; i <= maxTerms; i++ {
		r := math.Exp(term(mode+float64(i)) - top)
		sum += r
		if !(r >= 1e-17) {
			break
		}
	}
	for n := mode - 1; n >= 0 && n >= mode-maxTerms; n-- {
		r := math.Exp(term(n) - top)
		sum += r
		if !(r >= 1e-17) {
			break
		}
	}
	return top + math.Log(sum), nil
}

// Prob returns P(X − Y = k) (see LogProb).
func (s Skellam) Prob(k int) (float64, error) {
	lp, err := s.LogProb(k)
	return math.Exp(lp), err
}

// Outcome returns P(X > Y), P(X = Y) and P(X < Y), each computed directly
// (none as 1 minus the others): P(X > Y) = Σ_y Pois(y; λ₂)·P(X ≥ y + 1),
// with the Poisson upper tail P(X ≥ n) = P(n, λ₁), the regularised lower
// incomplete gamma function, summed over the counts of y that carry mass.
func (s Skellam) Outcome() (win, draw, loss float64, err error) {
	if err := s.validate(); err != nil {
		return 0, 0, 0, err
	}
	if !s.exact() {
		mu, sd := s.normal()
		return messages.NormCDF((mu - 0.5) / sd), math.Exp(messages.LogWithinMass(mu/sd, 0.5/sd)), messages.NormCDF((-mu - 0.5) / sd), nil
	}
	win = tailSum(s.Lambda2, s.Lambda1)
	loss = tailSum(s.Lambda1, s.Lambda2)
	lo, hi := countRange(math.Min(s.Lambda1, s.Lambda2))
	for y := lo; y <= hi; y++ {
		draw += math.Exp(logPoisson(float64(y), s.Lambda1) + logPoisson(float64(y), s.Lambda2))
	}
	// Each term's log Poisson probability carries the rounding of
	// numbers of size λ·log λ, about 1e-9 of the term at rates near
	// ExactRateLimit, which can leave a certain outcome's sum just above 1.
	return math.Min(win, 1), math.Min(draw, 1), math.Min(loss, 1), nil
}

// tailSum returns Σ_y Pois(y; ly)·P(X ≥ y + 1) for X ~ Poisson(lx).
func tailSum(ly, lx float64) float64 {
	lo, hi := countRange(ly)
	var sum float64
	for y := lo; y <= hi; y++ {
		sum += math.Exp(logPoisson(float64(y), ly)) * mathext.GammaIncReg(float64(y+1), lx)
	}
	return sum
}

// countRange returns the counts outside which Poisson(λ) has mass below
// about 1e-20: the mean ± 12 standard deviations, widened by 30 for small λ.
func countRange(lambda float64) (lo, hi int) {
	w := 12*math.Sqrt(lambda) + 30
	return int(math.Max(0, math.Floor(lambda-w))), int(math.Ceil(lambda + w))
}
