package trueskill

import (
	"fmt"
	"math"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
)

// The EP evidence of a game, computed from the chain of differences.
//
// Everything in Figure 1 but the comparison factors is Gaussian and exact,
// so the graph's EP evidence is that of the differences d = (d_1 … d_K)
// alone: a Gaussian prior N(d; m, S) (S tridiagonal: team k's variance V_k
// enters d_{k−1} and d_k) times the comparison factors f_k, each
// approximated by the site t̃_k(d_k) = exp(−½π̃_k d_k² + τ̃_k d_k), the
// message the graph holds from f_k to d_k. With cavities N(c_k, v_k) and
// the posterior mean μ_q, the EP evidence (Minka 2001, each site's scale
// fixed by matching its factor against the cavity, as in
// graph.Graph.LogEvidence)
//
//	log Z = log ∫ N(d; m, S) Π t̃_k + Σ_k [log Z_k − log ∫ N(d_k; c_k, v_k) t̃_k]
//
// is, with each site written about μ_q (the constants cancel between the
// two integrals, and so do the linear terms, because μ_q is the mean of
// both products),
//
//	log Z = Σ_k [log Z_k + ½·log(1 + v_k π̃_k) + ½·V_k²] − ½·log|I + R S R| − ½·(μ_q − m)ᵀ S⁻¹ (μ_q − m),
//
// R = diag(√π̃_k), where Z_k is Φ((c_k − ε)/√v_k) for a win and the mass of
// [−ε, ε] for a draw, and V_k = (μ_q,k − c_k)/√v_k its truncation's mean
// shift (messages.Truncation). Unlike the graph's generic sum over all
// factors (graph.Graph.LogEvidence), no term holds a skill's mean squared:
// a near-certain outcome between ratings far apart has sites that are
// exactly uniform (V and W underflow to 0 beyond t ≈ 39), and such a site
// splits the chain into independent segments, which are summed
// separately, so its log evidence is exactly Σ log Φ ≈ 0 rather than the
// difference of numbers of the size of the squared means; a
// near-impossible one is a large negative number, accurate to rounding.

// comparison is a game's comparison factor k, in rank order.
type comparison struct {
	edge   graph.EdgeID // its one edge, to the difference
	margin float64
	drawn  bool
}

// chainScratch holds the buffers of the evidence, allocated once per game.
type chainScratch struct {
	mean, variance []float64 // by team position: Σwμ and Σw²(σ² + τ² + β²)
	x, pi          []float64 // by difference: μ_q − m and π̃
}

func newChainScratch(teams int) chainScratch {
	k := teams - 1
	return chainScratch{
		mean: make([]float64, teams), variance: make([]float64, teams),
		x: make([]float64, k), pi: make([]float64, k),
	}
}

// comparisonsOf returns the comparison factors of a built game.
func comparisonsOf(g *graph.Graph, ids []graph.FactorID) []comparison {
	out := make([]comparison, len(ids))
	for k, f := range ids {
		switch c := g.Factor(f).(type) {
		case *factors.GreaterThan:
			out[k] = comparison{margin: c.Margin}
		case *factors.Within:
			out[k] = comparison{margin: c.Margin, drawn: true}
		}
		out[k].edge = g.EdgeID(f, 0)
	}
	return out
}

// chainLogEvidence returns the EP evidence of the game's last run (see
// above).
func (gm *Game) chainLogEvidence() (float64, error) {
	if len(gm.cmps) == 1 {
		return gm.pairLogEvidence()
	}
	s := &gm.chain
	b2 := gm.params.Beta * gm.params.Beta
	for pos, prs := range gm.priors {
		var mean, variance float64
		for i, pr := range prs {
			w := 1.0 // a compact team (nil sum) has one player of weight 1
			if sum := gm.sums[pos]; sum != nil {
				w = sum.Coefficient(i)
			}
			mean += w * pr.Mean
			variance += w * w * (pr.Variance + b2)
		}
		s.mean[pos], s.variance[pos] = mean, variance
	}
	var lz float64
	start := 0 // the first site of the current segment
	for k, c := range gm.cmps {
		cav, sc, logZ, err := gm.comparisonLogZ(k)
		if err != nil {
			return 0, err
		}
		lz += logZ
		site := gm.g.EdgeMessage(c.edge)
		if site.IsUniform() {
			lz -= s.segment(start, k)
			start = k + 1
			continue
		}
		// μ_q is the mean of the cavity times the site, and V its shift
		// from the cavity's mean in the cavity's standard deviations: the
		// truncation's V wherever the site is the truncation's message for
		// this cavity (equations 3-6), read from the graph rather than
		// computed again.
		mq := (cav.Tau + site.Tau) / (cav.Pi + site.Pi)
		if !messages.IsFinite(mq) {
			return 0, fmt.Errorf("trueskill: %w: site %v of comparison %d", ErrNumerical, site, k+1)
		}
		v := (mq - cav.Tau/cav.Pi) * sc
		lz += 0.5*math.Log1p(site.Pi/cav.Pi) + 0.5*v*v
		s.x[k] = mq - (s.mean[k] - s.mean[k+1])
		s.pi[k] = site.Pi
	}
	lz -= s.segment(start, len(gm.cmps))
	// The EP evidence approximates a log probability; for an outcome that
	// is all but certain its rounding can leave it a few ulps above 0.
	return math.Min(lz, 0), nil
}

// comparisonLogZ returns the cavity of comparison k, its precision's
// square root and log Z_k, the comparison's mass under that cavity:
// log Φ((c − ε)/√v) for a win, the log mass of [−ε, ε] for a draw.
func (gm *Game) comparisonLogZ(k int) (cav messages.Gaussian, sc, logZ float64, err error) {
	c := gm.cmps[k]
	cav = gm.g.Cavity(c.edge)
	if !(cav.Pi > 0) || !cav.IsFinite() {
		return cav, 0, 0, fmt.Errorf("trueskill: %w: cavity %v of comparison %d", ErrNumerical, cav, k+1)
	}
	sc = math.Sqrt(cav.Pi)
	t, e := cav.Tau/sc, c.margin*sc
	if c.drawn {
		return cav, sc, messages.LogWithinMass(t, e), nil
	}
	return cav, sc, messages.LogNormCDF(t - e), nil
}

// pairLogEvidence is chainLogEvidence for two teams: log Z = log Z_1.
// With one comparison the graph is a tree whose only factor that is not
// Gaussian sees, as its cavity, the prior of the one difference, N(m, S):
// v_1 = S and c_1 = m. The correction terms then cancel identically,
// ½·log(1 + v_1π̃_1) against ½·log|I + RSR| = ½·log(1 + π̃_1S), and
// ½·V_1² = ½·(μ_q − c_1)²/v_1 against ½·xᵀS⁻¹x = ½·(μ_q − m)²/S, so the
// evidence is the comparison's own mass under its cavity, exactly as in
// the two-team closed form, and skipping them also skips their rounding.
func (gm *Game) pairLogEvidence() (float64, error) {
	_, _, lz, err := gm.comparisonLogZ(0)
	if err != nil {
		return 0, err
	}
	return math.Min(lz, 0), nil
}

// segment returns ½·log|I + RSR| + ½·xᵀS⁻¹x over the differences a … b−1
// (teams a … b), whose sites are not uniform (0 if there are none). Both
// are written as sums of positive terms, because a team whose variance
// dwarfs its neighbours' makes S nearly singular, and the textbook
// Cholesky factorisation of S then cancels to nothing.
//
// log|I + RSR| is the sum of the logs of its Cholesky pivots, each
// M_kk − M_{k,k−1}²/p_{k−1} rearranged as
//
//	p_k = 1 + π̃_k·(V_{k+1} + u_k),   u_a = V_a,   u_k = V_k·(1 + π̃_{k−1}·u_{k−1})/p_{k−1}.
//
// xᵀS⁻¹x, S being the covariance A·diag(V)·Aᵀ of the differences d = A·t
// of the teams' performances, is the least Σ_j z_j²/V_j over team offsets
// z with A·z = x: z_j = m − X_j, X the cumulative sums of x (X_a = 0), at
// m the V⁻¹-weighted mean of X.
func (s *chainScratch) segment(a, b int) float64 {
	if a >= b {
		return 0
	}
	v := s.variance
	if b == a+1 {
		// One difference: S = V_a + V_b is a number, so the pivot is
		// 1 + π̃S and the quadratic form x²/S.
		sum := v[a] + v[b]
		return 0.5*math.Log(1+s.pi[a]*sum) + 0.5*s.x[a]*s.x[a]/sum
	}
	var logDet, u, pivot float64
	for k := a; k < b; k++ {
		if k == a {
			u = v[k]
		} else {
			u = v[k] * (1 + s.pi[k-1]*u) / pivot
		}
		pivot = 1 + s.pi[k]*(v[k+1]+u)
		logDet += math.Log(pivot)
	}
	var sum, weights, cum float64
	for j := a; j <= b; j++ {
		sum += cum / v[j]
		weights += 1 / v[j]
		if j < b {
			cum += s.x[j]
		}
	}
	m := sum / weights
	var quad float64
	cum = 0
	for j := a; j <= b; j++ {
		quad += (cum - m) * (cum - m) / v[j]
		if j < b {
			cum += s.x[j]
		}
	}
	return 0.5*logDet + 0.5*quad
}
