package scorebased_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/models/scorebased"
)

// ownError reports whether err is one of scorebased's sentinels, reported
// by scorebased itself: a caller handles the model's errors without
// knowing its factors.
func ownError(err error) bool {
	return (errors.Is(err, scorebased.ErrInput) || errors.Is(err, scorebased.ErrNumerical)) &&
		strings.HasPrefix(err.Error(), "scorebased")
}

// TestRateExtremeMeansAndScores: means and scores at the ends of float64's
// range give scorebased's own errors (as Predict does), never a factor's,
// or finite ratings: offence means ±1e308 in Poisson-OD (whose log-rate
// then overflows: ErrInput, Predict's error), scores ±1e308 in
// Gaussian-SD (whose difference overflows: ErrInput), and log-rates near
// exp's limits of ±709.
func TestRateExtremeMeansAndScores(t *testing.T) {
	ctx := context.Background()
	p := scorebased.DefaultParams()
	pois, sd := scorebased.NewPoissonOD(p), scorebased.NewGaussianSD(p)
	team := func(off, def float64) scorebased.Team {
		t := p.NewTeam()
		t.Offence.Mu, t.Defence.Mu = off, def
		return t
	}
	for _, c := range []struct{ a, b scorebased.Team }{
		{team(1e308, 0), team(-1e308, 0)},
		{team(-1e308, 0), team(1e308, 0)},
		{team(1e308, 0), team(0, -1e308)},
	} {
		_, _, _, err := pois.Rate(ctx, c.a, c.b, 1, 2)
		if !errors.Is(err, scorebased.ErrInput) || !strings.Contains(err.Error(), "rates") || !ownError(err) {
			t.Errorf("Poisson-OD Rate(%+v, %+v): %v, want scorebased.ErrInput", c.a, c.b, err)
		}
		if _, perr := pois.Predict(c.a, c.b); !errors.Is(perr, scorebased.ErrInput) || !strings.Contains(perr.Error(), "rates") {
			t.Errorf("Poisson-OD Predict(%+v, %+v): %v, want scorebased.ErrInput as Rate", c.a, c.b, perr)
		}
	}
	for _, s := range [][2]float64{{1e308, -1e308}, {-1e308, 1e308}, {math.MaxFloat64, -1e300}} {
		if _, _, err := sd.Rate(ctx, p.NewRating(), p.NewRating(), s[0], s[1]); !errors.Is(err, scorebased.ErrInput) || !strings.Contains(err.Error(), "difference overflows") || !ownError(err) {
			t.Errorf("Gaussian-SD Rate with scores %v: %v, want scorebased.ErrInput", s, err)
		}
		if _, err := sd.Game(p.NewRating(), p.NewRating(), s[0], s[1]); !errors.Is(err, scorebased.ErrInput) || !strings.Contains(err.Error(), "difference overflows") {
			t.Errorf("Gaussian-SD Game with scores %v: %v, want scorebased.ErrInput", s, err)
		}
	}
	for _, s := range [][2]float64{{1e308, 0}, {0, -1e308}, {math.MaxFloat64, 0}, {5e-324, 0}} {
		ra, rb, err := sd.Rate(ctx, p.NewRating(), p.NewRating(), s[0], s[1])
		if err != nil && !ownError(err) {
			t.Errorf("Gaussian-SD Rate with scores %v: %v, want scorebased's error", s, err)
		}
		for _, r := range []scorebased.Rating{ra, rb} {
			if err == nil && (!(r.Sigma > 0) || math.IsInf(r.Mu, 0) || math.IsNaN(r.Mu) || math.IsInf(r.Sigma, 0)) {
				t.Errorf("Gaussian-SD Rate with scores %v: rating %+v", s, r)
			}
		}
	}
	for _, logRate := range []float64{-745, -709, -700, 700, 709, 709.7} {
		for _, score := range []int{0, 1, 1000} {
			ta, tb, _, err := pois.Rate(ctx, team(logRate, 0), team(0, 0), score, score)
			if err != nil {
				if !ownError(err) {
					t.Errorf("Poisson-OD Rate at log-rate %v, scores %d: %v, want scorebased's error", logRate, score, err)
				}
				continue
			}
			for _, r := range []scorebased.Rating{ta.Offence, ta.Defence, tb.Offence, tb.Defence} {
				if !(r.Sigma > 0) || math.IsInf(r.Mu, 0) || math.IsNaN(r.Mu) || math.IsInf(r.Sigma, 0) {
					t.Errorf("Poisson-OD Rate at log-rate %v, scores %d: rating %+v", logRate, score, r)
				}
			}
		}
	}
}
