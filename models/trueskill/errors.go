package trueskill

import (
	"errors"
	"fmt"
	"strings"
)

// Errors matched with errors.Is; they arrive wrapped in an *InputError that
// names the offending field and position.
var (
	ErrNotFinite   = errors.New("not a finite number")
	ErrNotPositive = errors.New("not a finite positive number")
	ErrNegative    = errors.New("negative or not finite")
	ErrProbability = errors.New("not a probability in [0, 1)")
	ErrTooFewTeams = errors.New("a match needs at least two teams")
	ErrEmptyTeam   = errors.New("team has no players")
	ErrShape       = errors.New("wrong shape")
	// ErrNumerical reports inference that left the floating-point range:
	// ratings and margins so extreme (upsets of 1e20 standard deviations,
	// precisions beyond 1e300) that no finite answer exists in float64. It
	// wraps the engine's error.
	ErrNumerical   = errors.New("numbers out of floating-point range")
	ErrZeroWeights = errors.New("all weights of a team are 0: such a team can only face one other team")
	ErrDrawMargin  = errors.New("a draw is observed but the draw margin is 0 (DrawProbability 0), so it has probability zero")
	// ErrConcurrentUse is returned (unwrapped) by a Rater called while
	// another call on it is running: a Rater is for one goroutine.
	ErrConcurrentUse = errors.New("trueskill: Rater used by two goroutines at once")
)

// InputError reports invalid input: Field names it (e.g. "Teams", "Ranks",
// "Weights", "Params.Beta") and Index locates it (team, then player), when
// it applies.
type InputError struct {
	Field string
	Index []int
	Value float64
	Err   error
}

// Error names the field, its index and value, and the problem.
func (e *InputError) Error() string {
	var sb strings.Builder
	sb.WriteString("trueskill: ")
	sb.WriteString(e.Field)
	for _, i := range e.Index {
		fmt.Fprintf(&sb, "[%d]", i)
	}
	fmt.Fprintf(&sb, " = %v: %v", e.Value, e.Err)
	return sb.String()
}

// Unwrap returns the sentinel error.
func (e *InputError) Unwrap() error { return e.Err }

func inputErr(field string, err error, v float64, index ...int) error {
	return &InputError{Field: field, Index: index, Value: v, Err: err}
}
