package league_test

import (
	"context"
	"fmt"

	"github.com/skillgraph/skillgraph/internal/league"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

// A league of three games, its standings and its fairest next game.
func Example() {
	l := league.New(league.FormatLong, trueskill.DefaultParams())
	games := []league.Match{
		{Key: "g1", Date: "2025-01-06", Teams: [][]string{{"Ada"}, {"Ben"}}, Ranks: []int{0, 1}},
		{Key: "g2", Date: "2025-01-07", Teams: [][]string{{"Ben"}, {"Cy"}}, Ranks: []int{0, 1}},
		{Key: "g3", Date: "2025-01-08", Teams: [][]string{{"Ada"}, {"Cy"}}, Ranks: []int{0, 0}},
	}
	if _, err := l.Rate(context.Background(), games); err != nil {
		fmt.Println(err)
		return
	}
	standings := l.Standings(league.Display, 0)
	for _, s := range standings {
		fmt.Printf("%d %s %.0f\n", s.Rank, s.Player.Name, s.Score)
	}
	ratings := make([]trueskill.Rating, len(standings))
	for i, s := range standings {
		ratings[i] = s.Player.Rating
	}
	best, err := league.FairestPairs(l.Params, ratings, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("fairest: %s v %s, quality %.3f\n", standings[best[0].A].Player.Name, standings[best[0].B].Player.Name, best[0].Quality)
	// Output:
	// 1 Ada 949
	// 2 Ben 901
	// 3 Cy 823
	// fairest: Ada v Cy, quality 0.576
}
