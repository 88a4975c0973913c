package evaluation

import (
	"fmt"
	"math"
)

// TrainShares are the training proportions of the score-based paper.
var TrainShares = []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8}

// ScoreMetrics are one model's results on one season at one training share.
type ScoreMetrics struct {
	InfoGain float64 // mean information gain per test match, in bits
	AUC      float64 // win/no-win AUC on the test matches with a winner
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
// each season, the last 20 % of its matches are the test set, and each
// model is trained online on the first share of the matches (starting from
// the priors) and then predicts every test match without further updates.
// progress, if not nil, is called after each season.
func ScoreExperiment(all []ScoredMatch, seasons []string, shares []float64, models []ScoreModel, progress func(season string)) (*ScoreResult, error) {
	res := &ScoreResult{Shares: shares, Seasons: seasons}
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
		if len(ms) < 10 {
			return nil, fmt.Errorf("evaluation: season %s has %d matches", season, len(ms))
		}
		test := ms[len(ms)-int(math.Ceil(0.2*float64(len(ms)))):]
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

func scoreTest(model ScoreModel, test []ScoredMatch) (ScoreMetrics, error) {
	var ig, abs float64
	nAbs := 0
	var winScores []float64
	var winLabels []bool
	for _, m := range test {
		p, hs, as, hasScores, err := model.Predict(m.Home, m.Away)
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
		ig += InformationGain(p, o)
		if o != Draw {
			winScores = append(winScores, p)
			winLabels = append(winLabels, o == Win)
		}
		if hasScores {
			abs += math.Abs(hs-float64(m.HomeScore)) + math.Abs(as-float64(m.AwayScore))
			nAbs += 2
		}
	}
	met := ScoreMetrics{InfoGain: ig / float64(len(test)), AUC: AUC(winScores, winLabels), MAE: math.NaN()}
	if nAbs > 0 {
		met.MAE = abs / float64(nAbs)
	}
	return met, nil
}

// Summary returns, for model mi at share si, the mean and 95 % interval
// half-width over seasons of the metric picked by f (seasons where it is
// NaN are left out).
func (r *ScoreResult) Summary(mi, si int, f func(ScoreMetrics) float64) (mean, half float64) {
	var xs []float64
	for _, m := range r.Metrics[mi][si] {
		if x := f(m); !math.IsNaN(x) {
			xs = append(xs, x)
		}
	}
	if len(xs) == 0 {
		return math.NaN(), 0
	}
	return MeanCI(xs)
}
