package trueskill

import (
	"math"
	"math/big"

	"github.com/skillgraph/skillgraph/messages"
)

// Wide arithmetic for the two-team closed form: the formulas of twoTeams
// (and of Predict and two-team Quality) evaluated in
// big.Float, whose exponent range no rating or parameter can leave, for the
// rare inputs whose variances or mean difference leave float64's (see
// numeric.go). Only the standardised quantities t = μ_d/c and ε/c, which
// the truncation corrections need, are rounded to float64 in between, and
// every result is rounded once at the end.

// widePrec is the working precision in bits: enough that the sums of a few
// hundred terms of very different size, and the few operations after them,
// round to the same float64 as exact arithmetic would.
const widePrec = 192

func wf(x float64) *big.Float         { return new(big.Float).SetPrec(widePrec).SetFloat64(x) }
func wadd(x, y *big.Float) *big.Float { return new(big.Float).SetPrec(widePrec).Add(x, y) }
func wsub(x, y *big.Float) *big.Float { return new(big.Float).SetPrec(widePrec).Sub(x, y) }
func wmul(x, y *big.Float) *big.Float { return new(big.Float).SetPrec(widePrec).Mul(x, y) }
func wquo(x, y *big.Float) *big.Float { return new(big.Float).SetPrec(widePrec).Quo(x, y) }
func wsq(x *big.Float) *big.Float     { return wmul(x, x) }

// wsqrt returns √x for x ≥ 0 (big.Float.Sqrt panics below 0 and is not
// defined at 0).
func wsqrt(x *big.Float) *big.Float {
	if x.Sign() <= 0 {
		return wf(0)
	}
	return new(big.Float).SetPrec(widePrec).Sqrt(x)
}

// f64 rounds x to the nearest float64 (±Inf beyond the range, a subnormal
// or ±0 below it).
func f64(x *big.Float) float64 {
	f, _ := x.Float64()
	return f
}

// wideMargin is Params.Margin in wide arithmetic.
func (p Params) wideMargin(n1, n2 int) *big.Float {
	switch {
	case p.DrawMargin > 0:
		return wf(p.DrawMargin)
	case p.DrawProbability <= 0:
		return wf(0)
	}
	// DrawMargin's √2·erfinv(p)·√n·β, with the product not rounded.
	return wmul(wmul(wf(math.Sqrt2*math.Erfinv(p.DrawProbability)), wsqrt(wf(float64(n1+n2)))), wf(p.Beta))
}

// wideDiff is the difference d = t_A − t_B of a two-team match: its mean
// and variance c² (with τ and β), and each player's w²(σ² + τ²) and
// w²(σ² + τ² + β²).
type wideDiff struct {
	mu, c2, c *big.Float
	x, term   [][]*big.Float // by team (A, then B) and player
}

// newWideDiff computes d for teams a (sign +) and b (sign −); weight gives
// each player's weight and tau whether τ² is added to σ².
func (p Params) newWideDiff(a, b []Rating, weight func(team, i int) float64, tau bool) wideDiff {
	t2, b2 := wf(0), wsq(wf(p.Beta))
	if tau {
		t2 = wsq(wf(p.Tau))
	}
	d := wideDiff{mu: wf(0), c2: wf(0)}
	for k, team := range [2][]Rating{a, b} {
		xs, terms := make([]*big.Float, len(team)), make([]*big.Float, len(team))
		for i, r := range team {
			w := wf(weight(k, i))
			w2 := wsq(w)
			v := wadd(wsq(wf(r.Sigma)), t2)
			xs[i], terms[i] = wmul(w2, v), wmul(w2, wadd(v, b2))
			d.c2 = wadd(d.c2, terms[i])
			wm := wmul(w, wf(r.Mu))
			if k == 1 {
				wm.Neg(wm)
			}
			d.mu = wadd(d.mu, wm)
		}
		d.x, d.term = append(d.x, xs), append(d.term, terms)
	}
	d.c = wsqrt(d.c2)
	return d
}

// wideTruncation returns the corrections of the win (or draw) factor at
// the standardised t = μ_d/c and ε/c, with V wide: where t leaves float64's
// range V is its asymptote, the distance to the edge of the kept set
// (V = y + O(1/y) with y ≥ 1.8e308), and 1 − W = O(1/y²) is 0.
func wideTruncation(t, e *big.Float, drawn bool) (tr messages.Truncation, v *big.Float, ok bool) {
	tf, ef := f64(t), f64(e)
	if !drawn {
		x := wsub(t, e)
		xf := f64(x)
		tr = messages.GreaterThan(xf, 0)
		if math.IsInf(xf, -1) {
			return tr, x.Neg(x), true
		}
	} else {
		tr = messages.Within(tf, ef)
		if math.IsInf(tf, 0) && !math.IsInf(ef, 0) {
			edge := e // the nearer edge of [−ε, ε]
			if tf < 0 {
				edge = new(big.Float).Neg(e)
			}
			return messages.Truncation{W: 1, OneMinusW: 0}, wsub(edge, t), true
		}
	}
	if !messages.IsFinite(tr.V) || math.IsNaN(tr.W) || math.IsNaN(tr.OneMinusW) {
		return tr, nil, false
	}
	return tr, wf(tr.V), true
}

// wideTwoTeams is rateTwoTeams' update in wide arithmetic: team a ranked
// first, b second (or drawn), posteriors written into out; the log
// evidence if evidence is set.
func (p Params) wideTwoTeams(m *Match, a, b int, drawn, evidence bool, out [][]Rating) (float64, error) {
	d := p.newWideDiff(m.Teams[a], m.Teams[b], func(k, i int) float64 { return m.weight([2]int{a, b}[k], i) }, true)
	t := wquo(d.mu, d.c)
	e := wquo(p.wideMargin(len(m.Teams[a]), len(m.Teams[b])), d.c)
	tr, vw, ok := wideTruncation(t, e, drawn)
	if !ok {
		return 0, numErr("Teams.Mu", m.Teams[a][0].Mu, "the standardised margin of the match is not a number", a, 0)
	}
	var lz float64
	if evidence {
		if drawn {
			lz = messages.LogWithinMass(f64(t), f64(e))
		} else {
			lz = messages.LogNormCDF(f64(wsub(t, e)))
		}
		if err := checkEvidence(lz); err != nil {
			return 0, err
		}
	}
	omw, b2 := wf(tr.OneMinusW), wsq(wf(p.Beta))
	for k, j := range [2]int{a, b} {
		for i, r := range m.Teams[j] {
			w := wf(m.weight(j, i))
			// other = c² − w²σ², summed afresh so that a player who carries
			// nearly all of c² keeps the accuracy of the rest.
			other := wmul(wsq(w), b2)
			for k2, terms := range d.term {
				for i2, term := range terms {
					if k2 != k || i2 != i {
						other = wadd(other, term)
					}
				}
			}
			x := d.x[k][i]
			v := wadd(wsq(wf(r.Sigma)), wsq(wf(p.Tau)))
			shift := wmul(wquo(wmul(w, v), d.c), vw)
			if k == 1 {
				shift.Neg(shift)
			}
			mu := f64(wadd(wf(r.Mu), shift))
			sigma := f64(wsqrt(wmul(v, wquo(wadd(other, wmul(x, omw)), d.c2))))
			if !messages.IsFinite(mu) {
				return 0, numErr("Teams.Mu", r.Mu, "the posterior μ overflows", j, i)
			}
			if !(sigma > 0) || math.IsInf(sigma, 1) {
				return 0, numErr("Teams.Sigma", r.Sigma, "the posterior σ leaves the float64 range", j, i)
			}
			out[j][i] = Rating{Mu: mu, Sigma: sigma}
		}
	}
	return lz, nil
}
