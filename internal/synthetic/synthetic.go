package synthetic

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/skillgraph/skillgraph/models/throughtime"
)

// Shape sets the size of a history.
type Shape struct {
	Games, Players, Batches int
	Seed                    uint64
}

// Tennis returns the shape of 56 years of a professional tour: 200,000
// games between 7,500 players over 3,400 weekly batches.
func Tennis() Shape { return Shape{Games: 200000, Players: 7500, Batches: 3400, Seed: 2008} }

// History returns the games of s, in time order (batch b at time b, in
// weeks). Each player's career covers a random stretch of batches (on
// average a tenth of the history, at least ten weeks); their skill starts
// at N(0, 1) and drifts by N(0, 0.03²) a week; each batch pairs active
// players whose skills are close (sorted by skill with noise, paired
// neighbours), and the winner is the better performance, skill plus
// N(0, 0.5²).
func History(s Shape) []throughtime.Match {
	rng := rand.New(rand.NewPCG(s.Seed, 1))
	type career struct{ start, end int }
	careers := make([]career, s.Players)
	for i := range careers {
		length := max(10, int(rng.ExpFloat64()*float64(s.Batches)/10))
		start := rng.IntN(max(1, s.Batches-length/2))
		careers[i] = career{start, min(s.Batches, start+length)}
	}
	skill := make([]float64, s.Players)
	for i := range skill {
		skill[i] = rng.NormFloat64()
	}
	names := make([]string, s.Players)
	for i := range names {
		names[i] = fmt.Sprintf("p%04d", i)
	}
	perBatch := float64(s.Games) / float64(s.Batches)
	games := make([]throughtime.Match, 0, s.Games)
	var active []int
	key := make([]float64, s.Players)
	for b := range s.Batches {
		active = active[:0]
		for i, c := range careers {
			if c.start <= b && b < c.end {
				active = append(active, i)
				skill[i] += 0.03 * rng.NormFloat64()
			}
		}
		// This batch's share of the games, with any shortfall of thinner
		// batches before it.
		n := min(int(math.Round(perBatch*float64(b+1)))-len(games), len(active)/2)
		for _, i := range active {
			key[i] = skill[i] + 0.3*rng.NormFloat64()
		}
		slices.SortFunc(active, func(a, b int) int { return cmpFloat(key[a], key[b]) })
		// n pairs of neighbours, from random places along the order.
		for _, k := range rng.Perm(len(active) / 2)[:n] {
			a, c := active[2*k], active[2*k+1]
			if skill[a]+0.5*rng.NormFloat64() < skill[c]+0.5*rng.NormFloat64() {
				a, c = c, a
			}
			games = append(games, throughtime.Match{Time: float64(b), Teams: [][]string{{names[a]}, {names[c]}}})
		}
	}
	return games
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
