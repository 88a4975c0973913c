package evaluation

import (
	"errors"
	"fmt"
	"github.com/skillgraph/skillgraph/messages"
	"math"
	"slices"
)

// TrainShares are the training proportions of the score-based paper.
var TrainShares = []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8}

// ScoreMetrics are one model's results on one season at one training share.
type ScoreMetrics struct {
	InfoGain float64 // mean information gain per test match, in bits
	AUC      float64 // win/no-win AUC on the test matches with a winner (NaN if they are all of one kind)
	MAE      float64 // mean absolute error of predicted scores (NaN without scores)
}

// ScoreResult holds every model's metrics: Metrics[model][share][season].
type ScoreResult struct {
	Models  []string
	Shares  []float64
	Seasons []string
	Metrics [][][]ScoreMetrics
}

// ScoreExperiment runs the score-based paper's protocol (section 5.1): for
// each season of N matches, the last ⌈0.2·N⌉ matches are the test set, and
// each model is trained online on the first ⌊share·N⌋ matches (starting
// from the priors) and then predicts every test match without further
// updates. The paper says "the last 20 %" without a rounding rule; rounding
// the test set up keeps it disjoint from the training set at share 0.8 for
// every N (an AFL season of 186 matches tests on 38, not 37). Shares above
// 0.8 train on test matches too. progress, if not nil, is called after each
// season.
//
// Every match of all must pass ScoredMatch.Validate; shares must be in
// [0, 1], and seasons, shares and models not empty nor hold a nil model
// (ErrInput); a season needs at least 10 matches (ErrNoData). A model's
// error, or a prediction that fails ScorePrediction.Check (ErrNumerical),
// stops the experiment, named by model, season and share; so does an
// outcome the model gave probability 0, whose information gain is −∞.
func ScoreExperiment(all []ScoredMatch, seasons []string, shares []float64, models []ScoreModel, progress func(season string)) (*ScoreResult, error) {
	if err := checkScoreExperiment(all, seasons, shares, models); err != nil {
		return nil, err
	}
	res := &ScoreResult{Shares: slices.Clone(shares), Seasons: slices.Clone(seasons)}
	for _, m := range models {
		res.Models = append(res.Models, m.Name())
	}
	res.Metrics = make([][][]ScoreMetrics, len(models))
	for mi := range models {
		res.Metrics[mi] = make([][]ScoreMetrics, len(shares))
		for si := range shares {
			res.Metrics[mi][si] = make([]ScoreMetrics, len(seasons))
		}
	}
	for ki, season := range seasons {
		ms := Season(all, season)
		if len(ms) < minSeason {
			return nil, fmt.Errorf("evaluation: season %q has %d matches, need %d: %w", season, len(ms), minSeason, ErrNoData)
		}
		test := ms[len(ms)-TestSize(len(ms)):]
		for si, share := range shares {
			train := ms[:int(share*float64(len(ms)))]
			for mi, model := range models {
				if err := model.Fit(train); err != nil {
					return nil, fmt.Errorf("evaluation: %s, season %s, share %v: %w", model.Name(), season, share, err)
				}
				met, err := scoreTest(model, test)
				if err != nil {
					return nil, fmt.Errorf("evaluation: %s, season %s, share %v: %w", model.Name(), season, share, err)
				}
				res.Metrics[mi][si][ki] = met
			}
		}
		if progress != nil {
			progress(season)
		}
	}
	return res, nil
}

// TestSize returns the number of test matches of a season of n matches,
// ⌈0.2·n⌉ (see ScoreExperiment).
func TestSize(n int) int { return int(math.Ceil(0.2 * float64(n))) }

// minSeason is the fewest matches a season needs for ScoreExperiment: its
// test set is then at least two matches.
const minSeason = 10

func checkScoreExperiment(all []ScoredMatch, seasons []string, shares []float64, models []ScoreModel) error {
	for i, m := range all {
		if err := m.Validate(); err != nil {
			return fmt.Errorf("evaluation: ScoreExperiment: all[%d]: %w", i, err)
		}
	}
	switch {
	case len(seasons) == 0:
		return fmt.Errorf("evaluation: ScoreExperiment: no seasons: %w", ErrInput)
	case len(shares) == 0:
		return fmt.Errorf("evaluation: ScoreExperiment: no training shares: %w", ErrInput)
	case len(models) == 0:
		return fmt.Errorf("evaluation: ScoreExperiment: no models: %w", ErrInput)
	}
	for i, s := range shares {
		if !isProbability(s) {
			return fmt.Errorf("evaluation: ScoreExperiment: shares[%d] = %v is not in [0, 1]: %w", i, s, ErrInput)
		}
	}
	for i, m := range models {
		if m == nil {
			return fmt.Errorf("evaluation: ScoreExperiment: models[%d] is nil: %w", i, ErrInput)
		}
	}
	return nil
}

// scoreTest scores model's predictions of the test matches. A test set
// whose decided matches are all home wins or all away wins has no AUC
// (NaN). AUC ranks the matches by log-odds, the order of p that does not
// round to ties where p is within 1e-16 of 1.
func scoreTest(model ScoreModel, test []ScoredMatch) (ScoreMetrics, error) {
	var ig, abs float64
	nAbs := 0
	var winScores []float64
	var winLabels []bool
	for _, m := range test {
		pr, err := model.Predict(m.Home, m.Away)
		pr, err = checkPrediction(model.Name(), m.Home, m.Away, pr, err)
		if err != nil {
			return ScoreMetrics{}, err
		}
		o := Draw
		switch {
		case m.HomeScore > m.AwayScore:
			o = Win
		case m.HomeScore < m.AwayScore:
			o = Loss
		}
		g, err := InformationGain(pr.LogWin, pr.LogNotWin, o)
		if err != nil {
			return ScoreMetrics{}, fmt.Errorf("evaluation: %s: %s v %s: %w", model.Name(), m.Home, m.Away, err)
		}
		if math.IsInf(g, -1) {
			return ScoreMetrics{}, fmt.Errorf("evaluation: %s: %s v %s ended in a %v, to which the model gave probability 0: %w", model.Name(), m.Home, m.Away, o, ErrNumerical)
		}
		ig += g
		if o != Draw {
			winScores = append(winScores, pr.LogOdds())
			winLabels = append(winLabels, o == Win)
		}
		if pr.HasScores {
			abs += math.Abs(pr.HomeScore-float64(m.HomeScore)) + math.Abs(pr.AwayScore-float64(m.AwayScore))
			nAbs += 2
		}
	}
	auc, err := AUC(winScores, winLabels)
	if err != nil && !errors.Is(err, ErrNoData) {
		return ScoreMetrics{}, err
	}
	met := ScoreMetrics{InfoGain: ig / float64(len(test)), AUC: auc, MAE: math.NaN()}
	if nAbs > 0 {
		met.MAE = abs / float64(nAbs)
	}
	if !messages.IsFinite(met.InfoGain) || (nAbs > 0 && !messages.IsFinite(met.MAE)) {
		return ScoreMetrics{}, fmt.Errorf("evaluation: %s: metrics %+v: %w", model.Name(), met, ErrNumerical)
	}
	return met, nil
}

// Summary returns, for model mi at share si, the mean and 95 % interval
// half-width over seasons of the metric picked by f, leaving out the
// seasons where it is NaN (a metric a model or season lacks). Indices out
// of range or a nil f are ErrInput; a metric NaN in every season is
// ErrNoData, with a NaN mean, so that a table can show a gap; other errors
// are MeanCI's.
func (r *ScoreResult) Summary(mi, si int, f func(ScoreMetrics) float64) (mean, half float64, err error) {
	switch {
	case r == nil || f == nil:
		return math.NaN(), 0, fmt.Errorf("evaluation: Summary: nil result or metric: %w", ErrInput)
	case mi < 0 || mi >= len(r.Metrics):
		return math.NaN(), 0, fmt.Errorf("evaluation: Summary: model %d of %d: %w", mi, len(r.Metrics), ErrInput)
	case si < 0 || si >= len(r.Metrics[mi]):
		return math.NaN(), 0, fmt.Errorf("evaluation: Summary: share %d of %d: %w", si, len(r.Metrics[mi]), ErrInput)
	}
	var xs []float64
	for _, m := range r.Metrics[mi][si] {
		if x := f(m); !math.IsNaN(x) {
			xs = append(xs, x)
		}
	}
	if len(xs) == 0 {
		return math.NaN(), 0, fmt.Errorf("evaluation: Summary: model %d, share %d: no season has the metric: %w", mi, si, ErrNoData)
	}
	return MeanCI(xs)
}
