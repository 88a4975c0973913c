package trueskill

import (
	"fmt"
	"math"

	"github.com/skillgraph/skillgraph/messages"
)

// The model's numerical ranges, in one place.
//
// The two-team closed form (Rate and Rater.Rate of two teams, Rate1v1,
// Predict, two-team Quality) accepts every finite input: when
// a variance or a mean difference leaves float64's range (σ ≳ 1e154,
// σ ≲ 1e-154, β or τ ≳ 1e154, weights of 1e300, ratings near ±1.8e308) it
// repeats the same formulas in wide arithmetic (wide.go), so that the answer
// is returned whenever it is itself a float64.
//
// The factor graph (matches of three or more teams, RateGraph, NewGame, and
// Quality of three or more teams) carries variances and precisions as
// float64, so it needs every variance it is given to be a normal float64:
// β², and σ² + τ² for every player, in [2⁻¹⁰²², MaxFloat64], each prior's
// μ/(σ² + τ²) finite, and the sums Σw²(σ² + τ² + β²) and Σ|wμ| over the
// match finite. checkGraphRange
// rejects anything else up front with an *InputError that wraps
// ErrNumerical and names the input.
//
// Every path checks what it returns: finite means, posterior σ whose
// variance is usable by the next call on the same path, and a finite log
// evidence. Anything else is ErrNumerical naming the input it came from,
// never a NaN or an infinity with a nil error.

// graphRating returns why the graph cannot carry a rating as a prior with
// τ² = t2, or "": σ² + τ² must be a normal float64 and the natural
// parameter μ/(σ² + τ²) finite.
func graphRating(r Rating, t2 float64) string {
	switch v := r.Sigma*r.Sigma + t2; {
	case !messages.IsNormalVariance(v):
		return "σ² + τ² is not a normal float64"
	case !messages.IsFinite(r.Mu / v):
		return "μ/(σ² + τ²) overflows"
	}
	return ""
}

// closedFormOK reports whether a rating computed by the closed form's
// float64 path is exact to rounding: a finite mean and a σ whose square
// neither underflows nor overflows. Anything else is recomputed wide.
func closedFormOK(r Rating) bool {
	return messages.IsFinite(r.Mu) && messages.IsNormalVariance(r.Sigma*r.Sigma)
}

// numErr reports that what was computed from the input field[index] = v is
// out of float64's range.
func numErr(field string, v float64, what string, index ...int) error {
	return &InputError{Field: field, Index: index, Value: v, Err: fmt.Errorf("%w: %s", ErrNumerical, what)}
}

// checkGraphRange checks m against the graph's range (see above); p and m
// are already valid.
func checkGraphRange(p *Params, m *Match) error {
	b2, t2 := p.Beta*p.Beta, p.Tau*p.Tau
	if !messages.IsNormalVariance(b2) {
		return numErr("Params.Beta", p.Beta, "β² is not a normal float64")
	}
	if !(t2 <= math.MaxFloat64) {
		return numErr("Params.Tau", p.Tau, "τ² overflows")
	}
	var sumVar, sumMu float64
	for j, team := range m.Teams {
		for i, r := range team {
			if why := graphRating(r, t2); why != "" {
				return numErr("Teams.Sigma", r.Sigma, why, j, i)
			}
			v := r.Sigma*r.Sigma + t2
			w := m.weight(j, i)
			if term := w * w * (v + b2); !(term <= math.MaxFloat64) {
				if m.Weights != nil {
					return numErr("Weights", w, "w²(σ² + τ² + β²) overflows", j, i)
				}
				return numErr("Teams.Sigma", r.Sigma, "σ² + τ² + β² overflows", j, i)
			} else if sumVar += term; !(sumVar <= math.MaxFloat64) {
				return numErr("Teams.Sigma", r.Sigma, "the match's variance Σw²(σ² + τ² + β²) overflows", j, i)
			}
			if sumMu += math.Abs(w * r.Mu); !(sumMu <= math.MaxFloat64) {
				return numErr("Teams.Mu", r.Mu, "the match's Σ|wμ| overflows", j, i)
			}
		}
	}
	return nil
}

// checkGraphResult checks the ratings a graph run returns (in the caller's
// order) and its log evidence: each must be a valid input to the next graph
// match with the same parameters.
func checkGraphResult(p *Params, m *Match, res *Result) error {
	t2 := p.Tau * p.Tau
	for j, team := range res.Ratings {
		for i, r := range team {
			if !messages.IsFinite(r.Mu) {
				return numErr("Teams.Mu", m.Teams[j][i].Mu, fmt.Sprintf("posterior μ = %v", r.Mu), j, i)
			}
			if why := graphRating(r, t2); !(r.Sigma > 0) || why != "" {
				return numErr("Teams.Sigma", m.Teams[j][i].Sigma, fmt.Sprintf("posterior N(%v, %v²): %s", r.Mu, r.Sigma, why), j, i)
			}
		}
	}
	return checkEvidence(res.LogEvidence)
}

// checkEvidence rejects a log evidence that is not a finite log
// probability.
func checkEvidence(lz float64) error {
	if !messages.IsFinite(lz) || lz > 0 {
		return fmt.Errorf("trueskill: %w: the outcome's log probability %v is not a finite number ≤ 0 (Teams.Mu too far apart for float64)", ErrNumerical, lz)
	}
	return nil
}
