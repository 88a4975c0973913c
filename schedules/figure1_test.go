package schedules_test

import (
	"context"
	"math"
	"testing"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/schedules"
)

// figure1 is the game of the TrueSkill paper's Figure 1, built by hand from
// the engine's primitives: players 1-4 in teams {1}, {2,3}, {4}; team 1 wins,
// teams 2 and 3 draw (r = (1, 2, 2)).
type figure1 struct {
	g      *graph.Graph
	skills [4]graph.VarID
	priors [4]graph.FactorID
	perf   [4]graph.FactorID // N(p_i; s_i, β²): edge 0 = p_i, edge 1 = s_i
	team   [3]graph.FactorID // t_j = Σ p_i: edge 0 = t_j
	diff   [2]graph.FactorID // d_j = t_j − t_{j+1}: edge 0 = d_j, 1 = t_j, 2 = t_{j+1}
	win    graph.FactorID    // I(d_1 > ε)
	draw   graph.FactorID    // I(|d_2| ≤ ε)
}

var (
	fig1Mu    = [4]float64{25, 28, 22, 30}
	fig1Sigma = [4]float64{25.0 / 3, 6, 7, 3}
)

const (
	fig1Beta = 25.0 / 6
	fig1Tau  = 25.0 / 300
)

// drawMargin is ε = Φ⁻¹((p+1)/2)·√(n₁+n₂)·β (TrueSkill paper, section 4.1).
func drawMargin(p float64, n int) float64 {
	return messages.NormQuantile((p+1)/2) * math.Sqrt(float64(n)) * fig1Beta
}

func buildFigure1(t *testing.T) *figure1 {
	t.Helper()
	var f figure1
	b := graph.NewBuilder("figure1")
	b.Layer("skills")
	var p [4]graph.VarID
	for i := range f.skills {
		f.skills[i] = b.AddVariable("s" + string(rune('1'+i)))
	}
	b.Layer("performances")
	for i := range p {
		p[i] = b.AddVariable("p" + string(rune('1'+i)))
	}
	b.Layer("teams")
	t1, t2, t3 := b.AddVariable("t1"), b.AddVariable("t2"), b.AddVariable("t3")
	b.Layer("differences")
	d1, d2 := b.AddVariable("d1"), b.AddVariable("d2")

	b.Layer("prior factors")
	for i := range f.priors {
		f.priors[i] = b.AddFactor(factors.NewPrior(fig1Mu[i], fig1Sigma[i]*fig1Sigma[i]+fig1Tau*fig1Tau), "", f.skills[i])
	}
	b.Layer("performance factors")
	for i := range f.perf {
		f.perf[i] = b.AddFactor(factors.NewLikelihood(fig1Beta*fig1Beta), "", p[i], f.skills[i])
	}
	b.Layer("team factors")
	f.team[0] = b.AddFactor(factors.NewWeightedSum(1), "", t1, p[0])
	f.team[1] = b.AddFactor(factors.NewWeightedSum(1, 1), "", t2, p[1], p[2])
	f.team[2] = b.AddFactor(factors.NewWeightedSum(1), "", t3, p[3])
	b.Layer("difference factors")
	f.diff[0] = b.AddFactor(factors.NewDifference(), "", d1, t1, t2)
	f.diff[1] = b.AddFactor(factors.NewDifference(), "", d2, t2, t3)
	b.Layer("comparison factors")
	f.win = b.AddFactor(factors.NewGreaterThan(drawMargin(0.1, 3)), "", d1)
	f.draw = b.AddFactor(factors.NewWithin(drawMargin(0.1, 3)), "", d2)
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	f.g = g
	return &f
}

// schedule is Figure 1's schedule: the light arrows from top to bottom, the
// difference chain iterated in the numbered order (1-6), then the dark arrows
// from bottom to top.
func (f *figure1) schedule(tol float64) schedules.Schedule {
	step := schedules.Step
	var down, up []schedules.Schedule
	for i := range f.priors {
		down = append(down, step(f.priors[i], 0), step(f.perf[i], 0))
	}
	for j := range f.team {
		down = append(down, step(f.team[j], 0))
	}
	chain := schedules.Loop(schedules.Sequence(
		step(f.diff[0], 0), // 1: t1, t2 → d1
		step(f.win, 0),     // 2: I(d1 > ε) → d1
		step(f.diff[0], 2), // 3: d1 → t2
		step(f.diff[1], 0), // 4: t2, t3 → d2
		step(f.draw, 0),    // 5: I(|d2| ≤ ε) → d2
		step(f.diff[1], 1), // 6: d2 → t2
	), schedules.Tolerance(tol), schedules.MaxIterations(200), schedules.Name("difference chain"))
	up = append(up, step(f.diff[0], 1), step(f.diff[1], 2))
	team := [3][]int{{1}, {1, 2}, {1}}
	players := [3][]int{{0}, {1, 2}, {3}}
	for j := range f.team {
		for k, e := range team[j] {
			up = append(up, step(f.team[j], e), step(f.perf[players[j][k]], 1))
		}
	}
	return schedules.Sequence(schedules.Sequence(down...), chain, schedules.Sequence(up...))
}

func (f *figure1) posteriors() [4]messages.Gaussian {
	var out [4]messages.Gaussian
	for i, s := range f.skills {
		out[i] = f.g.Marginal(s)
	}
	return out
}

// TestFigure1ScheduleMatchesFlooding is the engine's acceptance test: the
// hand-written Figure 1 schedule and the generic flooding schedule reach the
// same posteriors.
func TestFigure1ScheduleMatchesFlooding(t *testing.T) {
	f := buildFigure1(t)
	res, err := schedules.Run(context.Background(), f.g, f.schedule(1e-12))
	if err != nil {
		t.Fatal(err)
	}
	if !res.Converged {
		t.Fatalf("Figure 1 schedule did not converge: %+v", res)
	}
	t.Logf("Figure 1 schedule: %d iterations of the difference chain, last change %.3g", res.Iterations, res.Delta)
	fig := f.posteriors()

	f.g.Reset()
	res, err = schedules.Run(context.Background(), f.g, schedules.Flooding(f.g, schedules.Tolerance(1e-13), schedules.MaxIterations(1000)))
	if err != nil {
		t.Fatal(err)
	}
	if !res.Converged {
		t.Fatalf("flooding did not converge: %+v", res)
	}
	t.Logf("flooding: %d iterations, last change %.3g", res.Iterations, res.Delta)
	flood := f.posteriors()
	for i := range fig {
		if d := math.Abs(fig[i].Mean() - flood[i].Mean()); d > 1e-7 {
			t.Errorf("s%d mean: Figure 1 schedule %.12g, flooding %.12g", i+1, fig[i].Mean(), flood[i].Mean())
		}
		if d := math.Abs(fig[i].Sigma() - flood[i].Sigma()); d > 1e-7 {
			t.Errorf("s%d sigma: Figure 1 schedule %.12g, flooding %.12g", i+1, fig[i].Sigma(), flood[i].Sigma())
		}
		t.Logf("s%d: N(%.6f, %.6f²)", i+1, fig[i].Mean(), fig[i].Sigma())
	}
	// The result must say something: team 1 won, so player 1 rises and player 4
	// (team 3, level with team 2) is not ranked above anyone.
	if !(fig[0].Mean() > fig1Mu[0]) {
		t.Errorf("winner's mean did not rise: %v", fig[0])
	}
	for i := range fig {
		if !(fig[i].Sigma() < math.Sqrt(fig1Sigma[i]*fig1Sigma[i]+fig1Tau*fig1Tau)) {
			t.Errorf("s%d: σ did not shrink: %v", i+1, fig[i])
		}
	}
}

// TestTwoPlayerClosedForm compares a 1v1 game run through the graph with the
// closed-form update of the rating page (../shared/seeds/002_…): with
// σ² ← σ² + τ², c² = σ_W² + σ_L² + 2β², t = (μ_W − μ_L)/c, v = φ(t)/Φ(t),
// w = v(v + t): μ_W' = μ_W + σ_W²/c·v, σ_W'² = σ_W²(1 − w·σ_W²/c²), and the
// mirror image for the loser. The page uses no draw margin (ε = 0).
func TestTwoPlayerClosedForm(t *testing.T) {
	cases := []struct{ muW, sigW, muL, sigL float64 }{
		{25, 25.0 / 3, 25, 25.0 / 3},
		{30, 4, 20, 7},
		{18, 2, 35, 1.5}, // an upset
		{1500, 120, 1490, 80},
	}
	for _, c := range cases {
		// Closed form, written out from the page.
		vW := c.sigW*c.sigW + fig1Tau*fig1Tau
		vL := c.sigL*c.sigL + fig1Tau*fig1Tau
		c2 := vW + vL + 2*fig1Beta*fig1Beta
		cc := math.Sqrt(c2)
		tt := (c.muW - c.muL) / cc
		v := math.Exp(-tt*tt/2) / math.Sqrt(2*math.Pi) / (0.5 * math.Erfc(-tt/math.Sqrt2))
		w := v * (v + tt)
		wantMuW, wantMuL := c.muW+vW/cc*v, c.muL-vL/cc*v
		wantSigW, wantSigL := math.Sqrt(vW*(1-w*vW/c2)), math.Sqrt(vL*(1-w*vL/c2))

		// The graph: priors, performances, difference, I(d > 0).
		b := graph.NewBuilder("1v1")
		sW, sL := b.AddVariable("sW"), b.AddVariable("sL")
		pW, pL, d := b.AddVariable("pW"), b.AddVariable("pL"), b.AddVariable("d")
		b.AddFactor(factors.NewPrior(c.muW, vW), "", sW)
		b.AddFactor(factors.NewPrior(c.muL, vL), "", sL)
		b.AddFactor(factors.NewLikelihood(fig1Beta*fig1Beta), "", pW, sW)
		b.AddFactor(factors.NewLikelihood(fig1Beta*fig1Beta), "", pL, sL)
		b.AddFactor(factors.NewDifference(), "", d, pW, pL)
		b.AddFactor(factors.NewGreaterThan(0), "", d)
		g, _ := buildAndRunTree(t, b)
		got := []float64{g.Marginal(sW).Mean(), g.Marginal(sW).Sigma(), g.Marginal(sL).Mean(), g.Marginal(sL).Sigma()}
		want := []float64{wantMuW, wantSigW, wantMuL, wantSigL}
		for k := range got {
			if e := math.Abs(got[k]/want[k] - 1); e > 1e-12 {
				t.Errorf("%+v: value %d = %.17g, closed form %.17g (rel %.2g)", c, k, got[k], want[k], e)
			}
		}
	}
}
