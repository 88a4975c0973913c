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
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/models/trueskill"
	"github.com/skillgraph/skillgraph/schedules"
)

// declared builds match m with Declare on skill variables of the test's
// own, the priors N(μ, σ² + τ²) that Rate uses, and bonus, if not nil, as
// one extra variable per team with the given prior; it runs a derived
// schedule and returns the posterior skills and bonus variables.
func declared(t *testing.T, p trueskill.Params, m trueskill.Match, bonus []*trueskill.Rating) ([][]trueskill.Rating, []trueskill.Rating) {
	t.Helper()
	return declaredWith(t, p, m, bonus, nil, false)
}

// declaredWith is declared with per-player β (nil: Params.Beta) and, if
// own is set, the contest's own schedule (Params.Schedule) after the
// priors instead of a derived one.
func declaredWith(t *testing.T, p trueskill.Params, m trueskill.Match, bonus []*trueskill.Rating, betas [][]float64, own bool, compact ...bool) ([][]trueskill.Rating, []trueskill.Rating) {
	t.Helper()
	b := graph.NewBuilder("declared")
	c := trueskill.Contest{Name: "g.", Ranks: m.Ranks, Weights: m.Weights, Betas: betas}
	c.Compact = len(compact) > 0 && compact[0]
	var priors []schedules.Schedule
	c.Skills, priors = skillVariables(b, p, m)
	bonusVar := make([]graph.VarID, len(bonus))
	if bonus != nil {
		c.Bonus = make([][]graph.VarID, len(bonus))
		for j, r := range bonus {
			if r == nil {
				continue
			}
			bonusVar[j] = b.AddVariable(fmt.Sprintf("bonus%d", j))
			priors = append(priors, schedules.Step(b.AddFactor(factors.NewPrior(r.Mu, r.Sigma*r.Sigma), "", bonusVar[j]), 0))
			c.Bonus[j] = []graph.VarID{bonusVar[j]}
		}
	}
	g := runContest(t, b, p, c, priors, own)
	var bonusOut []trueskill.Rating
	for j, r := range bonus {
		if r != nil {
			bonusOut = append(bonusOut, rating(g, bonusVar[j]))
		}
	}
	return ratings(g, c.Skills), bonusOut
}

// skillVariables adds a skill variable for every player of m with the
// prior N(μ, σ² + τ²) that Rate uses, and returns them with the priors'
// schedule steps.
func skillVariables(b *graph.Builder, p trueskill.Params, m trueskill.Match) ([][]graph.VarID, []schedules.Schedule) {
	skills := make([][]graph.VarID, len(m.Teams))
	var priors []schedules.Schedule
	for j, team := range m.Teams {
		for i, r := range team {
			v := b.AddVariable(fmt.Sprintf("s%d.%d", j, i))
			priors = append(priors, schedules.Step(b.AddFactor(factors.NewPrior(r.Mu, r.Sigma*r.Sigma+p.Tau*p.Tau), "", v), 0))
			skills[j] = append(skills[j], v)
		}
	}
	return skills, priors
}

// runContest declares c, builds the graph and runs the priors' steps and
// then the contest's own schedule if own is set, else a derived one.
func runContest(t *testing.T, b *graph.Builder, p trueskill.Params, c trueskill.Contest, priors []schedules.Schedule, own bool) *graph.Graph {
	t.Helper()
	nd, err := p.Declare(b, c)
	if err != nil {
		t.Fatal(err)
	}
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	var s schedules.Schedule = schedules.Sequence(schedules.Sequence(priors...), p.Schedule(nd))
	if !own {
		if s, err = schedules.Derive(g, schedules.WithLoop(schedules.Tolerance(1e-13), schedules.MaxIterations(500))); err != nil {
			t.Fatal(err)
		}
	}
	if err := schedules.Check(g, s); err != nil {
		t.Fatal(err)
	}
	if _, err := schedules.Run(context.Background(), g, s); err != nil {
		t.Fatal(err)
	}
	return g
}

func rating(g *graph.Graph, v graph.VarID) trueskill.Rating {
	m := g.Marginal(v)
	return trueskill.Rating{Mu: m.Mean(), Sigma: m.Sigma()}
}

// ratings returns the marginals of the skill variables.
func ratings(g *graph.Graph, skills [][]graph.VarID) [][]trueskill.Rating {
	out := make([][]trueskill.Rating, len(skills))
	for j, team := range skills {
		for _, v := range team {
			out[j] = append(out[j], rating(g, v))
		}
	}
	return out
}

// TestDeclareEqualsRate declares random matches (two to four teams of one
// to three players, draws, weights) on the test's own skill variables, runs
// the schedule Derive gives, and checks the posteriors against Rate (the
// closed form for two teams, the paper's schedule for more).
func TestDeclareEqualsRate(t *testing.T) {
	p := trueskill.DefaultParams()
	p.Tolerance = 1e-13
	p.MaxIterations = 500
	rng := rand.New(rand.NewPCG(14, 1))
	for trial := range 60 {
		n := 2 + rng.IntN(3)
		m := trueskill.Match{Teams: make([][]trueskill.Rating, n), Ranks: make([]int, n)}
		weighted := trial%3 == 0
		if weighted {
			m.Weights = make([][]float64, n)
		}
		for j := range n {
			for range 1 + rng.IntN(3) {
				m.Teams[j] = append(m.Teams[j], trueskill.Rating{Mu: 15 + 20*rng.Float64(), Sigma: 1 + 7*rng.Float64()})
				if weighted {
					m.Weights[j] = append(m.Weights[j], 0.2+rng.Float64())
				}
			}
			m.Ranks[j] = rng.IntN(n) // ties are draws
		}
		want, err := p.Rate(context.Background(), m)
		if err != nil {
			t.Fatal(err)
		}
		// The same β for every player, given per player, changes nothing.
		betas := make([][]float64, n)
		for j := range betas {
			for range m.Teams[j] {
				betas[j] = append(betas[j], p.Beta)
			}
		}
		for _, run := range []struct {
			name    string
			betas   [][]float64
			own     bool
			compact bool
		}{{"derived", nil, false, false}, {"own schedule", nil, true, false}, {"per-player β", betas, true, false},
			{"compact, derived", nil, false, true}, {"compact, own schedule", betas, true, true}} {
			got, _ := declaredWith(t, p, m, nil, run.betas, run.own, run.compact)
			for j := range want.Ratings {
				for i, w := range want.Ratings[j] {
					if g := got[j][i]; math.Abs(g.Mu-w.Mu) > 1e-9 || math.Abs(g.Sigma-w.Sigma) > 1e-9 {
						t.Errorf("trial %d (ranks %v), %s: team %d player %d: declared %v, Rate %v", trial, m.Ranks, run.name, j, i, g, w)
					}
				}
			}
		}
	}
}

// TestDeclareBonus checks the Bonus wiring: a bonus variable with prior
// N(μ_h, σ_h²) added to a team's performance is, in the model, a teammate
// who adds no performance noise of its own. With β = 0 every performance
// equals its skill, so the bonus is exactly an extra player of rating
// (μ_h, σ_h) and τ = 0, and Rate gives the answer.
func TestDeclareBonus(t *testing.T) {
	p := trueskill.DefaultParams()
	p.Beta = 1e-9
	p.Tau = 0
	p.DrawMargin = 0.5
	home := trueskill.Rating{Mu: 2, Sigma: 1.5}
	for _, ranks := range [][]int{{1, 2}, {2, 1}, {1, 1}} {
		m := trueskill.Match{Teams: [][]trueskill.Rating{{{Mu: 25, Sigma: 8}}, {{Mu: 27, Sigma: 4}, {Mu: 20, Sigma: 6}}}, Ranks: ranks}
		got, gotBonus := declared(t, p, m, []*trueskill.Rating{&home, nil})
		own, ownBonus := declaredWith(t, p, m, []*trueskill.Rating{&home, nil}, nil, true)
		if math.Abs(own[0][0].Mu-got[0][0].Mu) > 1e-9 || math.Abs(ownBonus[0].Mu-gotBonus[0].Mu) > 1e-9 || math.Abs(ownBonus[0].Sigma-gotBonus[0].Sigma) > 1e-9 {
			t.Errorf("ranks %v: the contest's own schedule gives %v and bonus %v, derived %v and %v", ranks, own[0][0], ownBonus[0], got[0][0], gotBonus[0])
		}
		with := m
		with.Teams = [][]trueskill.Rating{{m.Teams[0][0], home}, m.Teams[1]}
		want, err := p.Rate(context.Background(), with)
		if err != nil {
			t.Fatal(err)
		}
		close := func(what string, g, w trueskill.Rating) {
			if math.Abs(g.Mu-w.Mu) > 1e-7 || math.Abs(g.Sigma-w.Sigma) > 1e-7 {
				t.Errorf("ranks %v: %s: declared %v, as a player %v", ranks, what, g, w)
			}
		}
		close("home player", got[0][0], want.Ratings[0][0])
		close("bonus", gotBonus[0], want.Ratings[0][1])
		for i := range got[1] {
			close(fmt.Sprint("away player ", i), got[1][i], want.Ratings[1][i])
		}
	}
}

func TestDeclareErrors(t *testing.T) {
	p := trueskill.DefaultParams()
	one := []graph.VarID{0}
	for _, c := range []struct {
		name string
		c    trueskill.Contest
		want string // a fragment of the ErrInput's message
	}{
		{"one team", trueskill.Contest{Skills: [][]graph.VarID{one}}, "at least two teams"},
		{"empty team", trueskill.Contest{Skills: [][]graph.VarID{one, {}}}, "no players"},
		{"ranks", trueskill.Contest{Skills: [][]graph.VarID{one, one}, Ranks: []int{1}}, "wrong shape"},
		{"weights", trueskill.Contest{Skills: [][]graph.VarID{one, one}, Weights: [][]float64{{1}, {1, 2}}}, "wrong shape"},
		{"negative weight", trueskill.Contest{Skills: [][]graph.VarID{one, one}, Weights: [][]float64{{1}, {-1}}}, "neither 0 nor in [1e-9, 1e9]"},
		{"bonus", trueskill.Contest{Skills: [][]graph.VarID{one, one}, Bonus: [][]graph.VarID{one}}, "wrong shape"},
		{"betas", trueskill.Contest{Skills: [][]graph.VarID{one, one}, Betas: [][]float64{{1}, {}}}, "wrong shape"},
		{"negative β", trueskill.Contest{Skills: [][]graph.VarID{one, one}, Betas: [][]float64{{1}, {-1}}}, "neither 0 nor in [1e-9, 1e9]"},
	} {
		if _, err := p.Declare(graph.NewBuilder("bad"), c.c); !errors.Is(err, trueskill.ErrInput) || !strings.Contains(fmt.Sprint(err), c.want) {
			t.Errorf("%s: %v, want ErrInput saying %q", c.name, err, c.want)
		}
	}
	bad := p
	bad.Beta = -1
	if _, err := bad.Declare(graph.NewBuilder("bad"), trueskill.Contest{Skills: [][]graph.VarID{one, one}}); err == nil {
		t.Error("negative β: no error")
	}
	// Variables the builder does not have are reported by Build.
	b := graph.NewBuilder("missing")
	if _, err := p.Declare(b, trueskill.Contest{Skills: [][]graph.VarID{{7}, {8}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Build(); !errors.Is(err, messages.ErrInput) {
		t.Errorf("missing skill variables: %v, want %v", err, messages.ErrInput)
	}
}

// TestDeclareHistory is a miniature TrueSkill Through Time: three players
// over four time steps, skills linked by drift N(s_t+1; s_t, γ²), six games
// declared on the skills of their time step, and the schedule derived from
// the graph in time order. The posterior is checked against importance
// sampling from the prior (the likelihood of a win being
// Φ((s_w − s_l − ε)/(√2·β)) once performances are integrated out): means
// within 0.1σ, and standard deviations no more than 35 % small (loopy EP
// counts some evidence twice around the loops two games between the same
// pair make; the test logs the measured sizes).
func TestDeclareHistory(t *testing.T) {
	p := trueskill.DefaultParams()
	const players, steps, drift = 3, 4, 1.0
	games := []struct{ step, winner, loser int }{{0, 0, 1}, {1, 1, 2}, {1, 0, 2}, {2, 2, 0}, {3, 0, 1}, {3, 1, 2}}

	// The model: what a user writes.
	b := graph.NewBuilder("history")
	skill := make([][]graph.VarID, steps) // by time step and player
	var rank []int                        // by VarID: the time step
	for s := range steps {
		for i := range players {
			skill[s] = append(skill[s], b.AddVariable(fmt.Sprintf("s%d@%d", i, s)))
			if s == 0 {
				b.AddFactor(factors.NewPrior(p.Mu, p.Sigma*p.Sigma), "", skill[s][i])
			} else {
				b.AddFactor(factors.NewLikelihood(drift*drift), "", skill[s][i], skill[s-1][i])
			}
		}
		for _, gm := range games {
			if gm.step == s {
				c := trueskill.Contest{Name: fmt.Sprintf("g%d.%d.", s, gm.winner), Skills: [][]graph.VarID{{skill[s][gm.winner]}, {skill[s][gm.loser]}}}
				if _, err := p.Declare(b, c); err != nil {
					t.Fatal(err)
				}
			}
		}
		for len(rank) < b.NumVariables() {
			rank = append(rank, s)
		}
	}
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	sched, err := schedules.Derive(g, schedules.ByRank(func(v graph.VarID) int { return rank[v] }),
		schedules.WithLoop(schedules.Tolerance(1e-8), schedules.MaxIterations(200)))
	if err != nil {
		t.Fatal(err)
	}
	res, err := schedules.Run(context.Background(), g, sched)
	if err != nil || !res.Converged {
		t.Fatalf("%+v, %v", res, err)
	}
	// End of the model.

	// Importance sampling: skills from the prior and drift, weighted by
	// the games' likelihoods.
	rng := rand.New(rand.NewPCG(15, 3))
	eps := p.Margin(1, 1)
	var sw float64
	var m1, m2 [steps][players]float64
	var x [steps][players]float64
	for range 120000 {
		for i := range players {
			x[0][i] = p.Mu + p.Sigma*rng.NormFloat64()
			for s := 1; s < steps; s++ {
				x[s][i] = x[s-1][i] + drift*rng.NormFloat64()
			}
		}
		w := 1.0
		for _, gm := range games {
			w *= normCDF((x[gm.step][gm.winner] - x[gm.step][gm.loser] - eps) / (math.Sqrt2 * p.Beta))
		}
		sw += w
		for s := range steps {
			for i := range players {
				m1[s][i] += w * x[s][i]
				m2[s][i] += w * x[s][i] * x[s][i]
			}
		}
	}
	worst := 0.0
	for s := range steps {
		for i := range players {
			mean := m1[s][i] / sw
			sd := math.Sqrt(m2[s][i]/sw - mean*mean)
			got := g.Marginal(skill[s][i])
			if math.Abs(got.Mean()-mean) > 0.1*sd || got.Sigma() < 0.65*sd || got.Sigma() > 1.02*sd {
				t.Errorf("player %d at %d: EP %.3f ± %.3f, sampling %.3f ± %.3f", i, s, got.Mean(), got.Sigma(), mean, sd)
			}
			worst = max(worst, 1-got.Sigma()/sd)
		}
	}
	t.Logf("%d passes; standard deviations up to %.0f%% smaller than sampling's", res.Iterations, 100*worst)
}

func normCDF(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

// TestDeclareCompact: a compact contest leaves out one-player teams'
// performance variables and factors (a 1v1 has two skills, two
// performances and a difference), keeps those of a larger or weighted
// team, and its own schedule covers every edge.
func TestDeclareCompact(t *testing.T) {
	p := trueskill.DefaultParams()
	for _, c := range []struct {
		teams   []int
		weights [][]float64
		vars    int
		missing int // teams left out
	}{
		{[]int{1, 1}, nil, 5, 2},
		{[]int{1, 2, 1}, nil, 4 + 4 + 1 + 2, 2},
		{[]int{1, 1}, [][]float64{{0.5}, {1}}, 6, 1},
	} {
		b := graph.NewBuilder("compact")
		con := trueskill.Contest{Skills: make([][]graph.VarID, len(c.teams)), Weights: c.weights, Compact: true}
		var priors []schedules.Schedule
		for j, n := range c.teams {
			for i := range n {
				v := b.AddVariable(fmt.Sprintf("s%d.%d", j, i))
				priors = append(priors, schedules.Step(b.AddFactor(factors.NewPrior(25, 64), "", v), 0))
				con.Skills[j] = append(con.Skills[j], v)
			}
		}
		nd, err := p.Declare(b, con)
		if err != nil {
			t.Fatal(err)
		}
		g, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		missing := 0
		for j, f := range nd.TeamFactors {
			if f < 0 {
				missing++
				if nd.Teams[j] != nd.Performances[j][0] {
					t.Errorf("teams %v: team %d left out, but its variable is not its performance", c.teams, j)
				}
			}
		}
		if g.NumVariables() != c.vars || missing != c.missing {
			t.Errorf("teams %v weights %v: %d variables and %d teams left out, want %d and %d", c.teams, c.weights, g.NumVariables(), missing, c.vars, c.missing)
		}
		if err := schedules.Check(g, schedules.Sequence(schedules.Sequence(priors...), p.Schedule(nd))); err != nil {
			t.Errorf("teams %v: %v", c.teams, err)
		}
	}
}

// TestDeclareRefusesImpossibleDraws: a draw observed where the draw margin
// is 0 has probability zero, and Declare refuses it as Rate does, with the
// same *InputError on Ranks wrapping ErrImpossible; a positive draw
// probability, a fixed margin, draw-margin variables or no draw at all
// declare.
func TestDeclareRefusesImpossibleDraws(t *testing.T) {
	zero := trueskill.DefaultParams()
	zero.DrawProbability = 0
	declare := func(p trueskill.Params, ranks []int, margins bool) error {
		b := graph.NewBuilder("draw")
		skills := [][]graph.VarID{{b.AddVariable("a")}, {b.AddVariable("b")}, {b.AddVariable("c")}}
		c := trueskill.Contest{Skills: skills, Ranks: ranks}
		if margins {
			c.Margins = []graph.VarID{b.AddVariable("ma"), b.AddVariable("mb"), b.AddVariable("mc")}
		}
		_, err := p.Declare(b, c)
		return err
	}
	r := zero.NewRating()
	_, rateErr := zero.Rate(context.Background(), trueskill.Match{Teams: [][]trueskill.Rating{{r}, {r}, {r}}, Ranks: []int{2, 1, 2}})
	for _, err := range []error{rateErr, declare(zero, []int{2, 1, 2}, false)} {
		var ie *trueskill.InputError
		if !errors.Is(err, trueskill.ErrImpossible) || errors.Is(err, trueskill.ErrInput) || !errors.As(err, &ie) || ie.Field != "Ranks" || len(ie.Index) != 1 || ie.Index[0] != 2 || ie.Value != 2 {
			t.Errorf("teams 0 and 2 drawn at draw margin 0: %v, want an InputError on Ranks[2] = 2 wrapping ErrImpossible", err)
		}
	}
	margin := zero
	margin.DrawMargin = 0.5
	for _, c := range []struct {
		name    string
		p       trueskill.Params
		ranks   []int
		margins bool
	}{
		{"draw probability", trueskill.DefaultParams(), []int{2, 1, 2}, false},
		{"fixed margin", margin, []int{2, 1, 2}, false},
		{"margin variables", zero, []int{2, 1, 2}, true},
		{"no draw", zero, []int{2, 1, 3}, false},
	} {
		if err := declare(c.p, c.ranks, c.margins); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// TestZeroMarginDrawsAreRefused: a draw whose margin is 0 for any reason,
// a draw probability so small that the margin underflows to 0 or the
// drawn players' own β of 0, is refused with ErrImpossible by every entry
// point, and a drawn pair with a positive margin beside it is not.
func TestZeroMarginDrawsAreRefused(t *testing.T) {
	tiny := trueskill.DefaultParams()
	tiny.DrawProbability = 1e-320
	tiny.Beta = 1e-9
	if m := tiny.Margin(1, 1); m != 0 {
		t.Fatalf("the test needs a margin that underflows: Margin(1, 1) = %v", m)
	}
	r := tiny.NewRating()
	if _, _, err := tiny.Rate1v1(r, r, true); !errors.Is(err, trueskill.ErrImpossible) {
		t.Errorf("Rate1v1, underflowed margin: %v, want ErrImpossible", err)
	}
	drawn := trueskill.Match{Teams: [][]trueskill.Rating{{r}, {r}}, Ranks: []int{0, 0}}
	for name, rate := range map[string]func(context.Context, trueskill.Match) (trueskill.Result, error){
		"Rate": tiny.Rate, "RateGraph": tiny.RateGraph,
	} {
		if _, err := rate(context.Background(), drawn); !errors.Is(err, trueskill.ErrImpossible) {
			t.Errorf("%s, underflowed margin: %v, want ErrImpossible", name, err)
		}
	}
	declare := func(p trueskill.Params, betas [][]float64) error {
		b := graph.NewBuilder("draw")
		skills := [][]graph.VarID{{b.AddVariable("a")}, {b.AddVariable("b")}, {b.AddVariable("c")}}
		_, err := p.Declare(b, trueskill.Contest{Skills: skills, Ranks: []int{2, 1, 2}, Betas: betas})
		return err
	}
	if err := declare(tiny, nil); !errors.Is(err, trueskill.ErrImpossible) {
		t.Errorf("Declare, underflowed margin: %v, want ErrImpossible", err)
	}
	p := trueskill.DefaultParams()
	var ie *trueskill.InputError
	if err := declare(p, [][]float64{{0}, {1}, {0}}); !errors.Is(err, trueskill.ErrImpossible) || !errors.As(err, &ie) || ie.Field != "Ranks" || ie.Index[0] != 2 {
		t.Errorf("Declare, drawn players' β 0: %v, want an InputError on Ranks[2] wrapping ErrImpossible", err)
	}
	if err := declare(p, [][]float64{{0}, {0}, {1}}); err != nil {
		t.Errorf("Declare, drawn pair with a positive margin: %v", err)
	}
}

// TestDeclareRefusesAbsentTeams: a team whose weights are all 0 and that
// has no bonus has performance exactly 0, and Declare refuses it where
// Rate does, between two other teams (the ranking 0 > t + ε > ε can have
// probability zero, which the graph would meet as messages that are not
// finite) and against a team as absent as itself, with an InputError on
// Weights. A bonus makes such a team's performance the bonus variable:
// then a win of a one-player team over it is the closed form with
// d = p − b ~ N(μ − μ_b, σ² + β² + σ_b²) (paper, Table 1):
// μ' = μ + σ²/c·V(t), σ'² = σ²(1 − σ²/c²·W(t)), t = (μ − μ_b − ε)/c.
func TestDeclareRefusesAbsentTeams(t *testing.T) {
	p := trueskill.DefaultParams()
	p.Tau = 0
	// contest makes one-player teams with weights, and a bonus for the
	// last team if bonus is set.
	contest := func(weights [][]float64, bonus bool) (*graph.Builder, trueskill.Contest) {
		b := graph.NewBuilder("absent")
		c := trueskill.Contest{Name: "g.", Weights: weights}
		for j := range weights {
			c.Skills = append(c.Skills, []graph.VarID{b.AddVariable(fmt.Sprint("s", j))})
		}
		if bonus {
			c.Bonus = make([][]graph.VarID, len(weights))
			c.Bonus[len(weights)-1] = []graph.VarID{b.AddVariable("bonus")}
		}
		return b, c
	}
	declare := func(weights [][]float64) error {
		b, c := contest(weights, false)
		_, err := p.Declare(b, c)
		return err
	}
	for _, c := range []struct {
		weights [][]float64
		team    int
	}{
		{[][]float64{{0}, {1}, {0}}, 0},
		{[][]float64{{1}, {0}, {1}}, 1},
		{[][]float64{{0}, {0}}, 0},
	} {
		err := declare(c.weights)
		var ie *trueskill.InputError
		if !errors.Is(err, trueskill.ErrInput) || !errors.As(err, &ie) || ie.Field != "Weights" || len(ie.Index) != 1 || ie.Index[0] != c.team {
			t.Errorf("weights %v: %v, want an InputError on Weights[%d]", c.weights, err, c.team)
		}
	}
	// One team that took part against one that did not is a match.
	if err := declare([][]float64{{1}, {0}}); err != nil {
		t.Errorf("weights [[1] [0]]: %v", err)
	}
	// With a bonus the absent team's performance is the bonus.
	b, c := contest([][]float64{{1}, {0}}, true)
	skill, bonus := trueskill.Rating{Mu: 27, Sigma: 6}, trueskill.Rating{Mu: 22, Sigma: 3}
	var priors []schedules.Schedule
	for _, x := range []struct {
		v graph.VarID
		r trueskill.Rating
	}{{c.Skills[0][0], skill}, {c.Skills[1][0], p.NewRating()}, {c.Bonus[1][0], bonus}} {
		priors = append(priors, schedules.Step(b.AddFactor(factors.NewPrior(x.r.Mu, x.r.Sigma*x.r.Sigma), "", x.v), 0))
	}
	g := runContest(t, b, p, c, priors, false)
	c2 := skill.Sigma*skill.Sigma + p.Beta*p.Beta + bonus.Sigma*bonus.Sigma
	cc := math.Sqrt(c2)
	x := (skill.Mu - bonus.Mu - p.Margin(1, 1)) / cc
	v := math.Exp(-x*x/2) / math.Sqrt(2*math.Pi) / normCDF(x)
	w := v * (v + x)
	s2 := skill.Sigma * skill.Sigma
	want := trueskill.Rating{Mu: skill.Mu + s2/cc*v, Sigma: math.Sqrt(s2 * (1 - s2/c2*w))}
	if got := rating(g, c.Skills[0][0]); math.Abs(got.Mu-want.Mu) > 1e-9 || math.Abs(got.Sigma-want.Sigma) > 1e-9 {
		t.Errorf("win over an absent team with a bonus: %v, want %v", got, want)
	}
	if got, prior := rating(g, c.Skills[1][0]), p.NewRating(); math.Abs(got.Mu-prior.Mu) > 1e-12 || math.Abs(got.Sigma-prior.Sigma) > 1e-12 {
		t.Errorf("the absent player moved: %v, prior %v", got, prior)
	}
}
