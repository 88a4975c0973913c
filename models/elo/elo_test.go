package elo_test

import (
	"context"
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
	ctx := context.Background()
	p := elo.DefaultParams()
	// Equal players: P = ½, a win moves each by K/2.
	got, err := p.Rate(ctx, [][]float64{{25}, {25}}, []int{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got[0][0]-(25+p.K()/2)) > 1e-12 || math.Abs(got[1][0]-(25-p.K()/2)) > 1e-12 {
		t.Errorf("%v, want 25 ± K/2 = ±%v", got, p.K()/2)
	}
	// A draw between unequal players moves them together by K(½ − Φ(d/(√2β))).
	got, _ = p.Rate(ctx, [][]float64{{30}, {20}}, []int{0, 0})
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
	ctx := context.Background()
	p := elo.DefaultParams()
	teams := [][]float64{{25, 27}, {24}, {26}}
	ranks := []int{1, 0, 1}
	got, err := p.Rate(ctx, teams, ranks)
	if err != nil {
		t.Fatal(err)
	}
	// Player (0,0) lost to 24, drew with 26: average of the two Δ's.
	// Δ by hand: K·((y + 1)/2 − Φ((s₁ − s₂)/(√2·β))).
	delta := func(s1, s2 float64, y int) float64 {
		return p.K() * ((float64(y)+1)/2 - 0.5*math.Erfc(-(s1-s2)/(2*p.Beta)))
	}
	want := 25 + (delta(25, 24, -1)+delta(25, 26, 0))/2
	if math.Abs(got[0][0]-want) > 1e-12 {
		t.Errorf("duelling: %v, want %v", got[0][0], want)
	}
	// The winner (1,0) beat three players.
	want = 24 + (delta(24, 25, 1)+delta(24, 27, 1)+delta(24, 26, 1))/3
	if math.Abs(got[1][0]-want) > 1e-12 {
		t.Errorf("duelling winner: %v, want %v", got[1][0], want)
	}
	if _, err := p.Rate(ctx, [][]float64{{1}}, []int{0}); err == nil {
		t.Error("one team accepted")
	}
}

// TestRange: a K-factor αβ√π that overflows is an invalid parameter (it
// made every Δ ±Inf or NaN); five equal players, the first beating the
// other four with K = 1.5e308, move by the mean Δ = K/2 (the sum of the
// four, 2K, overflowed to +Inf); and a new rating beyond float64 is
// ErrNumerical naming the player, never +Inf with a nil error.
func TestRange(t *testing.T) {
	ctx := context.Background()
	if err := (elo.Params{Initial: 0, Beta: 1.7e308, Alpha: 0.9}).Validate(); !errors.Is(err, elo.ErrInput) {
		t.Errorf("K = 0.9·1.7e308·√π: %v, want ErrInput", err)
	}
	p := elo.Params{Initial: 0, Beta: 1.7e308, Alpha: 0.5}
	got, err := p.Rate(ctx, [][]float64{{0}, {0}, {0}, {0}, {0}}, []int{0, 1, 2, 3, 4})
	if err != nil {
		t.Fatal(err)
	}
	if k := p.K(); math.Abs(got[0][0]-k/2) > 1e-15*k {
		t.Errorf("winner of five: %v, want K/2 = %v", got[0][0], k/2)
	}
	_, err = elo.Params{Initial: 0, Beta: 1e307, Alpha: 0.5}.Rate(ctx, [][]float64{{1.79e308}, {1.79e308}}, []int{0, 1})
	if !errors.Is(err, elo.ErrNumerical) || !strings.Contains(err.Error(), "[0][0]") {
		t.Errorf("a winner at 1.79e308: %v, want ErrNumerical naming player [0][0]", err)
	}
	// Ratings ±1e308 apart (the difference overflows): Φ's limits.
	if w, err := elo.DefaultParams().WinProbability(1e308, -1e308); w != 1 || err != nil {
		t.Errorf("P(1e308 beats −1e308) = %v, want 1", w)
	}
	if w, _ := (elo.Params{Initial: 0, Beta: 1.7e308, Alpha: 0.5}).WinProbability(1e308, -1e308); math.Abs(w-0.5*math.Erfc(-1e308/1.7e308)) > 1e-15 {
		t.Errorf("P with β = 1.7e308: %v, want Φ(2e308/(√2·1.7e308))", w)
	}
}

// TestPredict checks eq. 1 against Φ computed here, the loss as its
// complement (kept exact where it is tiny), Delta against its definition,
// and that bad input is an ErrInput, never a NaN.
func TestPredict(t *testing.T) {
	p := elo.DefaultParams()
	pr, err := p.Predict(30, 20)
	if err != nil {
		t.Fatal(err)
	}
	// Φ(10/(√2·25/6)) = Φ(1.6971): erfc(−1.2)/2.
	if want := 0.5 * math.Erfc(-10/(2*p.Beta)); math.Abs(pr.Win-want) > 1e-15 || math.Abs(pr.Loss-(1-want)) > 1e-15 || pr.Draw != 0 {
		t.Errorf("Predict(30, 20) = %+v, want win %v", pr, want)
	}
	if far, _ := p.Predict(200, 0); math.Abs(far.Loss/(0.5*math.Erfc(200/(2*p.Beta)))-1) > 1e-12 {
		t.Errorf("a loss probability of 1e-127 keeps its digits: %+v", far)
	}
	if d, err := p.Delta(25, 25, 1); err != nil || math.Abs(d-p.K()/2) > 1e-15 {
		t.Errorf("Delta of a win between equals: %v, %v; want K/2", d, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for name, err := range map[string]error{
		"NaN rating": func() error { _, err := p.WinProbability(math.NaN(), 0); return err }(),
		"∞ rating":   func() error { _, err := p.Predict(math.Inf(1), 0); return err }(),
		"bad β":      func() error { _, err := elo.Params{Beta: 0, Alpha: 0.1}.Predict(0, 0); return err }(),
		"outcome 2":  func() error { _, err := p.Delta(0, 0, 2); return err }(),
	} {
		if !errors.Is(err, elo.ErrInput) {
			t.Errorf("%s: %v, want ErrInput", name, err)
		}
	}
	if _, err := p.Rate(ctx, [][]float64{{25}, {25}}, []int{0, 1}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
}
