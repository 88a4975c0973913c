package record_test

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/record"
)

// benchFiles returns a pool of files of 2,000 matches each in both
// formats, from a fixed seed, so that each iteration reads a different
// file. The long files are a league of 300 players at timestamped
// matches: two teams of one to four, or free-for-alls of eight, a
// quarter of the teams with partial-play weights.
func benchFiles(b *testing.B) map[string][][]byte {
	rng := rand.New(rand.NewPCG(3, 5))
	pool := map[string][][]byte{}
	for range 8 {
		var long bytes.Buffer
		long.WriteString("match_id,time,team,player,rank,weight\n")
		at := time.Date(2004, 8, 6, 18, 13, 50, 0, time.UTC)
		for i := range 2000 {
			at = at.Add(time.Duration(rng.IntN(3600)) * time.Second)
			teams, size := 2, 1+rng.IntN(4)
			if rng.IntN(4) == 0 {
				teams, size = 8, 1
			}
			players := rng.Perm(300)
			for j := range teams {
				weight := ""
				if rng.IntN(4) == 0 {
					weight = "0.5"
				}
				for k := range size {
					fmt.Fprintf(&long, "g%d,%s,t%d,player%d,%d,%s\n", i, at.Format("2006-01-02 15:04:05"), j, players[j*size+k], 1+rng.IntN(teams), weight)
				}
			}
		}
		pool["long"] = append(pool["long"], long.Bytes())
		var sc bytes.Buffer
		sc.WriteString("date,season,home,away,home_score,away_score,neutral\n")
		day := time.Date(1990, 1, 1, 0, 0, 0, 0, time.UTC)
		for i := range 2000 {
			h, a := rng.IntN(40), rng.IntN(39)
			if a >= h {
				a++
			}
			fmt.Fprintf(&sc, "%s,s%d,team %d,team %d,%d,%d,%v\n", day.AddDate(0, 0, i/10).Format(time.DateOnly), i/500, h, a, rng.IntN(5), rng.IntN(5), rng.IntN(9) == 0)
		}
		pool["scores"] = append(pool["scores"], sc.Bytes())
	}
	return pool
}

// BenchmarkRead reads files of 2,000 matches, reporting the time as a
// ratio to encoding/csv's ReadAll of the same bytes, measured in the same
// iterations (x-csv), and the matches read per second.
func BenchmarkRead(b *testing.B) {
	pool := benchFiles(b)
	for _, format := range []string{"long", "scores"} {
		b.Run(format, func(b *testing.B) {
			files := pool[format]
			var baseline time.Duration
			b.ReportAllocs()
			for i := range b.N {
				data := files[i%len(files)]
				b.StopTimer()
				start := time.Now()
				if _, err := csv.NewReader(bytes.NewReader(data)).ReadAll(); err != nil {
					b.Fatal(err)
				}
				baseline += time.Since(start)
				b.StartTimer()
				ms, _, err := record.Read("bench.csv", bytes.NewReader(data))
				if err != nil || len(ms) != 2000 {
					b.Fatalf("%d matches, %v", len(ms), err)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed())/float64(baseline), "x-csv")
			b.ReportMetric(2000*float64(b.N)/b.Elapsed().Seconds(), "matches/s")
		})
	}
}
