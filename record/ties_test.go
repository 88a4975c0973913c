package record_test

import (
	"math/rand/v2"
	"testing"

	"github.com/skillgraph/skillgraph/record"
)

// TestAdjacentTies: n ranks in any order make n − 1 adjacent pairs, and
// the tied ones are as many as the ranks that repeat one before them,
// n − (distinct ranks), counted here by a map, not by sorting.
func TestAdjacentTies(t *testing.T) {
	cases := [][]int{nil, {0}, {1, 2}, {1, 1}, {3, 1, 2}, {2, 1, 2, 1}, {0, 0, 0, 0}, {5, 3, 5, 1, 3, 5}}
	rng := rand.New(rand.NewPCG(7, 27))
	for range 200 {
		r := make([]int, 1+rng.IntN(8))
		for i := range r {
			r[i] = rng.IntN(4)
		}
		cases = append(cases, r)
	}
	for _, ranks := range cases {
		distinct := map[int]bool{}
		for _, r := range ranks {
			distinct[r] = true
		}
		wantTies, wantPairs := len(ranks)-len(distinct), max(len(ranks)-1, 0)
		before := append([]int(nil), ranks...)
		ties, pairs := record.AdjacentTies(ranks)
		if ties != wantTies || pairs != wantPairs {
			t.Errorf("AdjacentTies(%v) = %d ties of %d pairs, want %d of %d", ranks, ties, pairs, wantTies, wantPairs)
		}
		for i := range ranks {
			if ranks[i] != before[i] {
				t.Fatalf("AdjacentTies reordered its argument: %v, was %v", ranks, before)
			}
		}
	}
}
