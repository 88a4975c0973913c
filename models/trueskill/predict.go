package trueskill

import (
	"fmt"
	"math"

	"github.com/skillgraph/skillgraph/messages"
)

// Quality returns the match quality of teams (weights may be nil): the
// probability of a draw relative to the highest possible draw probability,
// in the limit ε → 0. For two players it is equation 7 of the paper,
//
//	q = √(2β²/(2β² + σ₁² + σ₂²)) · exp(−(μ₁ − μ₂)²/(2(2β² + σ₁² + σ₂²))),
//
// and for k teams it is the same ratio for the k−1 adjacent differences
// d = Aᵀs (A holds ±wᵢ): q = √(det(β²AᵀA)/det(M)) · exp(−½ μᵀA M⁻¹ Aᵀμ) with
// M = β²AᵀA + AᵀΣA, Σ = diag(σᵢ²). Ratings are used as they are (no τ),
// as in the paper and the Microsoft calculator. A rating may have σ = 0
// (see Predict).
func (p Params) Quality(teams [][]Rating, weights [][]float64) (float64, error) {
	if err := p.Validate(); err != nil {
		return 0, err
	}
	m := &Match{Teams: teams, Weights: weights}
	if err := m.validateRatings(true); err != nil {
		return 0, err
	}
	if len(teams) == 2 {
		// One difference: AᵀA, AᵀΣA and Aᵀμ are the difference's parts.
		d := p.differenceOf(teams[0], teams[1], m.weightsOf(0), m.weightsOf(1), 0)
		if !(d.w2 > 0) {
			return 0, nil // a match whose weights are all 0 cannot be compared
		}
		base := p.Beta * p.Beta * d.w2
		full := base + d.skills
		return math.Sqrt(base/full) * math.Exp(-0.5*d.mu*d.mu/full), nil
	}
	return p.qualityK(m)
}

// qualityK is Quality's k-team form, from the structure of A: its
// columns are the differences of adjacent teams' performances, which are
// independent, t_j ~ N(m_j, T_j) with m_j = Σ wμ and T_j = Σ w²(β² + σ²)
// over team j (T^β_j = β²Σw² for the base), so that M = Aᵀ diag(T) A on
// teams. On a path the matrix-tree theorem gives
//
//	det M = Σ_j Π_{l≠j} T_l = Π T · Σ 1/T_j,
//
// and the Schur complement of the constant direction gives
//
//	μᵀA M⁻¹ Aᵀμ = Σ_j (m_j − m̄)²/T_j,   m̄ = Σ(m_j/T_j) / Σ(1/T_j),
//
// the weighted spread of the team means. Both are sums of positive terms:
// forming M and factorising it would instead subtract numbers of
// magnitude σ² + β² to find one of β², which loses every digit of the
// determinant once the two are 1e18 apart (σ = 1e9 and β = 1 in the
// domain). A team whose weights are all 0 has T_j = 0: its performance is
// exactly 0, a fixed point that the others are measured from, and the
// determinants are the products over the other teams; two such teams
// cannot be compared at all (quality 0).
func (p Params) qualityK(m *Match) (float64, error) {
	b2 := p.Beta * p.Beta
	var (
		logRatio     float64 // log Π_{T_j > 0} T^β_j / T_j
		inv, invBase float64 // Σ 1/T_j and Σ 1/T^β_j over the teams with T_j > 0
		pinned       = -1    // the team with T_j = 0, if one
		base0        float64 // the reference mean (m_0, or the pinned team's)
	)
	means, vars := make([]float64, len(m.Teams)), make([]float64, len(m.Teams))
	for j, team := range m.Teams {
		var w2 float64
		for i, r := range team {
			w := m.weight(j, i)
			means[j] += w * r.Mu
			w2 += w * w
			vars[j] += w * w * (b2 + r.Sigma*r.Sigma)
		}
		if vars[j] == 0 {
			if pinned >= 0 {
				return 0, nil // two teams whose weights are all 0 cannot be compared
			}
			pinned = j
			continue
		}
		base := b2 * w2
		logRatio += math.Log(base / vars[j])
		inv += 1 / vars[j]
		invBase += 1 / base
	}
	if pinned < 0 {
		logRatio += math.Log(invBase / inv)
		base0 = means[0]
	} else {
		base0 = means[pinned]
	}
	// The weighted spread, with the means taken from base0 so that a
	// large common offset does not enter.
	var centre float64
	if pinned < 0 {
		for j := range means {
			centre += (means[j] - base0) / vars[j]
		}
		centre /= inv
	}
	var quad float64
	for j := range means {
		if j != pinned {
			d := means[j] - base0 - centre
			quad += d * d / vars[j]
		}
	}
	q := math.Exp(0.5*logRatio - 0.5*quad)
	if !(q >= 0 && q <= 1) {
		return 0, fmt.Errorf("trueskill: match quality %v of ratings (Teams.Mu, Teams.Sigma) beyond float64: %w", q, ErrNumerical)
	}
	return q, nil
}

// Prediction is the outcome of a match between two teams, A and B, as a
// model predicts it: the chances that A wins, that they draw, and that A
// loses. elo.Prediction and scorebased.Prediction have the same fields.
type Prediction struct {
	Win, Draw, Loss float64
}

// Predict returns the probabilities that team a beats team b, that they
// draw, and that b beats a, in a match between the two alone: with the
// performance difference d = t_a − t_b ~ N(Δμ, c²), c² = Σ(σ² + τ² + β²)
// over both teams, and ε the pair's draw margin, win = Φ((Δμ − ε)/c),
// draw = P(|d| ≤ ε), loss = Φ((−Δμ − ε)/c); without a draw margin win is
// equation 11 of the score-based paper (Guo et al. 2012), Φ(Δμ/c). τ is
// included because the next match happens after the dynamics, which makes
// a win's probability equal to the evidence Rate reports for it.
//
// A rating may have σ = 0, a skill known exactly: d is still Gaussian,
// with variance at least 2β² > 0, so the prediction is well defined.
func (p Params) Predict(a, b []Rating) (Prediction, error) {
	win, draw, loss, err := p.outcomes(a, b)
	return Prediction{Win: win, Draw: draw, Loss: loss}, err
}

func (p Params) outcomes(a, b []Rating) (win, draw, loss float64, err error) {
	if err := p.Validate(); err != nil {
		return 0, 0, 0, err
	}
	if err := (&Match{Teams: [][]Rating{a, b}}).validateRatings(true); err != nil {
		return 0, 0, 0, err
	}
	d := p.differenceOf(a, b, nil, nil, p.Tau*p.Tau)
	c := math.Sqrt(d.c2)
	eps := p.Margin(len(a), len(b))
	t, e := d.mu/c, eps/c
	win = messages.NormCDF(t - e)
	loss = messages.NormCDF(-t - e)
	if eps > 0 {
		draw = math.Exp(messages.LogWithinMass(t, e))
	}
	return win, draw, loss, nil
}

// WinProbability returns the probability that team a beats team b (see
// Predict).
func (p Params) WinProbability(a, b []Rating) (float64, error) {
	win, _, _, err := p.outcomes(a, b)
	return win, err
}
