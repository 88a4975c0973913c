package league

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/skillgraph/skillgraph/models/trueskill"
)

// RankBy is the number the standings are ranked by.
type RankBy string

const (
	// Display is the rating page's display rating (μ − σ)·48.
	Display RankBy = "display"
	// Conservative is μ − 3σ, a skill the player exceeds with
	// probability about 99.9 %.
	Conservative RankBy = "conservative"
)

// ConservativeK is the k of the conservative rating μ − kσ.
const ConservativeK = 3

// Score returns r's number under b.
func (b RankBy) Score(r trueskill.Rating) float64 {
	if b == Conservative {
		return r.Conservative(ConservativeK)
	}
	return r.DisplayRating()
}

// ParseRankBy reads "display" or "conservative".
func ParseRankBy(s string) (RankBy, error) {
	switch RankBy(s) {
	case Display, Conservative:
		return RankBy(s), nil
	}
	return "", fmt.Errorf("%q: want %s or %s", s, Display, Conservative)
}

// Standing is a player's line in the standings.
type Standing struct {
	Rank   int
	Player *Player
	Score  float64 // the number ranked by
}

// Standings ranks the players with at least minGames games by b, highest
// first; equal scores share a rank (1, 2, 2, 4) and are listed by name.
func (l *League) Standings(b RankBy, minGames int) []Standing {
	var s []Standing
	for _, pl := range l.Players {
		if pl.Games >= minGames {
			s = append(s, Standing{Player: pl, Score: b.Score(pl.Rating)})
		}
	}
	slices.SortFunc(s, func(x, y Standing) int {
		return cmp.Or(cmp.Compare(y.Score, x.Score), strings.Compare(x.Player.Name, y.Player.Name))
	})
	for i := range s {
		s[i].Rank = i + 1
		if i > 0 && s[i].Score == s[i-1].Score {
			s[i].Rank = s[i-1].Rank
		}
	}
	return s
}
