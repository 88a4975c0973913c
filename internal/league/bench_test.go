package league

import (
	"testing"

	"github.com/skillgraph/skillgraph/internal/sharedtest"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

// BenchmarkFairestPairs times the pruned search for the 10 fairest pairs
// of 1,000 players, drawn each iteration from a fixed-seed pool of 20,000,
// against sorting every pair (the baseline) on the same draws, measured
// interleaved with it (sharedtest.Interleave): ns/op is the search's own,
// and x-baseline its time over the baseline's.
func BenchmarkFairestPairs(b *testing.B) {
	p := trueskill.DefaultParams()
	pool := randomRatings(11, 20000)
	const n = 1000
	// draws returns an operation over successive 1,000-player windows of
	// the pool, each call starting where the last stopped.
	draws := func(rate func([]trueskill.Rating) error) func(int) {
		i := 0
		return func(iters int) {
			for range iters {
				start := (i * 7919) % (len(pool) - n)
				i++
				if err := rate(pool[start : start+n]); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	pruned := draws(func(rs []trueskill.Rating) error { _, err := FairestPairs(p, rs, 10); return err })
	every := draws(func(rs []trueskill.Rating) error { _, err := allPairs(p, rs); return err })
	sharedtest.Interleave(b, pruned, every)
}
