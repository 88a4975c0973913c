package evaluation

import (
	"encoding/binary"
	"errors"
	"github.com/skillgraph/skillgraph/messages"
	"math"
	"slices"
	"testing"
)

// The fuzz targets check, for any input, that the metrics return without
// panicking, and either a typed error or a result that keeps their
// documented promises (go test -run='^$' -fuzz=FuzzName
// ./models/evaluation/); the seeds below run with every go test, and a
// failing input the fuzzer finds goes in testdata/fuzz, which go test
// runs too.

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
			if !math.IsNaN(auc) || !isAny(err, ErrInput, ErrNoData) {
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
			if !isAny(err, ErrInput) {
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
			if !math.IsNaN(g) || !isAny(err, ErrInput) {
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
			if !math.IsNaN(mean) || !isAny(err, ErrNoData, ErrInput, ErrNumerical) {
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
