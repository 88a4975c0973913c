package league

import (
	"context"
	"fmt"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/models/trueskill"
	"github.com/skillgraph/skillgraph/schedules"
)

// HomePrior is the belief about a home advantage before any game: none on
// average, give or take β (the performance noise: a home advantage is a
// shift of performances).
func HomePrior(p trueskill.Params) trueskill.Rating { return trueskill.Rating{Mu: 0, Sigma: p.Beta} }

// LearnHome gives a league with no games a home advantage to learn,
// starting from HomePrior.
func (l *League) LearnHome() {
	h := HomePrior(l.Params)
	l.Home = &h
}

// HomeLearned reports whether the league's home advantage has been
// learned from games: false if it has none, or while it is still
// HomePrior, as it stays while every game rated is on neutral ground (a
// game at home narrows it).
func (l *League) HomeLearned() bool { return l.Home != nil && *l.Home != HomePrior(l.Params) }

// HomeGame is a game whose team 0 plays at home as one factor graph with
// the home advantage: the paper's Figure 1 with the home advantage h, a
// latent variable under its own prior, added to the home team's
// performance (trueskill.Contest.Bonus): t₀ = Σ wᵢpᵢ + h. It is the graph
// a league with a home advantage rates a game at home by, and the one a
// drawing of that game shows.
type HomeGame struct {
	Graph    *graph.Graph
	Schedule schedules.Schedule // derived from the graph (schedules.Derive)
	Skills   [][]graph.VarID    // each team's players' skills, named s1, s2, … in team order
	Home     graph.VarID        // h
}

// DeclareHome returns the HomeGame of match m, whose team 0 plays at
// home, with the home advantage's prior home. Skills get the drift τ²
// before the game, as Params.Rate gives them; h, the same in every game,
// gets none.
func DeclareHome(p trueskill.Params, m trueskill.Match, home trueskill.Rating) (*HomeGame, error) {
	b := graph.NewBuilder("home advantage")
	b.Layer("skill priors")
	b.Layer("skills")
	skills := make([][]graph.VarID, len(m.Teams))
	for j, team := range m.Teams {
		for range team {
			skills[j] = append(skills[j], b.AddVariable(fmt.Sprintf("s%d", b.NumVariables()+1)))
		}
	}
	h := b.AddVariable("h")
	b.Layer("skill priors")
	tau2 := p.Tau * p.Tau
	for j, team := range m.Teams {
		for i, r := range team {
			b.AddFactor(factors.NewPrior(r.Mu, r.Sigma*r.Sigma+tau2), "", skills[j][i])
		}
	}
	b.AddFactor(factors.NewPrior(home.Mu, home.Sigma*home.Sigma), "", h)
	bonus := make([][]graph.VarID, len(m.Teams))
	bonus[0] = []graph.VarID{h}
	if _, err := p.Declare(b, trueskill.Contest{Skills: skills, Ranks: m.Ranks, Weights: m.Weights, Bonus: bonus}); err != nil {
		return nil, err
	}
	g, err := b.Build()
	if err != nil {
		return nil, err
	}
	sch, err := schedules.Derive(g)
	if err != nil {
		return nil, err
	}
	return &HomeGame{Graph: g, Schedule: sch, Skills: skills, Home: h}, nil
}

// rateHome rates match m, whose team 0 plays at home, by its HomeGame
// with the league's home advantage. It returns the players' ratings after
// the game and h's.
func (l *League) rateHome(ctx context.Context, m trueskill.Match) ([][]trueskill.Rating, trueskill.Rating, error) {
	hg, err := DeclareHome(l.Params, m, *l.Home)
	if err != nil {
		return nil, trueskill.Rating{}, err
	}
	if _, err := schedules.Run(ctx, hg.Graph, hg.Schedule); err != nil {
		return nil, trueskill.Rating{}, err
	}
	marginal := func(v graph.VarID) trueskill.Rating {
		mg := hg.Graph.Marginal(v)
		return trueskill.Rating{Mu: mg.Mean(), Sigma: mg.Sigma()}
	}
	out := make([][]trueskill.Rating, len(m.Teams))
	for j := range hg.Skills {
		for _, s := range hg.Skills[j] {
			out[j] = append(out[j], marginal(s))
		}
	}
	return out, marginal(hg.Home), nil
}
