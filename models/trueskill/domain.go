package trueskill

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/skillgraph/skillgraph/messages"
)

// The model's domain, in one place.
//
// Every rating mean (and Params.Mu) is within ±maxMu, and every scale,
// σ, β and the per-player β of a Contest, is within [minScale, maxScale];
// τ and the draw margin are in [0, maxScale], and a weight is 0 or within
// [minScale, maxScale]. The ranges cover every rating scale in use with
// orders of magnitude to spare on both sides: TrueSkill's own (25 ± 8.3),
// chess (1500 ± 350), a league scored in [0, 1e6] (σ up to about 1e5), a
// scale of a thousandth, and a σ that shrinks as 1/√n over billions of
// games. Inside them float64 carries every quantity of the model without
// overflow or underflow: each player's variance term w²(σ² + τ² + β²)
// lies in [1e-36, 3e36], a standardised difference μ_d/c is below 1e40
// times the number of players, and a posterior variance above 1e-91
// divided by it, all far from float64's limits (about 1e±308). So the
// two-team closed form, the predictions and the factor graph compute in
// float64 directly, and anything outside the domain is ErrInput naming
// the argument.
//
// Predictions (Predict, WinProbability, Quality) also take σ = 0: a rating
// known exactly is a point mass, and with β > 0 the performance difference
// is still a proper Gaussian.
//
// Every path checks what it returns: finite means, a posterior σ > 0 whose
// square is a normal float64, and a finite log evidence ≤ 0. Anything else
// is ErrNumerical naming the input it came from, never a NaN or an
// infinity with a nil error. A posterior may leave the domain only from an
// input near its edge (σ near 1e-9 with τ = 0, μ near ±1e12); the next
// call then rejects it with ErrInput.
const (
	maxMu    = 1e12
	minScale = 1e-9
	maxScale = 1e9
)

// muOK reports whether a mean is within ±maxMu (NaN is not).
func muOK(mu float64) bool { return math.Abs(mu) <= maxMu }

// inRange reports whether x is in [lo, hi] (NaN is not), or 0 if zero is
// set.
func inRange(x, lo, hi float64, zero bool) bool { return x >= lo && x <= hi || zero && x == 0 }

// ValidWeight reports whether w is a weight (Match.Weights) or a player's
// own β (Contest.Betas) in the domain: 0 or in [1e-9, 1e9]. Packages that
// pass such values on to Rate or Declare check them with it, so that the
// domain has one home.
func ValidWeight(w float64) bool { return inRange(w, minScale, maxScale, true) }

// ratingOK reports whether r is in the domain; pointMass allows σ = 0.
// The checks are small enough to inline, and the reasons (muWhy,
// rangeWhy) are built only for a value outside, so that a valid input
// costs a few comparisons and allocates nothing.
func ratingOK(r Rating, pointMass bool) bool {
	return muOK(r.Mu) && inRange(r.Sigma, minScale, maxScale, pointMass)
}

// muWhy returns why a mean is outside ±maxMu (or NaN), or "".
func muWhy(mu float64) string {
	if muOK(mu) {
		return ""
	}
	return "not a finite number within ±1e12"
}

// rangeWhy returns why x is outside [lo, hi] (NaN included), or "";
// zero allows x = 0.
func rangeWhy(x, lo, hi float64, zero bool) string {
	if inRange(x, lo, hi, zero) {
		return ""
	}
	return outside(lo, hi, zero)
}

// outside says that a value is outside [lo, hi] (or {0} ∪ [lo, hi]).
func outside(lo, hi float64, zero bool) string {
	if zero {
		return fmt.Sprintf("neither 0 nor in [%s, %s]", bound(lo), bound(hi))
	}
	return fmt.Sprintf("not in [%s, %s]", bound(lo), bound(hi))
}

// bound formats a bound of the domain as the documentation writes it
// (1e9, not 1e+09).
func bound(x float64) string {
	return strings.NewReplacer("e+0", "e", "e+", "e", "e-0", "e-").Replace(strconv.FormatFloat(x, 'g', -1, 64))
}

// Validate reports a rating outside the model's domain, an *InputError
// wrapping ErrInput that names the field: a mean that is not a number
// within ±1e12, or a σ outside [1e-9, 1e9]. Every rating that Rate and
// the Rater take passes it (a prediction also takes σ = 0), and so does
// every rating they return from an input away from the domain's edge.
func (r Rating) Validate() error {
	if ratingOK(r, false) {
		return nil
	}
	return ratingErr(r, false, "Rating")
}

// checkRating reports a rating of a match (team j, player i) outside the
// domain; pointMass allows σ = 0.
func checkRating(r Rating, pointMass bool, j, i int) error {
	if ratingOK(r, pointMass) {
		return nil
	}
	return ratingErr(r, pointMass, "Teams", j, i)
}

// ratingErr says why r, which is not ratingOK, is outside the domain.
func ratingErr(r Rating, pointMass bool, field string, index ...int) error {
	if why := muWhy(r.Mu); why != "" {
		return inputErr(field+".Mu", why, r.Mu, index...)
	}
	return inputErr(field+".Sigma", rangeWhy(r.Sigma, minScale, maxScale, pointMass), r.Sigma, index...)
}

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

// resultOK reports whether a computed rating has a finite mean and a σ
// whose square is a normal float64.
func resultOK(out Rating) bool {
	return messages.IsFinite(out.Mu) && out.Sigma > 0 && messages.IsNormalVariance(out.Sigma*out.Sigma)
}

// checkResult reports a rating computed from input r (team j, player i)
// that is not resultOK.
func checkResult(out, r Rating, j, i int) error {
	switch {
	case resultOK(out):
		return nil
	case !messages.IsFinite(out.Mu):
		return numErr("Teams.Mu", fmt.Sprintf("posterior μ = %v", out.Mu), r.Mu, j, i)
	}
	return numErr("Teams.Sigma", fmt.Sprintf("posterior σ = %v", out.Sigma), r.Sigma, j, i)
}

// checkGraphResult says which of the ratings a graph run returns (in the
// caller's order), or its log evidence, is not a valid input to the next
// graph match with the same parameters: Game.result calls it once the
// checks made while reading them have failed.
func checkGraphResult(p *Params, m *Match, res *Result) error {
	t2 := p.Tau * p.Tau
	for j, team := range res.Ratings {
		for i, r := range team {
			if err := checkResult(r, m.Teams[j][i], j, i); err != nil {
				return err
			}
			if why := graphRating(r, t2); why != "" {
				return numErr("Teams.Sigma", fmt.Sprintf("posterior N(%v, %v²): %s", r.Mu, r.Sigma, why), m.Teams[j][i].Sigma, j, i)
			}
		}
	}
	return checkEvidence(res.LogEvidence)
}

// evidenceOK reports whether lz is a finite log probability.
func evidenceOK(lz float64) bool { return messages.IsFinite(lz) && lz <= 0 }

// checkEvidence rejects a log evidence that is not a finite log
// probability.
func checkEvidence(lz float64) error {
	if !evidenceOK(lz) {
		return fmt.Errorf("trueskill: the outcome's log probability %v is not a finite number ≤ 0: %w", lz, ErrNumerical)
	}
	return nil
}
