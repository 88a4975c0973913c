package evaluation

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// Outcome of a match for the team whose win probability is predicted.
type Outcome int

// Outcomes.
const (
	Loss Outcome = iota
	Draw
	Win
)

// InformationGain returns the score in bits of the Probabilistic Footy
// Tipping Competition that the score-based paper uses (section 5.2): for a
// predicted probability p that the team wins, 1 + log₂ p if it won,
// 1 + log₂(1 − p) if it lost, and 1 + ½·log₂(p(1 − p)) for a draw. p is
// clamped to [1e-12, 1 − 1e-12] so that one certain, wrong prediction costs
// about 39 bits rather than infinitely many.
func InformationGain(p float64, o Outcome) float64 {
	p = math.Min(math.Max(p, 1e-12), 1-1e-12)
	switch o {
	case Win:
		return 1 + math.Log2(p)
	case Loss:
		return 1 + math.Log2(1-p)
	default:
		return 1 + 0.5*math.Log2(p*(1-p))
	}
}

// AUC returns the area under the ROC curve of scores for the labels: the
// probability that a random positive scores above a random negative, ties
// counting one half (the Mann–Whitney statistic). It is NaN if either class
// is empty.
func AUC(scores []float64, positive []bool) float64 {
	idx := make([]int, len(scores))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		switch {
		case scores[a] < scores[b]:
			return -1
		case scores[a] > scores[b]:
			return 1
		}
		return 0
	})
	// Sum of the (mid-)ranks of the positives.
	var rankSum float64
	nPos := 0
	for i := 0; i < len(idx); {
		j := i
		for j < len(idx) && scores[idx[j]] == scores[idx[i]] {
			j++
		}
		mid := float64(i+j+1) / 2 // ranks i+1 … j
		for k := i; k < j; k++ {
			if positive[idx[k]] {
				rankSum += mid
				nPos++
			}
		}
		i = j
	}
	nNeg := len(scores) - nPos
	if nPos == 0 || nNeg == 0 {
		return math.NaN()
	}
	return (rankSum - float64(nPos*(nPos+1))/2) / float64(nPos*nNeg)
}

// PairErrors counts, over the pairs of teams with different ranks, those
// that strength (higher is better) puts in the wrong order; a pair of equal
// strengths counts one half.
func PairErrors(strength []float64, ranks []int) (wrong float64, pairs int) {
	for i := range ranks {
		for j := i + 1; j < len(ranks); j++ {
			if ranks[i] == ranks[j] {
				continue
			}
			pairs++
			better, worse := i, j
			if ranks[j] < ranks[i] {
				better, worse = j, i
			}
			switch {
			case strength[better] < strength[worse]:
				wrong++
			case strength[better] == strength[worse]:
				wrong += 0.5
			}
		}
	}
	return wrong, pairs
}

// MeanCI returns the mean of xs and the half-width of its 95 % confidence
// interval from Student's t distribution (0 for fewer than two values).
func MeanCI(xs []float64) (mean, half float64) {
	n := float64(len(xs))
	if n == 0 {
		return math.NaN(), 0
	}
	for _, x := range xs {
		mean += x
	}
	mean /= n
	if n < 2 {
		return mean, 0
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	sd := math.Sqrt(ss / (n - 1))
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}.Quantile(0.975)
	return mean, t * sd / math.Sqrt(n)
}
