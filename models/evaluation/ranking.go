package evaluation

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/skillgraph/skillgraph/models/elo"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

// RankingResult is the TrueSkill paper's section 4.1 table for one data
// set: prediction errors (share of team pairs predicted in the wrong
// order), over all games and "challenged".
type RankingResult struct {
	Games, Pairs int
	// DrawProbability is the empirical share of tied adjacent teams, used
	// to set TrueSkill's draw margin.
	DrawProbability        float64
	EloFull, TrueSkillFull float64
	// EloChallenged is Elo's error on the 20 % of games TrueSkill judged
	// most tightly matched (highest match quality), TrueSkillChallenged is
	// TrueSkill's error on the 20 % Elo judged tightest (smallest rating
	// difference).
	EloChallenged, TrueSkillChallenged float64
}

// RankingExperiment predicts every game of ms before rating it (online),
// with TrueSkill (params, its draw probability replaced by the empirical
// one) and Elo (eloParams, duelling heuristic for teams and more than two
// teams). A team's predicted strength is the sum of its players' μ
// (TrueSkill) or ratings (Elo). Elo's tightness of a game is the mean
// absolute rating difference between adjacent teams in its predicted order
// (for two teams, |s₁ − s₂| as in the paper); TrueSkill's is the match
// quality (eq. 7 and its k-team form). progress, if not nil, is called every
// 1,000 games.
func RankingExperiment(ctx context.Context, ms []RankedMatch, params trueskill.Params, eloParams elo.Params, progress func(done, total int)) (*RankingResult, error) {
	res := &RankingResult{Games: len(ms)}
	ties, adjacent := 0, 0
	for _, m := range ms {
		r := slices.Clone(m.Ranks)
		slices.Sort(r)
		for k := 1; k < len(r); k++ {
			adjacent++
			if r[k] == r[k-1] {
				ties++
			}
		}
	}
	if adjacent > 0 {
		res.DrawProbability = float64(ties) / float64(adjacent)
	}
	params.DrawProbability = math.Min(res.DrawProbability, 0.999)
	rater := params.NewRater()
	ts := map[string]trueskill.Rating{}
	el := map[string]float64{}
	type game struct {
		tsWrong, eloWrong float64
		pairs             int
		quality, eloGap   float64
	}
	games := make([]game, 0, len(ms))
	var tsWrong, eloWrong float64
	for gi, m := range ms {
		if len(m.Teams) < 2 {
			return nil, fmt.Errorf("evaluation: game %s has %d teams", m.ID, len(m.Teams))
		}
		if err := m.checkPlayers(); err != nil {
			return nil, err
		}
		tsTeams := make([][]trueskill.Rating, len(m.Teams))
		eloTeams := make([][]float64, len(m.Teams))
		tsStrength := make([]float64, len(m.Teams))
		eloStrength := make([]float64, len(m.Teams))
		for j, team := range m.Teams {
			for _, pl := range team {
				r, ok := ts[pl]
				if !ok {
					r = params.NewRating()
				}
				e, ok := el[pl]
				if !ok {
					e = eloParams.Initial
				}
				tsTeams[j] = append(tsTeams[j], r)
				eloTeams[j] = append(eloTeams[j], e)
				tsStrength[j] += r.Mu
				eloStrength[j] += e
			}
		}
		var g game
		g.tsWrong, g.pairs = PairErrors(tsStrength, m.Ranks)
		g.eloWrong, _ = PairErrors(eloStrength, m.Ranks)
		q, err := params.Quality(tsTeams, nil)
		if err != nil {
			return nil, fmt.Errorf("evaluation: game %s: %w", m.ID, err)
		}
		g.quality = q
		sorted := slices.Clone(eloStrength)
		slices.Sort(sorted)
		for k := 1; k < len(sorted); k++ {
			g.eloGap += (sorted[k] - sorted[k-1]) / float64(len(sorted)-1)
		}
		games = append(games, g)
		tsWrong += g.tsWrong
		eloWrong += g.eloWrong
		res.Pairs += g.pairs

		out, err := rater.Rate(ctx, trueskill.Match{Teams: tsTeams, Ranks: m.Ranks})
		if err != nil {
			return nil, fmt.Errorf("evaluation: game %s: %w", m.ID, err)
		}
		eloOut, err := eloParams.Rate(eloTeams, m.Ranks)
		if err != nil {
			return nil, fmt.Errorf("evaluation: game %s: %w", m.ID, err)
		}
		for j, team := range m.Teams {
			for i, pl := range team {
				ts[pl] = out.Ratings[j][i]
				el[pl] = eloOut[j][i]
			}
		}
		if progress != nil && (gi+1)%1000 == 0 {
			progress(gi+1, len(ms))
		}
	}
	if res.Pairs == 0 {
		return nil, fmt.Errorf("evaluation: no pair of teams with different ranks")
	}
	res.TrueSkillFull = tsWrong / float64(res.Pairs)
	res.EloFull = eloWrong / float64(res.Pairs)

	// Challenged: each system's error on the other's tightest 20 %.
	n := max(1, len(games)/5)
	byQuality := make([]int, len(games))
	byGap := make([]int, len(games))
	for i := range games {
		byQuality[i], byGap[i] = i, i
	}
	slices.SortStableFunc(byQuality, func(a, b int) int { return cmpDesc(games[a].quality, games[b].quality) })
	slices.SortStableFunc(byGap, func(a, b int) int { return cmpDesc(games[b].eloGap, games[a].eloGap) })
	var ew, tw float64
	var ep, tp int
	for _, i := range byQuality[:n] {
		ew += games[i].eloWrong
		ep += games[i].pairs
	}
	for _, i := range byGap[:n] {
		tw += games[i].tsWrong
		tp += games[i].pairs
	}
	res.EloChallenged = ew / float64(max(ep, 1))
	res.TrueSkillChallenged = tw / float64(max(tp, 1))
	return res, nil
}

// ErrDuplicatePlayer reports a player listed twice in one match.
var ErrDuplicatePlayer = errors.New("player appears twice in one match")

// checkPlayers rejects a match in which a player is listed twice (in one
// team or in two): the rating update would treat the two entries as
// different players and keep only one result.
func (m RankedMatch) checkPlayers() error {
	seen := make(map[string][2]int)
	for j, team := range m.Teams {
		for i, pl := range team {
			if at, dup := seen[pl]; dup {
				return fmt.Errorf("evaluation: match %s: %q at team %d player %d and team %d player %d: %w",
					m.ID, pl, at[0], at[1], j, i, ErrDuplicatePlayer)
			}
			seen[pl] = [2]int{j, i}
		}
	}
	return nil
}

// cmpDesc orders larger values first.
func cmpDesc(a, b float64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}
