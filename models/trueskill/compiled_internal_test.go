package trueskill

import (
	"context"
	"math/rand/v2"
	"testing"
)

// TestCompiledProgramsDoNotFallBack runs the compiled programs of a few
// shapes on random ratings directly: none hands its run to the
// interpreter, so the comparisons with the interpreter elsewhere compare
// compiled code.
func TestCompiledProgramsDoNotFallBack(t *testing.T) {
	p := DefaultParams()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, sizes := range [][]int{{1, 1}, {2, 2}, {4, 4}, {1, 2, 1}, {1, 1, 1, 1, 1, 1, 1, 1}} {
		for trial := 0; trial < 50; trial++ {
			m := Match{Teams: make([][]Rating, len(sizes)), Ranks: rng.Perm(len(sizes))}
			if len(sizes) == 3 {
				m.Ranks = []int{0, 1, 1}
			}
			for j, n := range sizes {
				for range n {
					m.Teams[j] = append(m.Teams[j], Rating{Mu: 60 * rng.Float64(), Sigma: 0.3 + 8*rng.Float64()})
				}
			}
			gm, err := p.NewGame(m)
			if err != nil {
				t.Fatal(err)
			}
			if gm.program == nil {
				t.Fatalf("%v: no program", sizes)
			}
			if _, err := gm.program.Run(context.Background()); err != nil {
				t.Fatalf("%v trial %d: %v", sizes, trial, err)
			}
			if _, err := gm.program.LogEvidence(); err != nil {
				t.Fatalf("%v trial %d: evidence: %v", sizes, trial, err)
			}
		}
	}
}
