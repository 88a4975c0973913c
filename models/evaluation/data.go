package evaluation

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/skillgraph/skillgraph/record"
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

// dateLayout is the layout of ScoredMatch.Date and RankedMatch.Date.
const dateLayout = time.DateOnly

// readRecords reads a file of format f with the record package's reader,
// in file order (rows out of time order are an error, ErrDateOrder), and
// turns its errors into FileErrors. A header without rows is ErrEmptyFile.
func readRecords(path string, r io.Reader, f record.Format) ([]record.Match, record.Report, error) {
	ms, rep, err := record.Read(path, r, record.InFileOrder(), record.OnlyFormat(f))
	var fe *record.FileError
	switch {
	case errors.As(err, &fe):
		return nil, rep, &FileError{Path: fe.File, Line: fe.Line, Column: fe.Column, Err: fe.Err}
	case err != nil:
		return nil, rep, &FileError{Path: path, Err: err}
	case len(ms) == 0:
		return nil, rep, &FileError{Path: path, Err: fmt.Errorf("a header and no rows: file is empty: %w", ErrEmptyFile)}
	}
	return ms, rep, nil
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

// LoadScored reads a file in the record package's scores format that has
// a season column, such as the league files of examples/data (columns
// date, season, home, away, home_score, away_score; unknown columns are
// ignored), in file order. The loader is strict, and its errors are a
// *FileError giving the line and column: the file must have rows
// (ErrEmptyFile), name each column once and have a season column
// (ErrHeader); times are dates or timestamps (see record.ParseTime) that
// never go back (ErrInput, ErrDateOrder); seasons and teams are not empty
// (ErrName); a team does not play itself (ErrSameTeam); scores are
// integers from 0 (ErrInput); no field holds a control character or
// invalid UTF-8 (ErrText). A UTF-8 byte-order mark is skipped. Date is
// the day of each match's time, in UTC.
func LoadScored(path string) ([]ScoredMatch, error) {
	return readFile(path, readScored)
}

func readScored(path string, r io.Reader) ([]ScoredMatch, error) {
	ms, rep, err := readRecords(path, r, record.Scores)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(rep.Columns, "season") {
		return nil, &FileError{Path: path, Line: 1, Err: fmt.Errorf("no column %q: %w", "season", ErrHeader)}
	}
	return ScoredMatches(ms)
}

// ScoredMatches turns two-team matches with scores, as record.Read returns
// them from a file of either format, into the score protocol's matches:
// the first team is home, Date is the day of the match's time (in UTC).
// A match of more than two teams or without scores is ErrInput, naming
// it.
func ScoredMatches(ms []record.Match) ([]ScoredMatch, error) {
	out := make([]ScoredMatch, len(ms))
	for i, m := range ms {
		if len(m.Teams) != 2 || !m.HasScores {
			return nil, fmt.Errorf("evaluation: match %s has %d teams, with scores %v; want 2 with scores: %w", m.ID, len(m.Teams), m.HasScores, ErrInput)
		}
		home, away := m.Teams[0], m.Teams[1]
		out[i] = ScoredMatch{Date: m.Time.UTC().Format(dateLayout), Season: m.Season,
			Home: home.Name, Away: away.Name, HomeScore: home.Score, AwayScore: away.Score}
	}
	return out, nil
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

// LoadRanked reads a file in the record package's long format (columns
// match_id, date, team, player, rank; other columns are ignored): one row
// per player, the rows of a match together. A team's rank is the best
// rank of its rows; ranks are made dense from 0. The loader is strict,
// like LoadScored: besides its checks of the header, times (which must
// also agree within a match) and text, each match_id names one block of
// adjacent rows (ErrDuplicateMatch), each match has at least two teams
// (ErrInput), a player appears once in a match (ErrDuplicatePlayer), and
// ranks are integers (ErrInput).
func LoadRanked(path string) ([]RankedMatch, error) {
	return readFile(path, readRanked)
}

func readRanked(path string, r io.Reader) ([]RankedMatch, error) {
	ms, _, err := readRecords(path, r, record.Long)
	if err != nil {
		return nil, err
	}
	return RankedMatches(ms), nil
}

// RankedMatches turns matches as record.Read returns them, from a file of
// either format, into the ranking protocol's matches: each team's
// players, the teams' ranks made dense from 0, and the day of the match's
// time (in UTC) as Date.
func RankedMatches(ms []record.Match) []RankedMatch {
	out := make([]RankedMatch, len(ms))
	for i, m := range ms {
		out[i] = RankedMatch{ID: m.ID, Date: m.Time.UTC().Format(dateLayout), Teams: m.Players(), Ranks: denseRanks(m.Ranks())}
	}
	return out
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
