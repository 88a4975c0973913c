package throughtime

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestMixingKeepsTheFixedPoint smooths one history twice, with plain
// sweeps and with Anderson mixing, to a tolerance of 1e-10: every skill
// agrees to 1e-8, and mixing takes fewer sweeps.
func TestMixingKeepsTheFixedPoint(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	const players, batches = 40, 30
	skill := make([]float64, players)
	for i := range skill {
		skill[i] = rng.NormFloat64()
	}
	var games []Match
	for b := range batches {
		perm := rng.Perm(players)
		for k := 0; k+1 < 16; k += 2 {
			a, c := perm[k], perm[k+1]
			if skill[a]+rng.NormFloat64() < skill[c]+rng.NormFloat64() {
				a, c = c, a
			}
			games = append(games, Match{Time: float64(b), Teams: [][]string{{fmt.Sprint(a)}, {fmt.Sprint(c)}}})
		}
		for i := range skill {
			skill[i] += 0.1 * rng.NormFloat64()
		}
	}
	var sweeps [2]int
	var hs [2]*History
	for i, depth := range []int{0, mixDepth} {
		h, err := New(DefaultParams(), games)
		if err != nil {
			t.Fatal(err)
		}
		h.mix = h.newAnderson(depth)
		res, err := h.Converge(context.Background(), 1e-10, 5000)
		if err != nil || !res.Converged {
			t.Fatalf("depth %d: %+v, %v", depth, res, err)
		}
		sweeps[i], hs[i] = res.Iterations, h
	}
	for _, name := range hs[0].Players() {
		plain, mixed := hs[0].LearningCurve(name), hs[1].LearningCurve(name)
		for k := range plain {
			if math.Abs(plain[k].Mu-mixed[k].Mu) > 1e-8 || math.Abs(plain[k].Sigma-mixed[k].Sigma) > 1e-8 {
				t.Errorf("player %s at %v: plain %+v, mixed %+v", name, plain[k].Time, plain[k], mixed[k])
			}
		}
	}
	if sweeps[1] >= sweeps[0] {
		t.Errorf("mixing took %d sweeps, plain sweeps %d", sweeps[1], sweeps[0])
	}
	t.Logf("sweeps to 1e-10: plain %d, mixed %d", sweeps[0], sweeps[1])
}
