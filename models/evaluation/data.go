package evaluation

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"time"
)

// ScoredMatch is a two-team match with scores.
type ScoredMatch struct {
	Date, Season, Home, Away string
	HomeScore, AwayScore     int
}

// Ranks returns the outcome as ranks of (home, away), lower is better:
// {0, 1} for a home win, {1, 0} for an away win, {0, 0} for a draw.
func (m ScoredMatch) Ranks() []int {
	switch {
	case m.HomeScore == m.AwayScore:
		return []int{0, 0}
	case m.HomeScore < m.AwayScore:
		return []int{1, 0}
	}
	return []int{0, 1}
}

// Validate reports a match that no model can learn from: an empty team
// name (ErrName) or one with a control character or invalid UTF-8
// (ErrText), a team playing itself (ErrSameTeam), or a negative score
// (ErrInput). Date and Season are not read by the experiments, which take
// matches in slice order, so they are only checked for text (ErrText).
func (m ScoredMatch) Validate() error {
	err := checkTeams(m.Home, m.Away)
	if err == nil {
		err = checkText("date", m.Date)
	}
	if err == nil {
		err = checkText("season", m.Season)
	}
	if err == nil {
		err = checkScore("home score", m.HomeScore)
	}
	if err == nil {
		err = checkScore("away score", m.AwayScore)
	}
	if err != nil {
		return fmt.Errorf("evaluation: match %q v %q: %w", m.Home, m.Away, err)
	}
	return nil
}

// checkScore rejects a negative score.
func checkScore(what string, s int) error {
	if s < 0 {
		return fmt.Errorf("%s %d is negative: %w", what, s, ErrInput)
	}
	return nil
}

// RankedMatch is a match of any number of teams: the players of each team
// and the teams' ranks (lower is better, equal ranks tie).
type RankedMatch struct {
	ID, Date string
	Teams    [][]string
	Ranks    []int
}

// Validate reports a match that cannot be rated: an ID or player name
// that is empty (ErrName) or holds a control character or invalid UTF-8
// (ErrText); fewer than two teams, an empty team, or not one rank per team
// (ErrInput); a player listed twice, in one team or in two
// (ErrDuplicatePlayer), which the rating update would treat as two players
// and keep only one result of.
func (m RankedMatch) Validate() error {
	if err := checkName("match ID", m.ID); err != nil {
		return fmt.Errorf("evaluation: %w", err)
	}
	fail := func(format string, a ...any) error {
		return fmt.Errorf("evaluation: match %s: "+format, append([]any{m.ID}, a...)...)
	}
	if err := checkText("date", m.Date); err != nil {
		return fail("%w", err)
	}
	if len(m.Teams) < 2 {
		return fail("%d teams, need at least 2: %w", len(m.Teams), ErrInput)
	}
	if len(m.Ranks) != len(m.Teams) {
		return fail("%d ranks for %d teams: %w", len(m.Ranks), len(m.Teams), ErrInput)
	}
	seen := make(map[string][2]int)
	for j, team := range m.Teams {
		if len(team) == 0 {
			return fail("team %d has no players: %w", j, ErrInput)
		}
		for i, pl := range team {
			if err := checkName(fmt.Sprintf("team %d player %d", j, i), pl); err != nil {
				return fail("%w", err)
			}
			if at, dup := seen[pl]; dup {
				return fail("%q at team %d player %d and team %d player %d: %w", pl, at[0], at[1], j, i, ErrDuplicatePlayer)
			}
			seen[pl] = [2]int{j, i}
		}
	}
	return nil
}

// dateLayout is the date format of the data files, YYYY-MM-DD.
const dateLayout = time.DateOnly

// csvFile reads a CSV data file with a header, row by row, and reports
// problems at their line and column.
type csvFile struct {
	path string
	r    *csv.Reader
	col  map[string]int
	rec  []string
	date string // of the previous row
}

// newCSV reads the header from r and checks that it names each of need
// exactly once. A UTF-8 byte-order mark before the header, as spreadsheet
// programs write, is skipped.
func newCSV(path string, r io.Reader, need ...string) (*csvFile, error) {
	br := bufio.NewReader(r)
	if bom, err := br.Peek(3); err == nil && string(bom) == "\uFEFF" {
		if _, err := br.Discard(3); err != nil {
			return nil, &FileError{Path: path, Err: err}
		}
	}
	c := &csvFile{path: path, r: csv.NewReader(br), col: map[string]int{}}
	header, err := c.r.Read()
	if err == io.EOF {
		return nil, &FileError{Path: path, Err: ErrEmptyFile}
	}
	if err != nil {
		return nil, c.wrap(err)
	}
	for i, h := range header {
		if err := checkText("column name", h); err != nil {
			return nil, c.errAt(i, err)
		}
		if j, dup := c.col[h]; dup {
			return nil, c.errAt(i, fmt.Errorf("column %q is also column %d: %w", h, j+1, ErrHeader))
		}
		c.col[h] = i
	}
	for _, n := range need {
		if _, ok := c.col[n]; !ok {
			return nil, &FileError{Path: path, Line: c.line(), Err: fmt.Errorf("no column %q: %w", n, ErrHeader)}
		}
	}
	return c, nil
}

// next reads the next row into c.rec, checking the text of every field;
// it returns false at the end of the file.
func (c *csvFile) next() (bool, error) {
	rec, err := c.r.Read()
	if err == io.EOF {
		return false, nil
	}
	if err != nil {
		return false, c.wrap(err)
	}
	c.rec = rec
	for i, s := range rec {
		if err := checkText("field", s); err != nil {
			return false, c.errAt(i, err)
		}
	}
	return true, nil
}

// wrap turns a csv.ParseError into a FileError at the same place.
func (c *csvFile) wrap(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &FileError{Path: c.path, Line: pe.Line, Column: pe.Column, Err: pe.Err}
	}
	return &FileError{Path: c.path, Err: err}
}

// line returns the line of the current row.
func (c *csvFile) line() int {
	l, _ := c.r.FieldPos(0)
	return l
}

// field returns the named field of the current row.
func (c *csvFile) field(name string) string { return c.rec[c.col[name]] }

// errAt returns err at field i of the current row.
func (c *csvFile) errAt(i int, err error) error {
	l, col := c.r.FieldPos(i)
	return &FileError{Path: c.path, Line: l, Column: col, Err: err}
}

// errIn returns err at the named field of the current row.
func (c *csvFile) errIn(name string, err error) error { return c.errAt(c.col[name], err) }

// name returns the named field of the current row, which must be a name.
func (c *csvFile) name(col string) (string, error) {
	s := c.field(col)
	if err := checkName(col, s); err != nil {
		return "", c.errIn(col, err)
	}
	return s, nil
}

// integer returns the named field of the current row as an int.
func (c *csvFile) integer(col string) (int, error) {
	s := c.field(col)
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, c.errIn(col, fmt.Errorf("%s %q is not an integer: %w", col, s, ErrInput))
	}
	return n, nil
}

// checkDate checks the date column of the current row: a valid
// YYYY-MM-DD date, not before the previous row's (the layout sorts
// as text in time order).
func (c *csvFile) checkDate() (string, error) {
	s := c.field("date")
	if _, err := time.Parse(dateLayout, s); err != nil {
		return "", c.errIn("date", fmt.Errorf("date %q is not YYYY-MM-DD: %w", s, ErrInput))
	}
	if s < c.date {
		return "", c.errIn("date", fmt.Errorf("%s after %s: %w", s, c.date, ErrDateOrder))
	}
	c.date = s
	return s, nil
}

// readFile opens path and reads it with read.
func readFile[T any](path string, read func(string, io.Reader) (T, error)) (T, error) {
	f, err := os.Open(path)
	if err != nil {
		var zero T
		return zero, fmt.Errorf("evaluation: %w", err)
	}
	defer f.Close()
	return read(path, f)
}

// LoadScored reads a file with columns date, season, home, away,
// home_score, away_score (the league files of examples/data; other
// columns are ignored), in file order. The loader is strict, and its errors
// are a *FileError giving the line and column: the file must have rows
// (ErrEmptyFile) and name each column once (ErrHeader); dates are
// YYYY-MM-DD and never go back (ErrInput, ErrDateOrder); seasons and teams
// are not empty (ErrName); a team does not play itself (ErrSameTeam);
// scores are integers from 0 (ErrInput); no field holds a control
// character or invalid UTF-8 (ErrText). A UTF-8 byte-order mark is
// skipped.
func LoadScored(path string) ([]ScoredMatch, error) {
	return readFile(path, readScored)
}

func readScored(path string, r io.Reader) ([]ScoredMatch, error) {
	c, err := newCSV(path, r, "date", "season", "home", "away", "home_score", "away_score")
	if err != nil {
		return nil, err
	}
	var out []ScoredMatch
	for {
		ok, err := c.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		var m ScoredMatch
		if m.Date, err = c.checkDate(); err != nil {
			return nil, err
		}
		if m.Season, err = c.name("season"); err != nil {
			return nil, err
		}
		if m.Home, err = c.name("home"); err != nil {
			return nil, err
		}
		if m.Away, err = c.name("away"); err != nil {
			return nil, err
		}
		if m.HomeScore, err = c.integer("home_score"); err != nil {
			return nil, err
		}
		if m.AwayScore, err = c.integer("away_score"); err != nil {
			return nil, err
		}
		if err := m.Validate(); err != nil {
			return nil, c.errIn(c.firstBad(m), errors.Unwrap(err))
		}
		out = append(out, m)
	}
	if len(out) == 0 {
		return nil, &FileError{Path: path, Err: fmt.Errorf("a header and no rows: %w", ErrEmptyFile)}
	}
	return out, nil
}

// firstBad returns the column to blame for m failing Validate after each
// field parsed: the away team for a team playing itself, else the score
// that is negative.
func (c *csvFile) firstBad(m ScoredMatch) string {
	switch {
	case m.Home == m.Away:
		return "away"
	case m.HomeScore < 0:
		return "home_score"
	}
	return "away_score"
}

// Seasons returns the seasons of ms in order of first appearance.
func Seasons(ms []ScoredMatch) []string {
	var out []string
	for _, m := range ms {
		if len(out) == 0 || out[len(out)-1] != m.Season {
			if !slices.Contains(out, m.Season) {
				out = append(out, m.Season)
			}
		}
	}
	return out
}

// Season returns the matches of one season, in order.
func Season(ms []ScoredMatch, season string) []ScoredMatch {
	var out []ScoredMatch
	for _, m := range ms {
		if m.Season == season {
			out = append(out, m)
		}
	}
	return out
}

// LoadRanked reads a file with columns match_id, date, team, player, rank
// (other columns are ignored): one row per player, the rows of a match
// together. A team's rank is the best rank of its rows; ranks are made
// dense from 0. The loader is strict, like LoadScored: besides its checks
// of the header, dates (which must also agree within a match) and text,
// each match_id names one block of adjacent rows (ErrDuplicateMatch), each
// match has at least two teams (ErrInput), a player appears once in a
// match (ErrDuplicatePlayer), and ranks are integers (ErrInput).
func LoadRanked(path string) ([]RankedMatch, error) {
	return readFile(path, readRanked)
}

func readRanked(path string, r io.Reader) ([]RankedMatch, error) {
	c, err := newCSV(path, r, "match_id", "date", "team", "player", "rank")
	if err != nil {
		return nil, err
	}
	var out []RankedMatch
	var teamIndex map[string]int
	var rawRanks []int
	startLine := map[string]int{} // first line of each match
	players := map[string]int{}   // line of each player in the current match
	// finish checks the current match once all its rows are read, and
	// blames its first line.
	finish := func() error {
		if len(out) == 0 {
			return nil
		}
		m := &out[len(out)-1]
		m.Ranks = denseRanks(rawRanks)
		if len(m.Teams) < 2 {
			return &FileError{Path: path, Line: startLine[m.ID], Err: fmt.Errorf("match %s has %d team, need at least 2: %w", m.ID, len(m.Teams), ErrInput)}
		}
		return nil
	}
	for {
		ok, err := c.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		id, err := c.name("match_id")
		if err != nil {
			return nil, err
		}
		if len(out) == 0 || out[len(out)-1].ID != id {
			if first, seen := startLine[id]; seen {
				return nil, c.errIn("match_id", fmt.Errorf("match %s also starts on line %d, and its rows are not together: %w", id, first, ErrDuplicateMatch))
			}
			if err := finish(); err != nil {
				return nil, err
			}
			date, err := c.checkDate()
			if err != nil {
				return nil, err
			}
			out = append(out, RankedMatch{ID: id, Date: date})
			startLine[id] = c.line()
			teamIndex, rawRanks = map[string]int{}, nil
			clear(players)
		} else if d := c.field("date"); d != out[len(out)-1].Date {
			return nil, c.errIn("date", fmt.Errorf("date %q differs from the match's first row (%s): %w", d, out[len(out)-1].Date, ErrInput))
		}
		m := &out[len(out)-1]
		team, err := c.name("team")
		if err != nil {
			return nil, err
		}
		player, err := c.name("player")
		if err != nil {
			return nil, err
		}
		if at, dup := players[player]; dup {
			return nil, c.errIn("player", fmt.Errorf("%q is also on line %d of match %s: %w", player, at, id, ErrDuplicatePlayer))
		}
		players[player] = c.line()
		rank, err := c.integer("rank")
		if err != nil {
			return nil, err
		}
		j, ok := teamIndex[team]
		if !ok {
			j = len(m.Teams)
			teamIndex[team] = j
			m.Teams = append(m.Teams, nil)
			rawRanks = append(rawRanks, rank)
		}
		m.Teams[j] = append(m.Teams[j], player)
		rawRanks[j] = min(rawRanks[j], rank)
	}
	if err := finish(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, &FileError{Path: path, Err: fmt.Errorf("a header and no rows: %w", ErrEmptyFile)}
	}
	return out, nil
}

// denseRanks maps ranks to 0, 1, 2, … keeping ties.
func denseRanks(r []int) []int {
	vals := slices.Clone(r)
	slices.Sort(vals)
	vals = slices.Compact(vals)
	out := make([]int, len(r))
	for i, x := range r {
		out[i], _ = slices.BinarySearch(vals, x)
	}
	return out
}

// AsRanked turns scored matches into two-team ranked matches (home first),
// with IDs "0", "1", … in order.
func AsRanked(ms []ScoredMatch) []RankedMatch {
	out := make([]RankedMatch, len(ms))
	for i, m := range ms {
		out[i] = RankedMatch{ID: fmt.Sprint(i), Date: m.Date, Teams: [][]string{{m.Home}, {m.Away}}, Ranks: m.Ranks()}
	}
	return out
}
