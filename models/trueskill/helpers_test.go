package trueskill_test

import (
	"fmt"

	"github.com/skillgraph/skillgraph/internal/peercases"
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
