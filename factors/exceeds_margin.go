package factors

import (
	"fmt"
	"math"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
)

// ExceedsMargin is the win factor with a variable margin, I(x > m): edge 0
// is the performance difference x, edge 1 the margin m. In the chess model
// of Dangauthier, Herbrich, Minka and Graepel (2007) a win reads the
// loser's draw margin: white wins when x > m_black. With m fixed at ε it is
// GreaterThan(ε).
//
// Its messages are expectation propagation's, in closed form. Under the
// cavities N(μₓ, vₓ) and N(μₘ, vₘ), d = x − m is Gaussian,
// N(μ_d, v_d) with μ_d = μₓ − μₘ and v_d = vₓ + vₘ, and the factor depends
// on d only: the tilted d is Table 1's truncation at 0, with
// t = μ_d/σ_d, V = V(t, 0) and W = W(t, 0) (messages.GreaterThan), so
// Z = Φ(t), E[d] = μ_d + σ_d·V and Var[d] = v_d·(1 − W). x and m are
// Gaussian given d (x − μₓ regresses on d − μ_d with slope vₓ/v_d, m with
// −vₘ/v_d), so
//
//	E[x] = μₓ + vₓ·V/σ_d,   Var[x] = vₓ − vₓ²·W/v_d,
//	E[m] = μₘ − vₘ·V/σ_d,   Var[m] = vₘ − vₘ²·W/v_d,
//
// and the message, the matched marginal divided by the cavity
// (equation 6), is, with v₋ the other edge's cavity variance and s = +1
// for x, −1 for m,
//
//	π = W/(v₋ + v·(1 − W)),   τ = (μ·W + s·σ_d·V)/(v₋ + v·(1 − W)),
//
// whose denominator v_d − v·W is written as a sum so that it never
// cancels (1 − W from messages.GreaterThan is exact in the tails). It is
// the message of GreaterThan on d passed through d = x − m. A point-mass
// cavity gets the uniform message, and two point masses x₀ ≤ m₀ are
// messages.ErrImpossible (the inequality is strict: the open half-line
// (m₀, ∞) of truncation.go's rule); a uniform cavity leaves d flat, and
// every message is uniform (no information, as for GreaterThan) and the
// evidence diverges.
type ExceedsMargin struct{}

// NewExceedsMargin returns the factor I(x > m).
func NewExceedsMargin() *ExceedsMargin { return &ExceedsMargin{} }

// Arity is 2: edge 0 is x, edge 1 the margin m.
func (*ExceedsMargin) Arity() int { return 2 }

// Approximation returns "EP".
func (*ExceedsMargin) Approximation() string { return "EP" }

// Message returns the moment-matched message on edge i (0: x, 1: m).
func (f *ExceedsMargin) Message(i int, e graph.Edges) (messages.Gaussian, error) {
	return checkedMessage(f.message(i, e))
}

func (f *ExceedsMargin) message(i int, e graph.Edges) (messages.Gaussian, error) {
	if i < 0 || i > 1 {
		return messages.Gaussian{}, edgeError(i, 2)
	}
	x, m := e.Cavity(0), e.Cavity(1)
	if err := checkCavities([]messages.Gaussian{x, m}); err != nil {
		return messages.Gaussian{}, err
	}
	switch {
	case x.IsUniform() || m.IsUniform():
		return messages.Gaussian{}, nil
	case x.IsPointMass() && m.IsPointMass():
		return messages.Gaussian{}, pointOutside(x, halfLine{bound: m.Mean(), open: true})
	}
	self, other, s := x, m, 1.0
	if i == 1 {
		self, other, s = m, x, -1
	}
	if self.IsPointMass() {
		return messages.Gaussian{}, nil
	}
	vs, vo := self.Variance(), other.Variance()
	sd := math.Sqrt(vs + vo)
	tr := messages.GreaterThan((x.Mean()-m.Mean())/sd, 0)
	den := vo + vs*tr.OneMinusW
	if !(den > 0) {
		// Only for a point-mass other edge and 1 − W underflowing: the
		// marginal collapses onto the bound.
		return messages.PointMass(self.Mean() + s*vs*tr.V/sd), nil
	}
	r := 1 / den
	return messages.Gaussian{Pi: tr.W * r, Tau: (self.Mean()*tr.W + s*sd*tr.V) * r}, nil
}

// LogAverageFactor returns log P(x > m) under the cavities,
// log Φ((μₓ − μₘ)/√(vₓ + vₘ)).
func (f *ExceedsMargin) LogAverageFactor(e graph.Edges) (float64, error) {
	return checkedLog(f.logAverageFactor(e))
}

func (f *ExceedsMargin) logAverageFactor(e graph.Edges) (float64, error) {
	x, m := e.Cavity(0), e.Cavity(1)
	if err := checkCavities([]messages.Gaussian{x, m}); err != nil {
		return 0, err
	}
	switch {
	case x.IsUniform() || m.IsUniform():
		return 0, errDiverges
	case x.IsPointMass() && m.IsPointMass():
		return pointLogMass(x.Mean(), halfLine{bound: m.Mean(), open: true}), nil
	}
	return messages.LogNormCDF((x.Mean() - m.Mean()) / math.Sqrt(x.Variance()+m.Variance())), nil
}

// TiltedMoments returns log Z and the mean and covariance of
// I(x > m)·N((x, m); mean, cov)/Z under a joint cavity over (x, m), cov
// 2×2 row-major, for joint-Gaussian EP (graph/exact): the factor reads
// d = x − m alone, a = (1, −1), and the moments are the half-space
// truncation's (see halfSpace), Z = Φ(t) with t = aᵀμ/√(aᵀΣa), and
// E[y] = μ + Σa·V/√(aᵀΣa), Cov[y] = Σ − Σa·aᵀΣ·W/(aᵀΣa), the
// regression of (x, m) on d of the equations above, with the cavity's
// correlation kept. Errors: a cavity that is not a covariance
// (messages.ErrInput), one that puts x − m at a point ≤ 0 or no mass above 0
// in float64 (messages.ErrImpossible).
func (*ExceedsMargin) TiltedMoments(mean, cov []float64) (logZ float64, postMean, postCov []float64, err error) {
	if err := jointCavity(2, mean, cov); err != nil {
		return 0, nil, nil, err
	}
	return halfSpace(mean, cov, []float64{1, -1}, true)
}

// Label returns "I(x > m)".
func (*ExceedsMargin) Label(vars []string) string {
	return fmt.Sprintf("I(%s > %s)", varName(vars, 0), varName(vars, 1))
}
