package history

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
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

// maxUnitDays is the longest unit, in days: the longest duration Go's
// clock holds, 2⁶³ − 1 ns, about 292 years.
const maxUnitDays = math.MaxInt64 / float64(24*time.Hour)

// parseUnit reads -unit: a named unit or a positive number of days, at
// most maxUnitDays.
func parseUnit(s string) (time.Duration, error) {
	d, ok := units[s]
	if !ok {
		var err error
		d, err = strconv.ParseFloat(s, 64)
		if err != nil || !(d > 0) {
			return 0, errors.New("want days, weeks, months, years, or a positive number of days")
		}
		if !(d < maxUnitDays) {
			return 0, fmt.Errorf("at most %.0f days (%.0f years), the longest unit a clock of nanoseconds holds", math.Floor(maxUnitDays), math.Floor(maxUnitDays/365.25))
		}
	}
	u := time.Duration(d * float64(24*time.Hour))
	if u <= 0 {
		return 0, errors.New("shorter than a nanosecond")
	}
	return u, nil
}

// data is a history read from a file: its games, each at its time counted
// in units since 1970, and its draws.
type data struct {
	games     []throughtime.Game
	unit      time.Duration
	draws     int     // games with two teams in the same place
	drawShare float64 // the share of tied places, evaluation.DrawProbability
	daily     bool    // every time is a date, at midnight UTC
}

// clock turns a game's time back into a date and time, to the second.
func (d data) clock(t float64) time.Time {
	return time.Unix(int64(math.Round(t*d.unit.Seconds())), 0).UTC()
}

// date writes a game's time as a date if every time in the file is one,
// else as an RFC 3339 timestamp.
func (d data) date(t float64) string {
	if d.daily {
		return d.clock(t).Format(time.DateOnly)
	}
	return d.clock(t).Format(time.RFC3339)
}

// load reads a history in the long format or the scores format (told
// apart by the header: the scores format has a home_score column) as
// games in file order, each at its date counted in units since
// 1970-01-01.
func load(_ io.Writer, path string, unit time.Duration) (data, error) {
	scored, err := isScored(path)
	if err != nil {
		return data{}, err
	}
	var ranked []evaluation.RankedMatch
	if scored {
		ms, err := evaluation.LoadScored(path)
		if err != nil {
			return data{}, err
		}
		ranked = evaluation.AsRanked(ms)
	} else if ranked, err = evaluation.LoadRanked(path); err != nil {
		return data{}, err
	}
	d := data{games: make([]throughtime.Game, len(ranked)), unit: unit, daily: true, drawShare: evaluation.DrawProbability(ranked)}
	for k, m := range ranked {
		day, err := time.Parse(time.DateOnly, m.Date)
		if err != nil {
			return data{}, fmt.Errorf("%s: match %s: date %q: %w", path, m.ID, m.Date, err)
		}
		at, err := throughtime.At(day, unit)
		if err != nil {
			return data{}, err
		}
		d.games[k] = throughtime.Game{Time: at, Teams: m.Teams, Ranks: m.Ranks}
		if tied(m.Ranks) {
			d.draws++
		}
	}
	return d, nil
}

// tied reports whether two teams share a place.
func tied(ranks []int) bool {
	seen := map[int]bool{}
	for _, r := range ranks {
		if seen[r] {
			return true
		}
		seen[r] = true
	}
	return false
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
