package league

import (
	"cmp"
	"container/heap"
	"fmt"
	"math"
	"slices"

	"github.com/skillgraph/skillgraph/models/trueskill"
)

// Pair is a 1v1 game between players A and B (indices into the ratings
// given to FairestPairs, A < B) and its match quality.
type Pair struct {
	A, B    int
	Quality float64
}

// before orders pairs fairest first, then by A, then by B: the order of a
// stable sort by quality of the pairs listed row by row.
func before(x, y Pair) int {
	return cmp.Or(cmp.Compare(y.Quality, x.Quality), cmp.Compare(x.A, y.A), cmp.Compare(x.B, y.B))
}

// FairestPairs returns the k 1v1 games between the players rated rs of
// highest match quality (all of them if k ≤ 0), in the order of before,
// without computing every pair when k is small.
//
// The search is exact. Match quality for two players is the paper's
// equation 7 (see trueskill.Params.Quality),
//
//	q = √(2β²/c²) · exp(−(μ₁ − μ₂)²/(2c²)),  c² = 2β² + σ₁² + σ₂²,
//
// so for player i and any partner, q ≤ √(2β²/(2β² + σᵢ² + σ²min)) ·
// exp(−Δμ²/(2(2β² + σᵢ² + σ²max))), which falls as |Δμ| grows. Players are
// visited by this bound at Δμ = 0, highest first; from each, partners are
// scanned outwards in order of μ on both sides until the bound falls
// below the k-th best quality found, and a pair is met from whichever of
// its players is visited first. Only pairs that could enter the best k
// are computed; a league of n players whose top players are close in μ
// costs about n·log n plus a few partners each.
func FairestPairs(p trueskill.Params, rs []trueskill.Rating, k int) ([]Pair, error) {
	return fairest(p, rs, k, new(int))
}

// fairest is FairestPairs, counting in *evaluated the pairs whose quality
// it computed.
func fairest(p trueskill.Params, rs []trueskill.Rating, k int, evaluated *int) ([]Pair, error) {
	n := len(rs)
	total := n * (n - 1) / 2
	if k <= 0 || k >= total {
		return allPairs(p, rs)
	}
	quality := func(a, b int) (Pair, error) {
		if a > b {
			a, b = b, a
		}
		*evaluated++
		q, err := p.Quality([][]trueskill.Rating{{rs[a]}, {rs[b]}}, nil)
		if err != nil {
			return Pair{}, fmt.Errorf("players %d and %d: %w", a, b, err)
		}
		return Pair{A: a, B: b, Quality: q}, nil
	}
	b2 := 2 * p.Beta * p.Beta
	minV, maxV := math.Inf(1), 0.0
	for _, r := range rs {
		v := r.Sigma * r.Sigma
		minV, maxV = min(minV, v), max(maxV, v)
	}
	// byMu lists the players by μ; at[i] is player i's place in it.
	byMu := make([]int, n)
	for i := range byMu {
		byMu[i] = i
	}
	slices.SortFunc(byMu, func(x, y int) int { return cmp.Or(cmp.Compare(rs[x].Mu, rs[y].Mu), cmp.Compare(x, y)) })
	at := make([]int, n)
	for pos, i := range byMu {
		at[i] = pos
	}
	// The players in the order visited: smallest σ first, whose bound is
	// highest, so that the k-th best quality rises quickly.
	order := slices.Clone(byMu)
	slices.SortFunc(order, func(x, y int) int { return cmp.Or(cmp.Compare(rs[x].Sigma, rs[y].Sigma), cmp.Compare(x, y)) })
	visited := make([]bool, n)
	best := &pairHeap{}
	// slack keeps pairs whose bound equals the k-th quality up to rounding:
	// ties are broken by index, so they may still enter.
	const slack = 1e-9
	full := func() bool { return best.Len() == k }
	pruned := func(bound float64) bool { return full() && bound*(1+slack) < (*best)[0].Quality }
	for _, i := range order {
		vi := rs[i].Sigma * rs[i].Sigma
		pre := math.Sqrt(b2 / (b2 + vi + minV))
		c2 := b2 + vi + maxV
		if pruned(pre) {
			break // visited in falling order of pre: no later player can do better
		}
		visited[i] = true
		for _, step := range []int{-1, 1} {
			for pos := at[i] + step; pos >= 0 && pos < n; pos += step {
				j := byMu[pos]
				d := rs[j].Mu - rs[i].Mu
				if pruned(pre * math.Exp(-d*d/(2*c2))) {
					break
				}
				if visited[j] {
					continue
				}
				pr, err := quality(i, j)
				if err != nil {
					return nil, err
				}
				if !full() {
					heap.Push(best, pr)
				} else if before(pr, (*best)[0]) < 0 {
					(*best)[0] = pr
					heap.Fix(best, 0)
				}
			}
		}
	}
	out := []Pair(*best)
	slices.SortFunc(out, before)
	return out, nil
}

// allPairs computes every pair, in the order of before.
func allPairs(p trueskill.Params, rs []trueskill.Rating) ([]Pair, error) {
	var out []Pair
	for a := range rs {
		for b := a + 1; b < len(rs); b++ {
			q, err := p.Quality([][]trueskill.Rating{{rs[a]}, {rs[b]}}, nil)
			if err != nil {
				return nil, fmt.Errorf("players %d and %d: %w", a, b, err)
			}
			out = append(out, Pair{A: a, B: b, Quality: q})
		}
	}
	slices.SortFunc(out, before)
	return out, nil
}

// pairHeap holds the best pairs found, the worst of them on top.
type pairHeap []Pair

func (h pairHeap) Len() int           { return len(h) }
func (h pairHeap) Less(i, j int) bool { return before(h[i], h[j]) > 0 }
func (h pairHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *pairHeap) Push(x any)        { *h = append(*h, x.(Pair)) }
func (h *pairHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
