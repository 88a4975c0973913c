package league

import (
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/models/trueskill"
)

// BenchmarkFairestPairs times the pruned search for the 10 fairest pairs
// of 1,000 players, drawn each iteration from a fixed-seed pool of 20,000,
// against sorting every pair (the baseline), interleaved: it reports each
// one's time and the baseline's time over the search's.
func BenchmarkFairestPairs(b *testing.B) {
	p := trueskill.DefaultParams()
	pool := randomRatings(11, 20000)
	const n = 1000
	var pruned, brute time.Duration
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		start := (i * 7919) % (len(pool) - n)
		rs := pool[start : start+n]
		t0 := time.Now()
		if _, err := FairestPairs(p, rs, 10); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if _, err := allPairs(p, rs); err != nil {
			b.Fatal(err)
		}
		pruned += t1.Sub(t0)
		brute += time.Since(t1)
	}
	b.ReportMetric(float64(pruned.Nanoseconds())/float64(b.N), "pruned-ns/op")
	b.ReportMetric(float64(brute.Nanoseconds())/float64(b.N), "every-pair-ns/op")
	b.ReportMetric(float64(brute)/float64(pruned), "speedup")
}
