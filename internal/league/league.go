package league

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/models/trueskill"
	"github.com/skillgraph/skillgraph/record"
)

// The formats of the files a league's games come from (a state remembers
// its format, since game keys are made differently in each).
const (
	FormatLong   = "long"   // match_id,time,team,player,rank: one row per player
	FormatScores = "scores" // time,home,away,home_score,away_score: one row per 1v1 game
)

// Version names the layout of the state file.
const Version = "skillgraph-league/1"

// League is everything known after rating: the parameters, the games rated
// so far (by key, in order) and each player. Its JSON form is the state
// file.
type League struct {
	Version  string           `json:"version"`
	Format   string           `json:"format"` // of the files its games came from
	Params   trueskill.Params `json:"params"`
	Games    []string         `json:"games"` // keys of the rated games, in the order rated
	LastDate string           `json:"last_date"`
	Players  []*Player        `json:"players"` // in order of first game
	// Home, if not nil, is the home advantage learned so far, added to
	// the performance of a game's home team (Game.Home); nil means the
	// league has none.
	Home *trueskill.Rating `json:"home_advantage,omitempty"`

	byName map[string]*Player
}

// Player is one player's rating, record and history.
type Player struct {
	Name       string           `json:"name"`
	Rating     trueskill.Rating `json:"rating"`
	Games      int              `json:"games"`
	LastPlayed string           `json:"last_played"`
	History    []Step           `json:"history"`
}

// Step is a player's rating after one game.
type Step struct {
	Game   string           `json:"game"`
	Date   string           `json:"date"`
	Result string           `json:"result"`
	Rating trueskill.Rating `json:"rating"`
}

// Match is one match: its key (unique in the league), its date or time
// (as record.FormatTime writes it, compared by compareDates),
// the players of each team, and the teams' ranks (lower is better, equal
// ranks draw).
type Match struct {
	Key   string
	Date  string
	Teams [][]string
	Ranks []int
	// Weights, if not nil, has the shape of Teams: each player's share of
	// the game (trueskill.Match.Weights).
	Weights [][]float64
	// Home says that team 0 plays at home (in the scores format, a row
	// not marked neutral): with a league's home advantage, it is added to
	// that team's performance.
	Home bool
}

// New returns a league with no games, of a file format (FormatLong or
// FormatScores) and TrueSkill parameters p.
func New(format string, p trueskill.Params) *League {
	return &League{Version: Version, Format: format, Params: p, Games: []string{}, Players: []*Player{}, byName: map[string]*Player{}}
}

// Setup returns the empty league that rates games read from a file in
// format, the model the commands share: TrueSkill's default parameters;
// the draw probability draw if it is not nil, else the one EstimateDraw
// gives, whose source it returns ("" for one given); and in the scores
// format, unless noHome, a home advantage to learn (LearnHome).
func Setup(format string, games []Match, draw *float64, noHome bool) (*League, string, error) {
	p := trueskill.DefaultParams()
	source := ""
	if draw != nil {
		p.DrawProbability = *draw
	} else {
		var err error
		if p.DrawProbability, source, err = EstimateDraw(games); err != nil {
			return nil, "", err
		}
	}
	l := New(format, p)
	if format == FormatScores && !noHome {
		l.LearnHome()
	}
	return l, source, nil
}

// Player returns the named player, or nil.
func (l *League) Player(name string) *Player { return l.byName[name] }

// Names returns the players' names in order of first game.
func (l *League) Names() []string {
	names := make([]string, len(l.Players))
	for i, pl := range l.Players {
		names[i] = pl.Name
	}
	return names
}

// FirstDate returns the date of the league's first game ("" if none).
func (l *League) FirstDate() string {
	first := l.LastDate
	for _, pl := range l.Players {
		if d := pl.History[0].Date; compareDates(d, first) < 0 {
			first = d
		}
	}
	return first
}

// compareDates orders two of the league's dates by the instants they
// stand for. As text they need not order so: record.FormatTime writes only
// the digits of a second it needs, and "08:00:00.5Z" < "08:00:00Z" as
// text. A date that does not parse (which the league never writes) is
// compared as text.
func compareDates(a, b string) int {
	ta, errA := record.ParseTime(a)
	tb, errB := record.ParseTime(b)
	if errA != nil || errB != nil {
		return strings.Compare(a, b)
	}
	return ta.Compare(tb)
}

// Rate rates, in order, the games not rated yet, and returns how many it
// rated. Games already rated are recognised by their key; they must all
// come before the new games, and no new game may be dated before the last
// one rated (messages.ErrInput); a draw needs a draw probability above 0
// (messages.ErrImpossible). On an error the league holds the games rated
// before it.
func (l *League) Rate(ctx context.Context, games []Match) (int, error) {
	return l.RateProgress(ctx, games, nil)
}

// RateProgress is Rate, calling progress (if not nil) after each game
// with the games gone through so far, for a progress line. It stops with
// ctx's error when ctx ends.
func (l *League) RateProgress(ctx context.Context, games []Match, progress func(done int)) (int, error) {
	known := make(map[string]bool, len(l.Games))
	for _, k := range l.Games {
		known[k] = true
	}
	firstNew := ""
	n := 0
	for i, g := range games {
		if progress != nil {
			progress(i)
		}
		if err := ctx.Err(); err != nil {
			return n, err
		}
		if known[g.Key] {
			if firstNew != "" {
				return n, fmt.Errorf("game %s was rated before, but comes after the new game %s: the rated games must come first: %w", g.Key, firstNew, messages.ErrInput)
			}
			continue
		}
		if firstNew == "" {
			firstNew = g.Key
		}
		if compareDates(g.Date, l.LastDate) < 0 {
			return n, fmt.Errorf("new game %s is dated %s, before the last game rated (%s): ratings cannot be redone in the past: %w", g.Key, g.Date, l.LastDate, messages.ErrInput)
		}
		if err := l.rateOne(ctx, g); err != nil {
			return n, err
		}
		known[g.Key] = true
		n++
	}
	return n, nil
}

// rateOne rates game g and records it.
func (l *League) rateOne(ctx context.Context, g Match) error {
	m := trueskill.Match{Teams: make([][]trueskill.Rating, len(g.Teams)), Ranks: g.Ranks, Weights: g.Weights}
	for j, team := range g.Teams {
		m.Teams[j] = make([]trueskill.Rating, len(team))
		for i, name := range team {
			if pl := l.byName[name]; pl != nil {
				m.Teams[j][i] = pl.Rating
			} else {
				m.Teams[j][i] = l.Params.NewRating()
			}
		}
	}
	var res trueskill.Result
	var err error
	var home trueskill.Rating
	if l.Home != nil && g.Home {
		res.Ratings, home, err = l.rateHome(ctx, m)
	} else {
		res, err = l.Params.Rate(ctx, m)
	}
	var ie *trueskill.InputError
	switch {
	case errors.As(err, &ie) && ie.Field == "Weights" && len(ie.Index) == 2:
		// Name the player whose weight the model cannot take, not the
		// position of the weight in trueskill.Match.Weights.
		return fmt.Errorf("game %s (%s): player %q has weight %v, which trueskill refuses: %w", g.Key, g.Date, g.Teams[ie.Index[0]][ie.Index[1]], ie.Value, ie.Err)
	case errors.As(err, &ie) && ie.Field == "Weights" && len(ie.Index) == 1:
		return fmt.Errorf("game %s (%s), the team of %s: %w", g.Key, g.Date, strings.Join(g.Teams[ie.Index[0]], ", "), ie.Err)
	case errors.As(err, &ie) && ie.Field == "Ranks" && errors.Is(err, messages.ErrImpossible):
		// trueskill refused a draw at a draw margin of 0; the remedy, a
		// draw probability above 0, is the caller's to name.
		return fmt.Errorf("game %s (%s) is a draw, which the draw probability %v cannot rate: %w", g.Key, g.Date, l.Params.DrawProbability, err)
	case err != nil:
		return fmt.Errorf("game %s (%s): %w", g.Key, g.Date, err)
	}
	for j, team := range g.Teams {
		for i := range team {
			if err := checkRating(res.Ratings[j][i]); err != nil {
				return fmt.Errorf("game %s (%s), player %q: %w", g.Key, g.Date, team[i], err)
			}
		}
	}
	if l.Home != nil && g.Home {
		if err := checkRating(home); err != nil {
			return fmt.Errorf("game %s (%s), home advantage: %w", g.Key, g.Date, err)
		}
		*l.Home = home
	}
	for j, team := range g.Teams {
		result := resultOf(g.Ranks, j)
		for i, name := range team {
			pl := l.byName[name]
			if pl == nil {
				pl = &Player{Name: name, History: []Step{}}
				l.byName[name] = pl
				l.Players = append(l.Players, pl)
			}
			pl.Rating = res.Ratings[j][i]
			pl.Games++
			pl.LastPlayed = g.Date
			pl.History = append(pl.History, Step{Game: g.Key, Date: g.Date, Result: result, Rating: pl.Rating})
		}
	}
	l.Games = append(l.Games, g.Key)
	l.LastDate = g.Date
	return nil
}

// resultOf describes team j's result: "won", "lost" or "drew" in a game of
// two teams, else its place, "2nd of 4", with "=" for a shared place.
func resultOf(ranks []int, j int) string {
	better, tied := 0, false
	for k, r := range ranks {
		switch {
		case r < ranks[j]:
			better++
		case k != j && r == ranks[j]:
			tied = true
		}
	}
	if len(ranks) == 2 {
		switch {
		case tied:
			return "drew"
		case better == 0:
			return "won"
		}
		return "lost"
	}
	eq := ""
	if tied {
		eq = "="
	}
	return fmt.Sprintf("%s%s of %d", eq, Ordinal(better+1), len(ranks))
}

// Ordinal spells n as 1st, 2nd, 3rd, 4th, …, 11th, 12th, 13th, 21st, ….
func Ordinal(n int) string {
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return strconv.Itoa(n) + suffix
}

// EstimateDraw returns the draw probability estimated from games, the
// share of draws DrawShare counts, and where it came from
// ("observed: 9 of 89 games drawn"). If every game is drawn, the share is
// no draw probability (that must be below 1), and the error wraps
// messages.ErrInput.
func EstimateDraw(games []Match) (p float64, source string, err error) {
	ties, pairs := DrawShare(games)
	if ties == pairs {
		return 0, "", fmt.Errorf("every game is a draw, so the draw share cannot be the draw probability: set -draw: %w", messages.ErrInput)
	}
	what := "games"
	if pairs != len(games) {
		what = "pairs of teams adjacent in finishing order"
	}
	return float64(ties) / float64(pairs), fmt.Sprintf("observed: %d of %d %s drawn", ties, pairs, what), nil
}

// DrawShare counts the draws of games: of the pairs of teams adjacent in
// finishing order (one pair in a game of two teams), those that tied. The
// share ties/pairs is the draw probability's estimate if the pairs were
// evenly matched, which is how the league sets it from the data.
func DrawShare(games []Match) (ties, pairs int) {
	for _, g := range games {
		t, p := record.AdjacentTies(g.Ranks)
		ties, pairs = ties+t, pairs+p
	}
	return ties, pairs
}
