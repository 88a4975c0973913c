package league

import (
	"fmt"
	"os"

	"github.com/skillgraph/skillgraph/internal/repo"
	"github.com/skillgraph/skillgraph/record"
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

// ReadFile reads a league file with package record's reader (the long or
// the scores format, told by the header; dates or timestamps; rows out of
// time order sorted) and returns its format (FormatLong or FormatScores),
// its games in time order, and the reader's report (rows moved, columns
// ignored). Errors are *record.FileError naming the file, line and column.
func ReadFile(path string) (format string, games []Match, rep record.Report, err error) {
	ms, rep, err := record.ReadFile(path)
	if err != nil {
		return "", nil, rep, err
	}
	if len(ms) == 0 {
		return "", nil, rep, &record.FileError{File: path, Err: fmt.Errorf("a header and no rows: %w", record.ErrInput)}
	}
	format = FormatLong
	if rep.Format == record.Scores {
		format = FormatScores
	}
	return format, Games(ms), rep, nil
}

// ReadFileOrBundled is ReadFile of path, or of the bundled file if path is
// "" (see FindBundled); it returns the path read.
func ReadFileOrBundled(path string) (read, format string, games []Match, rep record.Report, err error) {
	if path == "" {
		if path, err = FindBundled(); err != nil {
			return "", "", nil, rep, err
		}
	}
	format, games, rep, err = ReadFile(path)
	return path, format, games, rep, err
}

// Games returns record's matches as the league's games: the key is the
// match ID, the date record.FormatTime's (a date, or an RFC 3339 time in
// UTC), the home team the first where the
// match had home advantage.
func Games(ms []record.Match) []Match {
	games := make([]Match, len(ms))
	for i := range ms {
		m := &ms[i]
		games[i] = Match{Key: m.ID, Date: record.FormatTime(m.Time), Teams: m.Players(), Ranks: m.Ranks(), Weights: m.Weights(), Home: m.Venue.HomeAdvantage()}
	}
	return games
}
