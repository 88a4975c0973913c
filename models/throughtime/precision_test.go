package throughtime_test

import (
	"errors"
	"math"
	"testing"

	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/models/throughtime"
)

// TestMeanBeyondPrecision checks that a history whose means cannot be held
// to float64 precision is refused, not answered with rounding noise: a
// player whose prior mean lies far from Params.Mu (a home advantage with
// prior mean 0 in a league rated at 1e15), and a game whose teams' weights
// differ, so that Params.Mu does not cancel. Near 0 the same inputs are
// answered, and a game whose teams weigh the same is answered at any
// prior mean, with the same forecast as at 0.
func TestMeanBeyondPrecision(t *testing.T) {
	games := []throughtime.Match{
		{Teams: [][]string{{"a", "home"}, {"b"}}, Ranks: []int{0, 1}, Time: 0},
		{Teams: [][]string{{"b", "home"}, {"a"}}, Ranks: []int{1, 0}, Time: 1},
	}
	params := func(mu float64) throughtime.Params {
		p := throughtime.DefaultParams()
		p.Mu = mu
		return p
	}
	homePrior := func(p throughtime.Params) throughtime.Option {
		return throughtime.WithPriors(map[string]throughtime.Player{"home": {Mu: 0, Sigma: p.Sigma, Beta: 0, Gamma: p.Gamma}})
	}
	for _, mu := range []float64{0, 25, 1500} {
		p := params(mu)
		if _, err := throughtime.New(p, games, homePrior(p)); err != nil {
			t.Errorf("μ₀ = %v: %v, want a history", mu, err)
		}
	}
	for _, mu := range []float64{3e10, 1e15, -1e20} {
		p := params(mu)
		if _, err := throughtime.New(p, games, homePrior(p)); !errors.Is(err, throughtime.ErrInput) || !errors.Is(err, messages.ErrNumerical) {
			t.Errorf("μ₀ = %v with a home prior at 0: %v, want ErrInput and messages.ErrNumerical", mu, err)
		}
		// Without the far prior, the teams' sizes still differ: refused.
		if _, err := throughtime.New(p, games); !errors.Is(err, throughtime.ErrInput) || !errors.Is(err, messages.ErrNumerical) {
			t.Errorf("μ₀ = %v, teams of 2 and 1: %v, want ErrInput and messages.ErrNumerical", mu, err)
		}
	}
	// Teams of equal size: μ₀ cancels, so any μ₀ gives μ₀ plus the answer at 0.
	even := []throughtime.Match{
		{Teams: [][]string{{"a"}, {"b"}, {"c"}}, Ranks: []int{0, 1, 2}, Time: 0},
		{Teams: [][]string{{"c"}, {"a"}, {"b"}}, Ranks: []int{0, 1, 2}, Time: 1},
	}
	h0, err := throughtime.New(params(0), even)
	if err != nil {
		t.Fatal(err)
	}
	want, err := h0.Posterior("a", 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, mu := range []float64{1e15, -1e20} {
		h, err := throughtime.New(params(mu), even)
		if err != nil {
			t.Fatalf("μ₀ = %v, equal teams: %v", mu, err)
		}
		got, err := h.Posterior("a", 2)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got.Sigma-want.Sigma) > 1e-9 || math.Abs((got.Mu-mu)-want.Mu) > 1e-9*math.Max(1, math.Abs(mu)*0x1p-52*1e9) {
			t.Errorf("μ₀ = %v: a's posterior %+v, want μ₀ + %+v", mu, got, want)
		}
	}
}
