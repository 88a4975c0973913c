package evaluation

import (
	"errors"
	"fmt"

	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/record"
)

// Errors matched with errors.Is, wrapped in a message naming the
// offending argument or match.
var (
	// ErrInput reports an argument outside its domain, such as a NaN, a
	// nil context or a match that fails record.Match.Validate.
	ErrInput = messages.ErrInput
	// ErrNumerical reports a forecast that fails ScorePrediction.Check or
	// a result beyond float64.
	ErrNumerical = messages.ErrNumerical
	// ErrNoData reports nothing to compute from, such as AUC of one class
	// or a ranking without two different ranks: a caller filling a table
	// can branch on it to show a gap.
	ErrNoData = errors.New("no data")
)

// checkMatch reports a match that fails record.Match.Validate, or that is
// not two teams if two is set, and with scores if scores is; what names it.
func checkMatch(what string, m *record.Match, two, scores bool) error {
	switch {
	case m == nil:
		return fmt.Errorf("%s: no match: %w", what, ErrInput)
	case two && len(m.Teams) != 2 || scores && !m.HasScores:
		return fmt.Errorf("%s: match %s has %d teams, with scores %v, where the score protocol needs two teams: %w", what, m.ID, len(m.Teams), m.HasScores, ErrInput)
	}
	if err := m.Validate(); err != nil {
		return fmt.Errorf("%s: %w", what, err) // record's errors wrap ErrInput
	}
	return nil
}
