package scorebased_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/exact"
	"github.com/skillgraph/skillgraph/models/scorebased"
	"github.com/skillgraph/skillgraph/schedules"
)

// declarer is the Declare method the three models share.
type declarer interface {
	Declare(*graph.Builder, scorebased.Contest) (scorebased.Nodes, error)
}

// season declares a double round robin of n teams with random scores into
// one graph, with a home advantage h ~ N(0, 1) shared by every match; one
// says whether the teams have one skill (Gaussian-SD) or two.
func season(t *testing.T, p scorebased.Params, m declarer, n int, one bool, rng *rand.Rand) (*graph.Graph, []scorebased.TeamVars, graph.VarID) {
	t.Helper()
	b := graph.NewBuilder("season")
	h := b.AddVariable("home")
	b.AddFactor(factors.NewPrior(0, 1), "", h)
	teams := make([]scorebased.TeamVars, n)
	for i := range teams {
		var err error
		if one {
			teams[i], err = p.DeclareSkill(b, fmt.Sprint(i), p.NewRating())
		} else {
			teams[i], err = p.DeclareTeam(b, fmt.Sprint(i), p.NewTeam())
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	k := 0
	for i := range n {
		for j := range n {
			if i == j {
				continue
			}
			k++
			c := scorebased.Contest{Name: fmt.Sprintf("m%d.", k), A: teams[i], B: teams[j],
				ScoreA: float64(rng.IntN(5)), ScoreB: float64(rng.IntN(4)), Advantage: []graph.VarID{h}}
			if _, err := m.Declare(b, c); err != nil {
				t.Fatal(err)
			}
		}
	}
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return g, teams, h
}

// TestDeclareSeasonEqualsExact fits a season of the two Gaussian models,
// skills and home advantage shared by every match (a loopy graph), with the
// schedule Derive gives, and checks every posterior mean against the exact
// Gaussian solve (loopy Gaussian message passing has exact means when it
// converges; its variances are too small, and the test reports by how
// much).
func TestDeclareSeasonEqualsExact(t *testing.T) {
	p := scorebased.DefaultParams()
	p.Gamma = 1.2
	rng := rand.New(rand.NewPCG(14, 2))
	for _, c := range []struct {
		name string
		m    declarer
		one  bool
	}{{"Gaussian-OD", scorebased.NewGaussianOD(p), false}, {"Gaussian-SD", scorebased.NewGaussianSD(p), true}} {
		g, _, h := season(t, p, c.m, 6, c.one, rng)
		s, err := schedules.Derive(g, schedules.WithLoop(schedules.Tolerance(1e-13), schedules.MaxIterations(2000)))
		if err != nil {
			t.Fatal(err)
		}
		res, err := schedules.Run(context.Background(), g, s)
		if err != nil || !res.Converged {
			t.Fatalf("%s: %+v, %v", c.name, res, err)
		}
		sol, err := exact.Solve(g)
		if err != nil {
			t.Fatal(err)
		}
		worst, over, worstName := 0.0, 0.0, ""
		for v := range g.NumVariables() {
			got, want := g.Marginal(graph.VarID(v)), sol.Marginals[v]
			if math.Abs(got.Mean()-want.Mean()) > 1e-9 {
				t.Errorf("%s: %s: mean %.12g, exact %.12g", c.name, g.VariableName(graph.VarID(v)), got.Mean(), want.Mean())
			}
			if d := 1 - got.Variance()/want.Variance(); d > worst {
				worst, worstName = d, g.VariableName(graph.VarID(v))
			}
			over = max(over, got.Variance()/want.Variance()-1)
		}
		hm, he := g.Marginal(h), sol.Marginals[h]
		t.Logf("%s: %d passes; home advantage %.4f ± %.4f (exact ± %.4f); variance up to %.1f%% small (%s), %.1f%% large",
			c.name, res.Iterations, hm.Mean(), hm.Sigma(), he.Sigma(), 100*worst, worstName, 100*over)
	}
}

// TestDeclareAdvantageClosedForm checks one Gaussian-OD contest with an
// advantage h ~ N(μ_h, σ_h²) against the closed form: A's score is
// s_A = o_A − d_B + h + noise of variance 2β² + γ², so h is observed at
// s_A − μ_oA + μ_dB through noise of variance σ_oA² + σ_dB² + 2β² + γ²
// (B's score does not involve h).
func TestDeclareAdvantageClosedForm(t *testing.T) {
	p := params(0.3)
	m := scorebased.NewGaussianOD(p)
	b := graph.NewBuilder("one match")
	h := b.AddVariable("home")
	b.AddFactor(factors.NewPrior(0.4, 0.25), "", h)
	a, err := p.DeclareTeam(b, "A", teamA)
	if err != nil {
		t.Fatal(err)
	}
	bt, err := p.DeclareTeam(b, "B", teamB)
	if err != nil {
		t.Fatal(err)
	}
	sA := 3.0
	if _, err := m.Declare(b, scorebased.Contest{A: a, B: bt, ScoreA: sA, ScoreB: 1, Advantage: []graph.VarID{h}}); err != nil {
		t.Fatal(err)
	}
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	s, err := schedules.Derive(g)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := schedules.Run(context.Background(), g, s); err != nil {
		t.Fatal(err)
	}
	v := func(r scorebased.Rating) float64 { return r.Sigma*r.Sigma + p.Tau*p.Tau }
	noise := v(teamA.Offence) + v(teamB.Defence) + 2*p.Beta*p.Beta + p.Gamma*p.Gamma
	wantMu, wantSD := posterior(0.4, 0.25, sA-teamA.Offence.Mu+teamB.Defence.Mu, noise)
	if got := g.Marginal(h); rel(got.Mean(), wantMu) > 1e-12 || rel(got.Sigma(), wantSD) > 1e-12 {
		t.Errorf("home advantage %v ± %v, closed form %v ± %v", got.Mean(), got.Sigma(), wantMu, wantSD)
	}
	// A's offence sees the advantage's prior as extra noise and mean.
	wantMu, wantSD = posterior(teamA.Offence.Mu, v(teamA.Offence), sA-0.4+teamB.Defence.Mu, noise-v(teamA.Offence)+0.25)
	if got := g.Marginal(a.Offence); rel(got.Mean(), wantMu) > 1e-12 || rel(got.Sigma(), wantSD) > 1e-12 {
		t.Errorf("A's offence %v ± %v, closed form %v ± %v", got.Mean(), got.Sigma(), wantMu, wantSD)
	}
}

// TestDeclarePoissonAdvantage checks the Poisson wiring: an advantage known
// to be c (a prior of negligible variance) raises A's log-rate by c, as
// raising A's offence by c would; Update gives that answer.
func TestDeclarePoissonAdvantage(t *testing.T) {
	p := scorebased.DefaultParams()
	p.Mu, p.Sigma, p.Beta = 0, 0.5, 0.2
	m := scorebased.NewPoissonOD(p)
	a := scorebased.Team{Offence: scorebased.Rating{Mu: 0.3, Sigma: 0.4}, Defence: scorebased.Rating{Mu: -0.1, Sigma: 0.3}}
	bt := scorebased.Team{Offence: scorebased.Rating{Mu: 0.1, Sigma: 0.5}, Defence: scorebased.Rating{Mu: 0.2, Sigma: 0.35}}
	const shift = 0.25
	b := graph.NewBuilder("one match")
	h := b.AddVariable("home")
	b.AddFactor(factors.NewPrior(shift, 1e-14), "", h)
	av, _ := p.DeclareTeam(b, "A", a)
	bv, _ := p.DeclareTeam(b, "B", bt)
	if _, err := m.Declare(b, scorebased.Contest{A: av, B: bv, ScoreA: 3, ScoreB: 0, Advantage: []graph.VarID{h}}); err != nil {
		t.Fatal(err)
	}
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	s, err := schedules.Derive(g)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := schedules.Run(context.Background(), g, s); err != nil {
		t.Fatal(err)
	}
	shifted := a
	shifted.Offence.Mu += shift
	wa, wb, _, err := m.Rate(context.Background(), shifted, bt, 3, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		v    graph.VarID
		want scorebased.Rating
		off  float64
	}{{"A offence", av.Offence, wa.Offence, shift}, {"A defence", av.Defence, wa.Defence, 0},
		{"B offence", bv.Offence, wb.Offence, 0}, {"B defence", bv.Defence, wb.Defence, 0}} {
		got := g.Marginal(c.v)
		if math.Abs(got.Mean()+c.off-c.want.Mu) > 1e-6 || math.Abs(got.Sigma()-c.want.Sigma) > 1e-6 {
			t.Errorf("%s: %v ± %v, want %v ± %v", c.name, got.Mean()+c.off, got.Sigma(), c.want.Mu, c.want.Sigma)
		}
	}
}

func TestDeclareErrors(t *testing.T) {
	p := scorebased.DefaultParams()
	b := graph.NewBuilder("bad")
	if _, err := p.DeclareTeam(b, "A", scorebased.Team{}); !errors.Is(err, scorebased.ErrInput) || !strings.Contains(err.Error(), "Sigma") {
		t.Errorf("zero σ team: %v", err)
	}
	if _, err := p.DeclareSkill(b, "A", scorebased.Rating{Mu: math.NaN(), Sigma: 1}); !errors.Is(err, scorebased.ErrInput) || !strings.Contains(err.Error(), "Mu") {
		t.Errorf("NaN skill: %v", err)
	}
	bad := p
	bad.Gamma = 0
	if _, err := bad.DeclareTeam(b, "A", p.NewTeam()); !errors.Is(err, scorebased.ErrInput) || !strings.Contains(err.Error(), "Params.Gamma") {
		t.Errorf("γ = 0: %v", err)
	}
	for _, c := range []struct {
		name string
		m    declarer
		a, b float64
	}{
		{"Poisson fraction", scorebased.NewPoissonOD(p), 1.5, 0},
		{"Poisson negative", scorebased.NewPoissonOD(p), 1, -1},
		{"Poisson NaN", scorebased.NewPoissonOD(p), math.NaN(), 0},
		{"Gaussian-OD infinite", scorebased.NewGaussianOD(p), math.Inf(1), 0},
		{"Gaussian-SD NaN", scorebased.NewGaussianSD(p), 0, math.NaN()},
	} {
		if _, err := c.m.Declare(b, scorebased.Contest{ScoreA: c.a, ScoreB: c.b}); !errors.Is(err, scorebased.ErrInput) || !strings.Contains(err.Error(), "scores") {
			t.Errorf("%s: %v, want ErrInput naming the scores", c.name, err)
		}
	}
}
