package exact_test

import (
	"context"
	"errors"
	"fmt"
	"math"
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

	sol, err := exact.EP(context.Background(), g, exact.Tolerance(1e-13))
	if err != nil {
		t.Fatal(err)
	}
	if !sol.Converged || sol.EvidenceErr != nil {
		t.Fatalf("EP: converged %v after %d sweeps, evidence error %v", sol.Converged, sol.Sweeps, sol.EvidenceErr)
	}
	t.Logf("EP: %d sweeps, log evidence %.12g", sol.Sweeps, sol.LogEvidence)
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
	if _, err := exact.EP(ctx, oneVar(factors.NewGreaterThan(0), false)); !errors.Is(err, exact.ErrImproper) || !strings.Contains(err.Error(), "lonely") {
		t.Errorf("a variable with a truncation only: %v, want %v naming it", err, exact.ErrImproper)
	}
	for _, panics := range []bool{false, true} {
		_, err := exact.EP(ctx, oneVar(failing{panics}, true))
		var ue *graph.UpdateError
		if !errors.As(err, &ue) || ue.Factor != 1 || ue.Label != "suspect" || errors.Is(err, exact.ErrPanic) != panics {
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
		if _, err := exact.EP(ctx, g, o); !errors.Is(err, exact.ErrOption) {
			t.Errorf("option: %v, want %v", err, exact.ErrOption)
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
