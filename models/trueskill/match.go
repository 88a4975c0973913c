package trueskill

import (
	"math"

	"github.com/skillgraph/skillgraph/messages"
)

// Match is one game: teams of players with their ratings before the game,
// the outcome as ranks, and optional partial-play weights.
type Match struct {
	// Teams holds each team's players' ratings before the game.
	Teams [][]Rating `json:"teams"`
	// Ranks holds one rank per team: lower is better and equal ranks are a
	// draw. Nil means the teams are listed in finishing order, no draws.
	Ranks []int `json:"ranks,omitempty"`
	// Weights, if not nil, has the shape of Teams: the share of the game each
	// player took part in. A team's performance is Σ wᵢ·pᵢ; a player with
	// weight 0 is not moved by the result. Weights may exceed 1.
	Weights [][]float64 `json:"weights,omitempty"`
}

// validate checks a match against p.
func (m *Match) validate() error {
	if len(m.Teams) < 2 {
		return inputErr("Teams", ErrTooFewTeams, float64(len(m.Teams)))
	}
	if m.Ranks != nil && len(m.Ranks) != len(m.Teams) {
		return inputErr("Ranks", ErrShape, float64(len(m.Ranks)))
	}
	if m.Weights != nil && len(m.Weights) != len(m.Teams) {
		return inputErr("Weights", ErrShape, float64(len(m.Weights)))
	}
	for j, team := range m.Teams {
		if len(team) == 0 {
			return inputErr("Teams", ErrEmptyTeam, 0, j)
		}
		for i, r := range team {
			if !messages.IsFinite(r.Mu) {
				return inputErr("Teams.Mu", ErrNotFinite, r.Mu, j, i)
			}
			if !(r.Sigma > 0 && r.Sigma <= math.MaxFloat64) {
				return inputErr("Teams.Sigma", ErrNotPositive, r.Sigma, j, i)
			}
		}
		if m.Weights != nil {
			if len(m.Weights[j]) != len(team) {
				return inputErr("Weights", ErrShape, float64(len(m.Weights[j])), j)
			}
			for i, w := range m.Weights[j] {
				if !(w >= 0) || math.IsInf(w, 1) {
					return inputErr("Weights", ErrNegative, w, j, i)
				}
			}
		}
	}
	return nil
}

// played reports whether team j has a player with positive weight.
func (m *Match) played(j int) bool {
	if m.Weights == nil {
		return true
	}
	for _, w := range m.Weights[j] {
		if w > 0 {
			return true
		}
	}
	return false
}

func (m *Match) weight(j, i int) float64 {
	if m.Weights == nil {
		return 1
	}
	return m.Weights[j][i]
}

// order returns the team indices sorted stably by rank (best first).
func (m *Match) order() []int { return m.orderInto(nil) }

// orderInto is order written into buf's storage: an insertion sort, stable
// and without allocating for the few teams of a match.
func (m *Match) orderInto(buf []int) []int {
	buf = buf[:0]
	for j := range m.Teams {
		buf = append(buf, j)
	}
	if m.Ranks != nil {
		for a := 1; a < len(buf); a++ {
			for b := a; b > 0 && m.Ranks[buf[b]] < m.Ranks[buf[b-1]]; b-- {
				buf[b], buf[b-1] = buf[b-1], buf[b]
			}
		}
	}
	return buf
}

// drawn reports whether the teams at sorted positions k and k+1 drew.
func (m *Match) drawn(order []int, k int) bool {
	return m.Ranks != nil && m.Ranks[order[k]] == m.Ranks[order[k+1]]
}
