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
	"io"
	"math"
	"math/rand/v2"
	"os"
	"slices"

	"github.com/skillgraph/skillgraph/internal/cli"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run is the command with its arguments and outputs, returning its exit
// status: it takes no flags or arguments (cli.Usage, one line on stderr),
// and -h says so.
func run(args []string, stdout, stderr io.Writer) int {
	if status, done := cli.ParseNone("quickstart", args, stderr); done {
		return status
	}
	if err := example(stdout); err != nil {
		return cli.Failf(stderr, "quickstart", "%v", err)
	}
	return cli.OK
}

// example rates Figure 1's game and the office league, printing on w.
func example(w io.Writer) error {
	ctx := context.Background()
	p := trueskill.DefaultParams()
	if err := figure1(ctx, w, p); err != nil {
		return err
	}
	// An office league, as on the rating page: 12 players, no draws.
	league := p
	league.DrawProbability = 0
	o, err := playSeason(league, 120)
	if err != nil {
		return err
	}
	o.leaderboard(w)
	return o.suggestPairings(w)
}

// figure1 rates Figure 1 of the paper: teams {1}, {2, 3}, {4}; team 1
// wins, teams 2 and 3 draw.
func figure1(ctx context.Context, w io.Writer, p trueskill.Params) error {
	fmt.Fprintln(w, "Figure 1 game: teams {1}, {2,3}, {4}; team 1 first, teams 2 and 3 drawn")
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
			fmt.Fprintf(w, "  player %d (team %d): μ = %6.3f  σ = %5.3f\n", player, j+1, r.Mu, r.Sigma)
			player++
		}
	}
	fmt.Fprintf(w, "  P(this outcome) = %.4f, %d passes over the difference chain, converged: %v\n\n",
		math.Exp(res.LogEvidence), res.Iterations, res.Converged)
	return nil
}

// office is a league of players with hidden true skills and their
// ratings.
type office struct {
	league  trueskill.Params
	names   []string
	truth   []float64
	ratings []trueskill.Rating
	games   []int
	season  int
	order   []int // players by display rating, best first
}

// playSeason plays a season of 1v1 games between random players of an
// office league; true skills, hidden from the model, decide each game.
func playSeason(league trueskill.Params, season int) (*office, error) {
	o := &office{league: league, season: season,
		names: []string{"Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea"}}
	names := o.names
	rng := rand.New(rand.NewPCG(2006, 11))
	o.truth = make([]float64, len(names))
	for i := range o.truth {
		o.truth[i] = 25 + 6*rng.NormFloat64()
	}
	o.ratings = make([]trueskill.Rating, len(names))
	o.games = make([]int, len(names))
	for i := range o.ratings {
		o.ratings[i] = league.NewRating()
	}
	for g := 0; g < season; g++ {
		a := rng.IntN(len(names))
		b := rng.IntN(len(names) - 1)
		if b >= a {
			b++
		}
		// Performances around the true skills decide the game.
		if o.truth[a]+league.Beta*rng.NormFloat64() < o.truth[b]+league.Beta*rng.NormFloat64() {
			a, b = b, a
		}
		var err error
		o.ratings[a], o.ratings[b], err = league.Rate1v1(o.ratings[a], o.ratings[b], false)
		if err != nil {
			return nil, err
		}
		o.games[a]++
		o.games[b]++
	}
	o.order = make([]int, len(names))
	for i := range o.order {
		o.order[i] = i
	}
	slices.SortFunc(o.order, func(x, y int) int { return cmp.Compare(o.ratings[y].DisplayRating(), o.ratings[x].DisplayRating()) })
	return o, nil
}

// leaderboard prints the players by display rating.
func (o *office) leaderboard(w io.Writer) {
	fmt.Fprintf(w, "Office league after %d games (display rating = (μ − σ)·48)\n", o.season)
	fmt.Fprintln(w, "  #  player  rating      μ      σ  stability  games  true skill")
	for k, i := range o.order {
		r := o.ratings[i]
		fmt.Fprintf(w, "  %2d %-6s %7.0f %6.2f %6.2f %9.0f%% %6d %11.2f\n",
			k+1, o.names[i], r.DisplayRating(), r.Mu, r.Sigma, 100*o.league.Stability(r), o.games[i], o.truth[i])
	}
}

// suggestPairings greedily pairs the players whose match would be the
// most even (highest quality).
func (o *office) suggestPairings(w io.Writer) error {
	fmt.Fprintln(w, "\nSuggested next games (match quality, P(first wins))")
	free := slices.Clone(o.order)
	for len(free) >= 2 {
		bestQ, bi, bj := -1.0, 0, 1
		for x := 0; x < len(free); x++ {
			for y := x + 1; y < len(free); y++ {
				q, err := o.league.Quality([][]trueskill.Rating{{o.ratings[free[x]]}, {o.ratings[free[y]]}}, nil)
				if err != nil {
					return err
				}
				if q > bestQ {
					bestQ, bi, bj = q, x, y
				}
			}
		}
		a, b := free[bi], free[bj]
		win, err := o.league.WinProbability([]trueskill.Rating{o.ratings[a]}, []trueskill.Rating{o.ratings[b]})
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "  %-5s vs %-5s quality %.3f  P(%s wins) = %.2f\n", o.names[a], o.names[b], bestQ, o.names[a], win)
		free = slices.Delete(free, bj, bj+1)
		free = slices.Delete(free, bi, bi+1)
	}
	return nil
}
