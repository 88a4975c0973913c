package evaluation

import (
	"math"
	"testing"

	"github.com/skillgraph/skillgraph/models/trueskill"
	"github.com/skillgraph/skillgraph/record"
)

// TestTrueSkillPredictSubnormalWin: a favourite 37.8 standard deviations
// ahead leaves the underdog a win probability Φ(−37.8) ≈ 1.4e-313, in
// float64's subnormal range, whose log must still be right. The expected
// log Φ(t) is the asymptotic series −t²/2 − log(−t) − log √(2π) +
// log(1 − 1/t² + 3/t⁴ − 15/t⁶ + 105/t⁸), whose next term (945/t¹⁰ ≈ 6e-13)
// is below the tolerance.
func TestTrueSkillPredictSubnormalWin(t *testing.T) {
	p := trueskill.DefaultParams()
	c := math.Sqrt(2 * (1 + p.Tau*p.Tau + p.Beta*p.Beta))
	m := newRatings[trueskill.Rating](trueSkill{p}, trueSkill{p}.predict)
	m.by["under"], m.by["fav"] = trueskill.Rating{Mu: 0, Sigma: 1}, trueskill.Rating{Mu: 37.8 * c, Sigma: 1}
	got, err := m.Predict(&record.Match{ID: "x", Teams: []record.Team{{Name: "under", Players: []string{"under"}}, {Name: "fav", Players: []string{"fav"}}}})
	if err != nil {
		t.Fatal(err)
	}
	z := -(37.8 * c) / c
	z2 := z * z
	want := -0.5*z2 - math.Log(-z) - 0.5*math.Log(2*math.Pi) + math.Log1p(-1/z2+3/(z2*z2)-15/(z2*z2*z2)+105/(z2*z2*z2*z2))
	if !(math.Abs(got.LogWin-want) <= 1e-9*math.Abs(want)) {
		t.Errorf("log P(win) = %v, want %v", got.LogWin, want)
	}
	if got.LogNotWin != 0 { // 1 − 1.4e-313 rounds to 1
		t.Errorf("log P(no win) = %v, want 0", got.LogNotWin)
	}
}
