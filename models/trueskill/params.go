package trueskill

import (
	"fmt"
	"math"

	"github.com/skillgraph/skillgraph/schedules"
)

// Params are the parameters of the TrueSkill model. They are a plain value:
// copy and share them freely, including across goroutines.
type Params struct {
	Mu    float64 `json:"mu"`    // μ₀, the prior mean of a new player
	Sigma float64 `json:"sigma"` // σ₀, the prior standard deviation of a new player
	Beta  float64 `json:"beta"`  // β, the standard deviation of a performance around the skill
	Tau   float64 `json:"tau"`   // τ, the dynamics: τ² is added to every σ² before a match
	// DrawProbability p in [0, 1) sets the draw margin of each pair of
	// adjacent teams with n₁ and n₂ players: ε = Φ⁻¹((p+1)/2)·√(n₁+n₂)·β
	// (paper section 4.1). 0 means draws are impossible (ε = 0).
	DrawProbability float64 `json:"draw_probability"`
	// DrawMargin, if positive, is used as ε for every pair instead of the
	// value derived from DrawProbability.
	DrawMargin float64 `json:"draw_margin,omitempty"`
	// Tolerance and MaxIterations control the loop over the chain of team
	// differences in games of three or more teams (defaults
	// schedules.DefaultTolerance, on the scale-free metric
	// messages.Distance, and schedules.DefaultMaxIterations). At the default
	// tolerance the posteriors are within it of the converged ones.
	Tolerance     float64 `json:"tolerance,omitempty"`
	MaxIterations int     `json:"max_iterations,omitempty"`
}

// DefaultParams returns the paper's parameters (section 4.2): μ₀ = 25,
// σ₀ = 25/3, β = σ₀/2, τ = σ₀/100, and a draw probability of 0.10.
func DefaultParams() Params {
	return Params{Mu: 25, Sigma: 25.0 / 3, Beta: 25.0 / 6, Tau: 25.0 / 300, DrawProbability: 0.10}
}

// Validate reports the first parameter outside the model's domain as an
// *InputError wrapping ErrInput: |μ₀| ≤ 1e12; σ₀ and β in [1e-9, 1e9]; τ
// and DrawMargin in [0, 1e9]; DrawProbability in [0, 1); Tolerance finite
// and ≥ 0; MaxIterations ≥ 0. The same ranges bound every rating (see
// Match); they cover every rating scale in use, and inside them float64
// carries the model without overflow or underflow.
func (p Params) Validate() error {
	if why := muWhy(p.Mu); why != "" {
		return inputErr("Params.Mu", why, p.Mu)
	}
	// One check per field rather than a loop over a table: Validate runs on
	// every Rate1v1, and a table is built on each call.
	if why := rangeWhy(p.Sigma, minScale, maxScale, false); why != "" {
		return inputErr("Params.Sigma", why, p.Sigma)
	}
	if err := p.validateBeta(); err != nil {
		return err
	}
	if why := rangeWhy(p.Tau, 0, maxScale, false); why != "" {
		return inputErr("Params.Tau", why, p.Tau)
	}
	if err := p.validateDraw(); err != nil {
		return err
	}
	return p.validateLoop()
}

// validateBeta is Validate's check of β.
func (p Params) validateBeta() error {
	if why := rangeWhy(p.Beta, minScale, maxScale, false); why != "" {
		return inputErr("Params.Beta", why, p.Beta)
	}
	return nil
}

// validateDraw is Validate's check of the draw margin and probability.
func (p Params) validateDraw() error {
	if why := rangeWhy(p.DrawMargin, 0, maxScale, false); why != "" {
		return inputErr("Params.DrawMargin", why, p.DrawMargin)
	}
	if !(p.DrawProbability >= 0 && p.DrawProbability < 1) {
		return inputErr("Params.DrawProbability", "not a probability in [0, 1)", p.DrawProbability)
	}
	return nil
}

// validateLoop is Validate's check of the chain's loop settings.
func (p Params) validateLoop() error {
	switch {
	case !(p.Tolerance >= 0) || math.IsInf(p.Tolerance, 1):
		return inputErr("Params.Tolerance", "negative or not finite", p.Tolerance)
	case p.MaxIterations < 0:
		return inputErr("Params.MaxIterations", "negative", float64(p.MaxIterations))
	}
	return nil
}

// NewRating returns the rating of a new player, N(μ₀, σ₀²).
func (p Params) NewRating() Rating { return Rating{Mu: p.Mu, Sigma: p.Sigma} }

// Margin returns the draw margin ε between two adjacent teams of n1 and n2
// players: DrawMargin if set, else Φ⁻¹((p+1)/2)·√(n1+n2)·β.
func (p Params) Margin(n1, n2 int) float64 {
	if p.DrawMargin > 0 {
		return p.DrawMargin
	}
	return DrawMargin(p.DrawProbability, p.Beta, n1+n2)
}

// DrawMargin returns ε = Φ⁻¹((p+1)/2)·√n·β, the margin that makes a draw
// between two evenly matched teams with n players in all have probability p
// (TrueSkill paper, section 4.1: p = 2Φ(ε/(√n·β)) − 1). It is evaluated as
// √2·erfinv(p)·√n·β, which equals it without rounding (p+1)/2 to 1 for p
// within an ulp of 1.
func DrawMargin(p, beta float64, n int) float64 {
	if p <= 0 {
		return 0
	}
	return math.Sqrt2 * math.Erfinv(p) * math.Sqrt(float64(n)) * beta
}

// Exposure returns the leaderboard value μ − (μ₀/σ₀)·σ (k = 3 with the
// default parameters: the paper's conservative estimate μ − 3σ).
func (p Params) Exposure(r Rating) float64 { return r.Conservative(p.Mu / p.Sigma) }

// Stability returns the share of the starting variance a rating has shed,
// 1 − σ²/σ₀², as a league's rating page ("Your rating, explained")
// shows it: about 26 % after one game against a similar opponent.
func (p Params) Stability(r Rating) float64 { return 1 - (r.Sigma*r.Sigma)/(p.Sigma*p.Sigma) }

func (p Params) tolerance() float64 {
	if p.Tolerance > 0 {
		return p.Tolerance
	}
	return schedules.DefaultTolerance
}

func (p Params) maxIterations() int {
	if p.MaxIterations > 0 {
		return p.MaxIterations
	}
	return schedules.DefaultMaxIterations
}

// Rating is a belief about a player's skill, N(Mu, Sigma²). It marshals to
// JSON as {"mu":…,"sigma":…}, and every float64 survives the round trip.
type Rating struct {
	Mu    float64 `json:"mu"`
	Sigma float64 `json:"sigma"`
}

// Conservative returns μ − k·σ; k = 3 is the paper's 1 % lower quantile.
func (r Rating) Conservative(k float64) float64 { return r.Mu - k*r.Sigma }

// DisplayRating returns (μ − σ)·48, the rating a league's rating page
// ("Your rating, explained") shows: a new player shows ≈ 800.
func (r Rating) DisplayRating() float64 { return (r.Mu - r.Sigma) * 48 }

// String formats the rating as N(μ, σ²) with σ spelled out.
func (r Rating) String() string { return fmt.Sprintf("N(μ=%.4f, σ=%.4f)", r.Mu, r.Sigma) }
