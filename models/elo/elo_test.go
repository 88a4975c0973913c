package elo_test

import (
	"math"
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
