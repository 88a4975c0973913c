package trueskill

import (
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
// as in the paper and the Microsoft calculator.
func (p Params) Quality(teams [][]Rating, weights [][]float64) (float64, error) {
	if err := p.Validate(); err != nil {
		return 0, err
	}
	m := &Match{Teams: teams, Weights: weights}
	if err := m.validate(); err != nil {
		return 0, err
	}
	k := len(teams) - 1
	if k == 1 {
		// One difference: AᵀA, AᵀΣA and Aᵀμ are scalars.
		var ata, atsa, atmu float64
		for j, team := range teams {
			sign := 1.0
			if j == 1 {
				sign = -1
			}
			for i, r := range team {
				w := m.weight(j, i)
				ata += w * w
				atsa += w * w * r.Sigma * r.Sigma
				atmu += sign * w * r.Mu
			}
		}
		base := p.Beta * p.Beta * ata
		if !(base > 0) {
			return 0, nil
		}
		full := base + atsa
		return math.Sqrt(base/full) * math.Exp(-0.5*atmu*atmu/full), nil
	}
	// Columns of A are differences of adjacent teams; accumulate AᵀA, AᵀΣA
	// and Aᵀμ without forming A.
	ata := mat.NewSymDense(k, nil)
	atsa := mat.NewSymDense(k, nil)
	atmu := mat.NewVecDense(k, nil)
	for j, team := range teams {
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
	b2 := p.Beta * p.Beta
	var base, full mat.SymDense
	base.ScaleSym(b2, ata)
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
	return math.Exp(0.5*(cb.LogDet()-cf.LogDet()) - 0.5*quad), nil
}

// OutcomeProbabilities returns the probabilities that team a beats team b,
// that they draw, and that b beats a, in a match between the two alone:
// with d = t_a − t_b ~ N(Δμ, c²), c² = Σ(σ² + τ² + β²) over both teams and
// ε the pair's draw margin, win = Φ((Δμ − ε)/c), draw = P(|d| ≤ ε),
// loss = Φ((−Δμ − ε)/c). τ is included because the next match happens after
// the dynamics, which makes a win's probability equal to the evidence Rate
// reports for it.
func (p Params) OutcomeProbabilities(a, b []Rating) (win, draw, loss float64, err error) {
	if err := p.Validate(); err != nil {
		return 0, 0, 0, err
	}
	if err := (&Match{Teams: [][]Rating{a, b}}).validate(); err != nil {
		return 0, 0, 0, err
	}
	var mu, c2 float64
	for _, r := range a {
		mu += r.Mu
		c2 += r.Sigma*r.Sigma + p.Tau*p.Tau + p.Beta*p.Beta
	}
	for _, r := range b {
		mu -= r.Mu
		c2 += r.Sigma*r.Sigma + p.Tau*p.Tau + p.Beta*p.Beta
	}
	c := math.Sqrt(c2)
	eps := p.Margin(len(a), len(b))
	win = messages.NormCDF((mu - eps) / c)
	loss = messages.NormCDF((-mu - eps) / c)
	if eps > 0 {
		draw = math.Exp(messages.LogWithinMass(mu/c, eps/c))
	}
	return win, draw, loss, nil
}

// WinProbability returns the probability that team a beats team b (see
// OutcomeProbabilities).
func (p Params) WinProbability(a, b []Rating) (float64, error) {
	win, _, _, err := p.OutcomeProbabilities(a, b)
	return win, err
}
