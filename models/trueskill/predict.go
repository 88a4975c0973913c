package trueskill

import (
	"fmt"
	"math"
	"math/big"

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
		if !(ata > 0) {
			return 0, nil // a side whose weights are all 0 cannot be compared
		}
		base := p.Beta * p.Beta * ata
		full := base + atsa
		q := math.Sqrt(base/full) * math.Exp(-0.5*atmu*atmu/full)
		if messages.IsNormalVariance(base) && messages.IsNormalVariance(full) && messages.IsFinite(atmu) && messages.IsFinite(q) {
			return q, nil
		}
		// The same ratio in wide arithmetic (β² or σ² beyond float64's
		// range, means near ±1.8e308); q underflows to 0 correctly.
		d := p.newWideDiff(teams[0], teams[1], m.weight, false)
		w2 := wf(0)
		for j, team := range teams {
			for i := range team {
				w2 = wadd(w2, wsq(wf(m.weight(j, i))))
			}
		}
		wbase := wmul(wsq(wf(p.Beta)), w2)
		return f64(wsqrt(wquo(wbase, d.c2))) * math.Exp(-0.5*f64(wquo(wsq(d.mu), d.c2))), nil
	}
	// The k-team form works in float64 matrices: it needs the graph's range
	// (without τ, which Quality does not use).
	noTau := p
	noTau.Tau = 0
	if err := checkGraphRange(&noTau, m); err != nil {
		return 0, err
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
	q := math.Exp(0.5*(cb.LogDet()-cf.LogDet()) - 0.5*quad)
	if !(q >= 0 && q <= 1) {
		return 0, fmt.Errorf("trueskill: %w: match quality %v of ratings too extreme for float64 matrices (Teams.Mu, Teams.Sigma)", ErrNumerical, q)
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
// draw, and that b beats a, in a match between the two alone:
// with d = t_a − t_b ~ N(Δμ, c²), c² = Σ(σ² + τ² + β²) over both teams and
// ε the pair's draw margin, win = Φ((Δμ − ε)/c), draw = P(|d| ≤ ε),
// loss = Φ((−Δμ − ε)/c). τ is included because the next match happens after
// the dynamics, which makes a win's probability equal to the evidence Rate
// reports for it.
func (p Params) Predict(a, b []Rating) (Prediction, error) {
	win, draw, loss, err := p.outcomes(a, b)
	return Prediction{Win: win, Draw: draw, Loss: loss}, err
}

func (p Params) outcomes(a, b []Rating) (win, draw, loss float64, err error) {
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
	// The standardised difference t = Δμ/c and margin e = ε/c, from the
	// wide form where c², Δμ or ε leave float64's range.
	t, e := mu/c, eps/c
	if !messages.IsNormalVariance(c2) || !messages.IsFinite(mu) || !messages.IsFinite(e) {
		d := p.newWideDiff(a, b, func(int, int) float64 { return 1 }, true)
		wt, we := wquo(d.mu, d.c), wquo(p.wideMargin(len(a), len(b)), d.c)
		t, e = f64(wt), f64(we)
		win = messages.NormCDF(f64(wsub(wt, we)))
		loss = messages.NormCDF(f64(wsub(new(big.Float).Neg(wt), we)))
	} else {
		win = messages.NormCDF(t - e)
		loss = messages.NormCDF(-t - e)
	}
	if eps > 0 {
		draw = math.Exp(messages.LogWithinMass(t, e))
	}
	if !(win >= 0 && draw >= 0 && loss >= 0) {
		return 0, 0, 0, fmt.Errorf("trueskill: %w: outcome probabilities %v, %v, %v (Teams.Mu, Teams.Sigma)", ErrNumerical, win, draw, loss)
	}
	return win, draw, loss, nil
}

// WinProbability returns the probability that team a beats team b (see
// Predict).
func (p Params) WinProbability(a, b []Rating) (float64, error) {
	win, _, _, err := p.outcomes(a, b)
	return win, err
}
