package evaluation

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/models/elo"
	"github.com/skillgraph/skillgraph/models/trueskill"
	"github.com/skillgraph/skillgraph/record"
)

// RankingResult is the TrueSkill paper's section 4.1 table for one data
// set: prediction errors (share of team pairs predicted in the wrong
// order), over all games and "challenged", with 95 % intervals (ratioCI).
type RankingResult struct {
	Games, Pairs int
	// EmpiricalDrawProbability is DrawProbability of the matches;
	// DrawProbability is the one TrueSkill's draw margin was set from.
	EmpiricalDrawProbability, DrawProbability float64
	Ties                                      TieRule // how a predicted tie was scored
	EloFull, TrueSkillFull                    float64
	// EloChallenged is Elo's error on the ChallengedGames (⌊Games/5⌋, at
	// least 1) of highest TrueSkill match quality, TrueSkillChallenged
	// TrueSkill's on those of highest EloLogQuality; ties keep data order.
	EloChallenged, TrueSkillChallenged float64
	ChallengedGames                    int
	// Half-widths of the 95 % intervals of the four errors.
	EloFullHalf, TrueSkillFullHalf, EloChallengedHalf, TrueSkillChallengedHalf float64
	// FullDifference is EloFull − TrueSkillFull, paired by game, with its
	// half-width and the two-sided p-value of "no difference" (normal).
	FullDifference, FullDifferenceHalf, FullDifferenceP float64
}

// RankingConfig holds the settings of RankingExperiment; the zero value
// is the protocol's. DrawProbability, if not nil, replaces the data's
// DrawProbability for TrueSkill; Progress, if not nil, is called every
// 1,000 games.
type RankingConfig struct {
	Ties            TieRule
	DrawProbability *float64
	Progress        func(done, total int)
}

// RankingExperiment predicts every game of ms before rating it (online),
// with TrueSkill (params, its draw probability set as cfg says) and Elo
// (eloParams, duelling heuristic for teams and more than two teams). A
// team's predicted strength is the sum of its players' μ (TrueSkill) or
// ratings (Elo). TrueSkill's tightness of a game is its match quality
// (eq. 7 and its k-team form, trueskill.Params.Quality); Elo's is the same
// quality with every σ = 0 (EloLogQuality, which derives it).
//
// Every match must pass record.Match.Validate and have its own ID, ctx
// must not be nil, and cfg must hold a known tie rule and a draw
// probability in [0, 1) (ErrInput); ms needs a pair of teams with
// different ranks (ErrNoData). Invalid params or eloParams come back as
// the trueskill or elo error.
func RankingExperiment(ctx context.Context, ms []record.Match, params trueskill.Params, eloParams elo.Params, cfg RankingConfig) (*RankingResult, error) {
	if err := checkRanking(ctx, ms, cfg); err != nil {
		return nil, fmt.Errorf("evaluation: RankingExperiment: %w", err)
	}
	res := &RankingResult{Games: len(ms), EmpiricalDrawProbability: DrawProbability(ms), Ties: cfg.Ties}
	res.DrawProbability = res.EmpiricalDrawProbability
	if cfg.DrawProbability != nil {
		res.DrawProbability = *cfg.DrawProbability
	}
	params.DrawProbability = res.DrawProbability
	if err := params.Validate(); err != nil {
		return nil, fmt.Errorf("evaluation: RankingExperiment: %w", err)
	}
	if err := eloParams.Validate(); err != nil {
		return nil, fmt.Errorf("evaluation: RankingExperiment: %w", err)
	}
	r := ranker{ts: params, elo: eloParams, ties: cfg.Ties, rater: params.NewRater(),
		tsRatings: map[string]trueskill.Rating{}, eloRatings: map[string]float64{}}
	games := make([]gameErrors, len(ms))
	for gi := range ms {
		var err error
		if games[gi], err = r.game(ctx, &ms[gi]); err != nil {
			return nil, fmt.Errorf("evaluation: game %s: %w", ms[gi].ID, err)
		}
		res.Pairs += games[gi].pairs
		if cfg.Progress != nil && (gi+1)%1000 == 0 {
			cfg.Progress(gi+1, len(ms))
		}
	}
	if res.Pairs == 0 {
		return nil, fmt.Errorf("evaluation: RankingExperiment: no pair of teams with different ranks: %w", ErrNoData)
	}
	res.summarise(games)
	return res, nil
}

// checkRanking checks RankingExperiment's arguments but the parameters.
func checkRanking(ctx context.Context, ms []record.Match, cfg RankingConfig) error {
	if ctx == nil {
		return fmt.Errorf("nil context: %w", ErrInput)
	}
	if _, err := cfg.Ties.weight(); err != nil {
		return err
	}
	if p := cfg.DrawProbability; p != nil && !(*p >= 0 && *p < 1) {
		return fmt.Errorf("draw probability %v is not in [0, 1): %w", *p, ErrInput)
	}
	ids := make(map[string]int, len(ms))
	for i := range ms {
		if err := checkMatch(fmt.Sprintf("ms[%d]", i), &ms[i], false, false); err != nil {
			return err
		}
		if j, dup := ids[ms[i].ID]; dup {
			return fmt.Errorf("ms[%d] and ms[%d] are both match %s: %w", j, i, ms[i].ID, ErrInput)
		}
		ids[ms[i].ID] = i
	}
	return nil
}

// ranker holds both systems' ratings through RankingExperiment.
type ranker struct {
	ts         trueskill.Params
	elo        elo.Params
	ties       TieRule
	rater      *trueskill.Rater
	tsRatings  map[string]trueskill.Rating
	eloRatings map[string]float64
}

// game predicts m with both systems, then rates it.
func (r *ranker) game(ctx context.Context, m *record.Match) (gameErrors, error) {
	var g gameErrors
	n := len(m.Teams)
	tsTeams, eloTeams := make([][]trueskill.Rating, n), make([][]float64, n)
	tsStrength, eloStrength, sizes := make([]float64, n), make([]float64, n), make([]int, n)
	for j, team := range m.Teams {
		sizes[j] = len(team.Players)
		for _, pl := range team.Players {
			t, ok := r.tsRatings[pl]
			if !ok {
				t = r.ts.NewRating()
			}
			e, ok := r.eloRatings[pl]
			if !ok {
				e = r.elo.Initial
			}
			tsTeams[j], eloTeams[j] = append(tsTeams[j], t), append(eloTeams[j], e)
			tsStrength[j] += t.Mu
			eloStrength[j] += e
		}
	}
	ranks := m.Ranks()
	var err error
	if g.ts, g.pairs, err = PairErrors(tsStrength, ranks, r.ties); err != nil {
		return g, fmt.Errorf("ranked by TrueSkill: %w", err)
	}
	if g.elo, _, err = PairErrors(eloStrength, ranks, r.ties); err != nil {
		return g, fmt.Errorf("ranked by Elo: %w", err)
	}
	if g.quality, err = r.ts.Quality(tsTeams, nil); err != nil {
		return g, err
	}
	if !messages.IsFinite(g.quality) {
		return g, fmt.Errorf("match quality %v: %w", g.quality, ErrNumerical)
	}
	if g.eloLogQuality, err = EloLogQuality(eloStrength, sizes, r.elo.Beta); err != nil {
		return g, fmt.Errorf("tightness by Elo: %w", err)
	}
	out, err := r.rater.Rate(ctx, trueskill.Match{Teams: tsTeams, Ranks: ranks})
	if err != nil {
		return g, err
	}
	eloOut, err := r.elo.Rate(ctx, eloTeams, ranks)
	if err != nil {
		return g, err
	}
	for j, team := range m.Teams {
		for i, pl := range team.Players {
			r.tsRatings[pl], r.eloRatings[pl] = out.Ratings[j][i], eloOut[j][i]
		}
	}
	return g, nil
}

// summarise fills in the errors of res from the games'.
func (res *RankingResult) summarise(games []gameErrors) {
	eloOf := func(g gameErrors) float64 { return g.elo }
	tsOf := func(g gameErrors) float64 { return g.ts }
	res.EloFull, res.EloFullHalf = ratioCI(games, eloOf)
	res.TrueSkillFull, res.TrueSkillFullHalf = ratioCI(games, tsOf)
	res.FullDifference, res.FullDifferenceHalf = ratioCI(games, func(g gameErrors) float64 { return g.elo - g.ts })
	if se := res.FullDifferenceHalf / z975(); se > 0 {
		res.FullDifferenceP = 2 * messages.NormCDF(-math.Abs(res.FullDifference)/se)
	} else if res.FullDifference == 0 {
		res.FullDifferenceP = 1
	}
	n := max(1, len(games)/5)
	res.ChallengedGames = n
	tightest := slices.Clone(games)
	slices.SortStableFunc(tightest, func(a, b gameErrors) int { return cmp.Compare(b.quality, a.quality) })
	res.EloChallenged, res.EloChallengedHalf = ratioCI(tightest[:n], eloOf)
	copy(tightest, games)
	slices.SortStableFunc(tightest, func(a, b gameErrors) int { return cmp.Compare(b.eloLogQuality, a.eloLogQuality) })
	res.TrueSkillChallenged, res.TrueSkillChallengedHalf = ratioCI(tightest[:n], tsOf)
}

// gameErrors is each system's errors over a game's pairs and tightness.
type gameErrors struct {
	ts, elo, quality, eloLogQuality float64
	pairs                           int
}

// z975 returns Φ⁻¹(0.975), the 97.5 % quantile of the standard normal.
func z975() float64 { return messages.NormQuantile(0.975) }

// ratioCI returns the error Σ wrong(g) / Σ pairs over games and the
// half-width of its 95 % interval, games being the independent units
// (pairs within a game are not): 1.96 times the linearised (delta-method)
// standard error of the ratio, √(n/(n − 1)·Σ_g (wrong_g − E·pairs_g)²)/Σ
// pairs (0 for a single game or no pairs).
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
	return ratio, z975() * math.Sqrt(n/(n-1)*ss) / p
}
