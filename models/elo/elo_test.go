package elo_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/models/elo"
)

func TestKFactorMatchesThePaper(t *testing.T) {
	// α = 0.07 with β = 200 (the chess scale) is "a K factor of 24".
	p := elo.Params{Initial: 1500, Beta: 200, Alpha: 0.07}
	if k := p.K(); math.Abs(k-24.81) > 0.01 {
		t.Errorf("K = %v, want ≈ 24.8", k)
	}
}

func TestOneOnOne(t *testing.T) {
	p := elo.DefaultParams()
	// Equal players: P = ½, a win moves each by K/2.
	got, err := p.Rate([][]float64{{25}, {25}}, []int{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got[0][0]-(25+p.K()/2)) > 1e-12 || math.Abs(got[1][0]-(25-p.K()/2)) > 1e-12 {
		t.Errorf("%v, want 25 ± K/2 = ±%v", got, p.K()/2)
	}
	// A draw between unequal players moves them together by K(½ − Φ(d/(√2β))).
	got, _ = p.Rate([][]float64{{30}, {20}}, []int{0, 0})
	phi := 0.5 * math.Erfc(-10/(math.Sqrt2*math.Sqrt2*p.Beta))
	if want := 30 + p.K()*(0.5-phi); math.Abs(got[0][0]-want) > 1e-12 {
		t.Errorf("draw: %v, want %v", got[0][0], want)
	}
	// The sum of ratings is conserved in a 1v1.
	if math.Abs(got[0][0]+got[1][0]-50) > 1e-12 {
		t.Errorf("sum not conserved: %v", got)
	}
}

func TestDuelling(t *testing.T) {
	p := elo.DefaultParams()
	teams := [][]float64{{25, 27}, {24}, {26}}
	ranks := []int{1, 0, 1}
	got, err := p.Rate(teams, ranks)
	if err != nil {
		t.Fatal(err)
	}
	// Player (0,0) lost to 24, drew with 26: average of the two Δ's.
	want := 25 + (p.Delta(25, 24, -1)+p.Delta(25, 26, 0))/2
	if math.Abs(got[0][0]-want) > 1e-12 {
		t.Errorf("duelling: %v, want %v", got[0][0], want)
	}
	// The winner (1,0) beat three players.
	want = 24 + (p.Delta(24, 25, 1)+p.Delta(24, 27, 1)+p.Delta(24, 26, 1))/3
	if math.Abs(got[1][0]-want) > 1e-12 {
		t.Errorf("duelling winner: %v, want %v", got[1][0], want)
	}
	if _, err := p.Rate([][]float64{{1}}, []int{0}); err == nil {
		t.Error("one team accepted")
	}
}

// TestRange: a K-factor αβ√π that overflows is an invalid parameter (it
// made every Δ ±Inf or NaN); five equal players, the first beating the
// other four with K = 1.5e308, move by the mean Δ = K/2 (the sum of the
// four, 2K, overflowed to +Inf); and a new rating beyond float64 is
// ErrNumerical naming the player, never +Inf with a nil error.
func TestRange(t *testing.T) {
	if err := (elo.Params{Initial: 0, Beta: 1.7e308, Alpha: 0.9}).Validate(); !errors.Is(err, elo.ErrInput) {
		t.Errorf("K = 0.9·1.7e308·√π: %v, want ErrInput", err)
	}
	p := elo.Params{Initial: 0, Beta: 1.7e308, Alpha: 0.5}
	got, err := p.Rate([][]float64{{0}, {0}, {0}, {0}, {0}}, []int{0, 1, 2, 3, 4})
	if err != nil {
		t.Fatal(err)
	}
	if k := p.K(); math.Abs(got[0][0]-k/2) > 1e-15*k {
		t.Errorf("winner of five: %v, want K/2 = %v", got[0][0], k/2)
	}
	_, err = elo.Params{Initial: 0, Beta: 1e307, Alpha: 0.5}.Rate([][]float64{{1.79e308}, {1.79e308}}, []int{0, 1})
	if !errors.Is(err, elo.ErrNumerical) || !strings.Contains(err.Error(), "[0][0]") {
		t.Errorf("a winner at 1.79e308: %v, want ErrNumerical naming player [0][0]", err)
	}
	// Ratings ±1e308 apart (the difference overflows): Φ's limits.
	if w := elo.DefaultParams().WinProbability(1e308, -1e308); w != 1 {
		t.Errorf("P(1e308 beats −1e308) = %v, want 1", w)
	}
	if w := (elo.Params{Initial: 0, Beta: 1.7e308, Alpha: 0.5}).WinProbability(1e308, -1e308); math.Abs(w-0.5*math.Erfc(-1e308/1.7e308)) > 1e-15 {
		t.Errorf("P with β = 1.7e308: %v, want Φ(2e308/(√2·1.7e308))", w)
	}
}
