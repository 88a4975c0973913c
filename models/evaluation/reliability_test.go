package evaluation_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/models/elo"
	"github.com/skillgraph/skillgraph/models/evaluation"
	"github.com/skillgraph/skillgraph/models/scorebased"
	"github.com/skillgraph/skillgraph/models/trueskill"
	"github.com/skillgraph/skillgraph/record"
)

var nan = math.NaN()

// within runs f and fails the test if it has not returned within a second:
// the inputs below used to make loops run forever.
func within(t *testing.T, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(time.Second):
		t.Fatal("did not return within 1 s")
	}
}

// wantErr fails unless err wraps want and its message contains each of
// texts.
func wantErr(t *testing.T, what string, err, want error, texts ...string) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Errorf("%s: error %v, want %v", what, err, want)
		return
	}
	for _, s := range texts {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("%s: error %q does not say %q", what, err, s)
		}
	}
}

// league returns n matches of season "s" among four teams, home wins,
// away wins and draws in turn.
func league(n int) []record.Match {
	teams := []string{"Ants", "Bees", "Cats", "Dogs"}
	var ms []record.Match
	for i := range n {
		h, a := teams[i%4], teams[(i+1+i/4)%4]
		if h == a {
			a = teams[(i+2)%4]
		}
		ms = append(ms, scored(fmt.Sprint(i), "s", h, a, (i+1)%3, i%2))
	}
	return ms
}

func TestAUCNaNScoreIsAnErrorNotAHang(t *testing.T) {
	within(t, func() {
		auc, err := evaluation.AUC([]float64{0.4, nan, 0.7}, []bool{true, false, true})
		wantErr(t, "AUC with a NaN", err, evaluation.ErrInput, "scores[1] = NaN")
		if !math.IsNaN(auc) {
			t.Errorf("AUC = %v with an error, want NaN", auc)
		}
	})
	_, err := evaluation.AUC([]float64{math.Inf(1), 0}, []bool{true, false})
	wantErr(t, "AUC with +Inf", err, evaluation.ErrInput, "scores[0] = +Inf")
}

// fixed is a Predictor that learns nothing and always forecasts the same,
// as a broken user model might.
type fixed evaluation.ScorePrediction

func (fixed) Observe(*record.Match) error { return nil }
func (f fixed) Predict(*record.Match) (evaluation.ScorePrediction, error) {
	return evaluation.ScorePrediction(f), nil
}

// fixedModel is a ScoreModel that always forecasts p.
func fixedModel(name string, p evaluation.ScorePrediction) []evaluation.ScoreModel {
	return []evaluation.ScoreModel{{Name: name, New: func([]record.Match) (evaluation.Predictor, error) { return fixed(p), nil }}}
}

func TestScoreExperimentRejectsNonFinitePredictions(t *testing.T) {
	within(t, func() {
		_, err := evaluation.ScoreExperiment(league(20), []string{"s"}, []float64{0.5}, fixedModel("nan", evaluation.ScorePrediction{LogWin: nan, LogNotWin: math.Log(0.5)}), nil)
		wantErr(t, "NaN prediction", err, evaluation.ErrNumerical, "nan, season s, share 0.5", "= NaN")
	})
	half := math.Log(0.5)
	_, err := evaluation.ScoreExperiment(league(20), []string{"s"}, []float64{0.5}, fixedModel("inf", evaluation.ScorePrediction{LogWin: half, LogNotWin: half, HomeScore: math.Inf(1), AwayScore: 1, HasScores: true}), nil)
	wantErr(t, "infinite score", err, evaluation.ErrNumerical, "scores +Inf-1")
	_, err = evaluation.ScoreExperiment(league(20), []string{"s"}, []float64{0.5}, fixedModel("0.8", evaluation.ScorePrediction{LogWin: math.Log(0.4), LogNotWin: math.Log(0.4)}), nil)
	wantErr(t, "probabilities summing to 0.8", err, evaluation.ErrNumerical, "sum to 0.8, not 1")
	// Sure that home loses: P(win) = 0, so a home win scores −∞ bits.
	_, err = evaluation.ScoreExperiment(league(20), []string{"s"}, []float64{0.5}, fixedModel("certain", evaluation.ScorePrediction{LogWin: math.Inf(-1), LogNotWin: 0}), nil)
	wantErr(t, "a win given probability 0", err, evaluation.ErrNumerical, "ended in a win, to which the model gave probability 0")
}

func TestScoreExperimentRejectsBadArguments(t *testing.T) {
	ms := league(20)
	// Spare capacity beyond len: a share above 1 used to read the zero
	// matches there instead of failing.
	roomy := append(make([]record.Match, 0, 64), ms...)
	models := scoreModels(t)
	for _, c := range []struct {
		name   string
		all    []record.Match
		s      []string
		shares []float64
		models []evaluation.ScoreModel
		want   error
		text   string
	}{
		{"share < 0", ms, []string{"s"}, []float64{0.5, -0.1}, models, evaluation.ErrInput, "shares[1] = -0.1"},
		{"share NaN", ms, []string{"s"}, []float64{nan}, models, evaluation.ErrInput, "shares[0] = NaN"},
		{"share > 1", roomy, []string{"s"}, []float64{1.5}, models, evaluation.ErrInput, "shares[0] = 1.5"},
		{"model without New", ms, []string{"s"}, []float64{0.5}, []evaluation.ScoreModel{models[0], {Name: "x"}}, evaluation.ErrInput, "models[1] has no New"},
		{"no models", ms, []string{"s"}, []float64{0.5}, nil, evaluation.ErrInput, "0 models"},
		{"no shares", ms, []string{"s"}, nil, models, evaluation.ErrInput, "0 training shares"},
		{"no seasons", ms, nil, []float64{0.5}, models, evaluation.ErrInput, "0 seasons"},
		{"short season", ms[:9], []string{"s"}, []float64{0.5}, models, evaluation.ErrNoData, `season "s" has 9 matches, need 10`},
		{"unknown season", ms, []string{"t"}, []float64{0.5}, models, evaluation.ErrNoData, `season "t" has 0 matches`},
	} {
		var err error
		func() {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("panic: %v", r)
				}
			}()
			_, err = evaluation.ScoreExperiment(c.all, c.s, c.shares, c.models, nil)
		}()
		wantErr(t, c.name, err, c.want, c.text)
	}
	// The bounds themselves are valid: no training at all, and training on
	// the whole season.
	if _, err := evaluation.ScoreExperiment(ms, []string{"s"}, []float64{0, 1}, models, nil); err != nil {
		t.Errorf("shares 0 and 1: %v", err)
	}
}

func TestRankingExperimentRejectsMalformedMatches(t *testing.T) {
	ctx := context.Background()
	ts, el := trueskill.DefaultParams(), elo.DefaultParams()
	ok := ranked("ok", [][]string{{"zed"}, {"yan"}}, 0, 1)
	for _, c := range []struct {
		name string
		m    record.Match
		want error
		text string
	}{
		{"one team", ranked("m", [][]string{{"a"}}, 0), evaluation.ErrInput, "1 teams"},
		{"empty team", ranked("m", [][]string{{"a"}, {}}, 0, 1), evaluation.ErrInput, `team "2" has no players`},
		{"empty player", ranked("m", [][]string{{"a"}, {""}}, 0, 1), evaluation.ErrInput, "team 1 player 0"},
		{"NUL in a player", ranked("m", [][]string{{"a"}, {"b\x00"}}, 0, 1), evaluation.ErrInput, `"b\x00"`},
		{"empty ID", ranked("", [][]string{{"a"}, {"b"}}, 0, 1), evaluation.ErrInput, "match ID"},
		{"same ID twice", ok, evaluation.ErrInput, "ms[0] and ms[2] are both match ok"},
	} {
		ms := []record.Match{ok, ranked("other", [][]string{{"zed"}, {"yan"}}, 1, 0), c.m}
		var err error
		func() {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("panic: %v", r)
				}
			}()
			_, err = evaluation.RankingExperiment(ctx, ms, ts, el, evaluation.RankingConfig{})
		}()
		wantErr(t, c.name, err, c.want, "ms[2]", c.text)
	}
	//lint:ignore SA1012 a nil context is the input under test
	_, err := evaluation.RankingExperiment(nil, []record.Match{ok}, ts, el, evaluation.RankingConfig{})
	wantErr(t, "nil context", err, evaluation.ErrInput, "nil context")
	_, err = evaluation.RankingExperiment(ctx, nil, ts, el, evaluation.RankingConfig{})
	wantErr(t, "no matches", err, evaluation.ErrNoData, "no pair")
	bad := el
	bad.Alpha = 2
	_, err = evaluation.RankingExperiment(ctx, []record.Match{ok}, ts, bad, evaluation.RankingConfig{})
	wantErr(t, "Elo α = 2", err, elo.ErrInput)
	_, err = evaluation.RankingExperiment(ctx, []record.Match{ok}, ts, el, evaluation.RankingConfig{Ties: evaluation.TieRule(-1)})
	wantErr(t, "RankingExperiment, unknown tie rule", err, evaluation.ErrInput, "TieRule(-1)")
	for _, p := range []float64{-0.1, 1, nan} {
		_, err = evaluation.RankingExperiment(ctx, []record.Match{ok}, ts, el, evaluation.RankingConfig{DrawProbability: &p})
		wantErr(t, fmt.Sprintf("RankingExperiment, draw probability %v", p), err, evaluation.ErrInput, "is not in [0, 1)")
	}
}

func TestMetricsRejectLengthsThatDiffer(t *testing.T) {
	_, err := evaluation.AUC([]float64{0.1, 0.9, 0.5}, []bool{false, true})
	wantErr(t, "AUC", err, evaluation.ErrInput, "3 scores and 2 labels")
	_, _, err = evaluation.PairErrors([]float64{1}, []int{0, 1}, evaluation.TiesWrong)
	wantErr(t, "PairErrors, more ranks", err, evaluation.ErrInput, "1 strengths and 2 ranks")
	_, _, err = evaluation.PairErrors([]float64{1, 2, 3}, []int{0, 1}, evaluation.TiesWrong)
	wantErr(t, "PairErrors, more strengths", err, evaluation.ErrInput, "3 strengths and 2 ranks")
	_, _, err = evaluation.PairErrors([]float64{1, nan}, []int{0, 1}, evaluation.TiesHalf)
	wantErr(t, "PairErrors, NaN strength", err, evaluation.ErrInput, "strength[1] = NaN")
	_, _, err = evaluation.PairErrors([]float64{1, 2}, []int{0, 1}, evaluation.TieRule(5))
	wantErr(t, "PairErrors, unknown tie rule", err, evaluation.ErrInput, "TieRule(5)")
}

func TestInformationGainRejectsNaNAndNonProbabilities(t *testing.T) {
	l := math.Log
	for _, c := range []struct {
		logWin, logNotWin float64
		o                 evaluation.Outcome
		want              error
		text              string
	}{
		{nan, l(0.5), evaluation.Win, evaluation.ErrInput, "log p = NaN"},
		{l(0.5), nan, evaluation.Win, evaluation.ErrInput, "log(1 − p) = NaN"},
		{0.1, l(0.5), evaluation.Win, evaluation.ErrInput, "a log-probability is at most 0"},
		{math.Inf(1), 0, evaluation.Draw, evaluation.ErrInput, "log p = +Inf"},
		{l(0.3), l(0.3), evaluation.Loss, evaluation.ErrInput, "sum to 0.6"},
		{math.Inf(-1), math.Inf(-1), evaluation.Loss, evaluation.ErrInput, "sum to 0"},
		{l(0.5), l(0.5), evaluation.Outcome(7), evaluation.ErrInput, "outcome Outcome(7)"},
	} {
		g, err := evaluation.InformationGain(c.logWin, c.logNotWin, c.o)
		wantErr(t, fmt.Sprintf("InformationGain(%v, %v, %v)", c.logWin, c.logNotWin, c.o), err, c.want, c.text)
		if !math.IsNaN(g) {
			t.Errorf("InformationGain(%v, %v, %v) = %v with an error, want NaN", c.logWin, c.logNotWin, c.o, g)
		}
	}
	// A certain, wrong forecast is not clamped: it scores −∞ bits, and the
	// outcomes it gave all the probability score 1 bit.
	if g, err := evaluation.InformationGain(math.Inf(-1), 0, evaluation.Win); err != nil || !math.IsInf(g, -1) {
		t.Errorf("InformationGain(log 0, log 1, win) = %v, %v; want −Inf", g, err)
	}
	if g, err := evaluation.InformationGain(math.Inf(-1), 0, evaluation.Loss); err != nil || g != 1 {
		t.Errorf("InformationGain(log 0, log 1, loss) = %v, %v; want 1", g, err)
	}
}

func TestMeanCIAndSummaryReportMissingData(t *testing.T) {
	_, _, err := evaluation.MeanCI(nil)
	wantErr(t, "MeanCI()", err, evaluation.ErrNoData)
	_, _, err = evaluation.MeanCI([]float64{1, nan})
	wantErr(t, "MeanCI(1, NaN)", err, evaluation.ErrInput, "xs[1] = NaN")
	// The largest float64 twice has mean MaxFloat64 and no spread; with
	// its negative the standard deviation √2·MaxFloat64 overflows.
	if m, h, err := evaluation.MeanCI([]float64{math.MaxFloat64, math.MaxFloat64}); m != math.MaxFloat64 || h != 0 || err != nil {
		t.Errorf("MeanCI(max, max) = %v ± %v, %v; want MaxFloat64 ± 0", m, h, err)
	}
	_, _, err = evaluation.MeanCI([]float64{math.MaxFloat64, -math.MaxFloat64})
	wantErr(t, "MeanCI(max, −max)", err, evaluation.ErrNumerical)
	if m, h, err := evaluation.MeanCI([]float64{4}); m != 4 || h != 0 || err != nil {
		t.Errorf("MeanCI(4) = %v ± %v, %v; want 4 ± 0", m, h, err)
	}

	r := &evaluation.ScoreResult{Models: []string{"m"}, Shares: []float64{0.5}, Seasons: []string{"a", "b"},
		Metrics: [][][]evaluation.ScoreMetrics{{{{InfoGain: 0.25, AUC: 0.5, MAE: nan}, {InfoGain: 0.75, AUC: nan, MAE: nan}}}}}
	ig := func(m evaluation.ScoreMetrics) float64 { return m.InfoGain }
	// 0.25 and 0.75: mean ½, sd ¼·√2, half-width t(1, 0.975)·sd/√2 = t/4.
	if m, h, err := r.Summary(0, 0, ig); err != nil || m != 0.5 || math.Abs(h-12.706204736174698*0.25) > 1e-12 {
		t.Errorf("Summary of 0.25, 0.75 = %v ± %v, %v", m, h, err)
	}
	if m, h, err := r.Summary(0, 0, func(m evaluation.ScoreMetrics) float64 { return m.AUC }); err != nil || m != 0.5 || h != 0 {
		t.Errorf("Summary leaving out a NaN season = %v ± %v, %v; want 0.5 ± 0", m, h, err)
	}
	m, _, err := r.Summary(0, 0, func(m evaluation.ScoreMetrics) float64 { return m.MAE })
	wantErr(t, "Summary, NaN everywhere", err, evaluation.ErrNoData)
	if !math.IsNaN(m) {
		t.Errorf("Summary, NaN everywhere: mean %v, want NaN", m)
	}
	_, _, err = r.Summary(1, 0, ig)
	wantErr(t, "Summary, model 1", err, evaluation.ErrInput, "model 1, share 0 out of range")
	_, _, err = r.Summary(0, -1, ig)
	wantErr(t, "Summary, share -1", err, evaluation.ErrInput, "model 0, share -1")
	_, _, err = r.Summary(0, 0, nil)
	wantErr(t, "Summary, nil metric", err, evaluation.ErrInput)
	_, _, err = (*evaluation.ScoreResult)(nil).Summary(0, 0, ig)
	wantErr(t, "Summary, nil result", err, evaluation.ErrInput)
}

func TestScoreModelsCheckTheirMatches(t *testing.T) {
	for _, model := range scoreModels(t) {
		train := league(12)
		m, err := model.New(train)
		for i := 0; err == nil && i < len(train); i++ {
			err = m.Observe(&train[i])
		}
		if err != nil {
			t.Fatalf("%s: %v", model.Name, err)
		}
		bad := scored("bad", "s", "Ants", "Ants", 1, 0)
		wantErr(t, model.Name+" Observe(Ants v Ants)", m.Observe(&bad), evaluation.ErrInput, `both "Ants"`)
		noScores := scored("x", "s", "Ants", "Bees", 0, 0)
		noScores.HasScores = false
		wantErr(t, model.Name+" Observe without scores", m.Observe(&noScores), evaluation.ErrInput, "with scores false")
		p, err := m.Predict(&noScores)
		if err != nil || !(math.Exp(p.LogWin) > 0 && math.Exp(p.LogWin) < 1) || p.Check() != nil {
			t.Errorf("%s: %+v, %v", model.Name, p, err)
		}
		_, err = m.Predict(&bad)
		wantErr(t, model.Name+" Predict(Ants v Ants)", err, evaluation.ErrInput, `both "Ants"`)
		empty := scored("x", "s", "", "Ants", 1, 0)
		_, err = m.Predict(&empty)
		wantErr(t, model.Name+` Predict("" v Ants)`, err, evaluation.ErrInput, "team 0: empty name")
		_, err = m.Predict(nil)
		wantErr(t, model.Name+" Predict(nil)", err, evaluation.ErrInput, "no match")
	}
	for _, tau := range []float64{-1, math.Inf(1), nan} {
		_, err := evaluation.ScoreModels(evaluation.ScoreConfig{TrueSkillTau: tau})
		wantErr(t, fmt.Sprintf("ScoreModels, τ = %v", tau), err, evaluation.ErrInput, "TrueSkillTau")
	}
}

// scoreModels returns the models with the paper's settings.
func scoreModels(t *testing.T) []evaluation.ScoreModel {
	t.Helper()
	ms, err := evaluation.ScoreModels(evaluation.ScoreConfig{})
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

func TestScoreExperimentRejectsBadTeams(t *testing.T) {
	for _, c := range []struct {
		name       string
		home, away string
		text       string
	}{
		{"home == away", "Cats", "Cats", `teams 0 and 1 are both "Cats"`},
		{"empty home", "", "Cats", "team 0: empty name"},
		{"empty away", "Cats", "", "team 1: empty name"},
		{"NUL in a name", "Ca\x00ts", "Dogs", `team 0 "Ca\x00ts"`},
	} {
		ms := league(20)
		ms[3].Teams[0].Name, ms[3].Teams[1].Name = c.home, c.away
		_, err := evaluation.ScoreExperiment(ms, []string{"s"}, []float64{0.1}, scoreModels(t), nil)
		wantErr(t, "ScoreExperiment, "+c.name, err, evaluation.ErrInput, "all[3]", c.text)
	}
	ms := league(20)
	ms[5].Teams[1].Score = -1
	_, err := evaluation.ScoreExperiment(ms, []string{"s"}, []float64{0.1}, scoreModels(t), nil)
	wantErr(t, "negative score", err, evaluation.ErrInput, "all[5]", "has score -1")
	ms = league(20)
	ms[6].Teams = ms[6].Teams[:1]
	_, err = evaluation.ScoreExperiment(ms, []string{"s"}, []float64{0.1}, scoreModels(t), nil)
	wantErr(t, "one team", err, evaluation.ErrInput, "all[6]", "1 teams")
}

// TestAllDrawsClampedAlikeOnBothPaths: data of nothing but draws gives
// each protocol TrueSkill's draw probability through DrawProbability,
// capped below 1, where the score experiment used to fail with
// "DrawProbability = 1".
func TestAllDrawsClampedAlikeOnBothPaths(t *testing.T) {
	ms := league(20)
	for i := range ms[:10] {
		ms[i] = scored(ms[i].ID, "s", ms[i].Teams[0].Name, ms[i].Teams[1].Name, 1, 1)
	}
	if got := evaluation.DrawProbability(ms[:10]); got != evaluation.MaxDrawProbability {
		t.Errorf("DrawProbability of 10 draws = %v, want %v", got, evaluation.MaxDrawProbability)
	}
	// Training on the first half, all draws.
	res, err := evaluation.ScoreExperiment(ms, []string{"s"}, []float64{0.5}, scoreModels(t), nil)
	if err != nil {
		t.Fatalf("all-draw training slice: %v", err)
	}
	if ig := res.Metrics[0][0][0].InfoGain; !(ig < 1) {
		t.Errorf("TrueSkill information gain %v", ig)
	}

	// The ranking path: 1,000 draws and one decided game have a draw share
	// of 1000/1001 > 0.999, capped the same way.
	var rm []record.Match
	for i := range 1001 {
		second := 0
		if i == 500 {
			second = 1
		}
		rm = append(rm, ranked(fmt.Sprint(i), [][]string{{fmt.Sprint("p", i%7)}, {fmt.Sprint("q", i%5)}}, 0, second))
	}
	rr, err := evaluation.RankingExperiment(context.Background(), rm, trueskill.DefaultParams(), elo.DefaultParams(), evaluation.RankingConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if rr.DrawProbability != evaluation.MaxDrawProbability || rr.DrawProbability != evaluation.DrawProbability(rm) {
		t.Errorf("ranking draw probability %v, want DrawProbability = %v", rr.DrawProbability, evaluation.MaxDrawProbability)
	}

	// Below the cap it is the plain share: 2 ties of 5 adjacent places.
	three, two := [][]string{{"a"}, {"b"}, {"c"}}, [][]string{{"a"}, {"b"}}
	mixed := []record.Match{
		ranked("1", three, 0, 0, 1), // one tie of two places
		ranked("2", three, 2, 1, 0), // none of two
		ranked("3", two, 0, 0),      // one of one
	}
	if got := evaluation.DrawProbability(mixed); got != 0.4 {
		t.Errorf("DrawProbability = %v, want 2/5", got)
	}
	if got := evaluation.DrawProbability(nil); got != 0 {
		t.Errorf("DrawProbability(nil) = %v, want 0", got)
	}
}

// TestGammasFallBackToTheDefault: γ is estimated where it can be, and is
// the default where the training matches leave it 0 or undefined.
func TestGammasFallBackToTheDefault(t *testing.T) {
	def := scorebased.DefaultParams().Gamma
	draws := []record.Match{scored("1", "s", "A", "B", 0, 0), scored("2", "s", "B", "A", 0, 0)}
	if od, sd := evaluation.Gammas(draws); od != def || sd != def {
		t.Errorf("Gammas of two 0-0 draws = %v, %v; want the default %v twice", od, sd, def)
	}
	if od, sd := evaluation.Gammas(nil); od != def || sd != def {
		t.Errorf("Gammas(nil) = %v, %v; want the default %v twice", od, sd, def)
	}
	// Scores 2-0 and 0-0: scores 2, 0, 0, 0 have sd 1; differences 2, 0
	// have sd √2.
	ms := []record.Match{scored("1", "s", "A", "B", 2, 0), scored("2", "s", "B", "A", 0, 0)}
	if od, sd := evaluation.Gammas(ms); od != 1 || math.Abs(sd-math.Sqrt2) > 1e-15 {
		t.Errorf("Gammas = %v, %v; want 1, √2", od, sd)
	}
}

// oracle is a Predictor that reads the result: certain of a home win or
// loss (p = 1 or 0, one log −∞) and even on a draw.
type oracle struct{}

func (oracle) Observe(*record.Match) error { return nil }
func (oracle) Predict(m *record.Match) (evaluation.ScorePrediction, error) {
	half := math.Log(0.5)
	switch h, a := m.Teams[0].Score, m.Teams[1].Score; {
	case h > a:
		return evaluation.ScorePrediction{LogWin: 0, LogNotWin: math.Inf(-1)}, nil
	case h < a:
		return evaluation.ScorePrediction{LogWin: math.Inf(-1), LogNotWin: 0}, nil
	}
	return evaluation.ScorePrediction{LogWin: half, LogNotWin: half}, nil
}

// TestScoreExperimentCertainForecasts: forecasts of probability 0 or 1
// that come true are valid and perfect: 1 bit for each decided match, 0
// for a draw forecast at ½ (1 + ½·log₂¼), and an AUC of 1, where their
// infinite log-odds made the AUC an error.
func TestScoreExperimentCertainForecasts(t *testing.T) {
	ms := league(20)
	res, err := evaluation.ScoreExperiment(ms, []string{"s"}, []float64{0.5},
		[]evaluation.ScoreModel{{Name: "oracle", New: func([]record.Match) (evaluation.Predictor, error) { return oracle{}, nil }}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	test := ms[len(ms)-evaluation.TestSize(len(ms)):]
	decided := 0
	for _, m := range test {
		if m.Teams[0].Score != m.Teams[1].Score {
			decided++
		}
	}
	m := res.Metrics[0][0][0]
	if want := float64(decided) / float64(len(test)); math.Abs(m.InfoGain-want) > 1e-15 || m.AUC != 1 {
		t.Errorf("oracle: information gain %v, AUC %v; want %v and 1", m.InfoGain, m.AUC, want)
	}
}
