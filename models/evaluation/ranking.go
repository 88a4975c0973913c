package evaluation

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/models/elo"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

// RankingResult is the TrueSkill paper's section 4.1 table for one data
// set: prediction errors (share of team pairs predicted in the wrong
// order), over all games and "challenged", with 95 % intervals.
//
// The intervals treat games as the independent units (pairs within a game
// are not): each error is a ratio Σ wrong / Σ pairs over games, and its
// half-width is 1.96 times the linearised (delta-method) standard error of
// that ratio, √(n/(n − 1)·Σ_g (wrong_g − E·pairs_g)²)/Σ pairs.
type RankingResult struct {
	Games, Pairs int
	// EmpiricalDrawProbability is DrawProbability of the matches: the share
	// of tied adjacent teams, capped at MaxDrawProbability.
	// DrawProbability is the one TrueSkill's draw margin was set from: the
	// empirical one unless WithDrawProbability gave another.
	EmpiricalDrawProbability, DrawProbability float64
	// Ties is how a predicted tie was scored.
	Ties                   TieRule
	EloFull, TrueSkillFull float64
	// EloChallenged is Elo's error on the 20 % of games (⌊Games/5⌋, at
	// least 1) TrueSkill judged most tightly matched (highest match
	// quality), TrueSkillChallenged is TrueSkill's error on the 20 % Elo
	// judged tightest (highest EloLogQuality). Games of equal tightness
	// keep their order in the data.
	EloChallenged, TrueSkillChallenged float64
	ChallengedGames                    int
	// Half-widths of the 95 % intervals of the four errors.
	EloFullHalf, TrueSkillFullHalf, EloChallengedHalf, TrueSkillChallengedHalf float64
	// FullDifference is EloFull − TrueSkillFull, paired by game, with its
	// 95 % half-width and the two-sided p-value of "no difference" (normal
	// approximation).
	FullDifference, FullDifferenceHalf, FullDifferenceP float64
}

// RankingOption changes a setting of RankingExperiment.
type RankingOption func(*rankingConfig)

type rankingConfig struct {
	ties    TieRule
	draw    float64
	drawSet bool
}

// WithTies sets how a pair of teams predicted equal in strength is scored
// (TiesWrong by default).
func WithTies(r TieRule) RankingOption { return func(c *rankingConfig) { c.ties = r } }

// WithDrawProbability sets TrueSkill's draw probability to p instead of
// the data's DrawProbability. p must be in [0, 1) (ErrInput).
func WithDrawProbability(p float64) RankingOption {
	return func(c *rankingConfig) { c.draw, c.drawSet = p, true }
}

// RankingExperiment predicts every game of ms before rating it (online),
// with TrueSkill (params, its draw probability replaced by
// DrawProbability(ms) or WithDrawProbability's) and Elo (eloParams,
// duelling heuristic for teams and more than two teams). A team's predicted
// strength is the sum of its players' μ (TrueSkill) or ratings (Elo); a
// predicted tie between teams of different ranks is an error unless
// WithTies(TiesHalf) is given. TrueSkill's tightness of a game is its match
// quality (eq. 7 and its k-team form, trueskill.Params.Quality); Elo's is
// the same quality with every σ = 0 (EloLogQuality, which derives it).
// progress, if not nil, is called every 1,000 games.
//
// Every match must pass RankedMatch.Validate and have its own ID
// (ErrDuplicateMatch), since errors name games by ID; ctx must not be nil
// (ErrInput); ms needs a pair of teams with different ranks (ErrNoData).
// An unknown tie rule or a draw probability outside [0, 1) is ErrInput.
// Invalid params or eloParams come back as the trueskill or elo error.
func RankingExperiment(ctx context.Context, ms []RankedMatch, params trueskill.Params, eloParams elo.Params, progress func(done, total int), opts ...RankingOption) (*RankingResult, error) {
	if ctx == nil {
		return nil, fmt.Errorf("evaluation: RankingExperiment: nil context: %w", ErrInput)
	}
	var cfg rankingConfig
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	if _, err := cfg.ties.weight(); err != nil {
		return nil, fmt.Errorf("evaluation: RankingExperiment: %w", err)
	}
	if cfg.drawSet && !(cfg.draw >= 0 && cfg.draw < 1) {
		return nil, fmt.Errorf("evaluation: RankingExperiment: draw probability %v is not in [0, 1): %w", cfg.draw, ErrInput)
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
	res := &RankingResult{Games: len(ms), EmpiricalDrawProbability: DrawProbability(ms), Ties: cfg.ties}
	res.DrawProbability = res.EmpiricalDrawProbability
	if cfg.drawSet {
		res.DrawProbability = cfg.draw
	}
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
	games := make([]gameErrors, 0, len(ms))
	for gi, m := range ms {
		tsTeams := make([][]trueskill.Rating, len(m.Teams))
		eloTeams := make([][]float64, len(m.Teams))
		tsStrength := make([]float64, len(m.Teams))
		eloStrength := make([]float64, len(m.Teams))
		sizes := make([]int, len(m.Teams))
		for j, team := range m.Teams {
			sizes[j] = len(team)
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
		var g gameErrors
		var err error
		if g.ts, g.pairs, err = PairErrors(tsStrength, m.Ranks, cfg.ties); err != nil {
			return nil, fmt.Errorf("evaluation: game %s: TrueSkill: %w", m.ID, err)
		}
		if g.elo, _, err = PairErrors(eloStrength, m.Ranks, cfg.ties); err != nil {
			return nil, fmt.Errorf("evaluation: game %s: Elo: %w", m.ID, err)
		}
		q, err := params.Quality(tsTeams, nil)
		if err != nil {
			return nil, fmt.Errorf("evaluation: game %s: %w", m.ID, err)
		}
		if !messages.IsFinite(q) {
			return nil, fmt.Errorf("evaluation: game %s: match quality %v: %w", m.ID, q, ErrNumerical)
		}
		g.quality = q
		if g.eloLogQuality, err = EloLogQuality(eloStrength, sizes, eloParams.Beta); err != nil {
			return nil, fmt.Errorf("evaluation: game %s: Elo: %w", m.ID, err)
		}
		games = append(games, g)
		res.Pairs += g.pairs

		out, err := rater.Rate(ctx, trueskill.Match{Teams: tsTeams, Ranks: m.Ranks})
		if err != nil {
			return nil, fmt.Errorf("evaluation: game %s: %w", m.ID, err)
		}
		eloOut, err := eloParams.Rate(ctx, eloTeams, m.Ranks)
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
	eloOf := func(g gameErrors) float64 { return g.elo }
	tsOf := func(g gameErrors) float64 { return g.ts }
	res.EloFull, res.EloFullHalf = ratioCI(games, eloOf)
	res.TrueSkillFull, res.TrueSkillFullHalf = ratioCI(games, tsOf)
	res.FullDifference, res.FullDifferenceHalf = ratioCI(games, func(g gameErrors) float64 { return g.elo - g.ts })
	if se := res.FullDifferenceHalf / z975; se > 0 {
		res.FullDifferenceP = 2 * messages.NormCDF(-math.Abs(res.FullDifference)/se)
	} else if res.FullDifference == 0 {
		res.FullDifferenceP = 1
	}

	// Challenged: each system's error on the other's tightest 20 %.
	n := max(1, len(games)/5)
	res.ChallengedGames = n
	byQuality := make([]int, len(games))
	byElo := make([]int, len(games))
	for i := range games {
		byQuality[i], byElo[i] = i, i
	}
	slices.SortStableFunc(byQuality, func(a, b int) int { return cmpDesc(games[a].quality, games[b].quality) })
	slices.SortStableFunc(byElo, func(a, b int) int { return cmpDesc(games[a].eloLogQuality, games[b].eloLogQuality) })
	res.EloChallenged, res.EloChallengedHalf = ratioCI(pick(games, byQuality[:n]), eloOf)
	res.TrueSkillChallenged, res.TrueSkillChallengedHalf = ratioCI(pick(games, byElo[:n]), tsOf)
	return res, nil
}

// gameErrors is one game of RankingExperiment: each system's errors over its
// pairs, and each system's tightness.
type gameErrors struct {
	ts, elo                float64
	pairs                  int
	quality, eloLogQuality float64
}

// pick returns the games at idx.
func pick(games []gameErrors, idx []int) []gameErrors {
	out := make([]gameErrors, len(idx))
	for k, i := range idx {
		out[k] = games[i]
	}
	return out
}

// z975 is the 97.5 % quantile of the standard normal distribution.
const z975 = 1.959963984540054

// ratioCI returns Σ wrong(g) / Σ pairs over games and the half-width of
// its 95 % interval by the delta method, games being the units (0 for a
// single game or no pairs).
func ratioCI(games []gameErrors, wrong func(gameErrors) float64) (ratio, half float64) {
	var w, p float64
	for _, g := range games {
		w += wrong(g)
		p += float64(g.pairs)
	}
	if p == 0 {
		return 0, 0
	}
	ratio = w / p
	n := float64(len(games))
	if n < 2 {
		return ratio, 0
	}
	var ss float64
	for _, g := range games {
		r := wrong(g) - ratio*float64(g.pairs)
		ss += r * r
	}
	return ratio, z975 * math.Sqrt(n/(n-1)*ss) / p
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
