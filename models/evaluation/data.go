package evaluation

import (
	"math"

	"github.com/skillgraph/skillgraph/models/scorebased"
	"github.com/skillgraph/skillgraph/record"
)

// Season returns the matches of one season, in order.
func Season(ms []record.Match, season string) []record.Match {
	var out []record.Match
	for _, m := range ms {
		if m.Season == season {
			out = append(out, m)
		}
	}
	return out
}

// DrawProbability returns the draw probability both protocols give
// TrueSkill: the share of adjacent places that are tied (for two-team
// matches, of draws), 0 without any, capped at MaxDrawProbability.
func DrawProbability(ms []record.Match) float64 {
	ties, adjacent := 0, 0
	for _, m := range ms {
		t, a := record.AdjacentTies(m.Ranks())
		ties, adjacent = ties+t, adjacent+a
	}
	if adjacent == 0 {
		return 0
	}
	return math.Min(float64(ties)/float64(adjacent), MaxDrawProbability)
}

// MaxDrawProbability caps DrawProbability: data of nothing but ties
// would give 1, an infinite draw margin; at 0.999 the margin is finite
// (about 3.3·√2·β for two players).
const MaxDrawProbability = 0.999

// Gammas returns γ for Gaussian-OD and Gaussian-SD as the protocol sets it
// from the training matches: the sample standard deviation of the scores
// and of the score differences (scorebased.EstimateGammaOD and
// EstimateGammaSD), or scorebased.DefaultParams' γ where there are fewer
// than two values or all are equal, which would make γ 0.
func Gammas(train []record.Match) (od, sd float64) {
	scores := make([]scorebased.MatchScore, 0, len(train))
	for _, m := range train {
		if len(m.Teams) == 2 {
			scores = append(scores, scorebased.MatchScore{ScoreA: float64(m.Teams[0].Score), ScoreB: float64(m.Teams[1].Score)})
		}
	}
	od, err := scorebased.EstimateGammaOD(scores)
	if err != nil {
		od = scorebased.DefaultParams().Gamma
	}
	sd, err = scorebased.EstimateGammaSD(scores)
	if err != nil {
		sd = scorebased.DefaultParams().Gamma
	}
	return od, sd
}
