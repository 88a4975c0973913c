package evaluation

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/skillgraph/skillgraph/messages"
	"gonum.org/v1/gonum/stat/distuv"
)

// Outcome of a match for the team whose win probability is predicted.
type Outcome int

// The outcomes.
const (
	Loss Outcome = iota
	Draw
	Win
)

// String returns "loss", "draw" or "win".
func (o Outcome) String() string {
	if o >= Loss && o <= Win {
		return [...]string{"loss", "draw", "win"}[o]
	}
	return fmt.Sprintf("Outcome(%d)", int(o))
}

// InformationGain returns the score in bits of the Probabilistic Footy
// Tipping Competition that the score-based paper uses (section 5.2): for a
// predicted probability p that the team wins, 1 + log₂ p if it won,
// 1 + log₂(1 − p) if it lost, and 1 + ½·log₂(p(1 − p)) for a draw.
//
// It takes the forecast as natural logs, logWin = log p and logNotWin =
// log(1 − p), so that a forecast of 1e-57 or 1 − 1e-20 is scored as it is:
// nothing is clamped. An outcome given probability 0 scores −Inf, with no
// error; callers that average scores decide what to do with it.
//
// Logs that fail checkLogs or an unknown outcome are ErrInput, with NaN.
func InformationGain(logWin, logNotWin float64, o Outcome) (float64, error) {
	if err := checkLogs(logWin, logNotWin); err != nil {
		return math.NaN(), fmt.Errorf("evaluation: InformationGain: %w: %w", err, ErrInput)
	}
	switch o {
	case Win:
		return 1 + logWin/math.Ln2, nil
	case Loss:
		return 1 + logNotWin/math.Ln2, nil
	case Draw:
		return 1 + 0.5*(logWin+logNotWin)/math.Ln2, nil
	}
	return math.NaN(), fmt.Errorf("evaluation: InformationGain: outcome %v: %w", o, ErrInput)
}

// checkLogs reports logs that are not log p and log(1 − p) of one p: a
// NaN, a log above 0, or probabilities not summing to 1 within 1e-6.
func checkLogs(logWin, logNotWin float64) error {
	if !(logWin <= 0 && logNotWin <= 0) {
		return fmt.Errorf("log p = %v, log(1 − p) = %v: a log-probability is at most 0", logWin, logNotWin)
	}
	// log(p + (1 − p)), summed from the larger log without overflow.
	s, b := max(logWin, logNotWin), min(logWin, logNotWin)
	if !math.IsInf(s, -1) {
		s += math.Log1p(math.Exp(b - s))
	}
	if !(math.Abs(s) <= 1e-6) {
		return fmt.Errorf("log p = %v, log(1 − p) = %v: p and 1 − p sum to %.6g, not 1", logWin, logNotWin, math.Exp(s))
	}
	return nil
}

// AUC returns the area under the ROC curve of scores for the labels: the
// probability that a random positive scores above a random negative, ties
// counting one half (the Mann–Whitney statistic). Slices of different
// lengths or a score that is not finite (ErrInput) and a class without
// members (ErrNoData) are errors, with NaN.
func AUC(scores []float64, positive []bool) (float64, error) {
	if len(scores) != len(positive) {
		return math.NaN(), fmt.Errorf("evaluation: AUC: %d scores and %d labels: %w", len(scores), len(positive), ErrInput)
	}
	nPos := 0
	for i, s := range scores {
		if !messages.IsFinite(s) {
			return math.NaN(), fmt.Errorf("evaluation: AUC: scores[%d] = %v: %w", i, s, ErrInput)
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

// TieRule says how PairErrors scores a pair of teams predicted exactly
// equal in strength.
type TieRule int

const (
	// TiesWrong, the zero value, counts a predicted tie as an error: a
	// system that cannot tell two teams apart has not predicted their
	// order. The TrueSkill paper's section 4.1 numbers come out under this
	// reading, every new player starting at the same rating.
	TiesWrong TieRule = iota
	// TiesHalf counts it as half an error, as a coin toss would on average.
	TiesHalf
)

// String returns "wrong" or "half".
func (r TieRule) String() string {
	switch r {
	case TiesWrong:
		return "wrong"
	case TiesHalf:
		return "half"
	}
	return fmt.Sprintf("TieRule(%d)", int(r))
}

// weight returns the error a predicted tie counts for; ErrInput for an
// unknown rule.
func (r TieRule) weight() (float64, error) {
	if r != TiesWrong && r != TiesHalf {
		return 0, fmt.Errorf("evaluation: %v: %w", r, ErrInput)
	}
	return 1 - 0.5*float64(r), nil
}

// PairErrors counts, over the pairs of teams with different ranks, those
// that strength (higher is better) puts in the wrong order; a pair of
// exactly equal strengths counts as ties says (one error for TiesWrong,
// one half for TiesHalf). Slices of different lengths or an unknown rule
// and a strength that is NaN or infinite are errors (ErrInput).
func PairErrors(strength []float64, ranks []int, ties TieRule) (wrong float64, pairs int, err error) {
	tieWeight, err := ties.weight()
	if err != nil {
		return 0, 0, fmt.Errorf("evaluation: PairErrors: %w", err)
	}
	if len(strength) != len(ranks) {
		return 0, 0, fmt.Errorf("evaluation: PairErrors: %d strengths and %d ranks: %w", len(strength), len(ranks), ErrInput)
	}
	for i, s := range strength {
		if !messages.IsFinite(s) {
			return 0, 0, fmt.Errorf("evaluation: PairErrors: strength[%d] = %v: %w", i, s, ErrInput)
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
				wrong += tieWeight
			}
		}
	}
	return wrong, pairs, nil
}

// EloLogQuality returns Elo's tightness of a game: the log of the
// TrueSkill paper's match quality (eq. 7 and its k-team form) with every
// skill known exactly (σ = 0), for teams of the given strengths (sums of
// Elo ratings) and sizes, each player's performance of standard deviation
// beta. It is at most 0, higher is tighter; the quality itself underflows
// to 0 for lopsided games, which would then all tie.
//
// Derivation. With A the players × (k − 1) matrix of adjacent team
// differences, the quality is √(det(β²AᵀA)/det(β²AᵀA + AᵀΣA)) ·
// exp(−½ μᵀA(β²AᵀA + AᵀΣA)⁻¹Aᵀμ); at Σ = 0 the determinant ratio is 1 and
//
//	log q = −dᵀ(AᵀA)⁻¹d/(2β²),  d = Aᵀμ, the adjacent strength differences,
//
// where AᵀA = DNDᵀ for the difference matrix D and N = diag(nⱼ). The
// quadratic form is the weighted least-squares residual of one common
// strength, Σⱼ (Sⱼ − S̄)²/nⱼ with S̄ = Σⱼ(Sⱼ/nⱼ)/Σⱼ(1/nⱼ): it does not depend
// on the order of the teams, and for two teams it is (S₁ − S₂)²/(n₁ + n₂),
// so that, one player a side, games rank by |s₁ − s₂|, the paper's
// "difference in Elo scores".
//
// Fewer than two teams, slices of different lengths, a size below 1 or a
// beta that is not finite and positive, and a strength that is NaN or
// infinite are errors (ErrInput), as is a spread so wide that
// the square overflows (ErrNumerical).
func EloLogQuality(strengths []float64, sizes []int, beta float64) (float64, error) {
	switch {
	case len(strengths) < 2:
		return math.NaN(), fmt.Errorf("evaluation: EloLogQuality: %d teams, need at least 2: %w", len(strengths), ErrInput)
	case len(strengths) != len(sizes):
		return math.NaN(), fmt.Errorf("evaluation: EloLogQuality: %d strengths and %d sizes: %w", len(strengths), len(sizes), ErrInput)
	case !(beta > 0) || math.IsInf(beta, 1):
		return math.NaN(), fmt.Errorf("evaluation: EloLogQuality: beta = %v: %w", beta, ErrInput)
	}
	var wsum, wmean float64
	for j, s := range strengths {
		if !messages.IsFinite(s) {
			return math.NaN(), fmt.Errorf("evaluation: EloLogQuality: strengths[%d] = %v: %w", j, s, ErrInput)
		}
		if sizes[j] < 1 {
			return math.NaN(), fmt.Errorf("evaluation: EloLogQuality: sizes[%d] = %d: %w", j, sizes[j], ErrInput)
		}
		w := 1 / float64(sizes[j])
		wsum += w
		wmean += w * (s / beta) // on the scale of β, so that the squares below do not overflow early
	}
	wmean /= wsum
	var q float64
	for j, s := range strengths {
		r := s/beta - wmean
		q += r * r / float64(sizes[j])
	}
	if !messages.IsFinite(q) {
		return math.NaN(), fmt.Errorf("evaluation: EloLogQuality: strengths %v spread beyond float64: %w", strengths, ErrNumerical)
	}
	return -q / 2, nil
}

// MeanCI returns the mean of xs and the half-width of its 95 % confidence
// interval from Student's t distribution (0 for one value). No values
// (ErrNoData), a value that is not finite (ErrInput) and an interval that
// overflows (ErrNumerical) are errors, with a NaN mean.
func MeanCI(xs []float64) (mean, half float64, err error) {
	mean, half, _, err = meanCI(xs)
	return mean, half, err
}

// meanCI is MeanCI, also returning the standard error of the mean.
func meanCI(xs []float64) (mean, half, se float64, err error) {
	if len(xs) == 0 {
		return math.NaN(), 0, 0, fmt.Errorf("evaluation: MeanCI: %w", ErrNoData)
	}
	for i, x := range xs {
		if !messages.IsFinite(x) {
			return math.NaN(), 0, 0, fmt.Errorf("evaluation: MeanCI: xs[%d] = %v: %w", i, x, ErrInput)
		}
	}
	mean, sd := meanSD(xs)
	if len(xs) == 1 {
		return mean, 0, 0, nil
	}
	n := float64(len(xs))
	se = sd / math.Sqrt(n) // before the quantile multiplies it, which may not overflow
	half = distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}.Quantile(0.975) * se
	if !messages.IsFinite(mean) || !messages.IsFinite(half) {
		return math.NaN(), 0, 0, fmt.Errorf("evaluation: MeanCI: values spread beyond float64 (mean %v, half-width %v): %w", mean, half, ErrNumerical)
	}
	return mean, half, se, nil
}

// PairedTest compares two sets of results paired by season: with dᵢ =
// a[i] − b[i], it returns MeanCI of the dᵢ and the two-sided p-value of the
// paired t-test of "no difference" (n − 1 degrees of freedom), 1 if every
// dᵢ is 0 and 0 if they are all another value. Slices of different
// lengths, fewer than two pairs or a value that is not finite (ErrInput)
// and differences that overflow (ErrNumerical) are errors.
func PairedTest(a, b []float64) (diff, half, p float64, err error) {
	if len(a) != len(b) || len(a) < 2 {
		return math.NaN(), 0, math.NaN(), fmt.Errorf("evaluation: PairedTest: %d and %d values, need two or more pairs: %w", len(a), len(b), ErrInput)
	}
	d := make([]float64, len(a))
	for i := range a {
		if !messages.IsFinite(a[i]) || !messages.IsFinite(b[i]) {
			return math.NaN(), 0, math.NaN(), fmt.Errorf("evaluation: PairedTest: pair %d = (%v, %v): %w", i, a[i], b[i], ErrInput)
		}
		d[i] = a[i] - b[i]
		if !messages.IsFinite(d[i]) {
			return math.NaN(), 0, math.NaN(), fmt.Errorf("evaluation: PairedTest: pair %d = (%v, %v): the difference overflows float64: %w", i, a[i], b[i], ErrNumerical)
		}
	}
	diff, half, se, err := meanCI(d)
	if err != nil {
		return math.NaN(), 0, math.NaN(), fmt.Errorf("evaluation: PairedTest: %w", err)
	}
	switch {
	case se == 0 && diff == 0:
		return diff, 0, 1, nil
	case se == 0:
		return diff, 0, 0, nil
	}
	t := math.Abs(diff) / se
	p = 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(d) - 1)}.CDF(-t)
	return diff, half, p, nil
}

// meanSD returns the mean of xs, not empty, and their sample standard
// deviation (0 for one value).
//
// Finite values whose sum or squared deviations overflow (1e308 twice)
// are summed again scaled, by 1/n and by the largest deviation, so that a
// mean and standard deviation within float64 come out as they are.
func meanSD(xs []float64) (mean, sd float64) {
	n := float64(len(xs))
	for _, x := range xs {
		mean += x
	}
	mean /= n
	if !messages.IsFinite(mean) {
		mean = 0
		for _, x := range xs {
			mean += x / n
		}
	}
	if len(xs) < 2 {
		return mean, 0
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	if messages.IsFinite(ss) {
		return mean, math.Sqrt(ss / (n - 1))
	}
	var scale float64
	for _, x := range xs {
		scale = max(scale, math.Abs(x-mean))
	}
	ss = 0
	for _, x := range xs {
		r := (x - mean) / scale
		ss += r * r
	}
	return mean, scale * math.Sqrt(ss/(n-1))
}
