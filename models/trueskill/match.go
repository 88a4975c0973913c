package trueskill

import "fmt"

// Match is one game: teams of players with their ratings before the game,
// the outcome as ranks, and optional partial-play weights.
type Match struct {
	// Teams holds each team's players' ratings before the game, each with
	// |μ| ≤ 1e12 and σ in [1e-9, 1e9] (see Params.Validate).
	Teams [][]Rating `json:"teams"`
	// Ranks holds one rank per team: lower is better and equal ranks are a
	// draw. Nil means the teams are listed in finishing order, no draws.
	//
	// Teams that tie keep the order they are listed in: the model (the
	// paper's Figure 1) compares each team with its neighbours in the
	// finishing order only, so the order of tied teams decides which pairs
	// are compared, and listing them in another order is another model,
	// with other ratings. The order of teams that do not tie does not
	// matter.
	Ranks []int `json:"ranks,omitempty"`
	// Weights, if not nil, has the shape of Teams: the share of the game each
	// player took part in, 0 or in [1e-9, 1e9]. A team's performance is
	// Σ wᵢ·pᵢ; a player with weight 0 is not moved by the result. Weights
	// may exceed 1.
	Weights [][]float64 `json:"weights,omitempty"`
}

// validate checks a match's shape, and its ratings and weights against the
// model's domain (see Params.Validate).
func (m *Match) validate() error { return m.validateRatings(false) }

// validateRatings is validate; pointMass allows σ = 0, which a prediction
// can take.
func (m *Match) validateRatings(pointMass bool) error {
	if m.plainOK(pointMass) {
		return nil
	}
	if len(m.Teams) < 2 {
		return tooFewTeams("Teams", len(m.Teams))
	}
	for j, team := range m.Teams {
		for i, r := range team {
			if err := checkRating(r, pointMass, j, i); err != nil {
				return err
			}
		}
	}
	return checkOutcome(len(m.Teams), func(j int) int { return len(m.Teams[j]) }, m.Ranks, m.Weights, "Teams")
}

// plainOK reports whether m is a valid match without weights, by
// predicates alone: the common case costs a few comparisons per player.
// A match with weights, or one that fails, takes validateRatings' full
// checks, which say what is wrong.
func (m *Match) plainOK(pointMass bool) bool {
	if len(m.Teams) < 2 || m.Weights != nil || m.Ranks != nil && len(m.Ranks) != len(m.Teams) {
		return false
	}
	for _, team := range m.Teams {
		if len(team) == 0 {
			return false
		}
		for _, r := range team {
			if !ratingOK(r, pointMass) {
				return false
			}
		}
	}
	return true
}

// checkOutcome checks that n teams of the given sizes (none empty) have
// one rank each and, if weights are given, a weight per player that is 0
// or in the domain's scale range; teams names the field that holds the
// teams, for the error.
func checkOutcome(n int, size func(j int) int, ranks []int, weights [][]float64, teams string) error {
	if ranks != nil && len(ranks) != n {
		return shapeErr("Ranks", len(ranks), n)
	}
	if weights != nil && len(weights) != n {
		return shapeErr("Weights", len(weights), n)
	}
	for j := range n {
		if size(j) == 0 {
			return inputErr(teams, "team has no players", 0, j)
		}
		if weights != nil {
			if err := checkTeamValues("Weights", weights[j], size(j), j); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkTeamValues checks team j's row of a per-player field (weights, β):
// for each of its size players a value that is 0 or in [1e-9, 1e9].
func checkTeamValues(field string, row []float64, size, j int) error {
	if len(row) != size {
		return shapeErr(field, len(row), size, j)
	}
	for i, x := range row {
		if why := rangeWhy(x, minScale, maxScale, true); why != "" {
			return inputErr(field, why, x, j, i)
		}
	}
	return nil
}

// tooFewTeams reports that field holds n < 2 teams.
func tooFewTeams(field string, n int) error {
	return inputErr(field, "a match needs at least two teams", float64(n))
}

// shapeErr reports that field[index] has n entries where want are needed.
func shapeErr(field string, n, want int, index ...int) error {
	return inputErr(field, fmt.Sprintf("wrong shape: %d entries, want %d", n, want), float64(n), index...)
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

// weightsOf returns team j's weights, nil if the match has none.
func (m *Match) weightsOf(j int) []float64 {
	if m.Weights == nil {
		return nil
	}
	return m.Weights[j]
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
