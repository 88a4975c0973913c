package scorebased_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/models/fit"
	"github.com/skillgraph/skillgraph/models/scorebased"
)

// logN is log N(x; mu, v), written out.
func logN(x, mu, v float64) float64 {
	return -0.5*math.Log(2*math.Pi*v) - (x-mu)*(x-mu)/(2*v)
}

// twoMatches: A beats B 2-1 at home, then A draws 0-0 at home with C.
var twoMatches = []scorebased.Match{{A: "A", B: "B", ScoreA: 2, ScoreB: 1}, {A: "A", B: "C", ScoreA: 0, ScoreB: 0}}

// TestEvidenceGaussianODByHand: the evidence of two matches is the sum of
// the closed-form predictive densities, the second under the ratings eq. 20
// gives after the first, with the home advantage subtracted from A's score.
func TestEvidenceGaussianODByHand(t *testing.T) {
	h := scorebased.Hyper{Params: scorebased.Params{Mu: 0, Sigma: 0.5, Beta: 0.4, Gamma: 1}, Base: 1.2, Home: 0.3}
	m, err := scorebased.OnlineGaussianOD(h)
	if err != nil {
		t.Fatal(err)
	}
	s2, noise := 0.25, 2*0.16+1.0
	// Match 1: x = o_A + Home − d_B ~ N(1.2 + 0.3 − 0, 2σ² + noise), y = o_B − d_A.
	want := logN(2, 1.5, 2*s2+noise) + logN(1, 1.2, 2*s2+noise)
	// Eq. 20: o_A sees s_A − Home + μ_dB with noise + σ_dB²; d_A sees μ_oB − s_B.
	oA, soA := posterior(1.2, s2, 2-0.3+0, noise+s2)
	dA, sdA := posterior(0, s2, 1.2-1, noise+s2)
	// Match 2 against C, fresh: offence 1.2, defence 0.
	want += logN(0, oA+0.3-0, soA*soA+s2+noise) + logN(0, 1.2-dA, s2+sdA*sdA+noise)
	ratings, got, err := scorebased.Learn(context.Background(), m, twoMatches)
	if err != nil {
		t.Fatal(err)
	}
	if rel(got, want) > 1e-12 {
		t.Errorf("evidence %.15g, by hand %.15g", got, want)
	}
	if a := ratings["A"]; rel(a.Offence.Mu, func() float64 {
		mu, _ := posterior(oA, soA*soA, 0-0.3+0, noise+s2)
		return mu
	}()) > 1e-12 {
		t.Errorf("A's offence after two matches %v", a.Offence)
	}
}

// TestEvidenceGaussianSDByHand is the same for Gaussian-SD (eqs. 22-23):
// the density of each score difference.
func TestEvidenceGaussianSDByHand(t *testing.T) {
	h := scorebased.Hyper{Params: scorebased.Params{Mu: 3, Sigma: 0.7, Beta: 0.2, Gamma: 1.5}, Home: 0.4}
	m, err := scorebased.OnlineGaussianSD(h)
	if err != nil {
		t.Fatal(err)
	}
	s2, noise := 0.49, 2*0.04+2.25
	want := logN(1, 0.4, 2*s2+noise)
	lA, sA := posterior(3, s2, 1-0.4+3, noise+s2)
	want += logN(0, lA+0.4-3, sA*sA+s2+noise)
	_, got, err := scorebased.Learn(context.Background(), m, twoMatches)
	if err != nil {
		t.Fatal(err)
	}
	if rel(got, want) > 1e-12 {
		t.Errorf("evidence %.15g, by hand %.15g", got, want)
	}
}

// poissonLogNormal is P(k) = ∫ Pois(k; eˣ) N(x; mu, v) dx by composite
// Simpson's rule over mu ± 14 sd on 200,001 points.
func poissonLogNormal(k int, mu, v float64) float64 {
	const n = 200000
	sd := math.Sqrt(v)
	lo, hi := mu-14*sd, mu+14*sd
	step := (hi - lo) / n
	lg, _ := math.Lgamma(float64(k) + 1)
	f := func(x float64) float64 {
		return math.Exp(float64(k)*x-math.Exp(x)-lg) * math.Exp(-(x-mu)*(x-mu)/(2*v)) / math.Sqrt(2*math.Pi*v)
	}
	sum := f(lo) + f(hi)
	for i := 1; i < n; i++ {
		w := 2.0
		if i%2 == 1 {
			w = 4
		}
		sum += w * f(lo+float64(i)*step)
	}
	return sum * step / 3
}

// TestEvidencePoissonOD: Poisson-OD's predictive probability of a count is
// Poisson with a log-normal rate; checked against Simpson's rule from
// prior variances of 0.01 (nearly Poisson) to the paper's 173, and summed
// over all counts to 1.
func TestEvidencePoissonOD(t *testing.T) {
	// The ratings make x = o_A + Home − d_B ~ N(mu, v) with v = 2σ² + 2β²,
	// and y = o_B − d_A ~ N(base, v) for B, whose score is held at 1.
	for _, c := range []struct {
		k         int
		mu, sigma float64
	}{
		// Both of the quadrature's regimes (mode-centred Gauss–Hermite for
		// an integrand of width s = (e^{x*} + 1/v)^{−½} ≤ ½, Gauss–Legendre
		// either side of the mode above), and the boundary between them.
		{0, 0.2, 0.05}, {3, 0.3, 0.1}, {1, 0.1, 0.35}, {0, -1, 0.5}, {0, 1, 0.5}, {12, 2.5, 0.55}, {2, 0.4, 0.3},
		{7, 0.1, 0.5}, {0, 0, 8.33}, {4, 0, 8.33}, {25, 1, 0.05}, {100, 4.6, 0.4}, {0, -3, 1}, {1, -2, 2},
	} {
		beta := c.sigma / 2
		h := scorebased.Hyper{Params: scorebased.Params{Sigma: c.sigma, Beta: beta, Gamma: 1}, Base: 0.5, Home: c.mu - 0.5}
		m, err := scorebased.OnlinePoissonOD(h)
		if err != nil {
			t.Fatal(err)
		}
		v := 2*c.sigma*c.sigma + 2*beta*beta
		got, err := m.LogPredictive(m.Fresh(), m.Fresh(), float64(c.k), 1)
		if err != nil {
			t.Fatal(err)
		}
		want := math.Log(poissonLogNormal(c.k, c.mu, v)) + math.Log(poissonLogNormal(1, 0.5, v))
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("k=%d, N(%v, %v): log P = %.15g, Simpson %.15g", c.k, c.mu, v, got, want)
		}
	}
	h := scorebased.Hyper{Params: scorebased.Params{Sigma: 0.3, Beta: 0.2, Gamma: 1}, Base: 0.3}
	m, _ := scorebased.OnlinePoissonOD(h)
	var sum float64
	for k := range 60 {
		lp, err := m.LogPredictive(m.Fresh(), m.Fresh(), float64(k), 0)
		if err != nil {
			t.Fatal(err)
		}
		sum += math.Exp(lp)
	}
	// B's score 0 has probability P(0) itself, so the sum is P(0).
	if p0, _ := m.LogPredictive(m.Fresh(), m.Fresh(), 0, 0); math.Abs(sum-math.Exp(p0/2)) > 1e-12 {
		t.Errorf("Σ_k P(k, 0) = %.15g, P(0) = %.15g", sum, math.Exp(p0/2))
	}
}

// TestHomeAdvantageIsAShiftedScore: in Gaussian-OD a home advantage h is
// A's score lowered by h (eq. 20 with s_A − h), and it raises A's
// predicted score by h.
func TestHomeAdvantageIsAShiftedScore(t *testing.T) {
	p := scorebased.Params{Mu: 0, Sigma: 0.6, Beta: 0.3, Gamma: 1.1}
	home, _ := scorebased.OnlineGaussianOD(scorebased.Hyper{Params: p, Base: 1, Home: 0.35})
	plain := scorebased.NewGaussianOD(p)
	a := scorebased.Team{Offence: scorebased.Rating{Mu: 1.4, Sigma: 0.4}, Defence: scorebased.Rating{Mu: 0.2, Sigma: 0.5}}
	b := scorebased.Team{Offence: scorebased.Rating{Mu: 0.9, Sigma: 0.3}, Defence: scorebased.Rating{Mu: -0.1, Sigma: 0.6}}
	ga, gb, err := home.Rate(context.Background(), a, b, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	wa, wb, _ := plain.Rate(context.Background(), a, b, 3-0.35, 1)
	for _, c := range [][2]scorebased.Rating{{ga.Offence, wa.Offence}, {ga.Defence, wa.Defence}, {gb.Offence, wb.Offence}, {gb.Defence, wb.Defence}} {
		if rel(c[0].Mu, c[1].Mu) > 1e-12 || rel(c[0].Sigma, c[1].Sigma) > 1e-12 {
			t.Errorf("with home advantage %+v, shifted score %+v", c[0], c[1])
		}
	}
	pr, err := home.Predict(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(pr.ScoreA-(1.4+0.35+0.1)) > 1e-12 || math.Abs(pr.ScoreB-(0.9-0.2)) > 1e-12 {
		t.Errorf("predicted %v-%v, want 1.85-0.7", pr.ScoreA, pr.ScoreB)
	}
}

// roundRobin returns a double round robin of n teams (each pair at home
// once), its rounds in random order.
func roundRobin(n int, rng *rand.Rand) [][2]int {
	var ms [][2]int
	for i := range n {
		for j := range n {
			if i != j {
				ms = append(ms, [2]int{i, j})
			}
		}
	}
	rng.Shuffle(len(ms), func(i, j int) { ms[i], ms[j] = ms[j], ms[i] })
	return ms
}

func mean(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

var teamNames = func() []string {
	var s []string
	for i := range 60 {
		s = append(s, string(rune('A'+i/26))+string(rune('a'+i%26)))
	}
	return s
}()

// TestFitRecoversGaussianSD draws score differences from Gaussian-SD with
// known hyperparameters (40 teams, 1,560 matches) and fits them. The
// tolerances are three standard errors of what the data can tell: the
// home advantage, the mean difference, to 1.5/√1560 = 0.04; the noise
// variance 2β² + γ² = 1.5 to a relative √(2/1560) = 3.6 %, so β = 0.5 to
// 0.027; σ₀² from 40 skills to a relative √(2/40) = 22 %, so σ₀ = 0.6 to
// 0.067.
func TestFitRecoversGaussianSD(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const teams, sigma, beta, gamma, home = 40, 0.6, 0.5, 1.0, 0.4
	skill := make([]float64, teams)
	for i := range skill {
		skill[i] = sigma * rng.NormFloat64()
	}
	noise := math.Sqrt(2*beta*beta + gamma*gamma)
	var train []scorebased.Match
	for _, m := range roundRobin(teams, rng) {
		d := skill[m[0]] - skill[m[1]] + home + noise*rng.NormFloat64()
		train = append(train, scorebased.Match{A: teamNames[m[0]], B: teamNames[m[1]], ScoreA: d})
	}
	h, rep, err := scorebased.Fit(context.Background(), scorebased.OnlineGaussianSD, train, scorebased.Params{Sigma: 1, Beta: 1, Gamma: gamma}, scorebased.DefaultFitBounds(), fit.Options[scorebased.Hyper]{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v %+v", h, rep)
	if !rep.Converged || rep.LogEvidence < rep.StartLogEvidence {
		t.Errorf("report %+v", rep)
	}
	for _, c := range []struct {
		name           string
		got, want, tol float64
	}{{"Home", h.Home, home, 3 * 0.04}, {"Beta", h.Params.Beta, beta, 3 * 0.027}, {"Sigma", h.Params.Sigma, sigma, 3 * 0.067}} {
		if math.Abs(c.got-c.want) > c.tol {
			t.Errorf("%s = %.4f, drawn from %v (tolerance %.3f)", c.name, c.got, c.want, c.tol)
		}
	}
}

// TestFitRecoversGaussianOD does the same for Gaussian-OD (30 teams, 870
// matches, two scores each). In a double round robin the mean score of the
// away sides is the drawn skills' mean offence minus mean defence, plus
// noise, and the home sides' exceeds it by Home, plus noise: Base is
// compared with the drawn skills' mean difference and both to three
// standard errors of a mean of 870 noises of variance 2β² + γ² = 1.5
// (3·√(1.5/870) = 0.125; √2 times that for Home, a difference of two such
// means); β to three standard errors of the noise variance from 1,740
// scores (3·√(2/1740)·1.5/(4β) = 0.076); σ₀ from 60 skills to three times
// a relative √(2/60)/2 = 9 %.
func TestFitRecoversGaussianOD(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const teams, sigma, beta, gamma, base, home = 30, 0.5, 0.5, 1.0, 1.1, 0.35
	off, def := make([]float64, teams), make([]float64, teams)
	for i := range off {
		off[i], def[i] = base+sigma*rng.NormFloat64(), sigma*rng.NormFloat64()
	}
	noise := math.Sqrt(2*beta*beta + gamma*gamma)
	var train []scorebased.Match
	for _, m := range roundRobin(teams, rng) {
		a, b := m[0], m[1]
		train = append(train, scorebased.Match{A: teamNames[a], B: teamNames[b],
			ScoreA: off[a] - def[b] + home + noise*rng.NormFloat64(), ScoreB: off[b] - def[a] + noise*rng.NormFloat64()})
	}
	h, rep, err := scorebased.Fit(context.Background(), scorebased.OnlineGaussianOD, train, scorebased.Params{Sigma: 1, Beta: 1, Gamma: gamma}, scorebased.DefaultFitBounds(), fit.Options[scorebased.Hyper]{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v %+v", h, rep)
	if !rep.Converged {
		t.Errorf("report %+v", rep)
	}
	for _, c := range []struct {
		name           string
		got, want, tol float64
	}{{"Base", h.Base, mean(off) - mean(def), 0.125}, {"Home", h.Home, home, 0.18}, {"Beta", h.Params.Beta, beta, 0.076}, {"Sigma", h.Params.Sigma, sigma, 3 * 0.09 * sigma}} {
		if math.Abs(c.got-c.want) > c.tol {
			t.Errorf("%s = %.4f, drawn from %v (tolerance %.3f)", c.name, c.got, c.want, c.tol)
		}
	}
}

// TestFitRecoversPoissonOD draws goals from Poisson-OD (30 teams, 870
// matches, log-rates o − d + Base (+ Home) with σ₀ = 0.3 and no
// performance noise) and fits them. Base, compared with the drawn skills'
// mean offence minus mean defence, and Home are logs of mean rates of
// about 1.1 and 1.5 goals over 870 matches: three standard errors are
// 3/√(870·1.1) = 0.097 and 3·√(1/957 + 1/1305) = 0.13.
func TestFitRecoversPoissonOD(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const teams, sigma, base, home = 30, 0.3, 0.1, 0.3
	off, def := make([]float64, teams), make([]float64, teams)
	for i := range off {
		off[i], def[i] = base+sigma*rng.NormFloat64(), sigma*rng.NormFloat64()
	}
	poisson := func(lambda float64) float64 {
		k, p := 0, math.Exp(-lambda)
		for u := rng.Float64(); u > p; k++ {
			u -= p
			p *= lambda / float64(k+1)
		}
		return float64(k)
	}
	var train []scorebased.Match
	for _, m := range roundRobin(teams, rng) {
		a, b := m[0], m[1]
		train = append(train, scorebased.Match{A: teamNames[a], B: teamNames[b],
			ScoreA: poisson(math.Exp(off[a] - def[b] + home)), ScoreB: poisson(math.Exp(off[b] - def[a]))})
	}
	h, rep, err := scorebased.Fit(context.Background(), scorebased.OnlinePoissonOD, train, scorebased.FitStart(), scorebased.DefaultFitBounds(), fit.Options[scorebased.Hyper]{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v %+v", h, rep)
	if !rep.Converged {
		t.Errorf("report %+v", rep)
	}
	if b := mean(off) - mean(def); math.Abs(h.Base-b) > 0.097 || math.Abs(h.Home-home) > 0.13 {
		t.Errorf("Base %.4f, Home %.4f; drawn %.4f and %v", h.Base, h.Home, b, home)
	}
}

// TestFitFixedAndBounds: a zero-width bound fixes a hyperparameter, and one
// that holds the optimum back is reported in AtBound. Progress follows
// every evaluation: its count is the report's, Best is the running
// maximum of the values reported, and the last Best is the fit's.
func TestFitFixedAndBounds(t *testing.T) {
	train := league(t)["2008-09"][:200]
	b := scorebased.DefaultFitBounds()
	b.Home = fit.Bounds{}
	b.Sigma = fit.Bounds{Lo: 0.05, Hi: 0.1}
	var seen []fit.Progress[scorebased.Hyper]
	opt := fit.Options[scorebased.Hyper]{Progress: func(p fit.Progress[scorebased.Hyper]) { seen = append(seen, p) }}
	h, rep, err := scorebased.Fit(context.Background(), scorebased.OnlineGaussianSD, train, scorebased.FitStart(), b, opt)
	if err != nil {
		t.Fatal(err)
	}
	if h.Home != 0 || h.Params.Sigma != 0.1 || len(rep.AtBound) != 1 || rep.AtBound[0] != "Sigma" {
		t.Errorf("fit %+v, report %+v: want Home 0, Sigma at its bound 0.1", h, rep)
	}
	if len(seen) != rep.Evaluations || seen[0].LogEvidence != rep.StartLogEvidence || seen[len(seen)-1].Best != rep.LogEvidence {
		t.Fatalf("%d progress calls, report %+v", len(seen), rep)
	}
	best := math.Inf(-1)
	for i, p := range seen {
		best = math.Max(best, p.LogEvidence)
		if p.Evaluation != i+1 || p.Best != best || p.Params.Home != 0 || p.Params.Params.Sigma < 0.05 || p.Params.Params.Sigma > 0.1 {
			t.Fatalf("progress %d: %+v, running best %v", i, p, best)
		}
	}
}

func TestFitErrors(t *testing.T) {
	ctx := context.Background()
	start := scorebased.FitStart()
	ok := scorebased.DefaultFitBounds()
	var opt fit.Options[scorebased.Hyper]
	good := twoMatches
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	bad := func(f func(*scorebased.FitBounds)) scorebased.FitBounds { b := ok; f(&b); return b }
	for _, c := range []struct {
		name   string
		ctx    context.Context
		train  []scorebased.Match
		start  scorebased.Params
		bounds scorebased.FitBounds
		opt    fit.Options[scorebased.Hyper]
		want   error
		text   string
	}{
		{"no matches", ctx, nil, start, ok, opt, scorebased.ErrInput, "no training matches"},
		{"NaN score", ctx, []scorebased.Match{{A: "A", B: "B", ScoreA: math.NaN()}}, start, ok, opt, scorebased.ErrInput, "train[0]"},
		{"infinite score", ctx, []scorebased.Match{{A: "A", B: "B", ScoreB: math.Inf(1)}}, start, ok, opt, scorebased.ErrInput, "train[0]"},
		{"no name", ctx, []scorebased.Match{{A: "A"}}, start, ok, opt, scorebased.ErrInput, "needs a name"},
		{"self", ctx, []scorebased.Match{{A: "A", B: "A"}}, start, ok, opt, scorebased.ErrInput, "itself"},
		{"cancelled", cancelled, good, start, ok, opt, context.Canceled, ""},
		{"bad start", ctx, good, scorebased.Params{Sigma: -1, Beta: 1, Gamma: 1}, ok, opt, scorebased.ErrInput, "start"},
		{"NaN bound", ctx, good, start, bad(func(b *scorebased.FitBounds) { b.Home.Hi = math.NaN() }), opt, scorebased.ErrInput, "Home bounds"},
		{"empty bound", ctx, good, start, bad(func(b *scorebased.FitBounds) { b.Base = fit.Bounds{Lo: 1, Hi: 0} }), opt, scorebased.ErrInput, "Base bounds"},
		{"zero σ bound", ctx, good, start, bad(func(b *scorebased.FitBounds) { b.Sigma.Lo = 0 }), opt, scorebased.ErrInput, "Sigma bounds"},
		{"negative tolerance", ctx, good, start, ok, fit.Options[scorebased.Hyper]{Tolerance: -1}, scorebased.ErrInput, "Tolerance"},
		{"negative cap", ctx, good, start, ok, fit.Options[scorebased.Hyper]{MaxEvaluations: -1}, scorebased.ErrInput, "MaxEvaluations"},
	} {
		_, _, err := scorebased.Fit(c.ctx, scorebased.OnlineGaussianOD, c.train, c.start, c.bounds, c.opt)
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.text) {
			t.Errorf("%s: %v, want %v naming %q", c.name, err, c.want, c.text)
		}
	}
	if _, _, err := scorebased.Fit(ctx, scorebased.OnlinePoissonOD, []scorebased.Match{{A: "A", B: "B", ScoreA: 1.5}}, start, ok, opt); !errors.Is(err, scorebased.ErrInput) || !strings.Contains(err.Error(), "count") {
		t.Errorf("Poisson score 1.5: %v", err)
	}
	if _, _, err := scorebased.Fit[scorebased.Team](ctx, nil, good, start, ok, opt); !errors.Is(err, scorebased.ErrInput) || !strings.Contains(err.Error(), "constructor") {
		t.Errorf("nil model: %v", err)
	}
	// A context cancelled during the search stops it.
	ctx2, cancel2 := context.WithCancel(ctx)
	n := 0
	slow := func(h scorebased.Hyper) (scorebased.Online[scorebased.Team], error) {
		if n++; n == 5 {
			cancel2()
		}
		return scorebased.OnlineGaussianOD(h)
	}
	if _, _, err := scorebased.Fit(ctx2, slow, league(t)["2008-09"][:50], start, ok, opt); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled mid-search: %v", err)
	}
}

// TestOnlineCounts: the online Poisson model takes whole scores from 0 to
// MaxCount, and refuses one above it saying which scores are allowed.
func TestOnlineCounts(t *testing.T) {
	m, err := scorebased.OnlinePoissonOD(scorebased.Hyper{Params: scorebased.Params{Sigma: 0.3, Beta: 0.2, Gamma: 1}, Base: 0.3})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.LogPredictive(m.Fresh(), m.Fresh(), scorebased.MaxCount, 0); err != nil {
		t.Errorf("score MaxCount: %v", err)
	}
	for _, s := range []float64{scorebased.MaxCount + 1, -1, 1.5} {
		_, err := m.LogPredictive(m.Fresh(), m.Fresh(), s, 0)
		if !errors.Is(err, scorebased.ErrInput) || !strings.Contains(err.Error(), "a Poisson score is a count from 0 to 2147483647") {
			t.Errorf("score %v: error %v, want ErrInput naming the counts allowed", s, err)
		}
	}
}
