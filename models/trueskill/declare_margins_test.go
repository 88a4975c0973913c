package trueskill_test

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
	"github.com/skillgraph/skillgraph/models/trueskill"
	"github.com/skillgraph/skillgraph/schedules"
)

// fixedAt is a factor that holds its variable at a point: a margin
// observed, not learned.
type fixedAt struct{ x float64 }

func (fixedAt) Arity() int { return 1 }
func (f fixedAt) Message(int, graph.Edges) (messages.Gaussian, error) {
	return messages.PointMass(f.x), nil
}

// declaredMargins builds match m with Declare, each team with a margin
// variable made by margin (given the builder and the team, with its
// schedule step), runs the contest's own schedule after the priors (or,
// if derived, one Derive gives) and returns the posterior skills.
func declaredMargins(t *testing.T, p trueskill.Params, m trueskill.Match, derived bool, margin func(b *graph.Builder, j int) (graph.VarID, schedules.Schedule)) [][]trueskill.Rating {
	t.Helper()
	b := graph.NewBuilder("margins")
	c := trueskill.Contest{Name: "g.", Ranks: m.Ranks, Margins: make([]graph.VarID, len(m.Teams))}
	var priors []schedules.Schedule
	c.Skills, priors = skillVariables(b, p, m)
	for j := range m.Teams {
		var s schedules.Schedule
		c.Margins[j], s = margin(b, j)
		priors = append(priors, s)
	}
	return ratings(runContest(t, b, p, c, priors, !derived), c.Skills)
}

// TestDeclareFixedMarginsEqualRate: margin variables held at one value ε
// give TrueSkill's game with draw margin ε, which Rate computes.
func TestDeclareFixedMarginsEqualRate(t *testing.T) {
	p := trueskill.DefaultParams()
	p.DrawMargin = 0.74
	p.Tolerance = 1e-14
	p.MaxIterations = 500
	rng := rand.New(rand.NewPCG(24, 5))
	fixed := func(b *graph.Builder, j int) (graph.VarID, schedules.Schedule) {
		v := b.AddVariable(fmt.Sprintf("m%d", j))
		return v, schedules.Step(b.AddFactor(fixedAt{p.DrawMargin}, "", v), 0)
	}
	worst := 0.0
	for trial := range 40 {
		n := 2 + rng.IntN(3)
		m := trueskill.Match{Teams: make([][]trueskill.Rating, n), Ranks: make([]int, n)}
		for j := range n {
			for range 1 + rng.IntN(2) {
				m.Teams[j] = append(m.Teams[j], trueskill.Rating{Mu: 15 + 20*rng.Float64(), Sigma: 1 + 7*rng.Float64()})
			}
			m.Ranks[j] = rng.IntN(n) // ties are draws
		}
		want, err := p.Rate(context.Background(), m)
		if err != nil {
			t.Fatal(err)
		}
		for _, derived := range []bool{false, true} {
			got := declaredMargins(t, p, m, derived, fixed)
			for j := range want.Ratings {
				for i, w := range want.Ratings[j] {
					g := got[j][i]
					e := math.Max(math.Abs(g.Mu-w.Mu), math.Abs(g.Sigma-w.Sigma))
					worst = math.Max(worst, e)
					if !(e <= 1e-12*w.Mu) {
						t.Errorf("trial %d (ranks %v), derived %v: team %d player %d: with margins %v, Rate %v", trial, m.Ranks, derived, j, i, g, w)
					}
				}
			}
		}
	}
	t.Logf("largest difference from Rate: %.3g", worst)
}

// TestDeclareChessMargins is one chess game of the model of Dangauthier,
// Herbrich, Minka and Graepel (2007): skills, a white advantage a and
// per-player margins, all learned; d = p_w − p_b + a, white wins when
// d > m_b, draws when −m_w ≤ d ≤ m_b. The graph is a tree with one
// non-Gaussian factor, so EP's marginals are the posterior's moments; they
// are checked against importance sampling of the prior (performances
// integrated out in closed form, the outcome's probability the weight)
// within four standard errors, and joint-Gaussian EP (exact.EP) against
// them to 1e-9.
func TestDeclareChessMargins(t *testing.T) {
	p := trueskill.Params{Beta: 4} // the prior fields are the graph's own
	white, black := trueskill.Rating{Mu: 27, Sigma: 5}, trueskill.Rating{Mu: 24, Sigma: 6}
	adv := trueskill.Rating{Mu: 1, Sigma: 1.5}
	mw, mb := trueskill.Rating{Mu: 3, Sigma: 1}, trueskill.Rating{Mu: 5, Sigma: 1.5}
	for _, ranks := range [][]int{{1, 1}, {1, 2}, {2, 1}} {
		b := graph.NewBuilder("chess")
		prior := func(name string, r trueskill.Rating) graph.VarID {
			v := b.AddVariable(name)
			b.AddFactor(factors.NewPrior(r.Mu, r.Sigma*r.Sigma), "", v)
			return v
		}
		sw, sb, a, uw, ub := prior("white", white), prior("black", black), prior("advantage", adv), prior("m_white", mw), prior("m_black", mb)
		_, err := p.Declare(b, trueskill.Contest{Skills: [][]graph.VarID{{sw}, {sb}}, Ranks: ranks,
			Bonus: [][]graph.VarID{{a}, nil}, Margins: []graph.VarID{uw, ub}})
		if err != nil {
			t.Fatal(err)
		}
		g, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		s, err := schedules.Derive(g, schedules.WithLoop(schedules.Tolerance(1e-12), schedules.MaxIterations(100)))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := schedules.Run(context.Background(), g, s); err != nil {
			t.Fatal(err)
		}
		// On a tree, joint-Gaussian EP reaches message passing's fixed point.
		ep, err := exact.EP(context.Background(), g, exact.Tolerance(1e-12))
		if err != nil || !ep.Converged {
			t.Fatalf("joint EP: %v (converged %v)", err, ep != nil && ep.Converged)
		}
		for _, v := range []graph.VarID{sw, sb, a, uw, ub} {
			got, want := ep.Marginals[v], g.Marginal(v)
			if math.Abs(got.Mean()-want.Mean()) > 1e-9*want.Sigma() || math.Abs(got.Sigma()/want.Sigma()-1) > 1e-9 {
				t.Errorf("ranks %v, %s: joint EP %v, message passing %v", ranks, g.VariableName(v), got, want)
			}
		}

		// Importance sampling: prior draws weighted by the outcome's
		// probability given them, with d ~ N(s_w − s_b + a, 2β²).
		rng := rand.New(rand.NewPCG(2007, uint64(ranks[0]*3+ranks[1])))
		const n = 200000
		priors := []trueskill.Rating{white, black, adv, mw, mb}
		xs := make([][]float64, len(priors))
		for i := range xs {
			xs[i] = make([]float64, n)
		}
		ws := make([]float64, n)
		sd := math.Sqrt2 * p.Beta
		phi := func(z float64) float64 { return 0.5 * math.Erfc(-z/math.Sqrt2) }
		for k := range n {
			var x [5]float64
			for i, r := range priors {
				x[i] = r.Mu + r.Sigma*rng.NormFloat64()
				xs[i][k] = x[i]
			}
			mu := x[0] - x[1] + x[2]
			switch {
			case ranks[0] == ranks[1]: // −m_w ≤ d ≤ m_b
				ws[k] = math.Max(0, phi((x[4]-mu)/sd)-phi((-x[3]-mu)/sd))
			case ranks[0] < ranks[1]: // white wins: d > m_b
				ws[k] = phi((mu - x[4]) / sd)
			default: // black wins: d < −m_w
				ws[k] = phi((-x[3] - mu) / sd)
			}
		}
		for i, v := range []graph.VarID{sw, sb, a, uw, ub} {
			mean, variance, seMean, seVar := weightedMoments(xs[i], ws)
			got := g.Marginal(v)
			if math.Abs(got.Mean()-mean) > 4*seMean || math.Abs(got.Variance()-variance) > 4*seVar {
				t.Errorf("ranks %v, %s: EP N(%.4f, %.4f), sampling N(%.4f ± %.4f, %.4f ± %.4f)", ranks, g.VariableName(v), got.Mean(), got.Variance(), mean, seMean, variance, seVar)
			}
		}
		// A win leaves the winner's margin at its prior: only the loser's
		// is read.
		if ranks[0] != ranks[1] {
			winner, r := uw, mw
			if ranks[1] < ranks[0] {
				winner, r = ub, mb
			}
			if got := g.Marginal(winner); math.Abs(got.Mean()-r.Mu) > 1e-12 || math.Abs(got.Sigma()-r.Sigma) > 1e-12 {
				t.Errorf("ranks %v: the winner's margin moved: %v, prior %v", ranks, got, r)
			}
		}
	}
}

// weightedMoments returns the weighted mean and variance of xs and their
// standard errors (delta method: the weighted sums' spread over the
// sample, divided by the total weight).
func weightedMoments(xs, ws []float64) (mean, variance, seMean, seVar float64) {
	var sw, sx float64
	for k, x := range xs {
		sw += ws[k]
		sx += ws[k] * x
	}
	mean = sx / sw
	for k, x := range xs {
		d := x - mean
		variance += ws[k] * d * d
	}
	variance /= sw
	var em, ev float64
	for k, x := range xs {
		d := x - mean
		em += ws[k] * ws[k] * d * d
		e := d*d - variance
		ev += ws[k] * ws[k] * e * e
	}
	return mean, variance, math.Sqrt(em) / sw, math.Sqrt(ev) / sw
}

// TestDeclareUnusedParams: Declare checks only the parameters it uses.
func TestDeclareUnusedParams(t *testing.T) {
	one, two := []graph.VarID{0}, []graph.VarID{1}
	for _, c := range []struct {
		name string
		p    trueskill.Params
		c    trueskill.Contest
		want string // a fragment of the ErrInput's message; "" for none
	}{
		{"no prior fields", trueskill.Params{Beta: 4, DrawProbability: 0.1}, trueskill.Contest{Skills: [][]graph.VarID{one, two}}, ""},
		{"per-player β, no Beta", trueskill.Params{DrawMargin: 1}, trueskill.Contest{Skills: [][]graph.VarID{one, two}, Betas: [][]float64{{1}, {2}}}, ""},
		{"margins, a bad draw probability", trueskill.Params{Beta: 4, DrawProbability: 2}, trueskill.Contest{Skills: [][]graph.VarID{one, two}, Margins: []graph.VarID{2, 3}}, ""},
		{"no β", trueskill.Params{DrawProbability: 0.1}, trueskill.Contest{Skills: [][]graph.VarID{one, two}}, "Params.Beta = 0: not in [1e-9, 1e9]"},
		{"a bad draw probability", trueskill.Params{Beta: 4, DrawProbability: 2}, trueskill.Contest{Skills: [][]graph.VarID{one, two}}, "not a probability"},
		{"margins' shape", trueskill.Params{Beta: 4}, trueskill.Contest{Skills: [][]graph.VarID{one, two}, Margins: []graph.VarID{2}}, "wrong shape"},
	} {
		_, err := c.p.Declare(graph.NewBuilder("params"), c.c)
		if (c.want == "") != (err == nil) || (c.want != "" && (!errors.Is(err, trueskill.ErrInput) || !strings.Contains(err.Error(), c.want))) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
}

// TestDeclareLearnsMargins plants per-player draw margins, plays a
// round robin of games between players of equal skill under the model
// (white draws with black when −m_w ≤ d ≤ m_b), and learns skills and
// margins together in one graph: the learned margins rank the players as
// the planted ones do.
func TestDeclareLearnsMargins(t *testing.T) {
	p := trueskill.Params{Beta: 1}
	planted := []float64{0.3, 0.7, 1.1, 1.6, 2.2, 3}
	rng := rand.New(rand.NewPCG(2007, 28))
	b := graph.NewBuilder("margins")
	n := len(planted)
	skill, margin := make([]graph.VarID, n), make([]graph.VarID, n)
	for i := range n {
		skill[i] = b.AddVariable(fmt.Sprint("s", i))
		b.AddFactor(factors.NewPrior(0, 1), "", skill[i])
		margin[i] = b.AddVariable(fmt.Sprint("m", i))
		b.AddFactor(factors.NewPrior(1.5, 1), "", margin[i])
	}
	games := 0
	for range 12 {
		for w := range n {
			for k := range n {
				if w == k {
					continue
				}
				d := math.Sqrt2 * p.Beta * rng.NormFloat64() // equal skills
				ranks := []int{1, 1}
				switch {
				case d > planted[k]:
					ranks = []int{1, 2}
				case d < -planted[w]:
					ranks = []int{2, 1}
				}
				_, err := p.Declare(b, trueskill.Contest{Name: fmt.Sprintf("g%d.", games), Skills: [][]graph.VarID{{skill[w]}, {skill[k]}},
					Ranks: ranks, Margins: []graph.VarID{margin[w], margin[k]}, Compact: true})
				if err != nil {
					t.Fatal(err)
				}
				games++
			}
		}
	}
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	s, err := schedules.Derive(g, schedules.WithLoop(schedules.Tolerance(1e-6), schedules.MaxIterations(200)))
	if err != nil {
		t.Fatal(err)
	}
	res, err := schedules.Run(context.Background(), g, s)
	if err != nil || !res.Converged {
		t.Fatalf("%+v, %v", res, err)
	}
	learned := make([]float64, n)
	for i := range n {
		learned[i] = g.Marginal(margin[i]).Mean()
	}
	t.Logf("%d games, %d passes; planted margins %v, learned %.2f", games, res.Iterations, planted, learned)
	for i := 1; i < n; i++ {
		if !(learned[i] > learned[i-1]) {
			t.Errorf("learned margins %.3f do not rank as the planted %v", learned, planted)
			break
		}
	}
}
