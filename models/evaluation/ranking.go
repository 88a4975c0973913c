package evaluation

import (
	"context"
	"fmt"
	"slices"

	"github.com/skillgraph/skillgraph/models/elo"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

// RankingResult is the TrueSkill paper's section 4.1 table for one data
// set: prediction errors (share of team pairs predicted in the wrong
// order), over all games and "challenged".
type RankingResult struct {
	Games, Pairs int
	// DrawProbability is the function DrawProbability of the matches: the
	// empirical share of tied adjacent teams, capped at
	// MaxDrawProbability. It sets TrueSkill's draw margin.
	DrawProbability        float64
	EloFull, TrueSkillFull float64
	// EloChallenged is Elo's error on the 20 % of games TrueSkill judged
	// most tightly matched (highest match quality), TrueSkillChallenged is
	// TrueSkill's error on the 20 % Elo judged tightest (smallest rating
	// difference).
	EloChallenged, TrueSkillChallenged float64
}

// RankingExperiment predicts every game of ms before rating it (online),
// with TrueSkill (params, its draw probability replaced by
// DrawProbability(ms)) and Elo (eloParams, duelling heuristic for teams and
// more than two teams). A team's predicted strength is the sum of its
// players' μ (TrueSkill) or ratings (Elo). Elo's tightness of a game is the
// mean absolute rating difference between adjacent teams in its predicted
// order (for two teams, |s₁ − s₂| as in the paper); TrueSkill's is the
// match quality (eq. 7 and its k-team form). progress, if not nil, is
// called every 1,000 games.
//
// Every match must pass RankedMatch.Validate and have its own ID
// (ErrDuplicateMatch), since errors name games by ID; ctx must not be nil
// (ErrInput); ms needs a pair of teams with different ranks (ErrNoData).
// Invalid params or eloParams come back as the trueskill or elo error.
func RankingExperiment(ctx context.Context, ms []RankedMatch, params trueskill.Params, eloParams elo.Params, progress func(done, total int)) (*RankingResult, error) {
	if ctx == nil {
		return nil, fmt.Errorf("evaluation: RankingExperiment: nil context: %w", ErrInput)
	}
	ids := make(map[string]int, len(ms))
	for i, m := range ms {
		if err := m.Validate(); err != nil {
			return nil, err
		}
		if j, dup := ids[m.ID]; dup {
			return nil, fmt.Errorf("evaluation: RankingExperiment: ms[%d] and ms[%d] are both match %s: %w", j, i, m.ID, ErrDuplicateMatch)
		}
		ids[m.ID] = i
	}
	res := &RankingResult{Games: len(ms), DrawProbability: DrawProbability(ms)}
	params.DrawProbability = res.DrawProbability
	if err := params.Validate(); err != nil {
		return nil, fmt.Errorf("evaluation: RankingExperiment: %w", err)
	}
	if err := eloParams.Validate(); err != nil {
		return nil, fmt.Errorf("evaluation: RankingExperiment: %w", err)
	}
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
		var err error
		if g.tsWrong, g.pairs, err = PairErrors(tsStrength, m.Ranks); err != nil {
			return nil, fmt.Errorf("evaluation: game %s: TrueSkill: %w", m.ID, err)
		}
		if g.eloWrong, _, err = PairErrors(eloStrength, m.Ranks); err != nil {
			return nil, fmt.Errorf("evaluation: game %s: Elo: %w", m.ID, err)
		}
		q, err := params.Quality(tsTeams, nil)
		if err != nil {
			return nil, fmt.Errorf("evaluation: game %s: %w", m.ID, err)
		}
		if !finite(q) {
			return nil, fmt.Errorf("evaluation: game %s: match quality %v: %w", m.ID, q, ErrNumerical)
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
		return nil, fmt.Errorf("evaluation: RankingExperiment: no pair of teams with different ranks: %w", ErrNoData)
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
