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

// rateHome rates match m, whose team 0 plays at home, with the league's
// home advantage h as a latent variable added to the home team's
// performance (trueskill.Contest.Bonus): t₀ = Σ pᵢ + h. Skills get the
// drift τ² before the game as Params.Rate gives them; h, the same in
// every game, gets none. It returns the players' ratings after the game
// and h's.
func (l *League) rateHome(ctx context.Context, m trueskill.Match) ([][]trueskill.Rating, trueskill.Rating, error) {
	p := l.Params
	b := graph.NewBuilder("home advantage")
	skills := make([][]graph.VarID, len(m.Teams))
	tau2 := p.Tau * p.Tau
	for j, team := range m.Teams {
		for i, r := range team {
			s := b.AddVariable(fmt.Sprintf("s%d.%d", j, i))
			b.AddFactor(factors.NewPrior(r.Mu, r.Sigma*r.Sigma+tau2), "prior", s)
			skills[j] = append(skills[j], s)
		}
	}
	h := b.AddVariable("home")
	b.AddFactor(factors.NewPrior(l.Home.Mu, l.Home.Sigma*l.Home.Sigma), "home prior", h)
	bonus := make([][]graph.VarID, len(m.Teams))
	bonus[0] = []graph.VarID{h}
	if _, err := p.Declare(b, trueskill.Contest{Skills: skills, Ranks: m.Ranks, Weights: m.Weights, Bonus: bonus}); err != nil {
		return nil, trueskill.Rating{}, err
	}
	g, err := b.Build()
	if err != nil {
		return nil, trueskill.Rating{}, err
	}
	sch, err := schedules.Derive(g)
	if err != nil {
		return nil, trueskill.Rating{}, err
	}
	if _, err := schedules.Run(ctx, g, sch); err != nil {
		return nil, trueskill.Rating{}, err
	}
	marginal := func(v graph.VarID) trueskill.Rating {
		mg := g.Marginal(v)
		return trueskill.Rating{Mu: mg.Mean(), Sigma: mg.Sigma()}
	}
	out := make([][]trueskill.Rating, len(m.Teams))
	for j := range skills {
		for _, s := range skills[j] {
			out[j] = append(out[j], marginal(s))
		}
	}
	return out, marginal(h), nil
}
