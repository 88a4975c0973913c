package history

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/skillgraph/skillgraph/models/evaluation"
	"github.com/skillgraph/skillgraph/models/throughtime"
)

// units are the named units of time, in days.
var units = map[string]float64{
	"day": 1, "days": 1,
	"week": 7, "weeks": 7,
	"month": 365.25 / 12, "months": 365.25 / 12,
	"year": 365.25, "years": 365.25,
}

// parseUnit reads -unit: a named unit or a positive number of days.
func parseUnit(s string) (float64, error) {
	if d, ok := units[s]; ok {
		return d, nil
	}
	d, err := strconv.ParseFloat(s, 64)
	if err != nil || !(d > 0) || d > 1e6 {
		return 0, errors.New("want days, weeks, months, years, or a positive number of days")
	}
	return d, nil
}

// loadGames reads a history in the long format or the scores format (told
// apart by the header: the scores format has a home_score column) as
// games in file order, each at its date counted in units of unit days
// since 1970-01-01.
func loadGames(path string, unit float64) ([]throughtime.Game, error) {
	scored, err := isScored(path)
	if err != nil {
		return nil, err
	}
	var ranked []evaluation.RankedMatch
	if scored {
		ms, err := evaluation.LoadScored(path)
		if err != nil {
			return nil, err
		}
		ranked = evaluation.AsRanked(ms)
	} else if ranked, err = evaluation.LoadRanked(path); err != nil {
		return nil, err
	}
	games := make([]throughtime.Game, len(ranked))
	per := time.Duration(unit * float64(24*time.Hour))
	for k, m := range ranked {
		day, err := time.Parse(time.DateOnly, m.Date)
		if err != nil {
			return nil, fmt.Errorf("%s: match %s: date %q: %w", path, m.ID, m.Date, err)
		}
		at, err := throughtime.At(day, per)
		if err != nil {
			return nil, err
		}
		games[k] = throughtime.Game{Time: at, Teams: m.Teams, Ranks: m.Ranks}
	}
	return games, nil
}

// isScored reports whether the file's header names a home_score column.
func isScored(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	line, err := bufio.NewReader(f).ReadString('\n')
	if err != nil && line == "" {
		return false, fmt.Errorf("%s: no header: %w", path, err)
	}
	for _, col := range strings.Split(strings.TrimSpace(strings.TrimPrefix(line, "\ufeff")), ",") {
		if strings.TrimSpace(col) == "home_score" {
			return true, nil
		}
	}
	return false, nil
}
