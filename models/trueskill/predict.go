package trueskill

import (
	"fmt"
	"math"

	"github.com/skillgraph/skillgraph/messages"
	"gonum.org/v1/gonum/mat"
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

// qualityK is Quality's k-team form: the columns of A are the differences
// of adjacent teams, and AᵀA, AᵀΣA and Aᵀμ are accumulated without
// forming A.
func (p Params) qualityK(m *Match) (float64, error) {
	k := len(m.Teams) - 1
	ata := mat.NewSymDense(k, nil)
	atsa := mat.NewSymDense(k, nil)
	atmu := mat.NewVecDense(k, nil)
	for j, team := range m.Teams {
		for i, r := range team {
			w := m.weight(j, i)
			// Player (j, i) has +w in column j and −w in column j−1.
			var cols [2]int
			var vals [2]float64
			n := 0
			if j < k {
				cols[n], vals[n] = j, w
				n++
			}
			if j > 0 {
				cols[n], vals[n] = j-1, -w
				n++
			}
			for x := 0; x < n; x++ {
				atmu.SetVec(cols[x], atmu.AtVec(cols[x])+vals[x]*r.Mu)
				for y := x; y < n; y++ {
					a, b := cols[x], cols[y]
					ata.SetSym(a, b, ata.At(a, b)+vals[x]*vals[y])
					atsa.SetSym(a, b, atsa.At(a, b)+vals[x]*vals[y]*r.Sigma*r.Sigma)
				}
			}
		}
	}
	var base, full mat.SymDense
	base.ScaleSym(p.Beta*p.Beta, ata)
	full.AddSym(&base, atsa)
	var cb, cf mat.Cholesky
	if !cb.Factorize(&base) || !cf.Factorize(&full) {
		return 0, nil // a team whose weights are all zero cannot be compared
	}
	var x mat.VecDense
	if err := cf.SolveVecTo(&x, atmu); err != nil {
		return 0, nil
	}
	quad := mat.Dot(atmu, &x)
	q := math.Exp(0.5*(cb.LogDet()-cf.LogDet()) - 0.5*quad)
	if !(q >= 0 && q <= 1) {
		return 0, fmt.Errorf("trueskill: match quality %v: the matrices of the ratings (Teams.Mu, Teams.Sigma) are too ill-conditioned for float64: %w", q, ErrNumerical)
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
