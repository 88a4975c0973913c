package elo

import (
	"errors"
	"fmt"
	"math"
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

// ErrInput reports invalid parameters or input.
var ErrInput = errors.New("elo: invalid input")

// Validate reports invalid parameters.
func (p Params) Validate() error {
	if math.IsNaN(p.Initial) || math.IsInf(p.Initial, 0) || !(p.Beta > 0) || math.IsInf(p.Beta, 1) || !(p.Alpha > 0 && p.Alpha < 1) {
		return fmt.Errorf("%w: %+v", ErrInput, p)
	}
	return nil
}

// K returns the K-factor αβ√π.
func (p Params) K() float64 { return p.Alpha * p.Beta * math.Sqrt(math.Pi) }

// WinProbability returns Φ((s₁ − s₂)/(√2·β)), eq. 1.
func (p Params) WinProbability(s1, s2 float64) float64 {
	return 0.5 * math.Erfc(-(s1-s2)/(2*p.Beta))
}

// Delta returns the change of player 1's rating after a game against
// player 2 with outcome y ∈ {+1, 0, −1} for player 1; player 2 changes by
// −Delta.
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
	out := make([][]float64, len(teams))
	for j, t := range teams {
		out[j] = make([]float64, len(t))
		for i, s := range t {
			var sum float64
			n := 0
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
					sum += p.Delta(s, o, y)
					n++
				}
			}
			out[j][i] = s + sum/float64(n)
		}
	}
	return out, nil
}
