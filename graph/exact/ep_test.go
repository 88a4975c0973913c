package exact_test

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
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/schedules"
)

// ahead is a user's factor I(x > y) on two variables, written as a user
// would, from its cavities only: d = x − y has the cavity N(μx − μy,
// vx + vy), truncated to d > 0 by messages.GreaterThan (TrueSkill paper,
// Table 1, row 5); x and y follow d linearly, x's tilted moments being
// μx + (vx/vd)·(E d − μd) and vx − (vx/vd)²·(vd − Var d), and y's with
// the sign of its coefficient. It implements neither LinearForm nor
// Approximate.
type ahead struct{}

func (ahead) Arity() int { return 2 }

func (ahead) Message(i int, e graph.Edges) (messages.Gaussian, error) {
	cx, cy := e.Cavity(0), e.Cavity(1)
	if !cx.IsProper() || !cy.IsProper() {
		return messages.Gaussian{}, nil
	}
	vd := cx.Variance() + cy.Variance()
	md := cx.Mean() - cy.Mean()
	sd := math.Sqrt(vd)
	tr := messages.GreaterThan(md/sd, 0)
	mean := md + sd*tr.V          // E d under the truncation
	variance := vd * tr.OneMinusW // Var d
	c, sign := cx, 1.0
	if i == 1 {
		c, sign = cy, -1
	}
	k := c.Variance() / vd
	q := messages.NewGaussian(c.Mean()+sign*k*(mean-md), c.Variance()-k*k*(vd-variance))
	return q.Div(c), nil
}

func (ahead) LogAverageFactor(e graph.Edges) (float64, error) {
	cx, cy := e.Cavity(0), e.Cavity(1)
	return messages.LogNormCDF((cx.Mean() - cy.Mean()) / math.Sqrt(cx.Variance()+cy.Variance())), nil
}

// A tree with every kind of factor EP refines: a win (I(d > ε)), a draw
// (I(|d| ≤ ε)), a Poisson count and a user's two-variable factor. On a
// tree the cavity of a factor's variables is a product of independent
// parts, so joint EP and message passing have the same fixed point:
// marginals and evidence agree to 1e-9.
func TestEPOnATreeAgreesWithMessagePassing(t *testing.T) {
	b := graph.NewBuilder("tree")
	var s, p [4]graph.VarID
	for i := range s {
		s[i] = b.AddVariable(fmt.Sprintf("s%d", i))
		p[i] = b.AddVariable(fmt.Sprintf("p%d", i))
		b.AddFactor(factors.NewPrior(25+float64(i), 70-5*float64(i)), "", s[i])
		b.AddFactor(factors.NewLikelihood(17), "", p[i], s[i])
	}
	d1, d2 := b.AddVariable("d1"), b.AddVariable("d2")
	handicap := b.AddObserved("handicap", 0.8) // a constant in d1's constraint
	b.AddFactor(factors.NewWeightedSum(1, -1, 1), "", d1, p[0], p[1], handicap)
	b.AddFactor(factors.NewDifference(), "", d2, p[1], p[2])
	b.AddFactor(factors.NewGreaterThan(0.7), "", d1)
	b.AddFactor(factors.NewWithin(0.7), "", d2)
	b.AddFactor(ahead{}, "p3 ahead of s2", p[3], s[2])
	rate := b.AddVariable("rate")
	b.AddFactor(factors.NewPrior(0.5, 0.3), "", rate)
	b.AddFactor(factors.NewPoisson(3), "", rate)
	g := build(t, b)

	agreesWithMessagePassing(t, g)
}

// agreesWithMessagePassing checks that EP and message passing, each run
// to convergence on the tree g, give the same marginals and log evidence
// to 1e-9.
func agreesWithMessagePassing(t *testing.T, g *graph.Graph) {
	t.Helper()
	sol, err := exact.EP(context.Background(), g, exact.Tolerance(1e-13))
	if err != nil {
		t.Fatal(err)
	}
	if !sol.Converged || sol.EvidenceErr != nil {
		t.Fatalf("EP: converged %v after %d sweeps, evidence error %v", sol.Converged, sol.Sweeps, sol.EvidenceErr)
	}
	t.Logf("%s: EP: %d sweeps, log evidence %.12g", g.Name(), sol.Sweeps, sol.LogEvidence)
	sched, err := schedules.Derive(g, schedules.WithLoop(schedules.Tolerance(1e-14), schedules.MaxIterations(10000)))
	if err != nil {
		t.Fatal(err)
	}
	if res, err := schedules.Run(context.Background(), g, sched); err != nil || !res.Converged {
		t.Fatalf("message passing: %+v, %v", res, err)
	}
	for v := range g.NumVariables() {
		got, want := sol.Marginals[v], g.Marginal(graph.VarID(v))
		if math.Abs(got.Mean()-want.Mean()) > 1e-9*want.Sigma() || !close(got.Variance(), want.Variance(), 1e-9) {
			t.Errorf("%s: EP N(%v, %v), message passing N(%v, %v)", g.VariableName(graph.VarID(v)), got.Mean(), got.Variance(), want.Mean(), want.Variance())
		}
	}
	lz, err := g.LogEvidence()
	if err != nil {
		t.Fatal(err)
	}
	if !close(sol.LogEvidence, lz, 1e-9) {
		t.Errorf("log evidence: EP %v, message passing %v", sol.LogEvidence, lz)
	}
}

// On a linear-Gaussian graph EP is Solve: no sweep, the same marginals
// and evidence.
func TestEPOnALinearGraphIsSolve(t *testing.T) {
	for _, g := range []*graph.Graph{seasonGraph(t, 5), league(t, leagueGames(12, 20), 12, true)} {
		want, err := exact.Solve(g)
		if err != nil {
			t.Fatal(err)
		}
		got, err := exact.EP(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		if got.Sweeps != 0 || !got.Converged || got.EvidenceErr != nil {
			t.Errorf("%s: %d sweeps, converged %v, evidence error %v", g.Name(), got.Sweeps, got.Converged, got.EvidenceErr)
		}
		for v := range want.Marginals {
			a, b := got.Marginals[v], want.Marginals[v]
			if !close(a.Mean(), b.Mean(), 1e-9) || !close(a.Variance(), b.Variance(), 1e-9) {
				t.Errorf("%s: EP %v, Solve %v", g.VariableName(graph.VarID(v)), a, b)
			}
		}
		if !close(got.LogEvidence, want.LogEvidence, 1e-9) {
			t.Errorf("%s: log evidence EP %v, Solve %v", g.Name(), got.LogEvidence, want.LogEvidence)
		}
	}
}

// failing is a user factor that fails or panics.
type failing struct{ panics bool }

func (failing) Arity() int { return 1 }
func (f failing) Message(int, graph.Edges) (messages.Gaussian, error) {
	if f.panics {
		panic("index out of range") // as a bug would
	}
	return messages.Gaussian{}, errors.New("cannot compute")
}

// noEvidence is a user factor without graph.Evidence: a Gaussian message
// N(1, 2) whatever the cavity.
type noEvidence struct{}

func (noEvidence) Arity() int { return 1 }
func (noEvidence) Message(int, graph.Edges) (messages.Gaussian, error) {
	return messages.NewGaussian(1, 2), nil
}

func TestEPErrors(t *testing.T) {
	oneVar := func(f graph.Factor, prior bool) *graph.Graph {
		b := graph.NewBuilder("one")
		x := b.AddVariable("lonely")
		if prior {
			b.AddFactor(factors.NewPrior(0, 1), "", x)
		}
		b.AddFactor(f, "suspect", x)
		return build(t, b)
	}
	ctx := context.Background()
	if _, err := exact.EP(ctx, oneVar(factors.NewGreaterThan(0), false)); !errors.Is(err, messages.ErrInput) || !strings.Contains(err.Error(), "improper") || !strings.Contains(err.Error(), "lonely") {
		t.Errorf("a variable with a truncation only: %v, want an improper posterior (%v) naming it", err, messages.ErrInput)
	}
	for _, panics := range []bool{false, true} {
		_, err := exact.EP(ctx, oneVar(failing{panics}, true))
		var ue *graph.UpdateError
		if !errors.As(err, &ue) || ue.Factor != 1 || ue.Label != "suspect" || (ue.Panic != nil) != panics {
			t.Errorf("a factor that fails (panics %v): %v", panics, err)
		}
	}
	sol, err := exact.EP(ctx, oneVar(noEvidence{}, true), nil, nil)
	if err != nil || !errors.Is(sol.EvidenceErr, messages.ErrInput) || sol.LogEvidence != 0 {
		t.Errorf("a factor without evidence: %+v, %v", sol, err)
	} else if m := sol.Marginals[0]; !close(m.Pi, 1.5, 1e-12) || !close(m.Tau, 0.5, 1e-12) {
		t.Errorf("a factor without evidence: marginal %v, want N(1, 2)·N(0, 1)", m)
	}
	// A user's prior without a linear form starts the sites: the answer
	// is the truncation of N(1, 2) at 0.
	b := graph.NewBuilder("user prior")
	x := b.AddVariable("x")
	b.AddFactor(noEvidence{}, "", x)
	b.AddFactor(factors.NewGreaterThan(0), "", x)
	sol, err = exact.EP(ctx, build(t, b), exact.Tolerance(1e-12))
	tr := messages.GreaterThan(1/math.Sqrt(2), 0) // t = μ/σ, ε = 0
	if err != nil {
		t.Errorf("a user's prior: %v", err)
	} else if m := sol.Marginals[x]; !close(m.Mean(), 1+math.Sqrt(2)*tr.V, 1e-9) || !close(m.Variance(), 2*tr.OneMinusW, 1e-9) {
		t.Errorf("a user's prior: %v, want N(%v, %v)", m, 1+math.Sqrt(2)*tr.V, 2*tr.OneMinusW)
	}
	g := oneVar(factors.NewGreaterThan(0), true)
	for _, o := range []exact.EPOption{exact.Damping(1), exact.Damping(math.NaN()), exact.Tolerance(-1), exact.Tolerance(math.Inf(1)), exact.MaxSweeps(0)} {
		if _, err := exact.EP(ctx, g, o); !errors.Is(err, messages.ErrInput) || !strings.Contains(err.Error(), "option") || strings.Count(err.Error(), messages.ErrInput.Error()) != 1 {
			t.Errorf("option: %v, want %v (said once) naming the option", err, messages.ErrInput)
		}
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := exact.EP(cancelled, g); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if _, err := exact.EP(ctx, nil); !errors.Is(err, messages.ErrInput) {
		t.Errorf("nil graph: %v", err)
	}
	// A truncation of an observed variable has no site: its evidence is
	// 1 or 0.
	for _, value := range []float64{0.5, -0.5} {
		b := graph.NewBuilder("observed")
		x, o := b.AddVariable("x"), b.AddObserved("o", value)
		b.AddFactor(factors.NewPrior(0, 1), "", x)
		b.AddFactor(factors.NewGreaterThan(0), "", o)
		sol, err := exact.EP(ctx, build(t, b))
		if err != nil || !sol.Converged || sol.Sweeps != 0 {
			t.Fatalf("observed %v: %+v, %v", value, sol, err)
		}
		if value > 0 && (sol.EvidenceErr != nil || sol.LogEvidence != 0) {
			t.Errorf("observed %v: log evidence %v, %v; want 0", value, sol.LogEvidence, sol.EvidenceErr)
		}
		if value < 0 && !errors.Is(sol.EvidenceErr, messages.ErrImpossible) && !errors.Is(sol.EvidenceErr, messages.ErrNumerical) {
			t.Errorf("observed %v: evidence error %v, want an impossible observation", value, sol.EvidenceErr)
		}
	}
	sol, err = exact.EP(ctx, g, exact.MaxSweeps(1), exact.Tolerance(0))
	if err != nil || sol.Converged || sol.Sweeps != 1 {
		t.Errorf("capped at one sweep: %+v, %v", sol, err)
	}
}

// A tree of the margin factors, which implement exact.Tilted and so get
// joint sites over their two or three variables: a win over a margin
// (I(x > m)), a draw between two margins (I(−u ≤ x ≤ v)) and a draw
// within one (I(|x| ≤ w)), each margin in one factor only. On a tree the
// joint cavity of a factor's variables is a product of independent parts,
// so joint sites reach message passing's fixed point and its evidence:
// marginals and log evidence agree to 1e-9. A margin factor with an
// observed edge keeps per-edge sites.
func TestEPJointSitesOnATreeAgreeWithMessagePassing(t *testing.T) {
	b := graph.NewBuilder("margin tree")
	var s, p [6]graph.VarID
	for i := range s {
		s[i] = b.AddVariable(fmt.Sprintf("s%d", i))
		p[i] = b.AddVariable(fmt.Sprintf("p%d", i))
		b.AddFactor(factors.NewPrior(float64(i)/3, 1+float64(i)/4), "", s[i])
		b.AddFactor(factors.NewLikelihood(0.5), "", p[i], s[i])
	}
	margin := func(name string, mean, variance float64) graph.VarID {
		m := b.AddVariable(name)
		b.AddFactor(factors.NewPrior(mean, variance), "", m)
		return m
	}
	x1, x2, x3, x4 := b.AddVariable("x1"), b.AddVariable("x2"), b.AddVariable("x3"), b.AddVariable("x4")
	b.AddFactor(factors.NewDifference(), "", x1, p[0], p[1])
	b.AddFactor(factors.NewDifference(), "", x2, p[2], p[3])
	b.AddFactor(factors.NewDifference(), "", x3, p[4], p[5])
	b.AddFactor(factors.NewDifference(), "", x4, s[1], s[3])
	b.AddFactor(factors.NewExceedsMargin(), "", x1, margin("m", 0.5, 0.04))
	b.AddFactor(factors.NewBetweenMargins(), "", x2, margin("u", 0.4, 0.05), margin("v", 0.6, 0.03))
	b.AddFactor(factors.NewWithinMargin(), "", x3, margin("w", 0.7, 0.1))
	b.AddFactor(factors.NewWithinMargin(), "", x4, b.AddObserved("fixed", 1.5))
	agreesWithMessagePassing(t, build(t, b))
}

// tiltedUser is a user's factor with joint tilted moments that go wrong
// as a bug would: a panic, a covariance that is not positive definite, or
// moments of the wrong length. Its per-edge Message is never called.
type tiltedUser struct{ fault int }

func (tiltedUser) Arity() int { return 2 }
func (tiltedUser) Message(int, graph.Edges) (messages.Gaussian, error) {
	return messages.Gaussian{}, errors.New("not used")
}
func (f tiltedUser) TiltedMoments(mean, cov []float64) (float64, []float64, []float64, error) {
	switch f.fault {
	case 0:
		panic("index out of range")
	case 1:
		return 0, mean, []float64{1, 2, 2, 1}, nil
	}
	return 0, mean[:1], cov, nil
}

// A joint site's failures name the factor: a panic (UpdateError.Panic),
// and tilted moments that make no Gaussian (messages.ErrNumerical) with
// its variables.
func TestEPJointSiteErrors(t *testing.T) {
	for fault, want := range []error{nil, messages.ErrNumerical, messages.ErrNumerical} {
		b := graph.NewBuilder("joint")
		x, m := b.AddVariable("x"), b.AddVariable("m")
		b.AddFactor(factors.NewPrior(0, 1), "", x)
		b.AddFactor(factors.NewPrior(1, 1), "", m)
		b.AddFactor(tiltedUser{fault}, "buggy", x, m)
		_, err := exact.EP(context.Background(), build(t, b))
		var ue *graph.UpdateError
		if !errors.As(err, &ue) || ue.Label != "buggy" || ue.Method != "TiltedMoments" {
			t.Errorf("fault %d: %v, want an UpdateError of TiltedMoments naming the factor", fault, err)
		} else if want == nil && (ue.Panic == nil || !strings.Contains(err.Error(), "panicked")) {
			t.Errorf("fault %d: %v, want the panic", fault, err)
		} else if want != nil && (!errors.Is(err, want) || !strings.Contains(err.Error(), "variable 1 m")) {
			t.Errorf("fault %d: %v, want %v naming the factor and its variables", fault, err, want)
		}
	}
}

// Damping changes the path of EP, not its fixed point: on the chess model
// with a margin per player (joint sites for every result), EP damped by
// 0.6 converges to the undamped marginals and evidence.
func TestEPJointSitesDampedFixedPoint(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	truth, margin := make([]float64, 5), make([]float64, 5)
	for i := range truth {
		truth[i], margin[i] = rng.NormFloat64(), 0.5+0.2*rng.NormFloat64()
	}
	g, _, _, _ := chessMarginsGraph(t, false, 5, 0.5, 0.5, 0.04, chessGames(rng, truth, margin, 0.5, 30))
	plain, err := exact.EP(context.Background(), g, exact.Tolerance(1e-10))
	if err != nil || !plain.Converged {
		t.Fatal(err)
	}
	damped, err := exact.EP(context.Background(), g, exact.Tolerance(1e-10), exact.Damping(0.6))
	if err != nil || !damped.Converged || damped.Sweeps <= plain.Sweeps {
		t.Fatalf("damped: %v, converged %v after %d sweeps (undamped %d)", err, damped != nil && damped.Converged, damped.Sweeps, plain.Sweeps)
	}
	for v, m := range plain.Marginals {
		d := damped.Marginals[v]
		if math.Abs(m.Mean()-d.Mean()) > 1e-8*m.Sigma() || math.Abs(m.Sigma()/d.Sigma()-1) > 1e-8 {
			t.Errorf("%s: undamped %v, damped %v", g.VariableName(graph.VarID(v)), m, d)
		}
	}
	if math.Abs(plain.LogEvidence-damped.LogEvidence) > 1e-8 {
		t.Errorf("log evidence: undamped %v, damped %v", plain.LogEvidence, damped.LogEvidence)
	}
}

// TestEPEvidenceFarFromZero: the chain x₀ ~ N(μ₀, 1), x₄ = x₀ + e with
// e ~ N(0, 4) through four links of variance 1, y = μ₀ + 1 observed
// through N(y; x₄, 1), and the win factor I(x₄ − x₀ > 0). With one factor
// that is not Gaussian, on a Gaussian model, EP is exact: y − μ₀ ~ N(0, 6)
// and e | y ~ N(4/6, 4 − 16/6), so the log evidence is log N(1; 0, 6) +
// log Φ((2/3)/√(4/3)), whatever μ₀. Where the means are so far from 0
// (1e9, 1e12 standard deviations) that the evidence's terms, normalisers of
// size μ₀²/2, round by more than the answer carries, it is not a number
// (their sum would be one such as +255, a log probability above 0) but
// EvidenceErr, ErrNumerical.
func TestEPEvidenceFarFromZero(t *testing.T) {
	want := -0.5*math.Log(12*math.Pi) - 1.0/12 + math.Log(0.5*math.Erfc(-(2.0/3)/math.Sqrt(4.0/3)/math.Sqrt2))
	for _, mu := range []float64{0, 1e3, 1e4, 1e9, 1e12} {
		b := graph.NewBuilder("far")
		x := make([]graph.VarID, 5)
		for i := range x {
			x[i] = b.AddVariable(fmt.Sprint("x", i))
		}
		b.AddFactor(factors.NewPrior(mu, 1), "", x[0])
		for i := 1; i < len(x); i++ {
			b.AddFactor(factors.NewLikelihood(1), "", x[i], x[i-1])
		}
		b.AddFactor(factors.NewGaussianObservation(mu+1, 1), "", x[4])
		d := b.AddVariable("d")
		b.AddFactor(factors.NewDifference(), "", d, x[4], x[0])
		b.AddFactor(factors.NewGreaterThan(0), "", d)
		g, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		sol, err := exact.EP(context.Background(), g, exact.Tolerance(1e-12))
		if err != nil {
			t.Fatalf("μ₀ = %v: %v", mu, err)
		}
		if mu >= 1e9 {
			if !errors.Is(sol.EvidenceErr, messages.ErrNumerical) || sol.LogEvidence != 0 {
				t.Errorf("μ₀ = %v: log evidence %v, %v; want 0 and %v", mu, sol.LogEvidence, sol.EvidenceErr, messages.ErrNumerical)
			}
			continue
		}
		if sol.EvidenceErr != nil || math.Abs(sol.LogEvidence-want) > 1e-7 {
			t.Errorf("μ₀ = %v: log evidence %.17g, %v; want %.17g", mu, sol.LogEvidence, sol.EvidenceErr, want)
		}
	}
}
