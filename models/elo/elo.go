package elo

import (
	"errors"
	"fmt"
	"math"

	"github.com/skillgraph/skillgraph/messages"
)

// Params are the parameters of Elo.
type Params struct {
	Initial float64 `json:"initial"` // rating of a new player
	Beta    float64 `json:"beta"`    // performance standard deviation β
	Alpha   float64 `json:"alpha"`   // learning rate α in (0, 1)
}

// DefaultParams returns the paper's α = 0.07 on the TrueSkill scale:
// initial rating 25 and β = 25/6.
func DefaultParams() Params { return Params{Initial: 25, Beta: 25.0 / 6, Alpha: 0.07} }

// Errors, matched with errors.Is.
var (
	// ErrInput reports invalid parameters or input.
	ErrInput = errors.New("elo: invalid input")
	// ErrNumerical reports a new rating beyond float64's range (ratings
	// near ±1.8e308); the error names the player.
	ErrNumerical = errors.New("elo: numbers out of floating-point range")
)

// Validate reports invalid parameters: a rating or β that is not finite, β
// ≤ 0, α outside (0, 1), or a K-factor αβ√π that overflows.
func (p Params) Validate() error {
	if !messages.IsFinite(p.Initial) || !(p.Beta > 0) || math.IsInf(p.Beta, 1) || !(p.Alpha > 0 && p.Alpha < 1) {
		return fmt.Errorf("%w: %+v", ErrInput, p)
	}
	if k := p.K(); !messages.IsFinite(k) {
		return fmt.Errorf("%w: Beta = %v: the K-factor αβ√π = %v overflows", ErrInput, p.Beta, k)
	}
	return nil
}

// K returns the K-factor αβ√π.
func (p Params) K() float64 { return p.Alpha * p.Beta * math.Sqrt(math.Pi) }

// WinProbability returns Φ((s₁ − s₂)/(√2·β)), eq. 1. It is defined for
// valid parameters (Validate) and finite ratings, for which it is a
// probability (a difference that overflows gives Φ's limits, 0 or 1); it
// returns NaN for a NaN rating or β = 0 with equal ratings.
func (p Params) WinProbability(s1, s2 float64) float64 {
	return 0.5 * math.Erfc(-(s1/2-s2/2)/p.Beta)
}

// Delta returns the change of player 1's rating after a game against
// player 2 with outcome y ∈ {+1, 0, −1} for player 1; player 2 changes by
// −Delta. Like WinProbability, it is defined for valid parameters and
// finite ratings, and then finite (|Delta| ≤ K).
func (p Params) Delta(s1, s2 float64, y int) float64 {
	return p.K() * ((float64(y)+1)/2 - p.WinProbability(s1, s2))
}

// Rate returns the new ratings of the players of teams (ratings before the
// game) given ranks (lower is better, equal ranks draw), by the duelling
// heuristic. The result has the shape of teams.
func (p Params) Rate(teams [][]float64, ranks []int) ([][]float64, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if len(teams) < 2 || len(ranks) != len(teams) {
		return nil, fmt.Errorf("%w: %d teams, %d ranks", ErrInput, len(teams), len(ranks))
	}
	for j, t := range teams {
		if len(t) == 0 {
			return nil, fmt.Errorf("%w: team %d is empty", ErrInput, j)
		}
		for i, s := range t {
			if math.IsNaN(s) || math.IsInf(s, 0) {
				return nil, fmt.Errorf("%w: rating [%d][%d] = %v", ErrInput, j, i, s)
			}
		}
	}
	total := 0
	for _, t := range teams {
		total += len(t)
	}
	out := make([][]float64, len(teams))
	for j, t := range teams {
		out[j] = make([]float64, len(t))
		n := float64(total - len(t))
		for i, s := range t {
			// The mean of the Δs against every opponent, summed as Δ/n so
			// that n Δs near ±K cannot overflow.
			var mean float64
			for k, u := range teams {
				if k == j {
					continue
				}
				y := 0
				switch {
				case ranks[j] < ranks[k]:
					y = 1
				case ranks[j] > ranks[k]:
					y = -1
				}
				for _, o := range u {
					mean += p.Delta(s, o, y) / n
				}
			}
			if out[j][i] = s + mean; !messages.IsFinite(out[j][i]) {
				return nil, fmt.Errorf("%w: player [%d][%d]'s rating %v + %v overflows", ErrNumerical, j, i, s, mean)
			}
		}
	}
	return out, nil
}
