package store_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/internal/store"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

// BenchmarkAdd measures storing a match in an SQLite league of 200
// matches (durably: one fsync a commit), at the end of the record or 20
// matches back (re-rating the matches after it), and reports the ratio to
// rating the same match alone with trueskill.Params.Rate, timed
// interleaved.
func BenchmarkAdd(b *testing.B) {
	for _, back := range []int{0, 20} {
		b.Run(fmt.Sprintf("back=%d", back), func(b *testing.B) {
			ctx := context.Background()
			db, err := store.Open(ctx, filepath.Join(b.TempDir(), "bench.db"))
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			rng := rand.New(rand.NewPCG(5, 8))
			const league = 200
			for i := range league {
				m := randomMatch(rng, fmt.Sprint("seed", i))
				m.Time = t0.Add(time.Duration(i) * time.Hour)
				if _, _, err := db.Add(ctx, m); err != nil {
					b.Fatal(err)
				}
			}
			p, _ := db.Params(ctx)
			var stored, rated time.Duration
			i := 0
			for b.Loop() {
				m := randomMatch(rng, fmt.Sprint("b", i))
				m.Time = t0.Add(time.Duration(league+i-back)*time.Hour - time.Minute)
				tm := trueskill.Match{Ranks: m.Ranks}
				for _, team := range m.Teams {
					tm.Teams = append(tm.Teams, make([]trueskill.Rating, len(team)))
					for k := range team {
						tm.Teams[len(tm.Teams)-1][k] = p.NewRating()
					}
				}
				t1 := time.Now()
				if _, err := p.Rate(ctx, tm); err != nil {
					b.Fatal(err)
				}
				t2 := time.Now()
				if _, _, err := db.Add(ctx, m); err != nil {
					b.Fatal(err)
				}
				stored += time.Since(t2)
				rated += t2.Sub(t1)
				i++
			}
			b.ReportMetric(float64(stored)/float64(rated), "x-rate")
		})
	}
}
