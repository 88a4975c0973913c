package evaluation

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/record"
)

// TrainShares returns the training proportions of the score-based paper.
func TrainShares() []float64 { return []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8} }

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
// each season of N matches, the last TestSize(N) matches are the test set,
// and each model, started afresh, learns online from the first ⌊share·N⌋
// and then predicts every test match without further updates. Shares
// above 0.8 train on test matches too. progress, if not nil, is called
// after each season.
//
// Every match of all must pass record.Match.Validate and be two teams
// with scores, the first at home; shares must be in [0, 1], and seasons,
// shares and models not empty nor hold a model without New (ErrInput); a
// season needs at least 10 matches (ErrNoData). A model's error, or a
// prediction that fails ScorePrediction.Check (ErrNumerical), stops the
// experiment, named by model, season and share; so does an outcome the
// model gave probability 0, whose information gain is −∞.
func ScoreExperiment(all []record.Match, seasons []string, shares []float64, models []ScoreModel, progress func(season string)) (*ScoreResult, error) {
	if err := checkScoreExperiment(all, seasons, shares, models); err != nil {
		return nil, err
	}
	res := &ScoreResult{Shares: slices.Clone(shares), Seasons: slices.Clone(seasons), Metrics: make([][][]ScoreMetrics, len(models))}
	for mi, m := range models {
		res.Models = append(res.Models, m.Name)
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
				met, err := scoreRun(model, train, test)
				if err != nil {
					return nil, fmt.Errorf("evaluation: %s, season %s, share %v: %w", model.Name, season, share, err)
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
// ⌈0.2·n⌉: the paper says "the last 20 %" without a rounding rule, and
// rounding up keeps the test set apart from the training set at share 0.8
// for every n (an AFL season of 186 matches tests on 38, not 37).
func TestSize(n int) int { return int(math.Ceil(0.2 * float64(n))) }

// minSeason is the fewest matches a season needs for ScoreExperiment: its
// test set is then at least two matches.
const minSeason = 10

func checkScoreExperiment(all []record.Match, seasons []string, shares []float64, models []ScoreModel) error {
	for i := range all {
		if err := checkMatch(fmt.Sprintf("evaluation: ScoreExperiment: all[%d]", i), &all[i], true, true); err != nil {
			return err
		}
	}
	if len(seasons) == 0 || len(shares) == 0 || len(models) == 0 {
		return fmt.Errorf("evaluation: ScoreExperiment: %d seasons, %d training shares and %d models; need some of each: %w", len(seasons), len(shares), len(models), ErrInput)
	}
	for i, s := range shares {
		if !(s >= 0 && s <= 1) {
			return fmt.Errorf("evaluation: ScoreExperiment: shares[%d] = %v is not in [0, 1]: %w", i, s, ErrInput)
		}
	}
	for i, m := range models {
		if m.New == nil {
			return fmt.Errorf("evaluation: ScoreExperiment: models[%d] has no New: %w", i, ErrInput)
		}
	}
	return nil
}

// scoreRun starts model afresh on train, has it learn train in order, and
// scores its predictions of the test matches. A test set whose decided
// matches are all home wins or all away wins has no AUC (NaN). AUC ranks
// the matches by log-odds log(p/(1 − p)), which orders them as p does
// without p's rounding to 1.
func scoreRun(model ScoreModel, train, test []record.Match) (ScoreMetrics, error) {
	p, err := model.New(train)
	for i := 0; err == nil && i < len(train); i++ {
		err = p.Observe(&train[i])
	}
	if err != nil {
		return ScoreMetrics{}, err
	}
	var ig, abs float64
	nAbs := 0
	var winScores []float64
	var winLabels []bool
	for i := range test {
		m := &test[i]
		home, away := m.Teams[0], m.Teams[1]
		pr, err := p.Predict(m)
		if err == nil {
			err = pr.Check()
		}
		o := Outcome(1 + cmp.Compare(home.Score, away.Score))
		var g float64
		if err == nil {
			g, err = InformationGain(pr.LogWin, pr.LogNotWin, o)
		}
		if err == nil && math.IsInf(g, -1) {
			err = fmt.Errorf("ended in a %v, to which the model gave probability 0: %w", o, ErrNumerical)
		}
		if err != nil {
			return ScoreMetrics{}, fmt.Errorf("%s v %s: %w", home.Name, away.Name, err)
		}
		ig += g
		if o != Draw {
			// A certain forecast (p = 0 or 1) has log-odds ∓∞, which AUC
			// refuses; ±MaxFloat64 keeps its place in the order.
			odds := math.Max(-math.MaxFloat64, math.Min(pr.LogWin-pr.LogNotWin, math.MaxFloat64))
			winScores = append(winScores, odds)
			winLabels = append(winLabels, o == Win)
		}
		if pr.HasScores {
			abs += math.Abs(pr.HomeScore-float64(home.Score)) + math.Abs(pr.AwayScore-float64(away.Score))
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
		return ScoreMetrics{}, fmt.Errorf("metrics %+v: %w", met, ErrNumerical)
	}
	return met, nil
}

// Summary returns, for model mi at share si, MeanCI over seasons of the
// metric picked by f, leaving out the seasons where it is NaN (a metric a
// model or season lacks), so that a metric NaN in every season is
// ErrNoData with a NaN mean, a gap in a table. A nil r or f or indices
// out of range are ErrInput.
func (r *ScoreResult) Summary(mi, si int, f func(ScoreMetrics) float64) (mean, half float64, err error) {
	if r == nil || f == nil || mi < 0 || mi >= len(r.Metrics) || si < 0 || si >= len(r.Metrics[mi]) {
		return math.NaN(), 0, fmt.Errorf("evaluation: Summary: model %d, share %d out of range, or a nil result or metric: %w", mi, si, ErrInput)
	}
	var xs []float64
	for _, m := range r.Metrics[mi][si] {
		if x := f(m); !math.IsNaN(x) {
			xs = append(xs, x)
		}
	}
	return MeanCI(xs)
}
