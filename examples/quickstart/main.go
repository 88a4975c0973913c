// Command quickstart is skillgraph's main example. It rates the TrueSkill
// paper's Figure 1 game, then a season of a 12-player office league
// (generated with a fixed seed, so every run prints the same), and prints a
// leaderboard with the league page's display rating and stability, and the
// match quality of suggested next pairings.
//
//	go run ./examples/quickstart
package main

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"

	"github.com/skillgraph/skillgraph/models/trueskill"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(1)
	}
}

func run() error {
	ctx := context.Background()
	p := trueskill.DefaultParams()

	// 1. Figure 1 of the paper: teams {1}, {2, 3}, {4}; team 1 wins, teams 2
	// and 3 draw.
	fmt.Println("Figure 1 game: teams {1}, {2,3}, {4}; team 1 first, teams 2 and 3 drawn")
	newbie := p.NewRating()
	res, err := p.Rate(ctx, trueskill.Match{
		Teams: [][]trueskill.Rating{{newbie}, {newbie, newbie}, {newbie}},
		Ranks: []int{1, 2, 2},
	})
	if err != nil {
		return err
	}
	player := 1
	for j, team := range res.Ratings {
		for _, r := range team {
			fmt.Printf("  player %d (team %d): μ = %6.3f  σ = %5.3f\n", player, j+1, r.Mu, r.Sigma)
			player++
		}
	}
	fmt.Printf("  P(this outcome) = %.4f, %d passes over the difference chain, converged: %v\n\n",
		math.Exp(res.LogEvidence), res.Iterations, res.Converged)

	// 2. An office league, as on the rating page: 12 players, no draws, a
	// season of 1v1 games. True skills are hidden from the model.
	league := p
	league.DrawProbability = 0
	names := []string{"Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea"}
	rng := rand.New(rand.NewPCG(2006, 11))
	truth := make([]float64, len(names))
	for i := range truth {
		truth[i] = 25 + 6*rng.NormFloat64()
	}
	ratings := make([]trueskill.Rating, len(names))
	games := make([]int, len(names))
	for i := range ratings {
		ratings[i] = league.NewRating()
	}
	const season = 120
	for g := 0; g < season; g++ {
		a := rng.IntN(len(names))
		b := rng.IntN(len(names) - 1)
		if b >= a {
			b++
		}
		// Performances around the true skills decide the game.
		if truth[a]+league.Beta*rng.NormFloat64() < truth[b]+league.Beta*rng.NormFloat64() {
			a, b = b, a
		}
		ratings[a], ratings[b], err = league.Rate1v1(ratings[a], ratings[b], false)
		if err != nil {
			return err
		}
		games[a]++
		games[b]++
	}

	order := make([]int, len(names))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(x, y int) int { return cmp.Compare(ratings[y].DisplayRating(), ratings[x].DisplayRating()) })
	fmt.Printf("Office league after %d games (display rating = (μ − σ)·48)\n", season)
	fmt.Println("  #  player  rating      μ      σ  stability  games  true skill")
	for k, i := range order {
		r := ratings[i]
		fmt.Printf("  %2d %-6s %7.0f %6.2f %6.2f %9.0f%% %6d %11.2f\n",
			k+1, names[i], r.DisplayRating(), r.Mu, r.Sigma, 100*league.Stability(r), games[i], truth[i])
	}

	// Suggested pairings: greedily pair the players whose match would be the
	// most even (highest quality).
	fmt.Println("\nSuggested next games (match quality, P(first wins))")
	free := slices.Clone(order)
	for len(free) >= 2 {
		bestQ, bi, bj := -1.0, 0, 1
		for x := 0; x < len(free); x++ {
			for y := x + 1; y < len(free); y++ {
				q, err := league.Quality([][]trueskill.Rating{{ratings[free[x]]}, {ratings[free[y]]}}, nil)
				if err != nil {
					return err
				}
				if q > bestQ {
					bestQ, bi, bj = q, x, y
				}
			}
		}
		a, b := free[bi], free[bj]
		win, err := league.WinProbability([]trueskill.Rating{ratings[a]}, []trueskill.Rating{ratings[b]})
		if err != nil {
			return err
		}
		fmt.Printf("  %-5s vs %-5s quality %.3f  P(%s wins) = %.2f\n", names[a], names[b], bestQ, names[a], win)
		free = slices.Delete(free, bj, bj+1)
		free = slices.Delete(free, bi, bi+1)
	}
	return nil
}
