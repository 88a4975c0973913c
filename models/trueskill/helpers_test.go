package trueskill_test

import (
	"fmt"
	"testing"

	"github.com/skillgraph/skillgraph/internal/peercases"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

// conformanceCase adds scenario predicates to a reference case.
type conformanceCase peercases.Case

func (c conformanceCase) sizes() string {
	s := ""
	for j, t := range c.Teams {
		if j > 0 {
			s += ","
		}
		s += fmt.Sprint(len(t))
	}
	return s
}

func (c conformanceCase) uneven() bool {
	for _, t := range c.Teams {
		if len(t) != len(c.Teams[0]) {
			return true
		}
	}
	return false
}

func (c conformanceCase) hasDraw() bool {
	seen := map[int]bool{}
	for _, r := range c.Ranks {
		if seen[r] {
			return true
		}
		seen[r] = true
	}
	return false
}

// withRatings returns a match with shape's teams, ranks and weights, every
// player's rating drawn by draw.
func withRatings(shape trueskill.Match, draw func() trueskill.Rating) trueskill.Match {
	m := shape
	m.Teams = make([][]trueskill.Rating, len(shape.Teams))
	for j := range m.Teams {
		for range shape.Teams[j] {
			m.Teams[j] = append(m.Teams[j], draw())
		}
	}
	return m
}

// checkSameRatings reports every rating of got whose μ or σ differs from
// want's by more than 1e-12 relative; what says which run it was.
func checkSameRatings(t *testing.T, what string, got, want [][]trueskill.Rating) {
	t.Helper()
	for j := range want {
		for i, w := range want[j] {
			if g := got[j][i]; relErr(g.Mu, w.Mu) > 1e-12 || relErr(g.Sigma, w.Sigma) > 1e-12 {
				t.Errorf("%s: team %d player %d: %v, want %v", what, j, i, g, w)
			}
		}
	}
}
