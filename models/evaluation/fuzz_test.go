package evaluation

import (
	"bytes"
	"encoding/binary"
	"errors"
	"github.com/skillgraph/skillgraph/messages"
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

// The fuzz targets check, for any input, that the loaders and the metrics
// return without panicking, and either a typed error or a result that
// keeps their documented promises. Each ran for five
// minutes (go test -run='^$' -fuzz=FuzzName -fuzztime=5m
// ./models/evaluation/, 1 to 5.6 million inputs each) without a failure;
// the seeds below run with every go test, and a failing input the fuzzer
// finds goes in testdata/fuzz, which go test runs too.

// fuzzBytes hands out the fuzzer's bytes as numbers, zeros once they run
// out.
type fuzzBytes []byte

func (b *fuzzBytes) byte() byte {
	if len(*b) == 0 {
		return 0
	}
	x := (*b)[0]
	*b = (*b)[1:]
	return x
}

func (b *fuzzBytes) float() float64 {
	if len(*b) < 8 {
		*b = nil
		return 0
	}
	x := math.Float64frombits(binary.LittleEndian.Uint64(*b))
	*b = (*b)[8:]
	return x
}

// isAny reports whether err wraps one of the sentinels.
func isAny(err error, sentinels ...error) bool {
	for _, s := range sentinels {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

var (
	scoredSeed = "date,season,home,away,home_score,away_score\n" +
		"2020-01-01,2019-20,Ants,Bees,2,1\n2020-01-01,2019-20,Cats,Dogs,0,0\n2020-01-08,2019-20,Bees,Cats,1,3\n"
	rankedSeed = "match_id,date,team,player,rank,note\n" +
		"a,2020-01-01,red,p1,1,x\na,2020-01-01,red,p2,3,x\na,2020-01-01,blue,p3,2,\"q,\"\"uoted\"\"\"\n" +
		"b,2020-01-02,p5,p5,4,x\nb,2020-01-02,p6,p6,4,x\n"
)

// checkFileError is the loaders' promise on failure: a *FileError naming
// the file, wrapping a sentinel or the CSV parser's error.
func checkFileError(t *testing.T, err error) {
	t.Helper()
	var fe *FileError
	if !errors.As(err, &fe) || fe.Path != "f.csv" || !strings.HasPrefix(err.Error(), "evaluation: f.csv") {
		t.Fatalf("error %v (%T) is not a *FileError naming f.csv", err, err)
	}
	if !isAny(err, ErrInput, ErrName, ErrText, ErrSameTeam, ErrDuplicatePlayer, ErrDuplicateMatch, ErrEmptyFile, ErrHeader, ErrDateOrder) {
		var ignore *FileError
		if errors.As(fe.Err, &ignore) || fe.Line == 0 {
			t.Fatalf("error %v wraps no sentinel and has no position", err)
		}
	}
}

func FuzzLoadScored(f *testing.F) {
	f.Add([]byte(scoredSeed))
	f.Add([]byte("\uFEFF" + scoredSeed))
	f.Add([]byte(""))
	f.Add([]byte(strings.Replace(scoredSeed, "Bees,2", "Ants,2", 1)))
	f.Add([]byte(strings.Replace(scoredSeed, "2020-01-08", "2019-12-31", 1)))
	f.Add([]byte(strings.Replace(scoredSeed, "away_score", "home", 1)))
	f.Add([]byte(strings.Replace(scoredSeed, "Cats,Dogs", "\"Ca\nts\",Dogs", 1)))
	f.Add([]byte("date,season,home,away,home_score,away_score\r\n2020-01-01,s,A,B,1,\"0\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ms, err := readScored("f.csv", bytes.NewReader(data))
		if err != nil {
			checkFileError(t, err)
			return
		}
		if len(ms) == 0 {
			t.Fatal("no matches and no error")
		}
		for i, m := range ms {
			if err := m.Validate(); err != nil {
				t.Fatalf("match %d: %v", i, err)
			}
			if _, err := time.Parse(dateLayout, m.Date); err != nil || m.Season == "" {
				t.Fatalf("match %d: %+v", i, m)
			}
			if i > 0 && m.Date < ms[i-1].Date {
				t.Fatalf("match %d dated %s after %s", i, m.Date, ms[i-1].Date)
			}
		}
	})
}

func FuzzLoadRanked(f *testing.F) {
	f.Add([]byte(rankedSeed))
	f.Add([]byte("\uFEFF" + rankedSeed))
	f.Add([]byte(rankedSeed + "a,2020-01-03,x,p9,1\n"))
	f.Add([]byte(strings.Replace(rankedSeed, "p3", "p1", 1)))
	f.Add([]byte(strings.Replace(rankedSeed, "match_id,", "rank,", 1)))
	f.Add([]byte("match_id,date,team,player,rank\na,2020-01-01,t,p,1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ms, err := readRanked("f.csv", bytes.NewReader(data))
		if err != nil {
			checkFileError(t, err)
			return
		}
		if len(ms) == 0 {
			t.Fatal("no matches and no error")
		}
		ids := map[string]bool{}
		for i, m := range ms {
			if err := m.Validate(); err != nil {
				t.Fatalf("match %d: %v", i, err)
			}
			if ids[m.ID] {
				t.Fatalf("match %s twice", m.ID)
			}
			ids[m.ID] = true
			// Dense ranks: 0, 1, … without gaps.
			r := slices.Compact(slices.Sorted(slices.Values(m.Ranks)))
			for k, x := range r {
				if x != k {
					t.Fatalf("match %s: ranks %v are not dense", m.ID, m.Ranks)
				}
			}
			if i > 0 && m.Date < ms[i-1].Date {
				t.Fatalf("match %s dated %s after %s", m.ID, m.Date, ms[i-1].Date)
			}
		}
	})
}

// floatsOf returns the fuzzer's floats, with a label bit each from the
// byte after.
func floatsOf(data []byte) ([]float64, []bool) {
	b := fuzzBytes(data)
	var xs []float64
	var ls []bool
	for len(b) >= 9 {
		xs = append(xs, b.float())
		ls = append(ls, b.byte()&1 == 1)
	}
	return xs, ls
}

func seedFloats(xs []float64, ls []bool) []byte {
	var out []byte
	for i, x := range xs {
		out = binary.LittleEndian.AppendUint64(out, math.Float64bits(x))
		l := byte(0)
		if ls[i] {
			l = 1
		}
		out = append(out, l)
	}
	return out
}

func FuzzAUC(f *testing.F) {
	f.Add(seedFloats([]float64{0.9, 0.8, 0.4, 0.4, 0.1}, []bool{true, false, true, false, false}), 0)
	f.Add(seedFloats([]float64{math.NaN(), 0.3, math.NaN()}, []bool{true, false, false}), 0)
	f.Add(seedFloats([]float64{math.Inf(-1), 1}, []bool{true, false}), 1)
	f.Add(seedFloats([]float64{0, math.Copysign(0, -1)}, []bool{true, false}), 0)
	f.Fuzz(func(t *testing.T, data []byte, drop int) {
		scores, labels := floatsOf(data)
		if drop%3 == 1 && len(labels) > 0 {
			labels = labels[1:] // lengths that differ
		}
		auc, err := AUC(scores, labels)
		if err != nil {
			if !math.IsNaN(auc) || !isAny(err, ErrInput, ErrNotFinite, ErrNoData) {
				t.Fatalf("AUC = %v, %v", auc, err)
			}
			return
		}
		// The definition, pair by pair.
		var above float64
		var pairs int
		for i := range scores {
			for j := range scores {
				if labels[i] && !labels[j] {
					pairs++
					switch {
					case scores[i] > scores[j]:
						above++
					case scores[i] == scores[j]:
						above += 0.5
					}
				}
			}
		}
		if want := above / float64(pairs); !(auc >= 0 && auc <= 1) || math.Abs(auc-want) > 1e-12 {
			t.Fatalf("AUC = %v, pair by pair %v", auc, want)
		}
	})
}

func FuzzPairErrors(f *testing.F) {
	f.Add(seedFloats([]float64{5, 6, 1, 1}, []bool{false, true, true, false}), []byte{0, 1, 1, 2})
	f.Add(seedFloats([]float64{math.NaN(), 1}, []bool{false, false}), []byte{0, 1})
	f.Add(seedFloats([]float64{1}, []bool{false}), []byte{0, 1})
	f.Fuzz(func(t *testing.T, data, rankBytes []byte) {
		strength, _ := floatsOf(data)
		ranks := make([]int, len(rankBytes))
		for i, r := range rankBytes {
			ranks[i] = int(r % 8)
		}
		// Both tie rules: a tie costs at least as much as a wrong rule's
		// half, and they agree without ties.
		half, _, errHalf := PairErrors(strength, ranks, TiesHalf)
		wrong, pairs, err := PairErrors(strength, ranks, TiesWrong)
		if (err == nil) != (errHalf == nil) || (err == nil && !(half <= wrong && wrong <= 2*half)) {
			t.Fatalf("PairErrors: %v, %v with ties wrong, %v, %v with ties half", wrong, err, half, errHalf)
		}
		if err != nil {
			if !isAny(err, ErrInput, ErrNotFinite) {
				t.Fatalf("PairErrors: %v", err)
			}
			return
		}
		different := 0
		for i := range ranks {
			for j := i + 1; j < len(ranks); j++ {
				if ranks[i] != ranks[j] {
					different++
				}
			}
		}
		if pairs != different || !(wrong >= 0 && wrong <= float64(pairs)) || wrong != math.Round(2*wrong)/2 {
			t.Fatalf("PairErrors = %v of %d, want of %d", wrong, pairs, different)
		}
	})
}

func FuzzInformationGain(f *testing.F) {
	f.Add(math.Log(0.5), math.Log(0.5), 2)
	f.Add(math.NaN(), 0.0, 0)
	f.Add(0.0, math.Inf(-1), 0)
	f.Add(math.Copysign(0, -1), -1e-300, 1)
	f.Add(-700.0, -1e-304, 7)
	f.Add(-0.1, -0.1, 1)
	f.Fuzz(func(t *testing.T, logWin, logNotWin float64, o int) {
		g, err := InformationGain(logWin, logNotWin, Outcome(o))
		if err != nil {
			if !math.IsNaN(g) || !isAny(err, ErrInput, ErrNotFinite) {
				t.Fatalf("InformationGain(%v, %v, %d) = %v, %v", logWin, logNotWin, o, g, err)
			}
			return
		}
		// Unclamped: the score is 1 + log₂ of the outcome's probability
		// (the geometric mean of p and 1 − p for a draw), at most 1 bit,
		// −Inf only where that probability is 0.
		want := map[Outcome]float64{Win: logWin, Loss: logNotWin, Draw: (logWin + logNotWin) / 2}[Outcome(o)]
		if !(g <= 1) || math.IsNaN(g) || (math.IsInf(g, -1) != math.IsInf(want, -1)) || (!math.IsInf(g, -1) && math.Abs(g-1-want/math.Ln2) > 1e-12*math.Max(1, math.Abs(g))) {
			t.Fatalf("InformationGain(%v, %v, %d) = %v", logWin, logNotWin, o, g)
		}
	})
}

func FuzzMeanCI(f *testing.F) {
	f.Add(seedFloats([]float64{1, 2, 3}, []bool{false, false, false}))
	f.Add(seedFloats([]float64{math.MaxFloat64, -math.MaxFloat64}, []bool{false, false}))
	f.Add(seedFloats([]float64{7}, []bool{false}))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		xs, _ := floatsOf(data)
		mean, half, err := MeanCI(xs)
		if err != nil {
			if !math.IsNaN(mean) || !isAny(err, ErrNoData, ErrNotFinite, ErrNumerical) {
				t.Fatalf("MeanCI = %v ± %v, %v", mean, half, err)
			}
			return
		}
		lo, hi := slices.Min(xs), slices.Max(xs)
		slack := 1e-12 * math.Max(math.Abs(lo), math.Abs(hi))
		if !messages.IsFinite(mean) || !messages.IsFinite(half) || half < 0 || mean < lo-slack || mean > hi+slack {
			t.Fatalf("MeanCI(%v) = %v ± %v", xs, mean, half)
		}
	})
}
