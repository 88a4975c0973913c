package evaluation

import (
	"cmp"
	"fmt"
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

// String returns "loss", "draw" or "win".
func (o Outcome) String() string {
	switch o {
	case Loss:
		return "loss"
	case Draw:
		return "draw"
	case Win:
		return "win"
	}
	return fmt.Sprintf("Outcome(%d)", int(o))
}

// igFloor is the smallest probability InformationGain scores: one
// certain, wrong prediction then costs about 39 bits rather than
// infinitely many, so one match cannot swamp a season's mean.
const igFloor = 1e-12

// InformationGain returns the score in bits of the Probabilistic Footy
// Tipping Competition that the score-based paper uses (section 5.2): for a
// predicted probability p that the team wins, 1 + log₂ p if it won,
// 1 + log₂(1 − p) if it lost, and 1 + ½·log₂(p(1 − p)) for a draw. p is
// clamped to [1e-12, 1 − 1e-12] first. A p that is NaN (ErrNotFinite) or
// outside [0, 1], or an unknown outcome (ErrInput), is an error.
func InformationGain(p float64, o Outcome) (float64, error) {
	if math.IsNaN(p) {
		return math.NaN(), fmt.Errorf("evaluation: InformationGain: p = %v: %w", p, ErrNotFinite)
	}
	if !isProbability(p) {
		return math.NaN(), fmt.Errorf("evaluation: InformationGain: p = %v is not in [0, 1]: %w", p, ErrInput)
	}
	p = math.Min(math.Max(p, igFloor), 1-igFloor)
	switch o {
	case Win:
		return 1 + math.Log2(p), nil
	case Loss:
		return 1 + math.Log2(1-p), nil
	case Draw:
		return 1 + 0.5*math.Log2(p*(1-p)), nil
	}
	return math.NaN(), fmt.Errorf("evaluation: InformationGain: outcome %v: %w", o, ErrInput)
}

// AUC returns the area under the ROC curve of scores for the labels: the
// probability that a random positive scores above a random negative, ties
// counting one half (the Mann–Whitney statistic). Slices of different
// lengths (ErrInput) and a score that is NaN or infinite (ErrNotFinite)
// are errors; so is a class without members (ErrNoData), for which the
// AUC is undefined. On error the value is NaN.
func AUC(scores []float64, positive []bool) (float64, error) {
	if len(scores) != len(positive) {
		return math.NaN(), fmt.Errorf("evaluation: AUC: %d scores and %d labels: %w", len(scores), len(positive), ErrInput)
	}
	nPos := 0
	for i, s := range scores {
		if !finite(s) {
			return math.NaN(), fmt.Errorf("evaluation: AUC: scores[%d] = %v: %w", i, s, ErrNotFinite)
		}
		if positive[i] {
			nPos++
		}
	}
	nNeg := len(scores) - nPos
	if nPos == 0 || nNeg == 0 {
		return math.NaN(), fmt.Errorf("evaluation: AUC: %d positives and %d negatives, need both: %w", nPos, nNeg, ErrNoData)
	}
	idx := make([]int, len(scores))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(scores[a], scores[b]) })
	// Sum of the (mid-)ranks of the positives.
	var rankSum float64
	for i := 0; i < len(idx); {
		j := i + 1
		for j < len(idx) && scores[idx[j]] == scores[idx[i]] {
			j++
		}
		mid := float64(i+j+1) / 2 // ranks i+1 … j
		for k := i; k < j; k++ {
			if positive[idx[k]] {
				rankSum += mid
			}
		}
		i = j
	}
	p, n := float64(nPos), float64(nNeg)
	return (rankSum - p*(p+1)/2) / (p * n), nil
}

// PairErrors counts, over the pairs of teams with different ranks, those
// that strength (higher is better) puts in the wrong order; a pair of equal
// strengths counts one half. Slices of different lengths (ErrInput) and a
// strength that is NaN or infinite (ErrNotFinite) are errors.
func PairErrors(strength []float64, ranks []int) (wrong float64, pairs int, err error) {
	if len(strength) != len(ranks) {
		return 0, 0, fmt.Errorf("evaluation: PairErrors: %d strengths and %d ranks: %w", len(strength), len(ranks), ErrInput)
	}
	for i, s := range strength {
		if !finite(s) {
			return 0, 0, fmt.Errorf("evaluation: PairErrors: strength[%d] = %v: %w", i, s, ErrNotFinite)
		}
	}
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
	return wrong, pairs, nil
}

// MeanCI returns the mean of xs and the half-width of its 95 % confidence
// interval from Student's t distribution (0 for one value). No values
// (ErrNoData) and a NaN or infinite value (ErrNotFinite) are errors, and
// so are values spread so widely that the interval overflows
// (ErrNumerical); the mean is then NaN.
func MeanCI(xs []float64) (mean, half float64, err error) {
	if len(xs) == 0 {
		return math.NaN(), 0, fmt.Errorf("evaluation: MeanCI: %w", ErrNoData)
	}
	for i, x := range xs {
		if !finite(x) {
			return math.NaN(), 0, fmt.Errorf("evaluation: MeanCI: xs[%d] = %v: %w", i, x, ErrNotFinite)
		}
	}
	n := float64(len(xs))
	for _, x := range xs {
		mean += x
	}
	mean /= n
	if len(xs) == 1 {
		return mean, 0, nil
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	sd := math.Sqrt(ss / (n - 1))
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}.Quantile(0.975)
	half = t * sd / math.Sqrt(n)
	if !finite(mean) || !finite(half) {
		return math.NaN(), 0, fmt.Errorf("evaluation: MeanCI: values spread beyond float64 (mean %v, half-width %v): %w", mean, half, ErrNumerical)
	}
	return mean, half, nil
}
