package evaluation_test

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/models/elo"
	"github.com/skillgraph/skillgraph/models/evaluation"
	"github.com/skillgraph/skillgraph/models/scorebased"
	"github.com/skillgraph/skillgraph/models/trueskill"
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
func league(n int) []evaluation.ScoredMatch {
	teams := []string{"Ants", "Bees", "Cats", "Dogs"}
	var ms []evaluation.ScoredMatch
	for i := range n {
		h, a := teams[i%4], teams[(i+1+i/4)%4]
		if h == a {
			a = teams[(i+2)%4]
		}
		ms = append(ms, evaluation.ScoredMatch{Date: fmt.Sprintf("2020-01-%02d", 1+i%28), Season: "s", Home: h, Away: a, HomeScore: (i + 1) % 3, AwayScore: i % 2})
	}
	return ms
}

func TestAUCNaNScoreIsAnErrorNotAHang(t *testing.T) {
	within(t, func() {
		auc, err := evaluation.AUC([]float64{0.4, nan, 0.7}, []bool{true, false, true})
		wantErr(t, "AUC with a NaN", err, evaluation.ErrNotFinite, "scores[1] = NaN")
		if !math.IsNaN(auc) {
			t.Errorf("AUC = %v with an error, want NaN", auc)
		}
	})
	_, err := evaluation.AUC([]float64{math.Inf(1), 0}, []bool{true, false})
	wantErr(t, "AUC with +Inf", err, evaluation.ErrNotFinite, "scores[0] = +Inf")
}

// nanModel predicts NaN, as a broken user model might.
type nanModel struct{}

func (nanModel) Name() string                       { return "nan" }
func (nanModel) Fit([]evaluation.ScoredMatch) error { return nil }
func (nanModel) Predict(string, string) (evaluation.ScorePrediction, error) {
	return evaluation.ScorePrediction{LogWin: nan, LogNotWin: math.Log(0.5)}, nil
}

// badScoresModel predicts a valid probability and an infinite score.
type badScoresModel struct{ nanModel }

func (badScoresModel) Predict(string, string) (evaluation.ScorePrediction, error) {
	return evaluation.ScorePrediction{LogWin: math.Log(0.5), LogNotWin: math.Log(0.5), HomeScore: math.Inf(1), AwayScore: 1, HasScores: true}, nil
}

// inconsistentModel predicts log-probabilities that sum to 0.8.
type inconsistentModel struct{ nanModel }

func (inconsistentModel) Predict(string, string) (evaluation.ScorePrediction, error) {
	return evaluation.ScorePrediction{LogWin: math.Log(0.4), LogNotWin: math.Log(0.4)}, nil
}

// certainModel is sure that home loses: P(win) = 0, so a home win scores
// −∞ bits.
type certainModel struct{ nanModel }

func (certainModel) Predict(string, string) (evaluation.ScorePrediction, error) {
	return evaluation.ScorePrediction{LogWin: math.Inf(-1), LogNotWin: 0}, nil
}

func TestScoreExperimentRejectsNonFinitePredictions(t *testing.T) {
	within(t, func() {
		_, err := evaluation.ScoreExperiment(league(20), []string{"s"}, []float64{0.5}, []evaluation.ScoreModel{nanModel{}}, nil)
		wantErr(t, "NaN prediction", err, evaluation.ErrNumerical, "nan, season s, share 0.5", "= NaN")
	})
	_, err := evaluation.ScoreExperiment(league(20), []string{"s"}, []float64{0.5}, []evaluation.ScoreModel{badScoresModel{}}, nil)
	wantErr(t, "infinite score", err, evaluation.ErrNumerical, "scores +Inf-1")
	_, err = evaluation.ScoreExperiment(league(20), []string{"s"}, []float64{0.5}, []evaluation.ScoreModel{inconsistentModel{}}, nil)
	wantErr(t, "probabilities summing to 0.8", err, evaluation.ErrNumerical, "do not sum to 1")
	_, err = evaluation.ScoreExperiment(league(20), []string{"s"}, []float64{0.5}, []evaluation.ScoreModel{certainModel{}}, nil)
	wantErr(t, "a win given probability 0", err, evaluation.ErrNumerical, "ended in a win, to which the model gave probability 0")
}

func TestScoreExperimentRejectsBadArguments(t *testing.T) {
	ms := league(20)
	// Spare capacity beyond len: a share above 1 used to read the zero
	// matches there instead of failing.
	roomy := append(make([]evaluation.ScoredMatch, 0, 64), ms...)
	models := scoreModels(t)
	for _, c := range []struct {
		name   string
		all    []evaluation.ScoredMatch
		s      []string
		shares []float64
		models []evaluation.ScoreModel
		want   error
		text   string
	}{
		{"share < 0", ms, []string{"s"}, []float64{0.5, -0.1}, models, evaluation.ErrInput, "shares[1] = -0.1"},
		{"share NaN", ms, []string{"s"}, []float64{nan}, models, evaluation.ErrInput, "shares[0] = NaN"},
		{"share > 1", roomy, []string{"s"}, []float64{1.5}, models, evaluation.ErrInput, "shares[0] = 1.5"},
		{"nil model", ms, []string{"s"}, []float64{0.5}, []evaluation.ScoreModel{models[0], nil}, evaluation.ErrInput, "models[1] is nil"},
		{"no models", ms, []string{"s"}, []float64{0.5}, nil, evaluation.ErrInput, "no models"},
		{"no shares", ms, []string{"s"}, nil, models, evaluation.ErrInput, "no training shares"},
		{"no seasons", ms, nil, []float64{0.5}, models, evaluation.ErrInput, "no seasons"},
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
	ok := evaluation.RankedMatch{ID: "ok", Teams: [][]string{{"zed"}, {"yan"}}, Ranks: []int{0, 1}}
	for _, c := range []struct {
		name string
		m    evaluation.RankedMatch
		want error
		text string
	}{
		{"more ranks than teams", evaluation.RankedMatch{ID: "m", Teams: [][]string{{"a"}, {"b"}}, Ranks: []int{0, 1, 2}}, evaluation.ErrInput, "match m: 3 ranks for 2 teams"},
		{"fewer ranks than teams", evaluation.RankedMatch{ID: "m", Teams: [][]string{{"a"}, {"b"}, {"c"}}, Ranks: []int{0, 1}}, evaluation.ErrInput, "2 ranks for 3 teams"},
		{"one team", evaluation.RankedMatch{ID: "m", Teams: [][]string{{"a"}}, Ranks: []int{0}}, evaluation.ErrInput, "1 teams"},
		{"empty team", evaluation.RankedMatch{ID: "m", Teams: [][]string{{"a"}, {}}, Ranks: []int{0, 1}}, evaluation.ErrInput, "team 1 has no players"},
		{"empty player", evaluation.RankedMatch{ID: "m", Teams: [][]string{{"a"}, {""}}, Ranks: []int{0, 1}}, evaluation.ErrName, "team 1 player 0"},
		{"NUL in a player", evaluation.RankedMatch{ID: "m", Teams: [][]string{{"a"}, {"b\x00"}}, Ranks: []int{0, 1}}, evaluation.ErrText, `"b\x00"`},
		{"empty ID", evaluation.RankedMatch{Teams: [][]string{{"a"}, {"b"}}, Ranks: []int{0, 1}}, evaluation.ErrName, "match ID"},
		{"same ID twice", ok, evaluation.ErrDuplicateMatch, "ms[0] and ms[2] are both match ok"},
	} {
		ms := []evaluation.RankedMatch{ok, {ID: "other", Teams: [][]string{{"zed"}, {"yan"}}, Ranks: []int{1, 0}}, c.m}
		var err error
		func() {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("panic: %v", r)
				}
			}()
			_, err = evaluation.RankingExperiment(ctx, ms, ts, el, nil)
		}()
		wantErr(t, c.name, err, c.want, c.text)
	}
	//lint:ignore SA1012 a nil context is the input under test
	_, err := evaluation.RankingExperiment(nil, []evaluation.RankedMatch{ok}, ts, el, nil)
	wantErr(t, "nil context", err, evaluation.ErrInput, "nil context")
	_, err = evaluation.RankingExperiment(ctx, nil, ts, el, nil)
	wantErr(t, "no matches", err, evaluation.ErrNoData, "no pair")
	bad := el
	bad.Alpha = 2
	_, err = evaluation.RankingExperiment(ctx, []evaluation.RankedMatch{ok}, ts, bad, nil)
	wantErr(t, "Elo α = 2", err, elo.ErrInput)
	_, err = evaluation.RankingExperiment(ctx, []evaluation.RankedMatch{ok}, ts, el, nil, evaluation.WithTies(evaluation.TieRule(-1)))
	wantErr(t, "RankingExperiment, unknown tie rule", err, evaluation.ErrInput, "TieRule(-1)")
	for _, p := range []float64{-0.1, 1, nan} {
		_, err = evaluation.RankingExperiment(ctx, []evaluation.RankedMatch{ok}, ts, el, nil, evaluation.WithDrawProbability(p))
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
	wantErr(t, "PairErrors, NaN strength", err, evaluation.ErrNotFinite, "strength[1] = NaN")
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
		{nan, l(0.5), evaluation.Win, evaluation.ErrNotFinite, "log p = NaN"},
		{l(0.5), nan, evaluation.Win, evaluation.ErrNotFinite, "log(1 − p) = NaN"},
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
	wantErr(t, "MeanCI(1, NaN)", err, evaluation.ErrNotFinite, "xs[1] = NaN")
	_, _, err = evaluation.MeanCI([]float64{math.MaxFloat64, math.MaxFloat64})
	wantErr(t, "MeanCI(max, max)", err, evaluation.ErrNumerical)
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
	wantErr(t, "Summary, NaN everywhere", err, evaluation.ErrNoData, "no season has the metric")
	if !math.IsNaN(m) {
		t.Errorf("Summary, NaN everywhere: mean %v, want NaN", m)
	}
	_, _, err = r.Summary(1, 0, ig)
	wantErr(t, "Summary, model 1", err, evaluation.ErrInput, "model 1 of 1")
	_, _, err = r.Summary(0, -1, ig)
	wantErr(t, "Summary, share -1", err, evaluation.ErrInput, "share -1 of 1")
	_, _, err = r.Summary(0, 0, nil)
	wantErr(t, "Summary, nil metric", err, evaluation.ErrInput)
}

func TestScoreModelsRefuseToPredictBeforeFit(t *testing.T) {
	for _, m := range scoreModels(t) {
		p, err := m.Predict("Ants", "Bees")
		wantErr(t, m.Name()+" before Fit", err, evaluation.ErrNotFitted, m.Name())
		if p != (evaluation.ScorePrediction{}) {
			t.Errorf("%s before Fit: %+v with an error", m.Name(), p)
		}
		// A failed fit leaves the model unfitted, not half-fitted.
		bad := league(12)
		bad[7].Away = bad[7].Home
		if err := m.Fit(bad); !errors.Is(err, evaluation.ErrSameTeam) {
			t.Errorf("%s: Fit with a team playing itself: %v", m.Name(), err)
		}
		if _, err := m.Predict("Ants", "Bees"); !errors.Is(err, evaluation.ErrNotFitted) {
			t.Errorf("%s after a failed Fit: %v, want ErrNotFitted", m.Name(), err)
		}
		if err := m.Fit(league(12)); err != nil {
			t.Fatalf("%s: %v", m.Name(), err)
		}
		p, err = m.Predict("Ants", "Bees")
		if err != nil || !(p.Win() > 0 && p.Win() < 1) || p.Check() != nil {
			t.Errorf("%s after Fit: %+v, %v", m.Name(), p, err)
		}
		_, err = m.Predict("Ants", "Ants")
		wantErr(t, m.Name()+" Predict(Ants, Ants)", err, evaluation.ErrSameTeam)
		_, err = m.Predict("", "Ants")
		wantErr(t, m.Name()+` Predict("", Ants)`, err, evaluation.ErrName, "home")
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

func TestFitAndScoreExperimentRejectBadTeams(t *testing.T) {
	for _, c := range []struct {
		name       string
		home, away string
		want       error
		text       string
	}{
		{"home == away", "Cats", "Cats", evaluation.ErrSameTeam, `home and away are both "Cats"`},
		{"empty home", "", "Cats", evaluation.ErrName, "home: empty name"},
		{"empty away", "Cats", "", evaluation.ErrName, "away: empty name"},
		{"NUL in a name", "Ca\x00ts", "Dogs", evaluation.ErrText, `home "Ca\x00ts"`},
	} {
		ms := league(20)
		ms[3].Home, ms[3].Away = c.home, c.away
		for _, m := range scoreModels(t) {
			wantErr(t, m.Name()+".Fit, "+c.name, m.Fit(ms), c.want, "train[3]", c.text)
		}
		_, err := evaluation.ScoreExperiment(ms, []string{"s"}, []float64{0.1}, scoreModels(t), nil)
		wantErr(t, "ScoreExperiment, "+c.name, err, c.want, "all[3]", c.text)
	}
	ms := league(20)
	ms[5].AwayScore = -1
	_, err := evaluation.ScoreExperiment(ms, []string{"s"}, []float64{0.1}, scoreModels(t), nil)
	wantErr(t, "negative score", err, evaluation.ErrInput, "all[5]", "away score -1 is negative")
}

// TestAllDrawsClampedAlikeOnBothPaths: data of nothing but draws gives
// each protocol TrueSkill's draw probability through DrawProbability,
// capped below 1, where the score experiment used to fail with
// "DrawProbability = 1".
func TestAllDrawsClampedAlikeOnBothPaths(t *testing.T) {
	ms := league(20)
	for i := range ms[:10] {
		ms[i].AwayScore = ms[i].HomeScore
	}
	if got := evaluation.DrawProbability(evaluation.AsRanked(ms[:10])); got != evaluation.MaxDrawProbability {
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
	var rm []evaluation.RankedMatch
	for i := range 1001 {
		r := []int{0, 0}
		if i == 500 {
			r = []int{0, 1}
		}
		rm = append(rm, evaluation.RankedMatch{ID: fmt.Sprint(i), Teams: [][]string{{fmt.Sprint("p", i%7)}, {fmt.Sprint("q", i%5)}}, Ranks: r})
	}
	rr, err := evaluation.RankingExperiment(context.Background(), rm, trueskill.DefaultParams(), elo.DefaultParams(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if rr.DrawProbability != evaluation.MaxDrawProbability || rr.DrawProbability != evaluation.DrawProbability(rm) {
		t.Errorf("ranking draw probability %v, want DrawProbability = %v", rr.DrawProbability, evaluation.MaxDrawProbability)
	}

	// Below the cap it is the plain share: 2 ties of 5 adjacent places.
	mixed := []evaluation.RankedMatch{
		{Ranks: []int{0, 0, 1}}, // one tie of two places
		{Ranks: []int{2, 1, 0}}, // none of two
		{Ranks: []int{0, 0}},    // one of one
	}
	if got := evaluation.DrawProbability(mixed); got != 0.4 {
		t.Errorf("DrawProbability = %v, want 2/5", got)
	}
	if got := evaluation.DrawProbability(nil); got != 0 {
		t.Errorf("DrawProbability(nil) = %v, want 0", got)
	}
}

// load writes data to a file and loads it with load.
func load[T any](t *testing.T, data string, load func(string) (T, error)) (T, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "f.csv")
	if err := writeFile(path, data); err != nil {
		t.Fatal(err)
	}
	return load(path)
}

// wantAt fails unless err is a *FileError at line:column wrapping want.
func wantAt(t *testing.T, what string, err, want error, line, column int, texts ...string) {
	t.Helper()
	wantErr(t, what, err, want, texts...)
	var fe *evaluation.FileError
	if !errors.As(err, &fe) {
		t.Errorf("%s: %v is not a *FileError", what, err)
		return
	}
	if fe.Line != line || fe.Column != column {
		t.Errorf("%s: at %d:%d, want %d:%d (%v)", what, fe.Line, fe.Column, line, column, err)
	}
	if want := fmt.Sprintf("f.csv:%d:%d: ", line, column); line > 0 && column > 0 && !strings.Contains(err.Error(), want) {
		t.Errorf("%s: %q does not say %q", what, err, want)
	}
}

const scoredHeader = "date,season,home,away,home_score,away_score\n"

func TestLoadScoredIsStrict(t *testing.T) {
	row := "2020-01-01,s,Ants,Bees,1,0\n"
	for _, c := range []struct {
		name         string
		data         string
		want         error
		line, column int
		text         string
	}{
		{"home == away", scoredHeader + row + "2020-01-02,s,Ants,Ants,1,0\n", evaluation.ErrSameTeam, 3, 19, `both "Ants"`},
		{"empty home", scoredHeader + "2020-01-01,s,,Bees,1,0\n", evaluation.ErrName, 2, 14, "home: empty name"},
		{"empty season", scoredHeader + "2020-01-01,,Ants,Bees,1,0\n", evaluation.ErrName, 2, 12, "season"},
		{"NUL in a team", scoredHeader + "2020-01-01,s,An\x00ts,Bees,1,0\n", evaluation.ErrText, 2, 14, `"An\x00ts"`},
		{"NUL in an ignored column", "date,season,home,away,home_score,away_score,note\n" + "2020-01-01,s,Ants,Bees,1,0,\x00\n", evaluation.ErrText, 2, 28, ""},
		{"malformed date", scoredHeader + "2020-13-01,s,Ants,Bees,1,0\n", evaluation.ErrInput, 2, 1, `date "2020-13-01" is not YYYY-MM-DD`},
		{"empty date", scoredHeader + ",s,Ants,Bees,1,0\n", evaluation.ErrInput, 2, 1, `date ""`},
		{"dates out of order", scoredHeader + "2020-01-02,s,Ants,Bees,1,0\n" + row, evaluation.ErrDateOrder, 3, 1, "2020-01-01 after 2020-01-02"},
		{"negative score", scoredHeader + "2020-01-01,s,Ants,Bees,1,-2\n", evaluation.ErrInput, 2, 26, "away score -2 is negative"},
		{"score not an integer", scoredHeader + "2020-01-01,s,Ants,Bees,1.5,0\n", evaluation.ErrInput, 2, 24, `home_score "1.5" is not an integer`},
		{"duplicated column", "date,season,home,away,home_score,away_score,home\n" + "2020-01-01,s,Ants,Bees,1,0,Cats\n", evaluation.ErrHeader, 1, 45, `column "home" is also column 3`},
		{"missing column", "date,season,home,away,home_score\n" + "2020-01-01,s,Ants,Bees,1\n", evaluation.ErrHeader, 1, 0, `no column "away_score"`},
		{"short row", scoredHeader + "2020-01-01,s,Ants,Bees,1\n", csv.ErrFieldCount, 2, 1, "wrong number of fields"},
	} {
		_, err := load(t, c.data, evaluation.LoadScored)
		wantAt(t, c.name, err, c.want, c.line, c.column, c.text)
	}
}

func TestLoadersSayTheFileIsEmpty(t *testing.T) {
	for _, c := range []struct {
		name, data, text string
	}{
		{"no bytes", "", "file is empty"},
		{"a byte-order mark only", "\uFEFF", "file is empty"},
		{"blank lines", "\n\n", "file is empty"},
		{"a header only", scoredHeader, "a header and no rows: file is empty"},
	} {
		_, err := load(t, c.data, evaluation.LoadScored)
		wantAt(t, "LoadScored, "+c.name, err, evaluation.ErrEmptyFile, 0, 0, c.text)
		if err != nil && strings.Contains(err.Error(), "EOF") {
			t.Errorf("%s: %q says EOF", c.name, err)
		}
	}
	_, err := load(t, "match_id,date,team,player,rank\n", evaluation.LoadRanked)
	wantAt(t, "LoadRanked, a header only", err, evaluation.ErrEmptyFile, 0, 0)
}

func TestLoadersAcceptAByteOrderMark(t *testing.T) {
	ms, err := load(t, "\uFEFF"+scoredHeader+"2020-01-01,s,Ants,Bees,3,1\n", evaluation.LoadScored)
	want := evaluation.ScoredMatch{Date: "2020-01-01", Season: "s", Home: "Ants", Away: "Bees", HomeScore: 3, AwayScore: 1}
	if err != nil || len(ms) != 1 || ms[0] != want {
		t.Errorf("LoadScored with a BOM = %+v, %v", ms, err)
	}
	rm, err := load(t, "\uFEFFmatch_id,date,team,player,rank\nm,2020-01-01,a,ann,1\nm,2020-01-01,b,bob,2\n", evaluation.LoadRanked)
	if err != nil || len(rm) != 1 || rm[0].ID != "m" || rm[0].Teams[1][0] != "bob" {
		t.Errorf("LoadRanked with a BOM = %+v, %v", rm, err)
	}
}

const rankedHeader = "match_id,date,team,player,rank\n"

func TestLoadRankedIsStrict(t *testing.T) {
	a := "a,2020-01-01,t1,p1,1\na,2020-01-01,t2,p2,2\n"
	b := "b,2020-01-02,t1,p1,1\nb,2020-01-02,t2,p2,2\n"
	for _, c := range []struct {
		name         string
		data         string
		want         error
		line, column int
		text         string
	}{
		{"rows of a match apart", rankedHeader + a + b + "a,2020-01-02,t3,p3,3\n", evaluation.ErrDuplicateMatch, 6, 1, "match a also starts on line 2"},
		{"one match_id twice", rankedHeader + a + b + strings.ReplaceAll(a, "2020-01-01", "2020-01-03"), evaluation.ErrDuplicateMatch, 6, 1, "match a also starts on line 2"},
		{"a player twice", rankedHeader + "a,2020-01-01,t1,p1,1\na,2020-01-01,t2,p1,2\n", evaluation.ErrDuplicatePlayer, 3, 17, `"p1" is also on line 2 of match a`},
		{"one team", rankedHeader + "a,2020-01-01,t1,p1,1\na,2020-01-01,t1,p2,2\n" + b, evaluation.ErrInput, 2, 0, "match a has 1 team"},
		{"date changes in a match", rankedHeader + "a,2020-01-01,t1,p1,1\na,2020-01-02,t2,p2,2\n", evaluation.ErrInput, 3, 3, "differs from the match's first row"},
		{"dates out of order", rankedHeader + b + a, evaluation.ErrDateOrder, 4, 3, "2020-01-01 after 2020-01-02"},
		{"malformed date", rankedHeader + "a,1/2/2020,t1,p1,1\n", evaluation.ErrInput, 2, 3, "not YYYY-MM-DD"},
		{"empty match_id", rankedHeader + ",2020-01-01,t1,p1,1\n", evaluation.ErrName, 2, 1, "match_id"},
		{"empty player", rankedHeader + "a,2020-01-01,t1,,1\n", evaluation.ErrName, 2, 17, "player"},
		{"NUL in a team", rankedHeader + "a,2020-01-01,t\x001,p1,1\n", evaluation.ErrText, 2, 14, ""},
		{"rank not an integer", rankedHeader + "a,2020-01-01,t1,p1,first\n", evaluation.ErrInput, 2, 20, `rank "first"`},
		{"duplicated column", "match_id,date,team,player,rank,rank\n", evaluation.ErrHeader, 1, 32, `"rank" is also column 5`},
	} {
		_, err := load(t, c.data, evaluation.LoadRanked)
		wantAt(t, c.name, err, c.want, c.line, c.column, c.text)
	}
}

// TestGammasFallBackToTheDefault: γ is estimated where it can be, and is
// the default where the training matches leave it 0 or undefined.
func TestGammasFallBackToTheDefault(t *testing.T) {
	def := scorebased.DefaultParams().Gamma
	draws := []evaluation.ScoredMatch{{Home: "A", Away: "B"}, {Home: "B", Away: "A"}}
	if od, sd := evaluation.Gammas(draws); od != def || sd != def {
		t.Errorf("Gammas of two 0-0 draws = %v, %v; want the default %v twice", od, sd, def)
	}
	if od, sd := evaluation.Gammas(nil); od != def || sd != def {
		t.Errorf("Gammas(nil) = %v, %v; want the default %v twice", od, sd, def)
	}
	// Scores 2-0 and 0-0: scores 2, 0, 0, 0 have sd 1; differences 2, 0
	// have sd √2.
	ms := []evaluation.ScoredMatch{{Home: "A", Away: "B", HomeScore: 2}, {Home: "B", Away: "A"}}
	if od, sd := evaluation.Gammas(ms); od != 1 || math.Abs(sd-math.Sqrt2) > 1e-15 {
		t.Errorf("Gammas = %v, %v; want 1, √2", od, sd)
	}
}
