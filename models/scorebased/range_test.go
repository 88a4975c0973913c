package scorebased_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/skillgraph/skillgraph/models/scorebased"
)

var approx = cmpopts.EquateApprox(1e-13, 0)

// TestSkellamNeverHangs: LogProb and Prob with a rate of 0 or below, NaN
// or infinite (on which a series that waits for its terms to shrink would
// never stop) return ErrInput, and k = ±MaxInt and MinInt (whose negation
// overflows an int) give the sum's leading term, log Pois(|k|; λ) + log
// Pois(0; λ'), the others being smaller by a factor λλ'/|k|.
func TestSkellamNeverHangs(t *testing.T) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, s := range []scorebased.Skellam{{Lambda1: 0, Lambda2: 1}, {Lambda1: 1, Lambda2: -2}, {Lambda1: math.NaN(), Lambda2: 1}, {Lambda1: 1, Lambda2: math.Inf(1)}} {
			if _, err := s.LogProb(3); !errors.Is(err, scorebased.ErrInput) {
				t.Errorf("%+v: LogProb error %v, want ErrInput", s, err)
			}
			if _, err := s.Prob(-2); !errors.Is(err, scorebased.ErrInput) {
				t.Errorf("%+v: Prob error %v, want ErrInput", s, err)
			}
		}
		lead := func(k, l1, l2 float64) float64 {
			lg, _ := math.Lgamma(k + 1)
			return k*math.Log(l1) - l1 - lg - l2
		}
		// Rates up to ExactRateLimit: the others' factor λλ'/|k| is then
		// at most 1e-7.
		for _, s := range []scorebased.Skellam{{Lambda1: 1.5, Lambda2: 1.1}, {Lambda1: 1e5, Lambda2: 1e6}, {Lambda1: 1e6, Lambda2: 1e6}} {
			for _, c := range []struct {
				k    int
				want float64
			}{
				{math.MinInt, lead(-float64(math.MinInt), s.Lambda2, s.Lambda1)},
				{-math.MaxInt, lead(float64(math.MaxInt), s.Lambda2, s.Lambda1)},
				{math.MaxInt, lead(float64(math.MaxInt), s.Lambda1, s.Lambda2)},
			} {
				got, err := s.LogProb(c.k)
				if err != nil || cmp.Diff(c.want, got, approx) != "" {
					t.Errorf("%+v: LogProb(%d) = %v, %v; want %v", s, c.k, got, err, c.want)
				}
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Skellam.LogProb still running after 5 s")
	}
}

// TestSkellamNormalTail: beyond ExactRateLimit, LogProb far in the tail is
// the log of the normal approximation's mass, a large negative number (it
// was log(0) = −Inf), here against that mass integrated by Simpson's rule
// with φ(x) factored out: P(k − ½ < N(0, sd²) < k + ½) =
// φ(x)·∫_{−e}^{e} exp(−xu − u²/2) du, x = k/sd, e = ½/sd, at x = 300.
func TestSkellamNormalTail(t *testing.T) {
	s := scorebased.Skellam{Lambda1: 2e6, Lambda2: 2e6}
	sd := math.Sqrt(4e6)
	k := int(300 * sd)
	got, err := s.LogProb(k)
	if err != nil {
		t.Fatal(err)
	}
	x, e := float64(k)/sd, 0.5/sd
	const n = 2000
	h, sum := 2*e/n, 0.0
	for i := 0; i <= n; i++ {
		u := -e + float64(i)*h
		w := 2.0 + 2*float64(i%2)
		if i == 0 || i == n {
			w = 1
		}
		sum += w * math.Exp(-x*u-u*u/2)
	}
	want := -0.5*x*x - 0.5*math.Log(2*math.Pi) + math.Log(sum*h/3)
	if math.Abs(got-want) > 1e-12*math.Abs(want) {
		t.Errorf("LogProb(%d) = %v, want %v", k, got, want)
	}
}

// TestScoreModelRange: ratings and parameters whose variances leave
// float64's range are rejected up front, naming the field (they failed
// inside the graph, naming a factor), extreme but valid ratings predict
// finite probabilities that match the Gaussian difference written out,
// and an expected score difference that overflows is ErrNumerical.
func TestScoreModelRange(t *testing.T) {
	p := scorebased.DefaultParams()
	od, sd, pois := scorebased.NewGaussianOD(p), scorebased.NewGaussianSD(p), scorebased.NewPoissonOD(p)
	huge := scorebased.Team{Offence: scorebased.Rating{Mu: 25, Sigma: 1e200}, Defence: p.NewRating()}
	for name, err := range map[string]error{
		"Gaussian-OD update": func() error { _, _, err := od.Rate(context.Background(), p.NewTeam(), huge, 1, 2); return err }(),
		"Poisson-OD update":  func() error { _, _, _, err := pois.Rate(context.Background(), p.NewTeam(), huge, 1, 2); return err }(),
		"Gaussian-SD update": func() error {
			_, _, err := sd.Rate(context.Background(), p.NewRating(), huge.Offence, 1, 2)
			return err
		}(),
		"Gaussian-OD predict": func() error {
			_, err := od.Predict(p.NewTeam(), scorebased.Team{Offence: scorebased.Rating{Mu: 25, Sigma: 1e-170}, Defence: p.NewRating()})
			return err
		}(),
	} {
		if !errors.Is(err, scorebased.ErrInput) || !strings.Contains(err.Error(), "team B.Offence.Sigma") && !strings.Contains(err.Error(), "team B.Sigma") {
			t.Errorf("%s: %v, want ErrInput naming team B's Sigma", name, err)
		}
	}
	for _, bad := range []func(q *scorebased.Params){
		func(q *scorebased.Params) { q.Beta = 1e-200 },
		func(q *scorebased.Params) { q.Gamma = 1e200 },
		func(q *scorebased.Params) { q.Tau = 1e160 },
	} {
		q := p
		bad(&q)
		if _, _, err := scorebased.NewGaussianOD(q).Rate(context.Background(), q.NewTeam(), q.NewTeam(), 1, 2); !errors.Is(err, scorebased.ErrInput) || !strings.Contains(err.Error(), "Params.") {
			t.Errorf("%+v: %v, want ErrInput naming it", q, err)
		}
	}

	// Four skills with σ = 1e154 (their variances sum beyond float64): the
	// difference is N(0, 4σ² + …), so P(draw) = P(|d| ≤ ½) ≈ φ(0)/σ_d.
	big := scorebased.Team{Offence: scorebased.Rating{Mu: 25, Sigma: 1e154}, Defence: scorebased.Rating{Mu: 25, Sigma: 1e154}}
	pr, err := od.Predict(big, big)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]float64{0.5, 1 / (2e154 * math.Sqrt(2*math.Pi)), 0.5}, []float64{pr.Win, pr.Draw, pr.Loss}, cmpopts.EquateApprox(1e-12, 0)); d != "" {
		t.Errorf("Gaussian-OD predict with σ = 1e154 (-want +got):\n%s", d)
	}
	far := scorebased.Rating{Mu: 1e308, Sigma: 1}
	if _, err := sd.Predict(far, scorebased.Rating{Mu: -1e308, Sigma: 1}); !errors.Is(err, scorebased.ErrNumerical) {
		t.Errorf("Gaussian-SD predict of ratings ±1e308: %v, want ErrNumerical", err)
	}
	if _, err := od.Predict(scorebased.Team{Offence: far, Defence: p.NewRating()}, scorebased.Team{Offence: p.NewRating(), Defence: scorebased.Rating{Mu: -1e308, Sigma: 1}}); !errors.Is(err, scorebased.ErrNumerical) {
		t.Errorf("Gaussian-OD predict of an expected score beyond 1.8e308: %v, want ErrNumerical", err)
	}
}

// TestEstimateGammaRange: γ from scores near ±1.8e308 is computed without
// overflow where it is a float64 (the sums overflowed to +Inf), against
// the sample standard deviations written out, and is ErrNumerical where
// it is not; a match whose score is not finite is named.
func TestEstimateGammaRange(t *testing.T) {
	const a = 1e308
	// Scores a, −a, a, a: mean a/2, squared deviations 3a²/4 + 9a²/4 = 3a²,
	// over n − 1 = 3: γ = a.
	g, err := scorebased.EstimateGammaOD([]scorebased.MatchScore{{ScoreA: a, ScoreB: -a}, {ScoreA: a, ScoreB: a}})
	if err != nil || cmp.Diff(a, g, approx) != "" {
		t.Errorf("EstimateGammaOD = %v, %v; want %v", g, err, a)
	}
	// Differences 2a and 0: γ = √2·a.
	g, err = scorebased.EstimateGammaSD([]scorebased.MatchScore{{ScoreA: a, ScoreB: -a}, {ScoreA: 0, ScoreB: 0}})
	if err != nil || cmp.Diff(math.Sqrt2*a, g, approx) != "" {
		t.Errorf("EstimateGammaSD = %v, %v; want %v", g, err, math.Sqrt2*a)
	}
	// Differences 2a and −2a: γ = 2√2·a, beyond float64.
	if g, err := scorebased.EstimateGammaSD([]scorebased.MatchScore{{ScoreA: a, ScoreB: -a}, {ScoreA: -a, ScoreB: a}}); !errors.Is(err, scorebased.ErrNumerical) {
		t.Errorf("EstimateGammaSD of differences ±2e308 = %v, %v; want ErrNumerical", g, err)
	}
	if _, err := scorebased.EstimateGammaSD([]scorebased.MatchScore{{ScoreA: 1, ScoreB: 0}, {ScoreA: math.Inf(1), ScoreB: 0}}); !errors.Is(err, scorebased.ErrInput) || !strings.Contains(err.Error(), "match 1") {
		t.Errorf("an infinite score: %v, want ErrInput naming match 1", err)
	}
}
