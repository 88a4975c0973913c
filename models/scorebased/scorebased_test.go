package scorebased_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/models/scorebased"
)

func rel(a, b float64) float64 {
	if a == b {
		return 0
	}
	return math.Abs(a-b) / math.Max(math.Abs(a), math.Abs(b))
}

func params(tau float64) scorebased.Params {
	p := scorebased.DefaultParams()
	p.Gamma = 1.3
	p.Tau = tau
	return p
}

var (
	teamA = scorebased.Team{Offence: scorebased.Rating{Mu: 27, Sigma: 3}, Defence: scorebased.Rating{Mu: 24, Sigma: 5}}
	teamB = scorebased.Team{Offence: scorebased.Rating{Mu: 25.5, Sigma: 7}, Defence: scorebased.Rating{Mu: 26, Sigma: 2}}
)

// posterior is the closed form of eqs. 20 and 22-23: a skill N(μ, v)
// observed through μ + ε with noise variance n (ε = the other team's
// skill and the noises) at value obs.
func posterior(mu, v, obs, n float64) (mean, sd float64) {
	pi := 1/v + 1/n
	tau := mu/v + obs/n
	return tau / pi, math.Sqrt(1 / pi)
}

// TestGaussianODEqualsEq20 compares the graph with eq. 20 written out.
func TestGaussianODEqualsEq20(t *testing.T) {
	for _, tau := range []float64{0, 0.5} {
		p := params(tau)
		m := scorebased.NewGaussianOD(p)
		sA, sB := 3.0, 1.0
		a, b, err := m.Rate(context.Background(), teamA, teamB, sA, sB)
		if err != nil {
			t.Fatal(err)
		}
		v := func(r scorebased.Rating) float64 { return r.Sigma*r.Sigma + tau*tau }
		noise := 2*p.Beta*p.Beta + p.Gamma*p.Gamma
		check := func(name string, got scorebased.Rating, mu, sd float64) {
			if rel(got.Mu, mu) > 1e-12 || rel(got.Sigma, sd) > 1e-12 {
				t.Errorf("τ=%v %s: graph %+v, eq. 20 N(%.15g, %.15g²)", tau, name, got, mu, sd)
			}
		}
		// π_oA = 1/σ_oA² + 1/(β²+β²+γ²+σ_dB²), τ_oA = μ_oA/σ_oA² + (s_A + μ_dB)/(…).
		mu, sd := posterior(teamA.Offence.Mu, v(teamA.Offence), sA+teamB.Defence.Mu, noise+v(teamB.Defence))
		check("offence A", a.Offence, mu, sd)
		// π_dB = …, τ_dB = μ_dB/σ_dB² + (μ_oA − s_A)/(β²+β²+γ²+σ_oA²).
		mu, sd = posterior(teamB.Defence.Mu, v(teamB.Defence), teamA.Offence.Mu-sA, noise+v(teamA.Offence))
		check("defence B", b.Defence, mu, sd)
		mu, sd = posterior(teamB.Offence.Mu, v(teamB.Offence), sB+teamA.Defence.Mu, noise+v(teamA.Defence))
		check("offence B", b.Offence, mu, sd)
		mu, sd = posterior(teamA.Defence.Mu, v(teamA.Defence), teamB.Offence.Mu-sB, noise+v(teamB.Offence))
		check("defence A", a.Defence, mu, sd)
	}
}

// TestGaussianSDEqualsEq22 compares the graph with eqs. 22-23 written out.
func TestGaussianSDEqualsEq22(t *testing.T) {
	for _, tau := range []float64{0, 0.5} {
		p := params(tau)
		m := scorebased.NewGaussianSD(p)
		la, lb := scorebased.Rating{Mu: 28, Sigma: 4}, scorebased.Rating{Mu: 23, Sigma: 6}
		sA, sB := 1.0, 2.0
		a, b, err := m.Rate(context.Background(), la, lb, sA, sB)
		if err != nil {
			t.Fatal(err)
		}
		v := func(r scorebased.Rating) float64 { return r.Sigma*r.Sigma + tau*tau }
		noise := 2*p.Beta*p.Beta + p.Gamma*p.Gamma
		muA, sdA := posterior(la.Mu, v(la), (sA-sB)+lb.Mu, noise+v(lb))
		muB, sdB := posterior(lb.Mu, v(lb), la.Mu-(sA-sB), noise+v(la))
		if rel(a.Mu, muA) > 1e-12 || rel(a.Sigma, sdA) > 1e-12 || rel(b.Mu, muB) > 1e-12 || rel(b.Sigma, sdB) > 1e-12 {
			t.Errorf("τ=%v: graph %+v %+v, eqs. 22-23 N(%v, %v²) N(%v, %v²)", tau, a, b, muA, sdA, muB, sdB)
		}
	}
}

// TestPoissonODComposition checks the Poisson-OD update by composing its
// parts by hand: the cavity of x = p_oA − p_dB, Lemma 1's projection
// (checked against quadrature in package factors), its message, and
// Gaussian conditioning of the offence skill on that message.
func TestPoissonODComposition(t *testing.T) {
	p := params(0)
	for _, sc := range [][2]int{{0, 0}, {2, 1}, {7, 0}, {300, 250}} {
		// Skills on a log-rate scale, as a fitted Poisson model has them.
		a := scorebased.Team{Offence: scorebased.Rating{Mu: 1.2, Sigma: 0.8}, Defence: scorebased.Rating{Mu: 0.3, Sigma: 0.5}}
		b := scorebased.Team{Offence: scorebased.Rating{Mu: 0.9, Sigma: 1.5}, Defence: scorebased.Rating{Mu: 0.1, Sigma: 0.4}}
		pp := p
		pp.Beta = 0.3
		m := scorebased.NewPoissonOD(pp)
		na, nb, steps, err := m.Rate(context.Background(), a, b, sc[0], sc[1])
		if err != nil {
			t.Fatal(err)
		}
		if steps < 1 || steps > 10 {
			t.Errorf("scores %v: %d Halley steps", sc, steps)
		}
		b2 := pp.Beta * pp.Beta
		cavMean := a.Offence.Mu - b.Defence.Mu
		cavVar := a.Offence.Sigma*a.Offence.Sigma + b.Defence.Sigma*b.Defence.Sigma + 2*b2
		q, _, err := factors.PoissonProject(cavMean, cavVar, sc[0])
		if err != nil {
			t.Fatal(err)
		}
		msgPi := q.Pi - 1/cavVar
		msgTau := q.Tau - cavMean/cavVar
		msgMean, msgVar := msgTau/msgPi, 1/msgPi
		// o_A observed through x = o_A − d_B + noise: obs = msgMean + μ_dB.
		mu, sd := posterior(a.Offence.Mu, a.Offence.Sigma*a.Offence.Sigma, msgMean+b.Defence.Mu,
			msgVar+2*b2+b.Defence.Sigma*b.Defence.Sigma)
		if rel(na.Offence.Mu, mu) > 1e-10 || rel(na.Offence.Sigma, sd) > 1e-10 {
			t.Errorf("scores %v: offence A %+v, composed N(%v, %v²)", sc, na.Offence, mu, sd)
		}
		for _, r := range []scorebased.Rating{na.Offence, na.Defence, nb.Offence, nb.Defence} {
			if math.IsNaN(r.Mu) || math.IsInf(r.Mu, 0) || !(r.Sigma > 0) {
				t.Errorf("scores %v: non-finite rating %+v", sc, r)
			}
		}
		// More goals than expected raise the scorer's offence and lower the
		// opponent's defence.
		if sc[0] > 5 && !(na.Offence.Mu > a.Offence.Mu && nb.Defence.Mu < b.Defence.Mu) {
			t.Errorf("scores %v: offence %v → %v, defence %v → %v", sc, a.Offence.Mu, na.Offence.Mu, b.Defence.Mu, nb.Defence.Mu)
		}
	}
}

// TestSkellam checks the Skellam probabilities against direct double sums of
// Poisson probabilities, and that they sum to 1, from low-scoring football
// to rates of a thousand.
func TestSkellam(t *testing.T) {
	for _, l := range [][2]float64{{0.3, 1.4}, {1.5, 1.1}, {25, 24}, {95, 88}, {1000, 980}} {
		s := scorebased.Skellam{Lambda1: l[0], Lambda2: l[1]}
		win, draw, loss, err := s.Outcome()
		if err != nil {
			t.Fatal(err)
		}
		// Direct: Σ_x Σ_y Pois(x) Pois(y) over a generous range.
		pois := func(n int, lam float64) float64 {
			lg, _ := math.Lgamma(float64(n) + 1)
			return math.Exp(float64(n)*math.Log(lam) - lam - lg)
		}
		hi := int(l[0]+l[1]) + 40*int(math.Sqrt(l[0]+l[1])) + 60
		var dWin, dDraw, dLoss float64
		px := make([]float64, hi+1)
		py := make([]float64, hi+1)
		for n := 0; n <= hi; n++ {
			px[n], py[n] = pois(n, l[0]), pois(n, l[1])
		}
		pmf := map[int]float64{}
		for x := 0; x <= hi; x++ {
			for y := 0; y <= hi; y++ {
				pr := px[x] * py[y]
				switch {
				case x > y:
					dWin += pr
				case x == y:
					dDraw += pr
				default:
					dLoss += pr
				}
				if d := x - y; d >= -5 && d <= 5 {
					pmf[d] += pr
				}
			}
		}
		if rel(win, dWin) > 1e-10 || rel(draw, dDraw) > 1e-10 || rel(loss, dLoss) > 1e-10 {
			t.Errorf("λ=%v: outcome %v %v %v, direct %v %v %v", l, win, draw, loss, dWin, dDraw, dLoss)
		}
		if math.Abs(win+draw+loss-1) > 1e-12 {
			t.Errorf("λ=%v: probabilities sum to %.17g", l, win+draw+loss)
		}
		for k := -5; k <= 5; k++ {
			if got, err := s.Prob(k); err != nil || rel(got, pmf[k]) > 1e-10 {
				t.Errorf("λ=%v: P(D = %d) = %v, %v; direct %v", l, k, got, err, pmf[k])
			}
		}
	}
}

// TestSkellamCertainOutcome: at rates up to ExactRateLimit whose
// difference is hundreds of standard deviations √(λ₁ + λ₂), one outcome
// is certain: it is 1 within the sums' rounding, never above, and the
// others are 0.
func TestSkellamCertainOutcome(t *testing.T) {
	for _, l := range [][2]float64{{1e5, 1e6}, {1e6, 1e5}, {1, 1e6}, {1e6, 1e-9}} {
		s := scorebased.Skellam{Lambda1: l[0], Lambda2: l[1]}
		win, draw, loss, err := s.Outcome()
		if err != nil {
			t.Fatal(err)
		}
		certain, others := loss, win+draw
		if l[0] > l[1] {
			certain, others = win, loss+draw
		}
		if !(certain <= 1 && certain >= 1-1e-9) || !(others >= 0 && others < 1e-300) {
			t.Errorf("λ=%v: outcome %v %v %v, want the certain one in [1 − 1e-9, 1] and the others 0", l, win, draw, loss)
		}
	}
}

// TestPredictions checks the forecasts against the distributions written
// out: Gaussian differences for the Gaussian models, Skellam for Poisson.
func TestPredictions(t *testing.T) {
	p := params(0.2)
	phi := func(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }
	v := func(r scorebased.Rating) float64 { return r.Sigma*r.Sigma + p.Tau*p.Tau }

	od := scorebased.NewGaussianOD(p)
	pr, err := od.Predict(teamA, teamB)
	if err != nil {
		t.Fatal(err)
	}
	extra := 2*p.Beta*p.Beta + p.Gamma*p.Gamma
	mu := (teamA.Offence.Mu - teamB.Defence.Mu) - (teamB.Offence.Mu - teamA.Defence.Mu)
	sd := math.Sqrt(v(teamA.Offence) + v(teamB.Defence) + v(teamB.Offence) + v(teamA.Defence) + 2*extra)
	if rel(pr.Win, phi((mu-0.5)/sd)) > 1e-14 || rel(pr.Loss, phi((-mu-0.5)/sd)) > 1e-14 ||
		rel(pr.Draw, phi((0.5-mu)/sd)-phi((-0.5-mu)/sd)) > 1e-12 {
		t.Errorf("Gaussian-OD prediction %+v, want N(%v, %v²) banded at ±½", pr, mu, sd)
	}
	if w, _ := od.WinProbability(teamA, teamB); rel(w, phi(mu/sd)) > 1e-14 {
		t.Errorf("eq. 21: %v, want %v", w, phi(mu/sd))
	}

	sdm := scorebased.NewGaussianSD(p)
	la, lb := scorebased.Rating{Mu: 28, Sigma: 4}, scorebased.Rating{Mu: 23, Sigma: 6}
	w, err := sdm.WinProbability(la, lb)
	if err != nil {
		t.Fatal(err)
	}
	want := phi((la.Mu - lb.Mu) / math.Sqrt(v(la)+v(lb)+2*p.Beta*p.Beta+p.Gamma*p.Gamma))
	if rel(w, want) > 1e-14 {
		t.Errorf("eq. 24 (derived): %v, want %v", w, want)
	}

	a := scorebased.Team{Offence: scorebased.Rating{Mu: 1.2, Sigma: 0.3}, Defence: scorebased.Rating{Mu: 0.3, Sigma: 0.2}}
	b := scorebased.Team{Offence: scorebased.Rating{Mu: 0.9, Sigma: 0.4}, Defence: scorebased.Rating{Mu: 0.1, Sigma: 0.3}}
	pp := p
	pp.Beta = 0.1
	po := scorebased.NewPoissonOD(pp)
	ppr, err := po.Predict(a, b)
	if err != nil {
		t.Fatal(err)
	}
	lA := math.Exp(a.Offence.Mu - b.Defence.Mu)
	lB := math.Exp(b.Offence.Mu - a.Defence.Mu)
	sw, sdr, sl, _ := scorebased.Skellam{Lambda1: lA, Lambda2: lB}.Outcome()
	if rel(ppr.ScoreA, lA) > 1e-14 || rel(ppr.ScoreB, lB) > 1e-14 || ppr.Win != sw || ppr.Draw != sdr || ppr.Loss != sl {
		t.Errorf("Poisson-OD prediction %+v, want rates %v %v and Skellam %v %v %v", ppr, lA, lB, sw, sdr, sl)
	}
}

func TestEstimateGamma(t *testing.T) {
	ms := []scorebased.MatchScore{{2, 1}, {0, 0}, {3, 1}}
	// Scores 2,1,0,0,3,1: mean 7/6, Σ(x−m)² = 41/6, sample variance 41/30.
	g, err := scorebased.EstimateGammaOD(ms)
	if err != nil || rel(g, math.Sqrt(41.0/30)) > 1e-15 {
		t.Errorf("EstimateGammaOD = %v, %v; want √(41/30)", g, err)
	}
	// Differences 1, 0, 2: sample variance 1.
	g, err = scorebased.EstimateGammaSD(ms)
	if err != nil || rel(g, 1) > 1e-15 {
		t.Errorf("EstimateGammaSD = %v, %v; want 1", g, err)
	}
	if _, err := scorebased.EstimateGammaSD(ms[:1]); !errors.Is(err, scorebased.ErrInput) {
		t.Errorf("one match: %v, want ErrInput", err)
	}
}

func TestInputErrors(t *testing.T) {
	p := params(0)
	if _, _, _, err := scorebased.NewPoissonOD(p).Rate(context.Background(), teamA, teamB, -1, 2); !errors.Is(err, scorebased.ErrInput) || !strings.Contains(err.Error(), "count") {
		t.Errorf("negative Poisson score: %v", err)
	}
	if _, _, err := scorebased.NewGaussianOD(p).Rate(context.Background(), teamA, teamB, math.NaN(), 2); !errors.Is(err, scorebased.ErrInput) || !strings.Contains(err.Error(), "scores NaN") {
		t.Errorf("NaN score: %v", err)
	}
	bad := teamA
	bad.Defence.Sigma = 0
	if _, err := scorebased.NewGaussianOD(p).Predict(bad, teamB); !errors.Is(err, scorebased.ErrInput) || !strings.Contains(err.Error(), "Defence.Sigma") {
		t.Errorf("zero σ: %v", err)
	}
	q := p
	q.Gamma = -1
	if _, _, err := scorebased.NewGaussianSD(q).Rate(context.Background(), teamA.Offence, teamB.Offence, 1, 0); !errors.Is(err, scorebased.ErrInput) || !strings.Contains(err.Error(), "Params.Gamma") {
		t.Errorf("negative γ: %v", err)
	}
}

// TestHugeRatesStayFast: rates far beyond any sport's must neither hang
// nor return NaN, and a 300-0 result at the paper's default scale updates
// sensibly.
func TestHugeRatesStayFast(t *testing.T) {
	p := scorebased.DefaultParams()
	m := scorebased.NewPoissonOD(p)
	strong := p.NewTeam()
	strong.Offence.Mu = 60 // λ = e^35
	pr, err := m.Predict(strong, strong)
	if err != nil {
		t.Fatal(err)
	}
	if math.IsNaN(pr.Win) || math.Abs(pr.Win+pr.Draw+pr.Loss-1) > 1e-9 || math.Abs(pr.Win-pr.Loss) > 1e-9 {
		t.Errorf("prediction %+v", pr)
	}
	a, b, _, err := m.Rate(context.Background(), p.NewTeam(), p.NewTeam(), 300, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !(a.Offence.Mu > p.Mu) || !(b.Defence.Mu < p.Mu) || !(a.Offence.Sigma < p.Sigma) {
		t.Errorf("after 300-0: %+v %+v", a, b)
	}
	// Near the limit both paths agree.
	lo := scorebased.Skellam{Lambda1: scorebased.ExactRateLimit, Lambda2: 0.999 * scorebased.ExactRateLimit}
	w1, _, _, _ := lo.Outcome()
	hi := scorebased.Skellam{Lambda1: 1.0000001 * scorebased.ExactRateLimit, Lambda2: 0.999 * 1.0000001 * scorebased.ExactRateLimit}
	w2, _, _, _ := hi.Outcome()
	t.Logf("at the limit: exact %.8f, normal approximation %.8f", w1, w2)
	if math.Abs(w1-w2) > 1e-3 {
		t.Errorf("exact %v and normal %v differ at the limit", w1, w2)
	}
}

// TestConcurrentUpdates shares one model of each kind between goroutines
// (its pool of graphs included); run with -race.
func TestConcurrentUpdates(t *testing.T) {
	p := params(0)
	god, gsd := scorebased.NewGaussianOD(p), scorebased.NewGaussianSD(p)
	pp := p
	pp.Beta = 0.3
	pois := scorebased.NewPoissonOD(pp)
	wantA, _, _ := god.Rate(context.Background(), teamA, teamB, 2, 1)
	wantS, _, _ := gsd.Rate(context.Background(), teamA.Offence, teamB.Offence, 2, 1)
	wantP, _, _, _ := pois.Rate(context.Background(), teamA, teamB, 2, 1)
	done := make(chan string, 8)
	for g := 0; g < 8; g++ {
		go func() {
			for k := 0; k < 100; k++ {
				a, _, err1 := god.Rate(context.Background(), teamA, teamB, 2, 1)
				s, _, err2 := gsd.Rate(context.Background(), teamA.Offence, teamB.Offence, 2, 1)
				q, _, _, err3 := pois.Rate(context.Background(), teamA, teamB, 2, 1)
				if err1 != nil || err2 != nil || err3 != nil || a != wantA || s != wantS || q != wantP {
					done <- "concurrent update differs"
					return
				}
			}
			done <- ""
		}()
	}
	for g := 0; g < 8; g++ {
		if msg := <-done; msg != "" {
			t.Error(msg)
		}
	}
}

// TestRateCancelled: every model's Rate stops with the context's error.
func TestRateCancelled(t *testing.T) {
	p := scorebased.DefaultParams()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for name, err := range map[string]error{
		"Gaussian-OD": func() error {
			_, _, err := scorebased.NewGaussianOD(p).Rate(ctx, p.NewTeam(), p.NewTeam(), 1, 0)
			return err
		}(),
		"Poisson-OD": func() error {
			_, _, _, err := scorebased.NewPoissonOD(p).Rate(ctx, p.NewTeam(), p.NewTeam(), 1, 0)
			return err
		}(),
		"Gaussian-SD": func() error {
			_, _, err := scorebased.NewGaussianSD(p).Rate(ctx, p.NewRating(), p.NewRating(), 1, 0)
			return err
		}(),
	} {
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: %v, want context.Canceled", name, err)
		}
	}
}
