package trueskill

import (
	"fmt"
	"strings"

	"github.com/skillgraph/skillgraph/messages"
)

// The errors trueskill returns wrap one of the project's three (package
// messages), so that errors.Is(err, trueskill.ErrInput) serves every bad
// argument; an *InputError (errors.As) says which argument it was.
var (
	// ErrInput reports an argument outside the model's domain (see
	// Params.Validate and Match): a parameter or rating out of range, a
	// match of the wrong shape.
	ErrInput = messages.ErrInput
	// ErrImpossible reports an outcome the model gives probability zero: a
	// draw between teams whose draw margin is 0.
	ErrImpossible = messages.ErrImpossible
	// ErrNumerical reports inference whose answer float64 cannot carry, or
	// a result that is not a finite rating; every path checks its results
	// and reports this instead of returning NaN or ±Inf.
	ErrNumerical = messages.ErrNumerical
	// ErrConcurrentUse is returned (unwrapped) by a Rater called while
	// another call on it is running: a Rater is for one goroutine.
	ErrConcurrentUse = fmt.Errorf("trueskill: Rater used by two goroutines at once: %w", messages.ErrInput)
)

// InputError locates the argument an error is about: Field names it (e.g.
// "Teams.Sigma", "Ranks", "Weights", "Params.Beta"), Index its team, then
// player, when it applies, and Value its value. Err says what is wrong
// with it and wraps ErrInput, ErrImpossible or ErrNumerical.
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

// Unwrap returns the reason, which wraps the vocabulary error.
func (e *InputError) Unwrap() error { return e.Err }

// inputErr reports that field[index] = v is outside the domain: why says
// how.
func inputErr(field, why string, v float64, index ...int) error {
	return &InputError{Field: field, Index: index, Value: v, Err: fmt.Errorf("%s: %w", why, ErrInput)}
}

// numErr reports that what was computed from field[index] = v is out of
// float64's range.
func numErr(field, why string, v float64, index ...int) error {
	return &InputError{Field: field, Index: index, Value: v, Err: fmt.Errorf("%s: %w", why, ErrNumerical)}
}
