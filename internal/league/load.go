package league

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/skillgraph/skillgraph/internal/repo"
	"github.com/skillgraph/skillgraph/models/evaluation"
)

var (
	longColumns   = []string{"match_id", "date", "team", "player", "rank"}
	scoresColumns = []string{"date", "home", "away", "home_score", "away_score"}
)

// BundledFile is the league file used when none is given, relative to the
// module root.
const BundledFile = "examples/data/office.csv"

// FindBundled returns the path of the bundled league file, found from the
// working folder up to the module root (go run ./cmd/skillgraph and go
// test both work from inside the module).
func FindBundled() (string, error) {
	path, err := repo.Path(BundledFile)
	if err != nil {
		return "", fmt.Errorf("no -matches given, and %s was not found: run inside the skillgraph module or give -matches FILE", BundledFile)
	}
	if _, err := os.Stat(path); err != nil {
		return "", fmt.Errorf("no -matches given and the bundled file is missing: %w", err)
	}
	return path, nil
}

// ReadFile reads a league file in either format, which it tells by the
// header, and returns the format (FormatLong or FormatScores) and the
// games in file order. Errors are *evaluation.FileError naming the file,
// line and column.
func ReadFile(path string) (format string, games []Game, err error) {
	f, err := os.Open(path)
	if err != nil {
		return "", nil, err
	}
	defer f.Close()
	r, header, err := readHeader(path, f)
	if err != nil {
		return "", nil, err
	}
	col := map[string]int{}
	for i, h := range header {
		col[h] = i
	}
	has := func(names []string) bool {
		for _, n := range names {
			if _, ok := col[n]; !ok {
				return false
			}
		}
		return true
	}
	switch {
	case has(longColumns):
		ranked, err := evaluation.LoadRanked(path)
		if err != nil {
			return "", nil, err
		}
		games = make([]Game, len(ranked))
		for i, m := range ranked {
			games[i] = Game{Key: m.ID, Date: m.Date, Teams: m.Teams, Ranks: m.Ranks}
		}
		return FormatLong, games, nil
	case has(scoresColumns):
		games, err := readScores(path, r, col)
		return FormatScores, games, err
	}
	return "", nil, &evaluation.FileError{Path: path, Line: 1, Err: fmt.Errorf(
		"header %q is neither the long format (%s) nor the scores format (%s): %w",
		strings.Join(header, ","), strings.Join(longColumns, ","), strings.Join(scoresColumns, ","), evaluation.ErrHeader)}
}

// readHeader skips a UTF-8 byte-order mark, reads the header row of a CSV
// file and checks that it names no column twice.
func readHeader(path string, f io.Reader) (*csv.Reader, []string, error) {
	br := bufio.NewReader(f)
	if bom, err := br.Peek(3); err == nil && string(bom) == "\uFEFF" {
		if _, err := br.Discard(3); err != nil {
			return nil, nil, &evaluation.FileError{Path: path, Err: err}
		}
	}
	r := csv.NewReader(br)
	header, err := r.Read()
	if err == io.EOF {
		return nil, nil, &evaluation.FileError{Path: path, Err: evaluation.ErrEmptyFile}
	}
	if err != nil {
		return nil, nil, csvError(path, err)
	}
	seen := map[string]int{}
	for i, h := range header {
		if j, dup := seen[h]; dup {
			return nil, nil, &evaluation.FileError{Path: path, Line: 1, Err: fmt.Errorf("column %q is also column %d: %w", h, j+1, evaluation.ErrHeader)}
		}
		seen[h] = i
	}
	return r, header, nil
}

// csvError turns a csv.ParseError into a FileError at the same place.
func csvError(path string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &evaluation.FileError{Path: path, Line: pe.Line, Column: pe.Column, Err: pe.Err}
	}
	return &evaluation.FileError{Path: path, Err: err}
}

// readScores reads the rows of a scores-format file, as strictly as the
// long format's loader: dates YYYY-MM-DD that never go back, player names
// that are not empty and differ, scores that are integers from 0, no
// control characters or invalid UTF-8. Other columns (a season, say) are
// ignored. A game's key is its date and players, "2025-01-08 Ada v Ben",
// with " #2", " #3", … added to the second and later games between the
// same players on one day.
func readScores(path string, r *csv.Reader, col map[string]int) ([]Game, error) {
	var out []Game
	prevDate := ""
	seen := map[string]int{}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvError(path, err)
		}
		errAt := func(name string, err error) error {
			line, column := r.FieldPos(col[name])
			return &evaluation.FileError{Path: path, Line: line, Column: column, Err: err}
		}
		for i, s := range rec {
			if err := checkText(s); err != nil {
				line, column := r.FieldPos(i)
				return nil, &evaluation.FileError{Path: path, Line: line, Column: column, Err: err}
			}
		}
		field := func(name string) string { return rec[col[name]] }
		date := field("date")
		if _, err := time.Parse(time.DateOnly, date); err != nil {
			return nil, errAt("date", fmt.Errorf("date %q is not YYYY-MM-DD: %w", date, evaluation.ErrInput))
		}
		if date < prevDate {
			return nil, errAt("date", fmt.Errorf("%s after %s: %w", date, prevDate, evaluation.ErrDateOrder))
		}
		prevDate = date
		home, away := field("home"), field("away")
		for _, side := range []string{"home", "away"} {
			if field(side) == "" {
				return nil, errAt(side, fmt.Errorf("%s: %w", side, evaluation.ErrName))
			}
		}
		if home == away {
			return nil, errAt("away", fmt.Errorf("%q plays itself: %w", home, evaluation.ErrSameTeam))
		}
		var score [2]int
		for k, name := range []string{"home_score", "away_score"} {
			n, err := strconv.Atoi(field(name))
			if err != nil || n < 0 {
				return nil, errAt(name, fmt.Errorf("%s %q is not an integer from 0: %w", name, field(name), evaluation.ErrInput))
			}
			score[k] = n
		}
		ranks := []int{0, 1}
		switch {
		case score[0] == score[1]:
			ranks = []int{0, 0}
		case score[0] < score[1]:
			ranks = []int{1, 0}
		}
		key := date + " " + home + " v " + away
		seen[key]++
		if n := seen[key]; n > 1 {
			key += " #" + strconv.Itoa(n)
		}
		atHome := true
		if _, ok := col["neutral"]; ok {
			n, err := parseNeutral(field("neutral"))
			if err != nil {
				return nil, errAt("neutral", err)
			}
			atHome = !n
		}
		out = append(out, Game{Key: key, Date: date, Teams: [][]string{{home}, {away}}, Ranks: ranks, Home: atHome})
	}
	if len(out) == 0 {
		return nil, &evaluation.FileError{Path: path, Err: fmt.Errorf("a header and no rows: %w", evaluation.ErrEmptyFile)}
	}
	return out, nil
}

// parseNeutral reads a neutral column's value: TRUE/FALSE (any case),
// 1/0, yes/no, or empty for not neutral.
func parseNeutral(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "1", "yes":
		return true, nil
	case "false", "0", "no", "":
		return false, nil
	}
	return false, fmt.Errorf("neutral %q is not TRUE or FALSE: %w", s, evaluation.ErrInput)
}

// checkText rejects invalid UTF-8 and control characters, as the long
// format's loader does.
func checkText(s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("field %q: %w", s, evaluation.ErrText)
	}
	for _, c := range s {
		if unicode.IsControl(c) || c == 0xFFFE || c == 0xFFFF {
			return fmt.Errorf("field %q: %w", s, evaluation.ErrText)
		}
	}
	return nil
}
