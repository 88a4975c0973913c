package evaluation

import (
	"errors"
	"fmt"

	"github.com/skillgraph/skillgraph/record"
)

// Errors matched with errors.Is. They arrive wrapped in a message that
// names the offending argument, match or field; the loaders' errors are
// also a *FileError giving the file, line and column.
var (
	// ErrInput reports an argument or value outside its domain: slices of
	// different lengths, a training share outside [0, 1], a column count
	// below 1, a nil model or context, a negative score, a field that does
	// not parse (a score, a rank, a date), a match with too few teams or
	// with ranks that do not match its teams.
	ErrInput = record.ErrInput
	// ErrNotFinite reports a NaN or infinite number where a finite one is
	// needed.
	ErrNotFinite = errors.New("not a finite number")
	// ErrNumerical reports a result that left its range: a model's
	// predicted probability that is not in [0, 1] or a predicted score that
	// is not finite, or a mean and interval beyond float64.
	ErrNumerical = errors.New("result out of range")
	// ErrNoData reports that there is nothing to compute from: AUC with
	// one class only, MeanCI of no values, a Summary whose seasons all lack
	// the metric, a ranking without a pair of different ranks. A caller
	// filling a table can branch on it to show a gap.
	ErrNoData = errors.New("no data")
	// ErrNotFitted reports a ScoreModel asked to predict before a
	// successful Fit.
	ErrNotFitted = errors.New("model not fitted")
	// ErrName reports an empty team, player, season or match name.
	ErrName = record.ErrInput
	// ErrText reports text that is not valid UTF-8 or holds a control
	// character such as NUL, or U+FFFE or U+FFFF: such names cannot be
	// written to XML or DOT files, and in a data file they are a sign of
	// corruption.
	ErrText = record.ErrInput
	// ErrSameTeam reports a match of a team against itself.
	ErrSameTeam = record.ErrInput
	// ErrDuplicatePlayer reports a player listed twice in one match.
	ErrDuplicatePlayer = record.ErrInput
	// ErrDuplicateMatch reports one match ID used by two matches; in a
	// file, rows of one match_id that are not adjacent.
	ErrDuplicateMatch = record.ErrInput
	// ErrEmptyFile reports a file with no header, or a header and no
	// rows.
	ErrEmptyFile = record.ErrInput
	// ErrHeader reports a header that lacks a needed column or names a
	// column twice.
	ErrHeader = record.ErrInput
	// ErrDateOrder reports a row dated before the row above it: the
	// protocols learn online, in file order, so the file must be in time
	// order.
	ErrDateOrder = record.ErrInput
)

// FileError reports a problem in a data file. Line and Column are 1-based
// and count as encoding/csv does (Column in bytes); either is 0 when the
// problem concerns the whole file or the whole row.
type FileError struct {
	Path         string
	Line, Column int
	Err          error
}

// Error returns "evaluation: path:line:column: problem", the place
// written as record.FileError writes it.
func (e *FileError) Error() string {
	return "evaluation: " + (&record.FileError{File: e.Path, Line: e.Line, Column: e.Column, Err: e.Err}).Error()
}

// Unwrap returns the underlying error.
func (e *FileError) Unwrap() error { return e.Err }

// isProbability reports whether p is in [0, 1] (NaN is not).
func isProbability(p float64) bool { return p >= 0 && p <= 1 }

// checkText rejects invalid UTF-8, control characters and the two
// noncharacters XML forbids (ErrText).
func checkText(what, s string) error { return record.CheckText(what, s) }

// checkName is checkText for a name, which must also not be empty
// (ErrName).
func checkName(what, s string) error { return record.CheckName(what, s) }

// checkTeams is the rule for the two sides of a scored match or a
// prediction: two valid names, and different ones.
func checkTeams(home, away string) error {
	if err := checkName("home", home); err != nil {
		return err
	}
	if err := checkName("away", away); err != nil {
		return err
	}
	if home == away {
		return fmt.Errorf("home and away are both %q: %w", home, ErrSameTeam)
	}
	return nil
}
