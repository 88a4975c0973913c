package record

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Report says what Read did besides returning matches: what a command
// prints beside its results.
type Report struct {
	// File is the name the file was read under.
	File string
	// Format is the format the header showed.
	Format Format
	// Rows counts the data rows read.
	Rows int
	// Moved counts the matches that were out of time order in the file:
	// the fewest that had to move for the stable sort by time.
	Moved int
	// Columns lists the columns read, by canonical name, in header order.
	Columns []string
	// Unknown lists the header names the reader does not know, as
	// written, in header order; their fields are checked for text and
	// otherwise ignored.
	Unknown []string
	// Lines holds, for each match returned, in the same order, the line
	// of its first row, for a caller's messages about one match.
	Lines []int
}

// Notes returns the report's lines for a user, none when the file was in
// order with only known columns.
func (r *Report) Notes() []string {
	var out []string
	if r.Moved > 0 {
		what := "matches out of time order were"
		if r.Moved == 1 {
			what = "match out of time order was"
		}
		out = append(out, fmt.Sprintf("%s: %d %s moved into place", r.File, r.Moved, what))
	}
	if len(r.Unknown) > 0 {
		out = append(out, fmt.Sprintf("%s: ignored unknown columns %s", r.File, strings.Join(quoteAll(r.Unknown), ", ")))
	}
	return out
}

// quoteAll quotes each of ss as Go would.
func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strconv.Quote(s)
	}
	return out
}

// Option configures Read.
type Option func(*config)

type config struct {
	inFileOrder bool
	format      Format
}

// InFileOrder makes a file out of time order an error rather than sorting
// it: a row earlier than the one above, or, in the long format, rows of
// one match that are not adjacent (both ErrInput). It
// suits protocols that learn in file order and treat a file out of order
// as a mistake.
func InFileOrder() Option { return func(c *config) { c.inFileOrder = true } }

// OnlyFormat reads files of format f only: a header of the other format
// is an error naming the columns f lacks (ErrInput). A Format other than
// Long and Scores leaves the format to the header.
func OnlyFormat(f Format) Option { return func(c *config) { c.format = f } }

// ReadFile opens path and reads it with Read. A file that cannot be
// opened gives os.Open's error, wrapped.
func ReadFile(path string, opts ...Option) ([]Match, Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, Report{File: path}, fmt.Errorf("record: %w", err)
	}
	defer f.Close()
	return Read(path, f, opts...)
}

// Read reads matches in the long or the scores format, told apart by the
// header (see the package comment), and returns them in time order (a
// stable sort: matches at one time keep their file order) with a Report.
// name names the input in errors and the report. A UTF-8 byte-order mark
// before the header is skipped; a header without rows gives no matches
// and no error.
//
// Read is strict: every error is a *FileError giving the place, wrapping
// ErrInput or encoding/csv's error, with a message saying which rule the
// file breaks. The file must have a header naming each column once, with
// the needed columns of one format; no field may hold a control
// character or invalid UTF-8; names are not empty or too long; times,
// ranks, scores, weights and flags parse, scores are whole numbers from 0
// and weights finite numbers from 0. In the long format, a team's rank is
// the best of its rows' ranks; the rows of a match agree on its time,
// season and neutral flag, and the rows of a team on its score and venue;
// a match has two teams or more and at most MaxPlayers players, each
// once; a venue is one home team and one away team, the home team coming
// first in the match returned. In the scores format, a team does not play
// itself; the home team wins with the higher score (ranks 1 and 2, a draw
// 1 and 1); each match's ID is its match_id if the file has one (two rows
// may not share it), else "TIME HOME v AWAY", with " #2", " #3", … for
// repeats, TIME as FormatTime writes it.
func Read(name string, r io.Reader, opts ...Option) ([]Match, Report, error) {
	var cfg config
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	if cfg.format != Long && cfg.format != Scores {
		cfg.format = 0
	}
	rd := &reader{cfg: cfg, rep: Report{File: name}}
	if r == nil {
		return nil, rd.rep, rd.fileErr(0, 0, fmt.Errorf("no reader: %w", ErrInput))
	}
	if err := rd.start(r); err != nil {
		return nil, rd.rep, err
	}
	var ms []Match
	var err error
	if rd.rep.Format == Scores {
		ms, err = rd.readScores()
	} else {
		ms, err = rd.readLong()
	}
	if err != nil {
		return nil, rd.rep, err
	}
	rd.rep.Moved = outOfOrder(ms)
	if rd.rep.Moved > 0 {
		// Sort the matches by time, stably, and their lines with them.
		at := make([]int, len(ms))
		for i := range at {
			at[i] = i
		}
		slices.SortStableFunc(at, func(a, b int) int { return ms[a].Time.Compare(ms[b].Time) })
		sorted, lines := make([]Match, len(ms)), make([]int, len(ms))
		for k, i := range at {
			sorted[k], lines[k] = ms[i], rd.rep.Lines[i]
		}
		ms, rd.rep.Lines = sorted, lines
	}
	return ms, rd.rep, nil
}

// reader reads one file row by row and reports problems at their line
// and column.
type reader struct {
	cfg   config
	rep   Report
	csv   *csv.Reader
	index [numColumns]int // field of each column, -1 if absent
	names []string        // the header as written
	rec   []string
	prev  time.Time // of the previous match, with InFileOrder
	prevS string    // its text
}

// start skips a byte-order mark, reads the header and tells the format.
func (r *reader) start(src io.Reader) error {
	br := bufio.NewReader(src)
	if bom, err := br.Peek(3); err == nil && string(bom) == "\uFEFF" {
		if _, err := br.Discard(3); err != nil {
			return r.fileErr(0, 0, err)
		}
	}
	r.csv = csv.NewReader(br)
	header, err := r.csv.Read()
	if err == io.EOF {
		return r.fileErr(0, 0, fmt.Errorf("file is empty: %w", ErrInput))
	}
	if err != nil {
		return r.wrap(err)
	}
	r.names = header
	for c := range r.index {
		r.index[c] = -1
	}
	seen := make(map[string]int, len(header))
	for i, h := range header {
		if err := CheckText("column name", h); err != nil {
			return r.errAt(i, err)
		}
		j, dup := seen[h]
		c, known := columnOf(h)
		if known && r.index[c] >= 0 {
			j, dup = r.index[c], true
		}
		if dup {
			also := ""
			if header[j] != h {
				also = fmt.Sprintf(", both read as %s", c.name())
			}
			return r.errAt(i, fmt.Errorf("column %q is also column %d%s: %w", h, j+1, also, ErrInput))
		}
		seen[h] = i
		if known {
			r.index[c] = i
		}
	}
	r.rep.Format = r.cfg.format
	if r.rep.Format == 0 {
		switch {
		case r.has(colPlayer):
			r.rep.Format = Long
		case r.has(colHome) || r.has(colAway):
			r.rep.Format = Scores
		default:
			long, _ := columnsOf(Long)
			scores, _ := columnsOf(Scores)
			return r.fileErr(r.line(), 0, fmt.Errorf("header %q is neither the long format (%s) nor the scores format (%s): %w",
				strings.Join(header, ","), columnList(long), columnList(scores), ErrInput))
		}
	}
	need, optional := columnsOf(r.rep.Format)
	for _, h := range header {
		c, known := columnOf(h)
		if known && (slices.Contains(need, c) || slices.Contains(optional, c)) {
			r.rep.Columns = append(r.rep.Columns, c.name())
			continue
		}
		if known {
			r.index[c] = -1 // a column of the other format
		}
		r.rep.Unknown = append(r.rep.Unknown, h)
	}
	for _, c := range need {
		if !r.has(c) {
			also := ""
			if len(r.rep.Unknown) > 0 {
				also = " (the header also has " + strings.Join(quoteAll(r.rep.Unknown), ", ") + ")"
			}
			return r.fileErr(r.line(), 0, fmt.Errorf("no column %q for the %s format%s: %w", c.name(), r.rep.Format, also, ErrInput))
		}
	}
	return nil
}

// has reports whether the header has column c.
func (r *reader) has(c column) bool { return r.index[c] >= 0 }

// next reads the next row into r.rec, checking the text of every field;
// it returns false at the end of the file.
func (r *reader) next() (bool, error) {
	rec, err := r.csv.Read()
	if err == io.EOF {
		return false, nil
	}
	if err != nil {
		return false, r.wrap(err)
	}
	r.rec = rec
	r.rep.Rows++
	for i, s := range rec {
		if err := CheckText("field", s); err != nil {
			return false, r.errAt(i, err)
		}
	}
	return true, nil
}

func (r *reader) fileErr(line, col int, err error) error {
	return &FileError{File: r.rep.File, Line: line, Column: col, Err: err}
}

// wrap turns a csv.ParseError into a FileError at the same place.
func (r *reader) wrap(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return r.fileErr(pe.Line, pe.Column, pe.Err)
	}
	return r.fileErr(0, 0, err)
}

// line returns the line of the current row.
func (r *reader) line() int {
	l, _ := r.csv.FieldPos(0)
	return l
}

// errAt returns err at field i of the current row.
func (r *reader) errAt(i int, err error) error {
	l, col := r.csv.FieldPos(i)
	return r.fileErr(l, col, err)
}

// errIn returns err at column c of the current row.
func (r *reader) errIn(c column, err error) error { return r.errAt(r.index[c], err) }

// field returns column c of the current row, "" if the file lacks it.
func (r *reader) field(c column) string {
	if !r.has(c) {
		return ""
	}
	return r.rec[r.index[c]]
}

// label names column c in messages as the header does.
func (r *reader) label(c column) string { return r.names[r.index[c]] }

// name returns column c of the current row, which must be a name of at
// most most bytes.
func (r *reader) name(c column, most int) (string, error) {
	s := r.field(c)
	// next has checked the text of every field, so only the length and
	// the ends are left to check.
	if s == "" || len(s) > most || nameWhy(s) != "" {
		return "", r.errIn(c, CheckName(r.label(c), s, most))
	}
	return s, nil
}

// namePair reads the names in columns a and b of the current row.
func (r *reader) namePair(a, b column) (string, string, error) {
	x, err := r.name(a, MaxName)
	if err != nil {
		return "", "", err
	}
	y, err := r.name(b, MaxName)
	return x, y, err
}

// season returns the season of the current row: "" without the column,
// else a name.
func (r *reader) season() (string, error) {
	if !r.has(colSeason) {
		return "", nil
	}
	return r.name(colSeason, MaxName)
}

// integer returns column c of the current row as an int.
func (r *reader) integer(c column) (int, error) {
	s := r.field(c)
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, r.errIn(c, fmt.Errorf("%s %q is not an integer: %w", r.label(c), s, ErrInput))
	}
	return n, nil
}

// score returns column c of the current row as a score, a whole number
// from 0; side ("home ", "away " or "") names it in the error.
func (r *reader) score(c column, side string) (int, error) {
	n, err := r.integer(c)
	if err == nil && n < 0 {
		err = r.errIn(c, fmt.Errorf("%sscore %d is negative: %w", side, n, ErrInput))
	}
	return n, err
}

// flag returns the neutral column of the current row: false when absent
// or empty, else true/false, yes/no or 1/0 in any case.
func (r *reader) flag() (bool, error) {
	s := r.field(colNeutral)
	switch strings.ToLower(s) {
	case "", "false", "no", "0", "f", "n":
		return false, nil
	case "true", "yes", "1", "t", "y":
		return true, nil
	}
	return false, r.errIn(colNeutral, fmt.Errorf("%s %q is not true or false: %w", r.label(colNeutral), s, ErrInput))
}

// weight returns the weight column of the current row and whether it was
// given: 1 and false when absent or empty.
func (r *reader) weight() (float64, bool, error) {
	s := r.field(colWeight)
	if s == "" {
		return 1, false, nil
	}
	w, err := strconv.ParseFloat(s, 64)
	if err != nil || !(w >= 0) || math.IsInf(w, 1) {
		return 0, false, r.errIn(colWeight, fmt.Errorf("%s %q is not a finite number from 0: %w", r.label(colWeight), s, ErrInput))
	}
	return w, true, nil
}

// time returns the time column of the current row, with its text.
func (r *reader) time() (time.Time, string, error) {
	s := r.field(colTime)
	t, err := ParseTime(s)
	if err != nil {
		return time.Time{}, "", r.errIn(colTime, fmt.Errorf("%s %w", r.label(colTime), err))
	}
	return t, s, nil
}

// inOrder checks, with InFileOrder, that a new match's time is not before
// the previous match's.
func (r *reader) inOrder(t time.Time, text string) error {
	if !r.cfg.inFileOrder {
		return nil
	}
	if t.Before(r.prev) {
		return r.errIn(colTime, fmt.Errorf("%s after %s: rows out of time order: %w", text, r.prevS, ErrInput))
	}
	r.prev, r.prevS = t, text
	return nil
}

// outOfOrder returns the fewest matches that must move to put ms in time
// order: their number less the longest run in order (not necessarily
// adjacent), found by patience sorting.
func outOfOrder(ms []Match) int {
	var tails []time.Time // tails[k]: the least last time of a run of k+1
	for i := range ms {
		t := ms[i].Time
		k, _ := slices.BinarySearchFunc(tails, t, func(a, b time.Time) int {
			if a.After(b) {
				return 1
			}
			return -1 // equal times extend a run
		})
		if k == len(tails) {
			tails = append(tails, t)
		} else {
			tails[k] = t
		}
	}
	return len(ms) - len(tails)
}
