package elo

import (
	"context"
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

// The errors elo returns wrap one of these, the project's vocabulary
// (package messages), with context naming the argument.
var (
	// ErrInput reports invalid parameters or input.
	ErrInput = messages.ErrInput
	// ErrNumerical reports a new rating beyond float64's range (ratings
	// near ±1.8e308); the error names the player.
	ErrNumerical = messages.ErrNumerical
)

// Validate reports invalid parameters: a rating or β that is not finite, β
// ≤ 0, α outside (0, 1), or a K-factor αβ√π that overflows.
func (p Params) Validate() error {
	if !messages.IsFinite(p.Initial) || !(p.Beta > 0) || math.IsInf(p.Beta, 1) || !(p.Alpha > 0 && p.Alpha < 1) {
		return fmt.Errorf("elo: parameters %+v: %w", p, ErrInput)
	}
	if k := p.K(); !messages.IsFinite(k) {
		return fmt.Errorf("elo: Beta = %v: the K-factor αβ√π = %v overflows: %w", p.Beta, k, ErrInput)
	}
	return nil
}

// K returns the K-factor αβ√π.
func (p Params) K() float64 { return p.Alpha * p.Beta * math.Sqrt(math.Pi) }

// Prediction is the outcome of a game between players 1 and 2 as Elo
// predicts it: Win and Loss are player 1's chances; Elo's performance model
// has no draws, so Draw is 0. trueskill.Prediction and
// scorebased.Prediction have the same fields.
type Prediction struct {
	Win, Draw, Loss float64
}

// WinProbability returns Φ((s₁ − s₂)/(√2·β)), eq. 1, for valid parameters
// and finite ratings (a difference that overflows gives Φ's limits, 0 or
// 1); anything else is an ErrInput.
func (p Params) WinProbability(s1, s2 float64) (float64, error) {
	if err := p.check(s1, s2); err != nil {
		return 0, err
	}
	return p.win(s1, s2), nil
}

// Predict returns the outcome probabilities of a game between ratings s1
// and s2: Win = WinProbability(s1, s2), Loss = 1 − Win, computed as
// Φ((s₂ − s₁)/(√2·β)) so that a small loss probability keeps its digits.
func (p Params) Predict(s1, s2 float64) (Prediction, error) {
	if err := p.check(s1, s2); err != nil {
		return Prediction{}, err
	}
	return Prediction{Win: p.win(s1, s2), Loss: p.win(s2, s1)}, nil
}

// Delta returns the change of player 1's rating after a game against
// player 2 with outcome y ∈ {+1, 0, −1} for player 1; player 2 changes by
// −Delta. For valid parameters and finite ratings it is finite (|Delta| ≤
// K); anything else is an ErrInput.
func (p Params) Delta(s1, s2 float64, y int) (float64, error) {
	if err := p.check(s1, s2); err != nil {
		return 0, err
	}
	if y < -1 || y > 1 {
		return 0, fmt.Errorf("elo: outcome %d, want +1, 0 or −1: %w", y, ErrInput)
	}
	return p.delta(s1, s2, y), nil
}

func (p Params) check(s1, s2 float64) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if !messages.IsFinite(s1) || !messages.IsFinite(s2) {
		return fmt.Errorf("elo: ratings %v and %v: %w", s1, s2, ErrInput)
	}
	return nil
}

// win is eq. 1 with the difference halved before it is divided, so that
// ratings near ±1.8e308 do not overflow it.
func (p Params) win(s1, s2 float64) float64 { return 0.5 * math.Erfc(-(s1/2-s2/2)/p.Beta) }

func (p Params) delta(s1, s2 float64, y int) float64 {
	return p.K() * ((float64(y)+1)/2 - p.win(s1, s2))
}

// Rate returns the new ratings of the players of teams (ratings before the
// game) given ranks (lower is better, equal ranks draw), by the duelling
// heuristic. The result has the shape of teams. It takes a context like
// every model's Rate (trueskill, scorebased), so that rating code can
// switch models; Elo's update is a closed form, so the context is only
// checked before it starts.
func (p Params) Rate(ctx context.Context, teams [][]float64, ranks []int) ([][]float64, error) {
	if ctx != nil {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("elo: %w", err)
		}
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if len(teams) < 2 || len(ranks) != len(teams) {
		return nil, fmt.Errorf("elo: %d teams, %d ranks: %w", len(teams), len(ranks), ErrInput)
	}
	for j, t := range teams {
		if len(t) == 0 {
			return nil, fmt.Errorf("elo: team %d is empty: %w", j, ErrInput)
		}
		for i, s := range t {
			if math.IsNaN(s) || math.IsInf(s, 0) {
				return nil, fmt.Errorf("elo: rating [%d][%d] = %v: %w", j, i, s, ErrInput)
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
					mean += p.delta(s, o, y) / n
				}
			}
			if out[j][i] = s + mean; !messages.IsFinite(out[j][i]) {
				return nil, fmt.Errorf("elo: player [%d][%d]'s rating %v + %v overflows: %w", j, i, s, mean, ErrNumerical)
			}
		}
	}
	return out, nil
}
