package throughtime

import (
	"fmt"
	"math"

	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

func (p Params) validate() error {
	for _, c := range []struct {
		name string
		v    float64
		ok   bool
	}{
		{"Mu", p.Mu, messages.IsFinite(p.Mu)},
		{"Sigma", p.Sigma, p.Sigma > 0 && !math.IsInf(p.Sigma, 1)},
		{"Beta", p.Beta, p.Beta > 0 && !math.IsInf(p.Beta, 1)},
		{"Gamma", p.Gamma, p.Gamma >= 0 && !math.IsInf(p.Gamma, 1)},
		{"DrawProbability", p.DrawProbability, p.DrawProbability >= 0 && p.DrawProbability < 1},
	} {
		if !c.ok {
			return fmt.Errorf("throughtime: Params.%s = %v: %w", c.name, c.v, ErrInput)
		}
	}
	return nil
}

func (pl Player) validate(name string) error {
	switch {
	case !messages.IsFinite(pl.Mu), !(pl.Sigma > 0) || math.IsInf(pl.Sigma, 1),
		!(pl.Beta >= 0) || math.IsInf(pl.Beta, 1), !(pl.Gamma >= 0) || math.IsInf(pl.Gamma, 1):
		return fmt.Errorf("throughtime: player %q: %+v: %w", name, pl, ErrInput)
	}
	return nil
}

// maxMeanSpread bounds how far a mean the history computes with may lie
// from 0, in units of the prior σ it is compared with. Means are held
// relative to Params.Mu; a player whose prior mean lies further than this
// from Params.Mu, or a game whose teams' weights differ (so that Params.Mu
// does not cancel from its performance differences), would put a skill's
// mean where a float64's spacing, 2⁻⁵² of it, exceeds about 1e-9 of the
// skill's σ, and the answer would be rounding noise. Such inputs are
// refused rather than answered wrongly, with an error that wraps
// messages.ErrNumerical beside ErrInput.
const maxMeanSpread = 1 << 22

// meanInRange reports whether a mean offset mu is within maxMeanSpread
// prior standard deviations sigma of 0.
func meanInRange(mu, sigma float64) bool { return math.Abs(mu) <= maxMeanSpread*sigma }

// player returns name's prior, β and γ: its own if given, else p's.
func (p Params) player(priors map[string]Player, name string) Player {
	if pl, ok := priors[name]; ok {
		return pl
	}
	return Player{Mu: p.Mu, Sigma: p.Sigma, Beta: p.Beta, Gamma: p.Gamma}
}

// trueskill returns the parameters of a game: β and the draw probability
// (players' own β come with each contest), its difference chain run to
// 1e-6 as the reference's inner loop is.
func (p Params) trueskill() trueskill.Params {
	return trueskill.Params{Mu: p.Mu, Sigma: p.Sigma, Beta: p.Beta, DrawProbability: p.DrawProbability}
}

// GameError is an error about one game of a history, returned by New,
// Add, Converge and LogEvidence (and so Fit) when that game cannot be
// declared or updated. Index is the game's place among every game given
// to the history, in the order given: game k of New's slice is Index k,
// and game k of a slice given to Add after n games is Index n+k, whatever
// the games' times (Untimed or not), so that a caller can map it back to
// its own record of the game. Err says what is wrong with the game and
// wraps the package's errors (ErrInput, and ErrImpossible or
// ErrNumerical where they apply), which errors.Is finds through the
// GameError.
type GameError struct {
	Index int
	Err   error
}

// Error returns "throughtime: game Index: " and Err's text.
func (e *GameError) Error() string { return fmt.Sprintf("throughtime: game %d: %v", e.Index, e.Err) }

// Unwrap returns Err.
func (e *GameError) Unwrap() error { return e.Err }

// gameError returns a *GameError about game k whose Err is
// fmt.Errorf(format, a...).
func gameError(k int, format string, a ...any) error {
	return &GameError{Index: k, Err: fmt.Errorf(format, a...)}
}

// checkGame reports a game (index k, at time t) that cannot be declared:
// fewer than two teams, an empty team, a player twice, a non-finite time,
// ranks or weights of the wrong shape, a negative weight, or a tie of two
// teams whose draw margin is 0 (the draw probability is 0, or every
// player of both teams has β = 0), which has probability 0.
func (h *History) checkGame(g *Match, k int, t float64) error {
	problem := shapeProblem(g, t)
	if problem == "" {
		if tie := h.tieProblem(g); tie != "" {
			return gameError(k, "%s: %w (%w)", tie, ErrInput, ErrImpossible)
		}
		problem = playerProblem(g)
	}
	if problem != "" {
		return gameError(k, "%s: %w", problem, ErrInput)
	}
	if !meanInRange(h.p.Mu, h.p.Sigma) && h.offset(sizesOf(g), g.Weights) != 0 {
		return gameError(k, "its teams' weights differ, so the prior mean %v does not cancel from its performance differences, and it is beyond float64's precision at σ = %v (rate skills relative to a mean near 0): %w (%w)", h.p.Mu, h.p.Sigma, ErrInput, messages.ErrNumerical)
	}
	return nil
}

// shapeProblem describes a game at time t whose time is not finite, that
// has fewer than two teams, or whose ranks or weights are not one per
// team; "" if none of these.
func shapeProblem(g *Match, t float64) string {
	switch {
	case !messages.IsFinite(t):
		return fmt.Sprintf("time %v", t)
	case len(g.Teams) < 2:
		return fmt.Sprintf("%d teams, want at least 2", len(g.Teams))
	case g.Ranks != nil && len(g.Ranks) != len(g.Teams):
		return fmt.Sprintf("%d ranks for %d teams", len(g.Ranks), len(g.Teams))
	case g.Weights != nil && len(g.Weights) != len(g.Teams):
		return fmt.Sprintf("%d weight rows for %d teams", len(g.Weights), len(g.Teams))
	}
	return ""
}

// tieProblem describes the first tie of two teams whose draw margin is 0;
// "" if there is none. With WithDrawMargins each player has a margin of
// their own.
func (h *History) tieProblem(g *Match) string {
	if g.Ranks == nil || h.margins != nil {
		return ""
	}
	noise := func(j int) float64 {
		var s float64
		for _, name := range g.Teams[j] {
			b := h.p.player(h.priors, name).Beta
			s += b * b
		}
		return s
	}
	for j := range g.Ranks {
		for i := range j {
			switch {
			case g.Ranks[i] != g.Ranks[j]:
			case h.p.DrawProbability == 0:
				return fmt.Sprintf("teams %d and %d tie, but the draw probability is 0 (set Params.DrawProbability)", i, j)
			case noise(i)+noise(j) == 0:
				return fmt.Sprintf("teams %d and %d tie, but their players' β are 0, so their draw margin is 0", i, j)
			}
		}
	}
	return ""
}

// playerProblem describes the first empty team, player named twice, or
// team whose weights are not one per player, each in TrueSkill's domain;
// "" if there is none.
func playerProblem(g *Match) string {
	// A map for large games; for small ones (every 1v1) comparing each
	// pair costs less than making one.
	var seen map[string]bool
	n := 0
	for _, team := range g.Teams {
		n += len(team)
	}
	if n > 16 {
		seen = make(map[string]bool, n)
	}
	for j, team := range g.Teams {
		if len(team) == 0 {
			return fmt.Sprintf("team %d is empty", j)
		}
		for i, name := range team {
			if repeated(g, seen, j, i, name) {
				return fmt.Sprintf("player %q appears twice", name)
			}
			if g.Weights == nil {
				continue
			}
			if len(g.Weights[j]) != len(team) {
				return fmt.Sprintf("team %d: %d weights for %d players", j, len(g.Weights[j]), len(team))
			}
			if w := g.Weights[j][i]; !trueskill.ValidWeight(w) {
				return fmt.Sprintf("team %d player %d: weight %v is outside TrueSkill's domain (trueskill.ValidWeight)", j, i, w)
			}
		}
	}
	return ""
}

// repeated reports whether name, team j's player i, came earlier in g:
// by seen, which it fills, if not nil, else by comparing names.
func repeated(g *Match, seen map[string]bool, j, i int, name string) bool {
	if seen != nil {
		if seen[name] {
			return true
		}
		seen[name] = true
		return false
	}
	for jj := range j + 1 {
		for ii, other := range g.Teams[jj] {
			if (jj < j || ii < i) && other == name {
				return true
			}
		}
	}
	return false
}
