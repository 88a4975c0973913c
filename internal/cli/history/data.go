package history

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/skillgraph/skillgraph/internal/cli/input"

	"github.com/skillgraph/skillgraph/models/evaluation"
	"github.com/skillgraph/skillgraph/models/throughtime"
	"github.com/skillgraph/skillgraph/models/trueskill"
	"github.com/skillgraph/skillgraph/record"
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
	games     []throughtime.Match
	unit      time.Duration
	draws     int     // games with two teams in the same place
	drawShare float64 // the share of tied places, evaluation.DrawProbability
	daily     bool    // every time is a date, at midnight UTC
	home      []bool  // per game: the first team plays at home
	homeGames int     // games with a home team
	neutral   int     // home-and-away games on neutral ground
	// path is the file read, and ids each game's match ID in it, which
	// explain names a game by.
	path string
	ids  []string
	// times holds each game's time as read, by its time in units: turned
	// back by arithmetic, a time rounds (9999-12-31T23:59:59.9Z would come
	// back in the year 10000).
	times map[float64]time.Time
}

// clock turns a game's time in units back into the time read for it; a
// time of no game, to the second.
func (d data) clock(t float64) time.Time {
	if tm, ok := d.times[t]; ok {
		return tm
	}
	return time.Unix(int64(math.Round(t*d.unit.Seconds())), 0).UTC()
}

// date writes a game's time as a date if every time in the file is one,
// else as an RFC 3339 timestamp with the digits of a second it has.
func (d data) date(t float64) string {
	if d.daily {
		return d.clock(t).Format(time.DateOnly)
	}
	return d.clock(t).Format(time.RFC3339Nano)
}

// load reads a history in the long format or the scores format (told
// apart by the header) through the record package, in time order, each
// game at its time counted in units since 1970-01-01. The reader's notes
// go to stderr.
func load(stderr io.Writer, path string, unit time.Duration) (data, error) {
	ms, err := input.Read(stderr, Prog, path, 0)
	if err != nil {
		return data{}, err
	}
	d := data{games: make([]throughtime.Match, len(ms)), unit: unit, daily: true, path: path, ids: make([]string, len(ms)),
		drawShare: evaluation.DrawProbability(ms), times: make(map[float64]time.Time, len(ms))}
	for k, m := range ms {
		at, err := throughtime.At(m.Time, unit)
		if err != nil {
			return data{}, err
		}
		// A weight the model cannot take is named here, by the file's
		// match and player, rather than by the history's game index.
		for _, t := range m.Teams {
			for i, w := range t.Weights {
				if !trueskill.ValidWeight(w) {
					return data{}, fmt.Errorf("%s: match %s: player %q has weight %v, which TrueSkill cannot take: %w", path, m.ID, t.Players[i], w, record.ErrInput)
				}
			}
		}
		d.games[k] = throughtime.Match{Time: at, Teams: m.Players(), Ranks: m.Ranks(), Weights: m.Weights()}
		d.times[at] = m.Time
		d.ids[k] = m.ID
		d.home = append(d.home, m.Venue.HomeAdvantage())
		if m.Venue.HomeAdvantage() {
			d.homeGames++
		}
		if m.Venue.Neutral {
			d.neutral++
		}
		if ties, _ := record.AdjacentTies(m.Ranks()); ties > 0 {
			d.draws++
		}
		if !m.Time.Equal(m.Time.Truncate(24 * time.Hour)) {
			d.daily = false
		}
	}
	return d, nil
}

// explain turns an error of the model into one for the user: an error
// about one game (*throughtime.GameError, whose index is the game's in
// d.games) names the file and the match instead, and one beyond
// float64's range is explained by numeric.
func (d data) explain(err error, p throughtime.Params) error {
	var ge *throughtime.GameError
	if !errors.As(err, &ge) || ge.Index < 0 || ge.Index >= len(d.ids) {
		return numeric(err, p)
	}
	return fmt.Errorf("%s: match %s: %w", d.path, d.ids[ge.Index], numeric(ge.Err, p))
}
