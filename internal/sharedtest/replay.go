package sharedtest

import (
	"context"
	"testing"

	"github.com/skillgraph/skillgraph/models/trueskill"
)

// Played is a match as a replay needs it: the teams' player names and
// their ranks (lower is better, equal ranks draw).
type Played struct {
	Teams [][]string
	Ranks []int
}

// Replay rates ms one by one, in the order given, with p.Rate, each new
// player starting from p.NewRating, and returns every player's rating and
// number of games: the independent answer that a league's stored or
// printed ratings are checked against.
func Replay(t testing.TB, p trueskill.Params, ms []Played) (map[string]trueskill.Rating, map[string]int) {
	t.Helper()
	ratings := map[string]trueskill.Rating{}
	games := map[string]int{}
	for k, m := range ms {
		tm := trueskill.Match{Ranks: m.Ranks}
		for _, team := range m.Teams {
			var rs []trueskill.Rating
			for _, name := range team {
				r, ok := ratings[name]
				if !ok {
					r = p.NewRating()
				}
				rs = append(rs, r)
			}
			tm.Teams = append(tm.Teams, rs)
		}
		res, err := p.Rate(context.Background(), tm)
		if err != nil {
			t.Fatalf("replay match %d: %v", k, err)
		}
		for j, team := range m.Teams {
			for i, name := range team {
				ratings[name] = res.Ratings[j][i]
				games[name]++
			}
		}
	}
	return ratings, games
}
