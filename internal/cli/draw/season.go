package draw

import (
	"context"
	"fmt"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/internal/league"
	"github.com/skillgraph/skillgraph/models/trueskill"
	"github.com/skillgraph/skillgraph/schedules"
)

// seasonSlice returns, in file order, the games within depth steps of the
// named player: depth 1 their games, depth 2 also the games of everyone
// in those, and so on.
func seasonSlice(games []league.Match, name string, depth int) []league.Match {
	players := map[string]bool{name: true}
	in := make([]bool, len(games))
	for d := 0; d < depth; d++ {
		var met []string
		for i, g := range games {
			if in[i] || !plays(g, players) {
				continue
			}
			in[i] = true
			for _, team := range g.Teams {
				met = append(met, team...)
			}
		}
		for _, n := range met {
			players[n] = true
		}
	}
	var out []league.Match
	for i, g := range games {
		if in[i] {
			out = append(out, g)
		}
	}
	return out
}

// plays reports whether any of players plays in g.
func plays(g league.Match, players map[string]bool) bool {
	for _, team := range g.Teams {
		for _, n := range team {
			if players[n] {
				return true
			}
		}
	}
	return false
}

// season is the factor graph of a run of games.
type season struct {
	graph *graph.Graph
}

// newSeason declares games into one graph: each player's skill before
// each of their games, the first under the prior N(μ, σ² + τ²) of the
// rating prior(name, key of their first game) (TrueSkill's drift before a
// game, as in a single game's graph), each later one linked to the one before by
// the dynamics N(sₜ; sₜ₋₁, τ²) (the TrueSkill paper's skill drift); and
// each game's TrueSkill graph (trueskill.Params.Declare) below its
// players' skills. With a home advantage's prior home (nil for none), the
// home advantage h is one variable under it, added to the home team's
// performance in each game at home (trueskill.Contest.Bonus), as the
// league rates those games; it has no drift, as there. Nothing is grouped: boxes around games or players,
// whose rows interleave, would have to sit side by side and make the
// drawing about twice as wide.
func newSeason(p trueskill.Params, games []league.Match, home *trueskill.Rating, prior func(name, key string) trueskill.Rating) (*season, error) {
	b := graph.NewBuilder("season")
	last := map[string]graph.VarID{}
	count := map[string]int{}
	tau2 := p.Tau * p.Tau
	h := graph.VarID(-1)
	for _, g := range games {
		var bonus [][]graph.VarID
		if home != nil && g.Home {
			if h < 0 {
				h = b.AddVariable("h")
				b.AddFactor(factors.NewPrior(home.Mu, home.Sigma*home.Sigma), fmt.Sprintf("N(h; %.4g, %.4g)", home.Mu, home.Sigma*home.Sigma), h)
			}
			bonus = make([][]graph.VarID, len(g.Teams))
			bonus[0] = []graph.VarID{h}
		}
		skills := make([][]graph.VarID, len(g.Teams))
		for j, team := range g.Teams {
			for _, name := range team {
				count[name]++
				s := b.AddVariable(fmt.Sprintf("%s %d", name, count[name]))
				if prev, ok := last[name]; ok {
					b.AddFactor(factors.NewLikelihood(tau2), fmt.Sprintf("N(%s %d; %s %d, τ²)", name, count[name], name, count[name]-1), s, prev)
				} else {
					r := prior(name, g.Key)
					v := r.Sigma*r.Sigma + tau2
					b.AddFactor(factors.NewPrior(r.Mu, v), fmt.Sprintf("N(%s 1; %.4g, %.4g)", name, r.Mu, v), s)
				}
				last[name] = s
				skills[j] = append(skills[j], s)
			}
		}
		if _, err := p.Declare(b, trueskill.Contest{Name: g.Key + ".", Skills: skills, Ranks: g.Ranks, Weights: g.Weights, Bonus: bonus, Compact: true}); err != nil {
			return nil, fmt.Errorf("game %s: %w", g.Key, err)
		}
	}
	gr, err := b.Build()
	if err != nil {
		return nil, err
	}
	return &season{graph: gr}, nil
}

// infer runs expectation propagation on the season's graph with a derived
// schedule, its loops bounded.
func (s *season) infer() error {
	sch, err := schedules.Derive(s.graph, schedules.WithLoop(schedules.Tolerance(1e-6), schedules.MaxIterations(100)))
	if err != nil {
		return fmt.Errorf("-values: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), inferenceTimeout)
	defer cancel()
	if _, err := schedules.Run(ctx, s.graph, sch); err != nil {
		return fmt.Errorf("-values: %w", err)
	}
	return nil
}
