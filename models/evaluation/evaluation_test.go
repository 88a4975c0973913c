package evaluation_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/internal/sharedtest"
	"github.com/skillgraph/skillgraph/models/elo"
	"github.com/skillgraph/skillgraph/models/evaluation"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

func TestInformationGainByHand(t *testing.T) {
	top := 1 - 1e-12 // the clamp, rounded to float64 as the code rounds it
	cases := []struct {
		p    float64
		o    evaluation.Outcome
		want float64
	}{
		{0.5, evaluation.Win, 0},  // 1 + log₂ ½
		{0.5, evaluation.Draw, 0}, // 1 + ½ log₂ ¼
		{0.8, evaluation.Win, 1 + math.Log2(0.8)},
		{0.8, evaluation.Loss, 1 + math.Log2(0.2)}, // = −1.3219…
		{0.25, evaluation.Draw, 1 + 0.5*math.Log2(0.1875)},
		{1, evaluation.Loss, 1 + math.Log2(1-top)}, // clamped, not −Inf
	}
	for _, c := range cases {
		if got, err := evaluation.InformationGain(c.p, c.o); err != nil || math.Abs(got-c.want) > 1e-9 {
			t.Errorf("InformationGain(%v, %v) = %v, %v, want %v", c.p, c.o, got, err, c.want)
		}
	}
	if got, err := evaluation.InformationGain(0.8, evaluation.Loss); err != nil || math.Abs(got+1.321928094887362) > 1e-12 {
		t.Errorf("1 + log₂ 0.2 = %v, %v", got, err)
	}
}

func TestAUCByHand(t *testing.T) {
	// Positives 0.9, 0.4; negatives 0.8, 0.4, 0.1: of the 6 pairs the
	// positive is above in 0.9>0.8, 0.9>0.4, 0.9>0.1, 0.4>0.1 and tied once:
	// (4 + ½)/6 = 0.75.
	got, err := evaluation.AUC([]float64{0.9, 0.8, 0.4, 0.4, 0.1}, []bool{true, false, true, false, false})
	if err != nil || math.Abs(got-0.75) > 1e-15 {
		t.Errorf("AUC = %v, %v, want 0.75", got, err)
	}
	if got, err := evaluation.AUC([]float64{0.1, 0.2}, []bool{true, true}); !math.IsNaN(got) || !errors.Is(err, evaluation.ErrNoData) {
		t.Errorf("AUC with one class = %v, %v, want NaN and ErrNoData", got, err)
	}
	if got, err := evaluation.AUC([]float64{3, 1, 2}, []bool{true, false, false}); err != nil || got != 1 {
		t.Errorf("perfect ranking: AUC = %v, %v", got, err)
	}
}

func TestPairErrorsByHand(t *testing.T) {
	// Ranks 0, 1, 1, 2 (teams 1 and 2 tie): comparable pairs (0,1) (0,2)
	// (0,3) (1,3) (2,3). Strengths 5, 6, 1, 1: wrong (0,1); tie (2,3) half.
	wrong, pairs, err := evaluation.PairErrors([]float64{5, 6, 1, 1}, []int{0, 1, 1, 2})
	if err != nil || pairs != 5 || wrong != 1.5 {
		t.Errorf("PairErrors = %v of %d, %v, want 1.5 of 5", wrong, pairs, err)
	}
}

func TestMeanCIByHand(t *testing.T) {
	// 1, 2, 3: mean 2, sd 1, t(2, 0.975) = 4.302652…, half-width t/√3.
	mean, half, err := evaluation.MeanCI([]float64{1, 2, 3})
	if err != nil || mean != 2 || math.Abs(half-4.302652729749464/math.Sqrt(3)) > 1e-9 {
		t.Errorf("MeanCI = %v ± %v, %v", mean, half, err)
	}
}

// TestReducedExperiments runs both protocols on a slice of the shared data
// and checks that the numbers are in range and consistent with metrics
// recomputed here from the models' own predictions.
func TestReducedExperiments(t *testing.T) {
	epl, err := evaluation.LoadScored(sharedtest.Path(t, filepath.Join("data", "epl.csv")))
	if err != nil {
		t.Fatal(err)
	}
	if got := len(evaluation.Season(epl, "2008-09")); got != 380 {
		t.Fatalf("2008-09 has %d matches, want 380", got)
	}
	seasons := []string{"2007-08", "2008-09"}
	shares := []float64{0.2, 0.8}
	res, err := evaluation.ScoreExperiment(epl, seasons, shares, evaluation.ScoreModels(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for mi, name := range res.Models {
		for si := range shares {
			for ki := range seasons {
				m := res.Metrics[mi][si][ki]
				if !(m.InfoGain < 1) || !(m.AUC > 0.4 && m.AUC < 1) {
					t.Errorf("%s share %v season %s: %+v", name, shares[si], seasons[ki], m)
				}
				hasScores := name == "Poisson-OD" || name == "Gaussian-OD"
				if hasScores != !math.IsNaN(m.MAE) {
					t.Errorf("%s: MAE %v", name, m.MAE)
				}
			}
		}
	}
	// Recompute Elo's information gain at 80 % on 2008-09 by hand.
	ms := evaluation.Season(epl, "2008-09")
	train, test := ms[:int(0.8*380)], ms[380-76:]
	p := elo.DefaultParams()
	r := map[string]float64{}
	get := func(s string) float64 {
		if v, ok := r[s]; ok {
			return v
		}
		return p.Initial
	}
	for _, m := range train {
		y := 0
		if m.HomeScore > m.AwayScore {
			y = 1
		} else if m.HomeScore < m.AwayScore {
			y = -1
		}
		d := p.Delta(get(m.Home), get(m.Away), y)
		r[m.Home], r[m.Away] = get(m.Home)+d, get(m.Away)-d
	}
	var ig float64
	for _, m := range test {
		pw := p.WinProbability(get(m.Home), get(m.Away))
		switch {
		case m.HomeScore > m.AwayScore:
			ig += 1 + math.Log2(pw)
		case m.HomeScore < m.AwayScore:
			ig += 1 + math.Log2(1-pw)
		default:
			ig += 1 + 0.5*math.Log2(pw*(1-pw))
		}
	}
	ig /= float64(len(test))
	if got := res.Metrics[4][1][1].InfoGain; math.Abs(got-ig) > 1e-12 {
		t.Errorf("Elo information gain %v, recomputed %v", got, ig)
	}

	// Experiment 2 on the first 120 Formula 1 races.
	f1, err := evaluation.LoadRanked(sharedtest.Path(t, filepath.Join("data", "f1_races.csv")))
	if err != nil {
		t.Fatal(err)
	}
	if len(f1) != 1138 {
		t.Errorf("%d races, want 1138", len(f1))
	}
	rr, err := evaluation.RankingExperiment(context.Background(), f1[:120], trueskill.DefaultParams(), elo.DefaultParams(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []float64{rr.EloFull, rr.TrueSkillFull, rr.EloChallenged, rr.TrueSkillChallenged} {
		if !(e > 0.1 && e < 0.6) {
			t.Errorf("ranking errors out of range: %+v", rr)
		}
	}
	if !(rr.DrawProbability > 0 && rr.DrawProbability < 1) {
		t.Errorf("draw probability %v", rr.DrawProbability)
	}
}

func TestLoadRankedTiesAndTeams(t *testing.T) {
	// Teams share a rank through their best row; ranks become dense.
	dir := t.TempDir()
	path := filepath.Join(dir, "m.csv")
	data := "match_id,date,team,player,rank,extra\n" +
		"a,2020-01-01,red,p1,1,x\na,2020-01-01,red,p2,3,x\na,2020-01-01,blue,p3,2,x\na,2020-01-01,green,p4,2,x\n" +
		"b,2020-01-02,p5,p5,4,x\nb,2020-01-02,p6,p6,9,x\n"
	if err := writeFile(path, data); err != nil {
		t.Fatal(err)
	}
	ms, err := evaluation.LoadRanked(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 2 || len(ms[0].Teams) != 3 || strings.Join(ms[0].Teams[0], ",") != "p1,p2" {
		t.Fatalf("%+v", ms)
	}
	if got := ms[0].Ranks; got[0] != 0 || got[1] != 1 || got[2] != 1 {
		t.Errorf("ranks %v, want [0 1 1]", got)
	}
	if got := ms[1].Ranks; got[0] != 0 || got[1] != 1 {
		t.Errorf("ranks %v, want [0 1]", got)
	}
}

func TestFigureSVG(t *testing.T) {
	var buf bytes.Buffer
	err := evaluation.WriteFigureSVG(&buf, []evaluation.Panel{{
		Title: "a <b>", YLabel: "bits", X: []float64{0.1, 0.2},
		Lines: []evaluation.Line{{Name: "M&M", Mean: []float64{1, 2}, Half: []float64{0.1, 0.1}}},
	}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	s := buf.String()
	if !strings.HasPrefix(s, "<svg") || !strings.Contains(s, "a &lt;b&gt;") || !strings.Contains(s, "M&amp;M") || strings.Count(s, "<polyline") != 1 {
		t.Errorf("SVG:\n%s", s)
	}
}

func TestDuplicatePlayerRejected(t *testing.T) {
	ms := []evaluation.RankedMatch{{ID: "x", Teams: [][]string{{"ann", "bob"}, {"cat", "ann"}}, Ranks: []int{0, 1}}}
	_, err := evaluation.RankingExperiment(context.Background(), ms, trueskill.DefaultParams(), elo.DefaultParams(), nil)
	if !errors.Is(err, evaluation.ErrDuplicatePlayer) || !strings.Contains(err.Error(), `"ann" at team 0 player 0 and team 1 player 1`) {
		t.Errorf("error %v, want ErrDuplicatePlayer naming both places", err)
	}
}

// TestScoredMatchRanks: home win, away win and draw as ranks, through
// Ranks and AsRanked.
func TestScoredMatchRanks(t *testing.T) {
	ms := []evaluation.ScoredMatch{
		{Home: "A", Away: "B", HomeScore: 2, AwayScore: 1},
		{Home: "A", Away: "B", HomeScore: 0, AwayScore: 3},
		{Home: "A", Away: "B", HomeScore: 1, AwayScore: 1},
	}
	want := [][]int{{0, 1}, {1, 0}, {0, 0}}
	for i, r := range evaluation.AsRanked(ms) {
		if !slices.Equal(ms[i].Ranks(), want[i]) || !slices.Equal(r.Ranks, want[i]) {
			t.Errorf("%+v: ranks %v and %v, want %v", ms[i], ms[i].Ranks(), r.Ranks, want[i])
		}
	}
}
