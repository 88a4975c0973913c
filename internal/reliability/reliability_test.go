package reliability_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/dot"
	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/models/elo"
	"github.com/skillgraph/skillgraph/models/evaluation"
	"github.com/skillgraph/skillgraph/models/scorebased"
	"github.com/skillgraph/skillgraph/models/trueskill"
	"github.com/skillgraph/skillgraph/record"
	"github.com/skillgraph/skillgraph/schedules"
)

var nan, inf = math.NaN(), math.Inf(1)

func r(mu, sigma float64) trueskill.Rating { return trueskill.Rating{Mu: mu, Sigma: sigma} }

// TestBadInput lists every bad input and the error it must return. For
// TrueSkill the error is an *trueskill.InputError whose Field (and Index)
// name the offender; want lists a sentinel and a text the message must
// contain.
func TestBadInput(t *testing.T) {
	ctx := context.Background()
	def := trueskill.DefaultParams()
	with := func(f func(*trueskill.Params)) trueskill.Params { p := def; f(&p); return p }
	good := []trueskill.Rating{r(25, 8)}
	two := [][]trueskill.Rating{good, good}
	three := [][]trueskill.Rating{good, good, good}
	rate := func(p trueskill.Params, m trueskill.Match) error { _, err := p.Rate(ctx, m); return err }

	// An in-range graph for graph and schedule cases.
	b := graph.NewBuilder("small")
	x := b.AddVariable("x")
	b.AddFactor(factors.NewPrior(0, 1), "", x)
	small, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	build := func(f func(b *graph.Builder)) error {
		b := graph.NewBuilder("bad")
		f(b)
		_, err := b.Build()
		return err
	}

	cases := []struct {
		name string
		err  error
		want error
		text string
	}{
		{"no teams", rate(def, trueskill.Match{}), trueskill.ErrInput, "Teams = 0: a match needs at least two teams"},
		{"one team", rate(def, trueskill.Match{Teams: [][]trueskill.Rating{good}}), trueskill.ErrInput, "Teams = 1: a match needs at least two teams"},
		{"empty team", rate(def, trueskill.Match{Teams: [][]trueskill.Rating{good, {}}}), trueskill.ErrInput, "Teams[1] = 0: team has no players"},
		{"ranks of the wrong length", rate(def, trueskill.Match{Teams: two, Ranks: []int{0, 1, 2}}), trueskill.ErrInput, "Ranks = 3: wrong shape"},
		{"NaN μ", rate(def, trueskill.Match{Teams: [][]trueskill.Rating{good, {r(nan, 1)}}}), trueskill.ErrInput, "Teams.Mu[1][0]"},
		{"infinite μ", rate(def, trueskill.Match{Teams: [][]trueskill.Rating{good, {r(-inf, 1)}}}), trueskill.ErrInput, "Teams.Mu[1][0]"},
		{"negative σ", rate(def, trueskill.Match{Teams: [][]trueskill.Rating{{r(1, -1)}, good}}), trueskill.ErrInput, "Teams.Sigma[0][0] = -1: not in [1e-9, 1e9]"},
		{"infinite σ", rate(def, trueskill.Match{Teams: [][]trueskill.Rating{good, {r(1, inf)}}}), trueskill.ErrInput, "Teams.Sigma[1][0]"},
		{"negative β", rate(with(func(p *trueskill.Params) { p.Beta = -1 }), trueskill.Match{Teams: two}), trueskill.ErrInput, "Params.Beta"},
		{"NaN β", rate(with(func(p *trueskill.Params) { p.Beta = nan }), trueskill.Match{Teams: two}), trueskill.ErrInput, "Params.Beta"},
		{"negative τ", rate(with(func(p *trueskill.Params) { p.Tau = -0.1 }), trueskill.Match{Teams: two}), trueskill.ErrInput, "Params.Tau"},
		{"infinite τ", rate(with(func(p *trueskill.Params) { p.Tau = inf }), trueskill.Match{Teams: two}), trueskill.ErrInput, "Params.Tau"},
		{"NaN μ₀", rate(with(func(p *trueskill.Params) { p.Mu = nan }), trueskill.Match{Teams: two}), trueskill.ErrInput, "Params.Mu = NaN: not a finite number"},
		{"draw probability 1", rate(with(func(p *trueskill.Params) { p.DrawProbability = 1 }), trueskill.Match{Teams: two}), trueskill.ErrInput, "Params.DrawProbability"},
		{"negative draw probability", rate(with(func(p *trueskill.Params) { p.DrawProbability = -0.1 }), trueskill.Match{Teams: two}), trueskill.ErrInput, "Params.DrawProbability"},
		{"negative draw margin", rate(with(func(p *trueskill.Params) { p.DrawMargin = -1 }), trueskill.Match{Teams: two}), trueskill.ErrInput, "Params.DrawMargin = -1: not in [0, 1e9]"},
		{"negative weight", rate(def, trueskill.Match{Teams: two, Weights: [][]float64{{1}, {-1}}}), trueskill.ErrInput, "Weights[1][0] = -1: neither 0 nor in [1e-9, 1e9]"},
		{"NaN weight", rate(def, trueskill.Match{Teams: two, Weights: [][]float64{{nan}, {1}}}), trueskill.ErrInput, "Weights[0][0] = NaN: neither 0 nor in"},
		{"weights of the wrong shape", rate(def, trueskill.Match{Teams: two, Weights: [][]float64{{1, 1}, {1}}}), trueskill.ErrInput, "Weights[0] = 2: wrong shape"},
		{"weights for too few teams", rate(def, trueskill.Match{Teams: two, Weights: [][]float64{{1}}}), trueskill.ErrInput, "Weights = 1: wrong shape"},
		{"zero-weight team among three", rate(def, trueskill.Match{Teams: [][]trueskill.Rating{good, good, good}, Weights: [][]float64{{1}, {0}, {1}}}), trueskill.ErrInput, "Weights[1] = 0: all weights of a team are 0"},
		{"draw without a draw margin", rate(with(func(p *trueskill.Params) { p.DrawProbability = 0 }), trueskill.Match{Teams: two, Ranks: []int{0, 0}}), trueskill.ErrImpossible, "Ranks[1] = 0: a draw is observed but the draw margin is 0"},
		{"Rate1v1 with NaN σ", func() error { _, _, err := def.Rate1v1(good[0], r(1, nan), false); return err }(), trueskill.ErrInput, "Teams.Sigma[1][0]"},
		{"quality of one team", func() error { _, err := def.Quality([][]trueskill.Rating{good}, nil); return err }(), trueskill.ErrInput, "Teams = 1: a match needs at least two teams"},
		{"win probability with an empty team", func() error { _, err := def.WinProbability(good, nil); return err }(), trueskill.ErrInput, "Teams[1] = 0: team has no players"},

		// Outside the model's domain (trueskill's domain.go), which keeps
		// every variance of the factor graph in float64's range: named up
		// front as ErrInput, not as a factor of the graph.
		{"three teams: β = 1e-200", rate(with(func(p *trueskill.Params) { p.Beta = 1e-200 }), trueskill.Match{Teams: three}), trueskill.ErrInput, "Params.Beta"},
		{"three teams: β = 1e300", rate(with(func(p *trueskill.Params) { p.Beta = 1e300 }), trueskill.Match{Teams: three}), trueskill.ErrInput, "Params.Beta"},
		{"three teams: τ = 1e200", rate(with(func(p *trueskill.Params) { p.Tau = 1e200 }), trueskill.Match{Teams: three}), trueskill.ErrInput, "Params.Tau"},
		{"three teams: σ = 1e155", rate(def, trueskill.Match{Teams: [][]trueskill.Rating{good, {r(25, 1e155)}, good}}), trueskill.ErrInput, "Teams.Sigma[1][0]"},
		{"three teams: σ = 1e-170 (τ = 0)", rate(with(func(p *trueskill.Params) { p.Tau = 0 }), trueskill.Match{Teams: [][]trueskill.Rating{good, good, {r(25, 1e-170)}}}), trueskill.ErrInput, "Teams.Sigma[2][0]"},
		{"three teams: weight 1e300", rate(def, trueskill.Match{Teams: three, Weights: [][]float64{{1}, {1e300}, {1}}}), trueskill.ErrInput, "Weights[1][0]"},
		{"three teams: means ±1e308", rate(def, trueskill.Match{Teams: [][]trueskill.Rating{{r(1e308, 1)}, good, {r(-1e308, 1)}}}), trueskill.ErrInput, "Teams.Mu[0][0]"},
		{"two teams through the graph: σ = 1e155", func() error {
			_, err := def.RateGraph(ctx, trueskill.Match{Teams: [][]trueskill.Rating{{r(25, 1e155)}, good}})
			return err
		}(), trueskill.ErrInput, "Teams.Sigma[0][0]"},
		{"quality of three teams: β = 1e-200", func() error {
			_, err := with(func(p *trueskill.Params) { p.Beta = 1e-200 }).Quality(three, nil)
			return err
		}(), trueskill.ErrInput, "Params.Beta"},
		{"zero Rater: one team", func() error {
			var z trueskill.Rater
			_, err := z.Rate(ctx, trueskill.Match{Teams: [][]trueskill.Rating{good}})
			return err
		}(), trueskill.ErrInput, "Teams = 1: a match needs at least two teams"},
		{"zero Rater: NaN σ through the graph", func() error {
			var z trueskill.Rater
			_, err := z.RateGraph(ctx, trueskill.Match{Teams: [][]trueskill.Rating{good, {r(1, nan)}}})
			return err
		}(), trueskill.ErrInput, "Teams.Sigma[1][0]"},

		{"Poisson: negative score", func() error {
			p := scorebased.DefaultParams()
			_, _, _, err := scorebased.NewPoissonOD(p).Rate(context.Background(), p.NewTeam(), p.NewTeam(), -1, 0)
			return err
		}(), scorebased.ErrInput, "count"},
		{"Gaussian-OD: NaN score", func() error {
			p := scorebased.DefaultParams()
			_, _, err := scorebased.NewGaussianOD(p).Rate(context.Background(), p.NewTeam(), p.NewTeam(), nan, 0)
			return err
		}(), scorebased.ErrInput, "scores"},
		{"Gaussian-SD: zero γ", func() error {
			p := scorebased.DefaultParams()
			p.Gamma = 0
			_, _, err := scorebased.NewGaussianSD(p).Rate(context.Background(), p.NewRating(), p.NewRating(), 1, 0)
			return err
		}(), scorebased.ErrInput, "Gamma"},
		{"score model: infinite σ", func() error {
			p := scorebased.DefaultParams()
			bad := p.NewTeam()
			bad.Defence.Sigma = inf
			_, err := scorebased.NewGaussianOD(p).Predict(bad, p.NewTeam())
			return err
		}(), scorebased.ErrInput, "team A.Defence"},
		{"Skellam: zero rate", func() error { _, _, _, err := scorebased.Skellam{Lambda1: 0, Lambda2: 1}.Outcome(); return err }(), scorebased.ErrInput, "Skellam"},
		{"Skellam: log probability at a negative rate", func() error { _, err := scorebased.Skellam{Lambda1: 2, Lambda2: -1}.LogProb(1); return err }(), scorebased.ErrInput, "Skellam"},
		{"score model: σ² overflows", func() error {
			p := scorebased.DefaultParams()
			bad := p.NewTeam()
			bad.Offence.Sigma = 1e200
			_, _, err := scorebased.NewGaussianOD(p).Rate(context.Background(), p.NewTeam(), bad, 1, 0)
			return err
		}(), scorebased.ErrInput, "team B.Offence.Sigma"},
		{"score model: β² underflows", func() error {
			p := scorebased.DefaultParams()
			p.Beta = 1e-200
			_, err := scorebased.NewGaussianSD(p).Predict(p.NewRating(), p.NewRating())
			return err
		}(), scorebased.ErrInput, "Params.Beta"},
		{"score model: expected difference overflows", func() error {
			p := scorebased.DefaultParams()
			_, err := scorebased.NewGaussianSD(p).Predict(scorebased.Rating{Mu: 1e308, Sigma: 1}, scorebased.Rating{Mu: -1e308, Sigma: 1})
			return err
		}(), scorebased.ErrNumerical, "overflows"},
		{"γ from score differences beyond float64", func() error {
			_, err := scorebased.EstimateGammaSD([]scorebased.MatchScore{{ScoreA: 1e308, ScoreB: -1e308}, {ScoreA: -1e308, ScoreB: 1e308}})
			return err
		}(), scorebased.ErrNumerical, "standard deviation"},
		{"γ from one score difference", func() error {
			_, err := scorebased.EstimateGammaSD([]scorebased.MatchScore{{ScoreA: 1, ScoreB: 0}})
			return err
		}(), scorebased.ErrInput, "two values"},
		{"Elo: α = 1", func() error {
			_, err := elo.Params{Initial: 25, Beta: 4, Alpha: 1}.Rate(context.Background(), [][]float64{{1}, {2}}, []int{0, 1})
			return err
		}(), elo.ErrInput, "Alpha"},
		{"Elo: one team", func() error {
			_, err := elo.DefaultParams().Rate(context.Background(), [][]float64{{1}}, []int{0})
			return err
		}(), elo.ErrInput, "1 teams"},
		{"Elo: K-factor overflows", func() error {
			_, err := elo.Params{Initial: 25, Beta: 1.7e308, Alpha: 0.9}.Rate(context.Background(), [][]float64{{1}, {2}}, []int{0, 1})
			return err
		}(), elo.ErrInput, "K-factor"},
		{"Elo: new rating overflows", func() error {
			_, err := elo.Params{Initial: 25, Beta: 1e307, Alpha: 0.5}.Rate(context.Background(), [][]float64{{1.79e308}, {1.79e308}}, []int{0, 1})
			return err
		}(), elo.ErrNumerical, "[0][0]"},

		{"the same player in two teams (players with identities)", func() error {
			_, err := evaluation.RankingExperiment(ctx, []record.Match{{ID: "m1", Teams: []record.Team{{Name: "a", Players: []string{"ann"}}, {Name: "b", Players: []string{"ann"}, Rank: 1}}}},
				def, elo.DefaultParams(), evaluation.RankingConfig{})
			return err
		}(), evaluation.ErrInput, `"ann" at team 0 player 0 and team 1 player 0`},

		{"graph: dangling edge", build(func(b *graph.Builder) {
			x := b.AddVariable("x")
			b.AddFactor(factors.NewLikelihood(1), "lik", x, graph.VarID(5))
		}), messages.ErrInput, "lik edge 1"},
		{"graph: variable without a factor", build(func(b *graph.Builder) {
			x := b.AddVariable("x")
			b.AddVariable("orphan")
			b.AddFactor(factors.NewPrior(0, 1), "", x)
		}), messages.ErrInput, "orphan"},
		{"graph: negative variance", build(func(b *graph.Builder) {
			b.AddFactor(factors.NewPrior(0, -2), "", b.AddVariable("x"))
		}), messages.ErrInput, "variance"},
		{"graph: negative Poisson count", build(func(b *graph.Builder) {
			b.AddFactor(factors.NewPoisson(-3), "", b.AddVariable("x"))
		}), messages.ErrInput, "count -3"},
		{"schedule naming a factor the graph lacks", func() error {
			_, err := schedules.Run(ctx, small, schedules.Step(4, 0))
			return err
		}(), messages.ErrInput, "factor 4"},
		{"schedule naming an edge the factor lacks", func() error {
			_, err := schedules.Run(ctx, small, schedules.Step(0, 2))
			return err
		}(), messages.ErrInput, "edge 2"},
		{"loop that could never stop", func() error {
			_, err := schedules.Run(ctx, small, schedules.Loop(schedules.Step(0, 0), schedules.MaxIterations(0)))
			return err
		}(), messages.ErrInput, "max iterations 0"},
		{"drawing with a schedule of another graph", func() error {
			_, err := dot.Marshal(small, dot.Options{Schedule: schedules.Step(7, 0)})
			return err
		}(), messages.ErrInput, "factor 7"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !errors.Is(c.err, c.want) {
				t.Fatalf("error %v, want %v", c.err, c.want)
			}
			if !strings.Contains(c.err.Error(), c.text) {
				t.Errorf("error %q does not name %q", c.err, c.text)
			}
			var ie *trueskill.InputError
			if strings.HasPrefix(c.err.Error(), "trueskill:") && !errors.As(c.err, &ie) {
				t.Errorf("trueskill error %v is not an *InputError", c.err)
			}
			t.Logf("%s → %v", c.name, c.err)
		})
	}
}
