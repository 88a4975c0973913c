package evaluation_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/models/elo"
	"github.com/skillgraph/skillgraph/models/evaluation"
	"github.com/skillgraph/skillgraph/models/trueskill"
	"github.com/skillgraph/skillgraph/record"
)

// TestInformationGainByHand checks the score against 1 + log₂ of values
// worked out by hand or from tables, with nothing clamped.
func TestInformationGainByHand(t *testing.T) {
	l := math.Log
	// Φ(−10) = 7.6198530241605260659733e-24 (Abramowitz and Stegun 26.2,
	// or any table of the normal tail).
	const phiM10 = 7.6198530241605260659733e-24
	cases := []struct {
		name              string
		logWin, logNotWin float64
		o                 evaluation.Outcome
		want              float64
	}{
		{"p = ½, win", l(0.5), l(0.5), evaluation.Win, 0},                       // 1 + log₂ ½
		{"p = ½, draw", l(0.5), l(0.5), evaluation.Draw, 0},                     // 1 + ½ log₂ ¼
		{"p = 0.8, win", l(0.8), l(0.2), evaluation.Win, 0.678071905112638},     // 1 + log₂ 0.8
		{"p = 0.8, loss", l(0.8), l(0.2), evaluation.Loss, -1.321928094887362},  // 1 + log₂ 0.2
		{"p = ¼, draw", l(0.25), l(0.75), evaluation.Draw, -0.2075187496394219}, // 1 + ½ log₂ 0.1875
		// Poisson-OD's smallest forecasts on the Premier League are near
		// 1e-57: 1 + log₂ 1e-57 = 1 − 57·log₂ 10 = −188.35. A clamp at
		// 1e-12 made this −38.86.
		{"p = 1e-57, win", l(1e-57), -1e-57, evaluation.Win, 1 - 57*math.Log2(10)},
		// p = Φ(10) rounds to 1 in float64, so log(1 − p) taken from p
		// would be −Inf; its own tail gives 1 + log₂ Φ(−10) = −75.7966.
		{"p = Φ(10), loss", -phiM10, l(phiM10), evaluation.Loss, 1 + math.Log2(phiM10)},
		{"p = Φ(10), draw", -phiM10, l(phiM10), evaluation.Draw, 1 + 0.5*math.Log2(phiM10)},
	}
	for _, c := range cases {
		if got, err := evaluation.InformationGain(c.logWin, c.logNotWin, c.o); err != nil || math.Abs(got-c.want) > 1e-12*math.Max(1, math.Abs(c.want)) {
			t.Errorf("%s: InformationGain = %v, %v, want %v", c.name, got, err, c.want)
		}
	}
}

// TestPairErrorsTieRules: a predicted tie is a whole error by default and
// half an error with TiesHalf.
func TestPairErrorsTieRules(t *testing.T) {
	// Ranks 0, 1, 1, 2 (teams 1 and 2 tie): comparable pairs (0,1) (0,2)
	// (0,3) (1,3) (2,3). Strengths 5, 6, 1, 1: (0,1) wrong; (2,3) predicted
	// tied; (1,2) are tied in rank and not compared.
	for _, c := range []struct {
		rule evaluation.TieRule
		want float64
	}{{evaluation.TiesWrong, 2}, {evaluation.TiesHalf, 1.5}} {
		wrong, pairs, err := evaluation.PairErrors([]float64{5, 6, 1, 1}, []int{0, 1, 1, 2}, c.rule)
		if err != nil || pairs != 5 || wrong != c.want {
			t.Errorf("PairErrors, ties %v = %v of %d, %v, want %v of 5", c.rule, wrong, pairs, err, c.want)
		}
	}
	if evaluation.TiesWrong.String() != "wrong" || evaluation.TiesHalf.String() != "half" || evaluation.TieRule(2).String() != "TieRule(2)" {
		t.Errorf("tie rules named %v, %v, %v", evaluation.TiesWrong, evaluation.TiesHalf, evaluation.TieRule(2))
	}

	// Through the experiment: two new players, A beats B twice. Before the
	// first game both systems rate them equal (a predicted tie); before the
	// second both put A ahead. One pair a game: errors 1/2 with ties wrong,
	// ½/2 with ties half.
	ms := []record.Match{ranked("1", [][]string{{"A"}, {"B"}}, 0, 1), ranked("2", [][]string{{"A"}, {"B"}}, 0, 1)}
	for _, c := range []struct {
		cfg  evaluation.RankingConfig
		want float64
	}{{evaluation.RankingConfig{}, 0.5}, {evaluation.RankingConfig{Ties: evaluation.TiesHalf}, 0.25}} {
		res, err := evaluation.RankingExperiment(context.Background(), ms, trueskill.DefaultParams(), elo.DefaultParams(), c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		if res.TrueSkillFull != c.want || res.EloFull != c.want || res.Pairs != 2 {
			t.Errorf("ties %v: TrueSkill %v, Elo %v over %d pairs; want %v", res.Ties, res.TrueSkillFull, res.EloFull, res.Pairs, c.want)
		}
	}
}

// TestEloLogQualityByHand checks Elo's tightness, the log of the match
// quality at σ = 0, on cases worked out by hand, and against
// trueskill.Params.Quality with every σ nearly 0.
func TestEloLogQualityByHand(t *testing.T) {
	for _, c := range []struct {
		name      string
		strengths []float64
		sizes     []int
		beta      float64
		want      float64
	}{
		// −(S₁ − S₂)²/(2(n₁ + n₂)β²) = −20²/(2·3·625/36) = −2400/625.
		{"1 v 2 players", []float64{30, 50}, []int{1, 2}, 25.0 / 6, -3.84},
		// Σ(Sⱼ − S̄)²/nⱼ = 9 + 0 + 9 about S̄ = 3, over 2β² = 2.
		{"three players", []float64{0, 3, 6}, []int{1, 1, 1}, 1, -9},
		{"three players, other order", []float64{6, 0, 3}, []int{1, 1, 1}, 1, -9},
		// S̄ = (10 + 5 + 16)/2.5 = 12.4; residuals −2.4, −2.4, 3.6;
		// 5.76 + 5.76/2 + 12.96 = 21.6 (and dᵀ(AᵀA)⁻¹d with d = (0, −6),
		// AᵀA = [[3, −2], [−2, 3]] is 3·36/5 = 21.6); over 2β² = 8.
		{"sizes 1, 2, 1", []float64{10, 10, 16}, []int{1, 2, 1}, 2, -2.7},
		{"equal", []float64{25, 25}, []int{1, 1}, 25.0 / 6, 0},
	} {
		got, err := evaluation.EloLogQuality(c.strengths, c.sizes, c.beta)
		if err != nil || math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: EloLogQuality = %v, %v, want %v", c.name, got, err, c.want)
		}
		// TrueSkill's quality of the same teams, each player at its share
		// of the team's strength with σ = 1e-6, is the same to O(σ²/β²).
		p := trueskill.DefaultParams()
		p.Beta = c.beta
		var teams [][]trueskill.Rating
		for j, s := range c.strengths {
			var team []trueskill.Rating
			for range c.sizes[j] {
				team = append(team, trueskill.Rating{Mu: s / float64(c.sizes[j]), Sigma: 1e-6})
			}
			teams = append(teams, team)
		}
		q, err := p.Quality(teams, nil)
		if err != nil || math.Abs(math.Log(q)-c.want) > 1e-9 {
			t.Errorf("%s: log of TrueSkill's quality at σ = 1e-6 = %v, %v, want %v", c.name, math.Log(q), err, c.want)
		}
	}
	for _, c := range []struct {
		strengths []float64
		sizes     []int
		beta      float64
		want      error
		text      string
	}{
		{[]float64{1}, []int{1}, 1, evaluation.ErrInput, "1 teams"},
		{[]float64{1, 2}, []int{1}, 1, evaluation.ErrInput, "2 strengths and 1 sizes"},
		{[]float64{1, 2}, []int{1, 0}, 1, evaluation.ErrInput, "sizes[1] = 0"},
		{[]float64{1, 2}, []int{1, 1}, 0, evaluation.ErrInput, "beta = 0"},
		{[]float64{1, math.NaN()}, []int{1, 1}, 1, evaluation.ErrInput, "strengths[1] = NaN"},
		{[]float64{-1e300, 1e300}, []int{1, 1}, 1e-10, evaluation.ErrNumerical, "beyond float64"},
	} {
		if got, err := evaluation.EloLogQuality(c.strengths, c.sizes, c.beta); !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.text) || !math.IsNaN(got) {
			t.Errorf("EloLogQuality(%v, %v, %v) = %v, %v; want NaN and %v saying %q", c.strengths, c.sizes, c.beta, got, err, c.want, c.text)
		}
	}
}

// TestPairedTestByHand: differences 1, 2, 3, 4 have mean 2.5 and standard
// deviation √(5/3), so t = 2.5/(√(5/3)/2) = √15 = 3.873 on 3 degrees of
// freedom; the t(3) distribution function is ½ + (1/π)(x/(√3(1 + x²/3)) +
// atan(x/√3)), which gives the two-sided p = 0.030466.
func TestPairedTestByHand(t *testing.T) {
	diff, half, p, err := evaluation.PairedTest([]float64{11, 22, 33, 44}, []float64{10, 20, 30, 40})
	x := math.Sqrt(15)
	cdf := 0.5 + (x/(math.Sqrt(3)*(1+x*x/3))+math.Atan(x/math.Sqrt(3)))/math.Pi
	wantP := 2 * (1 - cdf)
	// Half-width t(3, 0.975)·sd/√n with t(3, 0.975) = 3.182446305284263.
	wantHalf := 3.182446305284263 * math.Sqrt(5.0/3) / 2
	if err != nil || math.Abs(diff-2.5) > 1e-12 || math.Abs(half-wantHalf) > 1e-9 || math.Abs(p-wantP) > 1e-9 || math.Abs(p-0.030466) > 1e-6 {
		t.Errorf("PairedTest = %v ± %v, p %v, %v; want 2.5 ± %v, p %v", diff, half, p, err, wantHalf, wantP)
	}
	if _, _, p, err := evaluation.PairedTest([]float64{1, 2}, []float64{1, 2}); err != nil || p != 1 {
		t.Errorf("equal pairs: p = %v, %v; want 1", p, err)
	}
	if _, _, _, err := evaluation.PairedTest([]float64{1}, []float64{2}); !errors.Is(err, evaluation.ErrInput) {
		t.Errorf("one pair: %v, want ErrInput", err)
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

func TestMeanCIByHand(t *testing.T) {
	// 1, 2, 3: mean 2, sd 1, t(2, 0.975) = 4.302652…, half-width t/√3.
	mean, half, err := evaluation.MeanCI([]float64{1, 2, 3})
	if err != nil || mean != 2 || math.Abs(half-4.302652729749464/math.Sqrt(3)) > 1e-9 {
		t.Errorf("MeanCI = %v ± %v, %v", mean, half, err)
	}
}

// TestReducedExperiments runs both protocols on a slice of the data shipped
// in examples/data and checks that the numbers are in range and consistent
// with metrics recomputed here from the models' own predictions.
func TestReducedExperiments(t *testing.T) {
	epl := readFile(t, "examples/data/epl.csv")
	if got := len(evaluation.Season(epl, "2008-09")); got != 380 {
		t.Fatalf("2008-09 has %d matches, want 380", got)
	}
	seasons := []string{"2007-08", "2008-09"}
	shares := []float64{0.2, 0.8}
	models, err := evaluation.ScoreModels(evaluation.ScoreConfig{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := evaluation.ScoreExperiment(epl, seasons, shares, models, nil)
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
	if evaluation.TestSize(380) != 76 || evaluation.TestSize(186) != 38 {
		t.Errorf("test sizes %d and %d, want ⌈76⌉ = 76 and ⌈37.2⌉ = 38", evaluation.TestSize(380), evaluation.TestSize(186))
	}
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
		h, a := m.Teams[0], m.Teams[1]
		y := 0
		if h.Score > a.Score {
			y = 1
		} else if h.Score < a.Score {
			y = -1
		}
		d, err := p.Delta(get(h.Name), get(a.Name), y)
		if err != nil {
			t.Fatal(err)
		}
		r[h.Name], r[a.Name] = get(h.Name)+d, get(a.Name)-d
	}
	var ig float64
	for _, m := range test {
		h, a := m.Teams[0], m.Teams[1]
		pw, err := p.WinProbability(get(h.Name), get(a.Name))
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case h.Score > a.Score:
			ig += 1 + math.Log2(pw)
		case h.Score < a.Score:
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
	f1 := readFile(t, "examples/data/f1_races.csv")
	if len(f1) != 1138 {
		t.Errorf("%d races, want 1138", len(f1))
	}
	rr, err := evaluation.RankingExperiment(context.Background(), f1[:120], trueskill.DefaultParams(), elo.DefaultParams(), evaluation.RankingConfig{})
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

func TestDuplicatePlayerRejected(t *testing.T) {
	ms := []record.Match{ranked("x", [][]string{{"ann", "bob"}, {"cat", "ann"}}, 0, 1)}
	_, err := evaluation.RankingExperiment(context.Background(), ms, trueskill.DefaultParams(), elo.DefaultParams(), evaluation.RankingConfig{})
	if !errors.Is(err, evaluation.ErrInput) || !strings.Contains(err.Error(), `"ann" at team 0 player 0 and team 1 player 1`) {
		t.Errorf("error %v, want ErrInput naming both places", err)
	}
}

// TestMeanCIAndPairedTestNearOverflow: values within float64 whose sum or
// squared deviations overflow have a mean and interval within it, worked
// by hand: 1e308 twice has mean 1e308 and half-width 0; (1e308, 1e308,
// 1e307) has mean 7e307 and deviations (3, 3, −6)·1e307, so sd =
// √(54/2)·1e307 and half-width t₀.₉₇₅,₂·sd/√3 = t₀.₉₇₅,₂·3e307, where
// Student's t with 2 degrees of freedom has the quantile (2p − 1)/√(2p(1 − p)).
// Differences that overflow are messages.ErrNumerical, as documented.
func TestMeanCIAndPairedTestNearOverflow(t *testing.T) {
	if m, h, err := evaluation.MeanCI([]float64{1e308, 1e308}); err != nil || m != 1e308 || h != 0 {
		t.Errorf("MeanCI(1e308, 1e308) = %v ± %v, %v; want 1e308 ± 0", m, h, err)
	}
	m, h, err := evaluation.MeanCI([]float64{1e308, 1e308, 1e307})
	if want := 0.95 / math.Sqrt(2*0.975*0.025) * 3e307; err != nil || math.Abs(m-7e307) > 1e-15*7e307 || math.Abs(h-want) > 1e-12*want {
		t.Errorf("MeanCI(1e308, 1e308, 1e307) = %v ± %v, %v; want 7e307 ± %v", m, h, err, want)
	}
	_, _, _, err = evaluation.PairedTest([]float64{1e308, 0}, []float64{-1e308, 0})
	if !errors.Is(err, evaluation.ErrNumerical) || !strings.Contains(err.Error(), "pair 0") {
		t.Errorf("PairedTest with a difference of 2e308: %v, want ErrNumerical naming pair 0", err)
	}
}
