package history

import (
	"context"
	"math"
	"testing"

	"github.com/skillgraph/skillgraph/models/throughtime"
	"github.com/skillgraph/skillgraph/models/trueskill"
	"gonum.org/v1/gonum/stat/distuv"
)

// rate1v1 is TrueSkill's update of a decisive 1v1 without draws, written
// out (paper, Table 1): with c² = σ_w² + σ_l² + 2β² and t = (μ_w − μ_l)/c,
// v = φ(t)/Φ(t) and w = v(v + t), the winner's mean moves up by σ_w²/c·v
// and the loser's down by σ_l²/c·v, and each σ² shrinks by the factor
// 1 − σ²/c²·w. It returns the probability Φ(t) of the result too.
func rate1v1(w, l *[2]float64, beta float64) float64 {
	std := distuv.UnitNormal
	c := math.Sqrt(w[1] + l[1] + 2*beta*beta)
	t := (w[0] - l[0]) / c
	v := std.Prob(t) / std.CDF(t)
	f := v * (v + t)
	w[0] += w[1] / c * v
	l[0] -= l[1] / c * v
	w[1] *= 1 - w[1]/(c*c)*f
	l[1] *= 1 - l[1]/(c*c)*f
	return std.CDF(t)
}

// handHistory: a beats b, b beats a, a beats b, then a race won by the
// newcomer c ahead of a and b; σ₀ = β = 1, no drift and no draws, so that
// filtering, and TrueSkill with τ = 0, are three 1v1 updates by hand.
var handHistory = []throughtime.Match{
	{Time: 1, Teams: [][]string{{"a"}, {"b"}}},
	{Time: 2, Teams: [][]string{{"a"}, {"b"}}, Ranks: []int{1, 0}},
	{Time: 3, Teams: [][]string{{"b"}, {"a"}}, Ranks: []int{1, 0}},
	{Time: 4, Teams: [][]string{{"c"}, {"a"}, {"b"}}},
}

var handParams = throughtime.Params{Sigma: 1, Beta: 1}

// handPredictions returns the by-hand log probabilities of the three 1v1
// games and each game's team means (a, b order for the 1v1s as listed).
func handPredictions() (logP [3]float64, strength [4][]float64) {
	a, b := [2]float64{0, 1}, [2]float64{0, 1}
	strength[0] = []float64{a[0], b[0]}
	logP[0] = math.Log(rate1v1(&a, &b, 1))
	strength[1] = []float64{a[0], b[0]}
	logP[1] = math.Log(rate1v1(&b, &a, 1))
	strength[2] = []float64{b[0], a[0]}
	logP[2] = math.Log(rate1v1(&a, &b, 1))
	strength[3] = []float64{0, a[0], b[0]}
	return logP, strength
}

// TestFilteringAndTrueSkillByHand: filtering and TrueSkill with τ = 0
// give the by-hand probabilities and means; the race's probability (EP)
// is the same from both implementations.
func TestFilteringAndTrueSkillByHand(t *testing.T) {
	logP, strength := handPredictions()
	if !(logP[0] == math.Log(0.5) && strength[1][0] > 0 && strength[2][0] > 0 && strength[3][1] > 0 && strength[3][2] < 0) {
		t.Fatalf("the hand computation is not the history meant: %v %v", logP, strength)
	}
	filt, err := filtering(handHistory, handParams)
	if err != nil {
		t.Fatal(err)
	}
	ts, err := trueSkill(context.Background(), handHistory, trueskill.Params{Sigma: 1, Beta: 1})
	if err != nil {
		t.Fatal(err)
	}
	for name, preds := range map[string][]prediction{"filtering": filt, "TrueSkill": ts} {
		for k := range 3 {
			if math.Abs(preds[k].logP-logP[k]) > 1e-12 {
				t.Errorf("%s game %d: log P %v, by hand %v", name, k, preds[k].logP, logP[k])
			}
		}
		for k := range 4 {
			for j := range strength[k] {
				if math.Abs(preds[k].strength[j]-strength[k][j]) > 1e-12 {
					t.Errorf("%s game %d team %d: mean %v, by hand %v", name, k, j, preds[k].strength[j], strength[k][j])
				}
			}
		}
	}
	if math.Abs(filt[3].logP-ts[3].logP) > 1e-6 || !(filt[3].logP < 0) {
		t.Errorf("race: filtering %v, TrueSkill %v", filt[3].logP, ts[3].logP)
	}
}

// TestSmoothingByHand: smoothing with k = 0 sweeps is filtering; smoothed
// to convergence, the first two games are predicted as filtering does
// (one game is all there is to smooth), and the third from two games in
// which a and b each won once is even, by symmetry: with no drift each
// player has one skill, and swapping a with b and the two games leaves
// the graph as it was.
func TestSmoothingByHand(t *testing.T) {
	ctx := context.Background()
	filt, err := filtering(handHistory, handParams)
	if err != nil {
		t.Fatal(err)
	}
	zero, err := smoothing(ctx, handHistory, handParams, 0, 1e-9, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k := range handHistory {
		if math.Abs(zero[k].logP-filt[k].logP) > 1e-9 {
			t.Errorf("k = 0, game %d: log P %v, filtering %v", k, zero[k].logP, filt[k].logP)
		}
		for j := range filt[k].strength {
			if math.Abs(zero[k].strength[j]-filt[k].strength[j]) > 1e-12 {
				t.Errorf("k = 0, game %d team %d: mean %v, filtering %v", k, j, zero[k].strength[j], filt[k].strength[j])
			}
		}
	}
	calls := 0
	smooth, err := smoothing(ctx, handHistory, handParams, 1000, 1e-12, func(done int) { calls++ })
	if err != nil {
		t.Fatal(err)
	}
	if calls != 4 {
		t.Errorf("progress called %d times for 4 batches", calls)
	}
	logP, _ := handPredictions()
	for k := range 2 {
		if math.Abs(smooth[k].logP-logP[k]) > 1e-9 {
			t.Errorf("smoothed, game %d: log P %v, by hand %v", k, smooth[k].logP, logP[k])
		}
	}
	if math.Abs(smooth[2].logP-math.Log(0.5)) > 1e-8 || math.Abs(smooth[2].strength[0]-smooth[2].strength[1]) > 1e-8 {
		t.Errorf("smoothed, game 2: log P %v and means %v, want log ½ and equal means", smooth[2].logP, smooth[2].strength)
	}
	// a won two of three against b: a above the newcomer c, b below.
	if s := smooth[3].strength; !(s[0] == 0 && s[1] > 0 && s[2] < 0) {
		t.Errorf("smoothed, race: means %v", s)
	}
}

// TestScore checks the metrics on predictions made up by hand: a win
// called right, a draw (no pair), a loss called wrong, a tie in
// prediction, and a race of four with two pairs level in the result.
func TestScore(t *testing.T) {
	games := []throughtime.Match{
		{Teams: [][]string{{"a"}, {"b"}}},
		{Teams: [][]string{{"a"}, {"b"}}, Ranks: []int{0, 0}},
		{Teams: [][]string{{"a"}, {"b"}}, Ranks: []int{1, 0}},
		{Teams: [][]string{{"a"}, {"b"}}},
		{Teams: [][]string{{"a"}, {"b"}, {"c"}, {"d"}}, Ranks: []int{2, 0, 0, 1}},
	}
	preds := []prediction{
		{math.Log(0.7), []float64{1, 0}},
		{math.Log(0.2), []float64{1, 0}},
		{math.Log(0.1), []float64{2, 0}},
		{math.Log(0.5), []float64{3, 3}},
		// b and c (rank 0) beat d (rank 1) and a (rank 2), d beats a:
		// five pairs; b over d wrong (b 1, d 3), c over d right (4, 3),
		// b over a wrong (1, 2), c over a right, d over a right.
		{-3, []float64{2, 1, 4, 3}},
	}
	r, err := score("m", "p", games, preds, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := result{Method: "m", Params: "p", Games: 5, Pairs: 3 + 5, Correct: 1 + 3, Ties: 1, Accuracy: 4.0 / 8,
		LogLoss: -(math.Log(0.7) + math.Log(0.2) + math.Log(0.1) + math.Log(0.5) - 3) / 5}
	if math.Abs(r.LogLoss-want.LogLoss) > 1e-12 {
		t.Errorf("log-loss %v, want %v", r.LogLoss, want.LogLoss)
	}
	r.LogLoss = want.LogLoss
	if r != want {
		t.Errorf("%+v\nwant %+v", r, want)
	}
}

func TestCheckOrder(t *testing.T) {
	if err := checkOrder(handHistory); err != nil {
		t.Error(err)
	}
	if err := checkOrder([]throughtime.Match{{Time: 2}, {Time: 1}}); err == nil {
		t.Error("games out of order accepted")
	}
}

// TestFitTrueSkill: on a history of games between players who never meet
// again, TrueSkill's evidence is that of the first games (σ₀ and τ enter
// only through 2σ₀² + 2τ², one draw margin per game), so the draw
// probability fitted is the closed form of the share of draws (see
// throughtime's TestFitDrawProbability) at the fitted σ₀ and τ.
func TestFitTrueSkill(t *testing.T) {
	const n, d = 200, 37
	var games []throughtime.Match
	for k := range n {
		g := throughtime.Match{Time: float64(k), Teams: [][]string{{"a" + string(rune('A'+k%26)) + string(rune('A'+k/26))}, {"b" + string(rune('A'+k%26)) + string(rune('A'+k/26))}}}
		if k < d {
			g.Ranks = []int{0, 0}
		}
		games = append(games, g)
	}
	p, lz, evals, err := fitTrueSkill(context.Background(), games, trueskill.Params{Sigma: 1.5, Beta: 1, Tau: 0.1, DrawProbability: 0.5}, nil)
	if err != nil {
		t.Fatal(err)
	}
	q := float64(d) / n
	if want := d*math.Log(q) + (n-d)*math.Log((1-q)/2); math.Abs(lz-want) > 1e-4 || evals < 2 {
		t.Errorf("log evidence %v after %d evaluations, want %v", lz, evals, want)
	}
	std := distuv.UnitNormal
	spread := math.Sqrt(p.Sigma*p.Sigma + p.Tau*p.Tau + 1)
	if want := 2*std.CDF(std.Quantile((q+1)/2)*spread) - 1; math.Abs(p.DrawProbability-want) > 1e-2 {
		t.Errorf("draw probability %v at σ = %v, τ = %v; want %v", p.DrawProbability, p.Sigma, p.Tau, want)
	}
}
