package reliability_test

import (
	"context"
	"testing"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/models/elo"
	"github.com/skillgraph/skillgraph/models/fit"
	"github.com/skillgraph/skillgraph/models/scorebased"
)

// sbTyped reports whether err is one of scorebased's errors (or a
// context's): never a factor's or the graph's, which the models translate.
func sbTyped(err error) bool {
	return isAny(err, scorebased.ErrInput, scorebased.ErrNumerical,
		context.Canceled, context.DeadlineExceeded)
}

// sbParams draws the models' parameters: the defaults with some fields
// extreme (all ordinary in an ordinary call).
func sbParams(d *draws) scorebased.Params {
	p := scorebased.DefaultParams()
	for _, f := range []*float64{&p.Mu, &p.Sigma, &p.Beta, &p.Gamma, &p.Tau} {
		if d.rng.IntN(4) == 0 {
			if d.ordinary {
				*f = d.Pos()
			} else {
				*f = d.F()
			}
		}
	}
	return p
}

func rating(d *draws) scorebased.Rating {
	if d.ordinary {
		return scorebased.Rating{Mu: d.F(), Sigma: d.Pos()}
	}
	return scorebased.Rating{Mu: d.F(), Sigma: d.F()}
}

func team(d *draws) scorebased.Team { return scorebased.Team{Offence: rating(d), Defence: rating(d)} }

// score draws a score: a goal count in an ordinary call.
func score(d *draws) float64 {
	if d.ordinary {
		x := float64(d.rng.IntN(6))
		d.note("%v", x)
		return x
	}
	return d.F()
}

func count(d *draws) int {
	if d.ordinary {
		return d.rng.IntN(6)
	}
	return d.I()
}

func hyper(d *draws) scorebased.Hyper {
	return scorebased.Hyper{Params: sbParams(d), Base: score(d) / 4, Home: score(d) / 8}
}

// results draws a few matches between four teams.
func results(d *draws) []scorebased.Match {
	if d.rng.IntN(8) == 0 {
		return nil
	}
	names := []string{"a", "b", "c", ""}
	rs := make([]scorebased.Match, 1+d.rng.IntN(6))
	for i := range rs {
		rs[i] = scorebased.Match{A: names[d.rng.IntN(3)], B: names[1+d.rng.IntN(3)], ScoreA: score(d), ScoreB: score(d)}
	}
	return rs
}

func matchScores(d *draws) []scorebased.MatchScore {
	ms := make([]scorebased.MatchScore, d.rng.IntN(5))
	for i := range ms {
		ms[i] = scorebased.MatchScore{ScoreA: score(d), ScoreB: score(d)}
	}
	return ms
}

// online exercises every method of an online model.
func online[R scorebased.Team | scorebased.Rating](d *draws, m scorebased.Online[R], err error, r func(*draws) R) ([]float64, error) {
	if err != nil {
		return nil, err
	}
	_, _ = m.Name(), m.Hyper()
	a, b := r(d), r(d)
	if d.B() {
		a = m.Fresh()
	}
	out := fin(m.Fresh())
	lp, err := m.LogPredictive(a, b, score(d), score(d))
	if err != nil {
		return nil, err
	}
	pr, err := m.Predict(a, b)
	if err != nil {
		return nil, err
	}
	w, err := m.WinProbability(a, b)
	if err != nil {
		return nil, err
	}
	sa, sb := score(d), score(d)
	ra, rb, err := m.Rate(d.Ctx(), a, b, sa, sb)
	if err != nil {
		return nil, err
	}
	return append(out, append(fin(pr, ra, rb), lp, w)...), nil
}

// declare builds a graph of one contest declared by model m.
func declare(d *draws, p scorebased.Params, decl func(b *graph.Builder, c scorebased.Contest) (scorebased.Nodes, error), skill bool) ([]float64, error) {
	b := graph.NewBuilder("league")
	var a, o scorebased.TeamVars
	var err error
	if skill {
		if a, err = p.DeclareSkill(b, "a", rating(d)); err != nil {
			return nil, err
		}
		o, err = p.DeclareSkill(b, "b", rating(d))
	} else {
		if a, err = p.DeclareTeam(b, "a", team(d)); err != nil {
			return nil, err
		}
		o, err = p.DeclareTeam(b, "b", team(d))
	}
	if err != nil {
		return nil, err
	}
	c := scorebased.Contest{Name: d.S(), A: a, B: o, ScoreA: score(d), ScoreB: score(d)}
	if d.B() {
		c.Advantage = []graph.VarID{graph.VarID(d.Small(b.NumVariables()))}
	}
	if _, err := decl(b, c); err != nil {
		return nil, err
	}
	// An advantage variable the graph lacks, or one of the contest's own,
	// is the builder's to report, with the graph's typed errors.
	if _, err := b.Build(); err != nil && !engineTyped(err) {
		return nil, err
	}
	return nil, nil
}

// TestScorebasedExtremes is the property for package models/scorebased.
func TestScorebasedExtremes(t *testing.T) {
	ctx := context.Background()
	fitBounds := func(d *draws) scorebased.FitBounds {
		b := scorebased.DefaultFitBounds()
		if d.rng.IntN(3) == 0 {
			b.Sigma.Hi = d.F()
		}
		return b
	}
	fitOpts := func(d *draws) fit.Options[scorebased.Hyper] {
		o := fit.Options[scorebased.Hyper]{MaxEvaluations: 1 + d.rng.IntN(20)} // each evaluation a pass over a few matches
		if d.rng.IntN(3) == 0 {
			o.Tolerance = d.F()
		}
		return o
	}
	checkAPI(t, api{dir: "models/scorebased", calls: 60, typed: sbTyped, probes: []probe{
		{name: "EstimateGammaOD", call: func(d *draws) ([]float64, error) {
			g, err := scorebased.EstimateGammaOD(matchScores(d))
			return []float64{g}, err
		}},
		{name: "EstimateGammaSD", call: func(d *draws) ([]float64, error) {
			g, err := scorebased.EstimateGammaSD(matchScores(d))
			return []float64{g}, err
		}},
		{name: "Fit", call: func(d *draws) ([]float64, error) {
			h, rep, err := scorebased.Fit(d.Ctx(), scorebased.OnlineGaussianSD, results(d), sbParams(d), fitBounds(d), fitOpts(d))
			return fin(h, rep), err
		}},
		{name: "Learn", call: func(d *draws) ([]float64, error) {
			m, err := scorebased.OnlinePoissonOD(hyper(d))
			if err != nil {
				return nil, err
			}
			rs, lz, err := scorebased.Learn(d.Ctx(), m, results(d))
			return append(fin(rs), lz), err
		}},
		{name: "DefaultFitBounds", call: func(d *draws) ([]float64, error) { return fin(scorebased.DefaultFitBounds()), nil }},
		{name: "NewGaussianOD", call: func(d *draws) ([]float64, error) {
			m := scorebased.NewGaussianOD(sbParams(d))
			a, b, err := m.Rate(d.Ctx(), team(d), team(d), score(d), score(d))
			return fin(a, b), err
		}},
		{name: "GaussianOD.Declare", call: func(d *draws) ([]float64, error) {
			p := sbParams(d)
			return declare(d, p, scorebased.NewGaussianOD(p).Declare, false)
		}},
		{name: "GaussianOD.Game", call: func(d *draws) ([]float64, error) {
			g, err := scorebased.NewGaussianOD(sbParams(d)).Game(team(d), team(d), score(d), score(d))
			if err != nil {
				return nil, err
			}
			_ = g.Graph.NumVariables()
			return nil, nil
		}},
		{name: "GaussianOD.Predict", call: func(d *draws) ([]float64, error) {
			pr, err := scorebased.NewGaussianOD(sbParams(d)).Predict(team(d), team(d))
			return fin(pr), err
		}},
		{name: "GaussianOD.Rate", call: func(d *draws) ([]float64, error) {
			a, b, err := scorebased.NewGaussianOD(sbParams(d)).Rate(d.Ctx(), team(d), team(d), score(d), score(d))
			return fin(a, b), err
		}},
		{name: "GaussianOD.WinProbability", call: func(d *draws) ([]float64, error) {
			w, err := scorebased.NewGaussianOD(sbParams(d)).WinProbability(team(d), team(d))
			return []float64{w}, err
		}},
		{name: "NewGaussianSD", call: func(d *draws) ([]float64, error) {
			a, b, err := scorebased.NewGaussianSD(sbParams(d)).Rate(ctx, rating(d), rating(d), score(d), score(d))
			return fin(a, b), err
		}},
		{name: "GaussianSD.Declare", call: func(d *draws) ([]float64, error) {
			p := sbParams(d)
			return declare(d, p, scorebased.NewGaussianSD(p).Declare, true)
		}},
		{name: "GaussianSD.Game", call: func(d *draws) ([]float64, error) {
			_, err := scorebased.NewGaussianSD(sbParams(d)).Game(rating(d), rating(d), score(d), score(d))
			return nil, err
		}},
		{name: "GaussianSD.Predict", call: func(d *draws) ([]float64, error) {
			pr, err := scorebased.NewGaussianSD(sbParams(d)).Predict(rating(d), rating(d))
			return fin(pr), err
		}},
		{name: "GaussianSD.Rate", call: func(d *draws) ([]float64, error) {
			a, b, err := scorebased.NewGaussianSD(sbParams(d)).Rate(d.Ctx(), rating(d), rating(d), score(d), score(d))
			return fin(a, b), err
		}},
		{name: "GaussianSD.WinProbability", call: func(d *draws) ([]float64, error) {
			w, err := scorebased.NewGaussianSD(sbParams(d)).WinProbability(rating(d), rating(d))
			return []float64{w}, err
		}},
		{name: "Hyper.NewRating", call: func(d *draws) ([]float64, error) {
			h := hyper(d)
			if err := h.Validate(); err != nil {
				return nil, err
			}
			return fin(h.NewRating()), nil
		}},
		{name: "Hyper.NewTeam", call: func(d *draws) ([]float64, error) {
			h := hyper(d)
			if err := h.Validate(); err != nil {
				return nil, err
			}
			return fin(h.NewTeam()), nil
		}},
		{name: "Hyper.Validate", call: func(d *draws) ([]float64, error) { return nil, hyper(d).Validate() }},
		{name: "OnlineGaussianOD", call: func(d *draws) ([]float64, error) {
			m, err := scorebased.OnlineGaussianOD(hyper(d))
			return online(d, m, err, team)
		}},
		{name: "OnlineGaussianSD", call: func(d *draws) ([]float64, error) {
			m, err := scorebased.OnlineGaussianSD(hyper(d))
			return online(d, m, err, rating)
		}},
		{name: "OnlinePoissonOD", call: func(d *draws) ([]float64, error) {
			m, err := scorebased.OnlinePoissonOD(hyper(d))
			return online(d, m, err, team)
		}},
		{name: "DefaultParams", call: func(*draws) ([]float64, error) { return fin(scorebased.DefaultParams()), nil }},
		{name: "FitStart", call: func(*draws) ([]float64, error) { return fin(scorebased.FitStart()), nil }},
		{name: "Params.DeclareSkill", call: func(d *draws) ([]float64, error) {
			p := sbParams(d)
			return declare(d, p, scorebased.NewGaussianSD(p).Declare, true)
		}},
		{name: "Params.DeclareTeam", call: func(d *draws) ([]float64, error) {
			p := sbParams(d)
			return declare(d, p, scorebased.NewPoissonOD(p).Declare, false)
		}},
		{name: "Params.DifferenceSD", call: func(d *draws) ([]float64, error) {
			p := sbParams(d)
			if err := p.Validate(); err != nil {
				return nil, err
			}
			return []float64{p.DifferenceSD(rating(d), rating(d))}, nil
		}, nonFinite: extremeCall},
		{name: "Params.NewRating", call: func(d *draws) ([]float64, error) {
			p := sbParams(d)
			if err := p.Validate(); err != nil {
				return nil, err
			}
			return fin(p.NewRating()), nil
		}},
		{name: "Params.NewTeam", call: func(d *draws) ([]float64, error) {
			p := sbParams(d)
			if err := p.Validate(); err != nil {
				return nil, err
			}
			return fin(p.NewTeam()), nil
		}},
		{name: "Params.Validate", call: func(d *draws) ([]float64, error) { return nil, sbParams(d).Validate() }},
		{name: "NewPoissonOD", call: func(d *draws) ([]float64, error) {
			a, b, _, err := scorebased.NewPoissonOD(sbParams(d)).Rate(ctx, team(d), team(d), count(d), count(d))
			return fin(a, b), err
		}},
		{name: "PoissonOD.Declare", call: func(d *draws) ([]float64, error) {
			p := sbParams(d)
			return declare(d, p, scorebased.NewPoissonOD(p).Declare, false)
		}},
		{name: "PoissonOD.Game", call: func(d *draws) ([]float64, error) {
			_, err := scorebased.NewPoissonOD(sbParams(d)).Game(team(d), team(d), count(d), count(d))
			return nil, err
		}},
		{name: "PoissonOD.Predict", call: func(d *draws) ([]float64, error) {
			pr, err := scorebased.NewPoissonOD(sbParams(d)).Predict(team(d), team(d))
			return fin(pr), err
		}},
		{name: "PoissonOD.Rate", call: func(d *draws) ([]float64, error) {
			a, b, _, err := scorebased.NewPoissonOD(sbParams(d)).Rate(d.Ctx(), team(d), team(d), count(d), count(d))
			return fin(a, b), err
		}},
		{name: "Skellam.LogProb", call: func(d *draws) ([]float64, error) {
			l, err := scorebased.Skellam{Lambda1: d.Pos(), Lambda2: d.F()}.LogProb(count(d))
			return []float64{l}, err
		}},
		{name: "Skellam.Prob", call: func(d *draws) ([]float64, error) {
			l, err := scorebased.Skellam{Lambda1: d.F(), Lambda2: d.Pos()}.Prob(count(d))
			return []float64{l}, err
		}},
		{name: "Skellam.Outcome", call: func(d *draws) ([]float64, error) {
			w, dr, l, err := scorebased.Skellam{Lambda1: d.Pos(), Lambda2: d.Pos()}.Outcome()
			return []float64{w, dr, l}, err
		}},
	}})
}

// TestEloExtremes is the property for package models/elo.
func TestEloExtremes(t *testing.T) {
	params := func(d *draws) elo.Params {
		p := elo.DefaultParams()
		for _, f := range []*float64{&p.Initial, &p.Beta, &p.Alpha} {
			if !d.ordinary && d.rng.IntN(3) == 0 {
				*f = d.F()
			}
		}
		return p
	}
	typed := func(err error) bool { return isAny(err, elo.ErrInput, elo.ErrNumerical, context.Canceled) }
	checkAPI(t, api{dir: "models/elo", calls: 300, typed: typed, probes: []probe{
		{name: "DefaultParams", call: func(*draws) ([]float64, error) { return fin(elo.DefaultParams()), nil }},
		{name: "Params.Validate", call: func(d *draws) ([]float64, error) { return nil, params(d).Validate() }},
		{name: "Params.K", call: func(d *draws) ([]float64, error) {
			p := params(d)
			if err := p.Validate(); err != nil {
				return nil, err
			}
			return []float64{p.K()}, nil
		}},
		{name: "Params.WinProbability", call: func(d *draws) ([]float64, error) {
			w, err := params(d).WinProbability(d.F(), d.F())
			return []float64{w}, err
		}},
		{name: "Params.Predict", call: func(d *draws) ([]float64, error) {
			pr, err := params(d).Predict(d.F(), d.F())
			return fin(pr), err
		}},
		{name: "Params.Delta", call: func(d *draws) ([]float64, error) {
			x, err := params(d).Delta(d.F(), d.F(), d.I())
			return []float64{x}, err
		}},
		{name: "Params.Rate", call: func(d *draws) ([]float64, error) {
			teams := make([][]float64, d.rng.IntN(4))
			for i := range teams {
				teams[i] = d.Fs()
			}
			ranks := make([]int, d.rng.IntN(5))
			for i := range ranks {
				ranks[i] = d.Small(3)
			}
			r, err := params(d).Rate(d.Ctx(), teams, ranks)
			return fin(r), err
		}},
	}})
}
