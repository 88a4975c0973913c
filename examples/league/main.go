// Command league rates an office league from a file of games with
// TrueSkill, and prints its leaderboard, a prediction, the fairest next
// games or one player's history, as a table, CSV or JSON.
//
//	go run ./examples/league                      (the bundled examples/data/office.csv)
//	go run ./examples/league -matches FILE [-state FILE] [-draw p] [-format table|csv|json]
//	        [-predict A,B | -predict A+B,C+D | -pairings [-top N] | -history PLAYER]
//
// FILE is in one of two formats, told apart by the header (other columns
// are ignored):
//
//   - the long format, match_id,date,team,player,rank: one row per player,
//     the rows of a game together, lower ranks better, equal ranks a draw
//     (any number of teams of any size);
//   - the scores format, date,home,away,home_score,away_score: one 1v1
//     game a row, the higher score winning, equal scores a draw.
//
// Games are rated in file order, dates YYYY-MM-DD never going back, with
// TrueSkill's default parameters (μ₀ = 25, σ₀ = 25/3, β = σ₀/2,
// τ = σ₀/100). The draw probability is not estimated silently: it is
// -draw p if given, else the share of drawn games in the file (of pairs of
// teams adjacent in finishing order, for games of more than two teams),
// and the first lines of the output say which. The leaderboard shows the
// league page's display rating (μ − σ)·48 (800 for a new player) and
// stability 1 − σ²/σ₀² (about 26 % after one even 1v1 game), ranked by
// display rating; players with equal display ratings share a rank.
//
//	$ go run ./examples/league
//	examples/data/office.csv: 89 games (2025-01-06 to 2025-04-29), 11 players
//	TrueSkill μ₀ = 25, σ₀ = 8.333, β = 4.167, τ = 0.08333; draw probability 0.1011 (observed: 9 of 89 games drawn; set it with -draw)
//
//	rank  player  rating      μ      σ  stability  games  last played
//	   1  Kai       1479  34.21   3.39        83%     12  2025-04-23
//	   2  Eli       1373  30.69   2.09        94%     32  2025-04-25
//	   3  Ada       1368  30.77   2.28        93%     23  2025-04-29
//	   …
//	  11  Hana       738  18.33   2.96        87%     16  2025-04-28
//
// The other views, one at a time, print the same first lines, then:
//
//   - -predict A,B: the chances that A wins, that they draw, that B wins,
//     and the match quality (the paper's equation 7: near 1 for two
//     well-known equals, towards 0 for a foregone game). Teams are players
//     joined by "+". Names are trimmed of spaces; a player not in the
//     league is an error (so a name holding "," or "+" cannot be given).
//   - -pairings: the fairest 1v1 games, every pair of players by match
//     quality, highest first, the player higher on the leaderboard first
//     (-top N of them, 10 by default, 0 for all).
//   - -history PLAYER: the player's rating after each of their games.
//
// For example (the first lines left out):
//
//	$ go run ./examples/league -predict Ada+Hana,Kai+Jun
//	Ada+Hana v Kai+Jun
//	  P(Ada+Hana wins)  0.345
//	  P(draw)           0.081
//	  P(Kai+Jun wins)   0.574
//	  match quality     0.798
//
//	$ go run ./examples/league -pairings -top 3
//	The fairest 1v1 games by match quality (3 of 55)
//	   #  game        quality  P(first wins)  P(draw)  P(second wins)
//	   1  Dev v Fay     0.888          0.504    0.090           0.406
//	   2  Eli v Ada     0.885          0.450    0.090           0.460
//	   3  Cleo v Dev    0.884          0.506    0.089           0.404
//
//	$ go run ./examples/league -history Kai
//	Kai after each of 12 games
//	   #  date        game  result      μ      σ  rating  stability
//	   1  2025-03-12  g053  won     27.78   7.38     979        22%
//	   2  2025-03-17  g057  won     28.46   7.06    1027        28%
//	   …
//	  12  2025-04-23  g085  won     34.21   3.39    1479        83%
//
// -format csv writes one header row and a row per line of the table, with
// numbers in full precision (stability as a fraction); the table's first
// lines go to stderr.
//
//	$ go run ./examples/league -format csv
//	rank,player,display_rating,mu,sigma,stability,games,last_played
//	1,Kai,1479.3193164889003,34.21092064251277,3.3917682156606745,0.8343410805457697,12,2025-04-23
//	…
//
// -format json writes one object: "league" (file, games, players,
// parameters and where the draw probability came from), then the view,
// "leaderboard", "prediction", "pairings" or "history", with the CSV's
// columns as fields.
//
//	$ go run ./examples/league -format json -pairings -top 1
//	{
//	  "league": {
//	    "file": "examples/data/office.csv",
//	    …
//	    "draw_probability_source": "observed: 9 of 89 games drawn"
//	  },
//	  "pairings": [
//	    {"rank": 1, "a": "Dev", "b": "Fay", "quality": 0.8882323143015814, "win": 0.5041645368076141, …}
//	  ]
//	}
//
// -state FILE keeps the league in a JSON file, so it can grow: the
// program loads FILE if it exists, rates only the games of the league file
// not yet in it (known by match_id, or in the scores format by date and
// players, "2025-01-08 Ada v Ben", with " #2" for a second game between
// them that day, so a scores file must hold all of a day's games or none),
// and writes it back if anything changed. The league file may hold every
// game so far or only the new ones; the games already rated must come
// first, and no new game may be dated before the last one rated. The draw
// probability and parameters are those the state was started with (a
// different -draw is an error), so adding games in several runs gives the
// same ratings as rating them all at once.
//
//	$ go run ./examples/league -state league.json | sed -n 2p
//	state league.json: 0 games rated before, 89 now
//	$ go run ./examples/league -state league.json | sed -n 2,3p
//	state league.json: 89 games rated before, 0 now
//	TrueSkill μ₀ = 25, σ₀ = 8.333, β = 4.167, τ = 0.08333; draw probability 0.1011 (state league.json)
//
// The state file is written atomically: to a temporary file in the same
// folder, flushed to disk, then renamed over FILE, so a crash leaves the
// old state or the new one, never half of one. It is written before the
// output, and only once the games are rated and the view answered, so a
// run that fails on its input leaves it as it was.
//
// Errors are one line, "league: what went wrong", with exit status 2 for
// a usage error and 1 for any other.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/skillgraph/skillgraph/internal/cli"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

const synopsis = "league [-matches FILE] [-state FILE] [-draw p] [-format table|csv|json] [-predict A,B | -pairings [-top N] | -history PLAYER]"

// run is the program with its arguments and streams, returning the exit
// status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("league", flag.ContinueOnError)
	matches := fs.String("matches", "", "league file, long (match_id,date,team,player,rank) or scores (date,home,away,home_score,away_score) format (default: the bundled examples/data/office.csv)")
	statePath := fs.String("state", "", "JSON file keeping the league between runs: loaded if present, games not in it rated, written back atomically")
	draw := fs.Float64("draw", 0, "draw probability in [0, 1) (default: the share of drawn games in the file, or the state's)")
	format := fs.String("format", "table", "output format: table, csv or json")
	predict := fs.String("predict", "", "predict a game: A,B or teams A+B,C+D")
	pairings := fs.Bool("pairings", false, "list the fairest 1v1 games by match quality")
	top := fs.Int("top", 10, "with -pairings, how many games to list (0 for all)")
	history := fs.String("history", "", "one player's rating after each game")
	usage := func(format string, a ...any) int { return cli.Usagef(stderr, "league", format, a...) }
	if status, done := cli.Parse(fs, args, synopsis, stderr); done {
		return status
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })

	switch *format {
	case "table", "csv", "json":
	default:
		return usage("-format %q: want table, csv or json", *format)
	}
	if set["draw"] && !(*draw >= 0 && *draw < 1) {
		return usage("-draw %v: must be in [0, 1)", *draw)
	}
	views := 0
	for _, v := range []bool{set["predict"], *pairings, set["history"]} {
		if v {
			views++
		}
	}
	if views > 1 {
		return usage("give at most one of -predict, -pairings and -history")
	}
	if set["top"] && !*pairings {
		return usage("-top goes with -pairings")
	}
	if *top < 0 {
		return usage("-top %d: must not be negative", *top)
	}
	var sides [][]string
	if set["predict"] {
		var err error
		if sides, err = parseTeams(*predict); err != nil {
			return usage("-predict %q: %v", *predict, err)
		}
	}
	if set["history"] && strings.TrimSpace(*history) == "" {
		return usage("-history: give a player's name")
	}

	q := query{format: *format, sides: sides, top: *top, history: strings.TrimSpace(*history)}
	if set["history"] {
		q.view = "history"
	} else if set["predict"] {
		q.view = "prediction"
	} else if *pairings {
		q.view = "pairings"
	} else {
		q.view = "leaderboard"
	}
	var drawFlag *float64
	if set["draw"] {
		drawFlag = draw
	}
	if err := rateLeague(stdout, stderr, *matches, *statePath, drawFlag, q); err != nil {
		fmt.Fprintln(stderr, "league:", strings.ReplaceAll(err.Error(), "\n", " "))
		return cli.Error
	}
	return cli.OK
}

// query is what to print and how.
type query struct {
	format  string // table, csv or json
	view    string // leaderboard, prediction, pairings or history
	sides   [][]string
	top     int
	history string
}

// parseTeams parses -predict: two teams separated by a comma, each one or
// more player names joined by "+".
func parseTeams(s string) ([][]string, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 2 {
		return nil, fmt.Errorf("want two teams separated by a comma, e.g. Ada,Ben or Ada+Ben,Cleo+Dev")
	}
	seen := map[string]bool{}
	teams := make([][]string, 2)
	for j, part := range parts {
		for _, name := range strings.Split(part, "+") {
			name = strings.TrimSpace(name)
			if name == "" {
				return nil, fmt.Errorf("an empty player name")
			}
			if seen[name] {
				return nil, fmt.Errorf("%q named twice", name)
			}
			seen[name] = true
			teams[j] = append(teams[j], name)
		}
	}
	return teams, nil
}

// rateLeague loads the league file and the state, rates the new games,
// answers the query, and saves the state.
func rateLeague(stdout, stderr io.Writer, path, statePath string, drawFlag *float64, q query) error {
	if path == "" {
		var err error
		if path, err = findBundled(); err != nil {
			return err
		}
	}
	format, games, err := loadGames(path)
	if err != nil {
		return err
	}
	sum := summary{File: path, Format: format, State: statePath}

	var l *league
	if statePath != "" {
		if l, err = loadState(statePath); err != nil {
			return fmt.Errorf("-state %w", err)
		}
	}
	hadState := l != nil
	if hadState {
		if l.Format != format {
			return fmt.Errorf("-state %s was built from a %s-format file, and %s is in the %s format: their games cannot be matched", statePath, l.Format, path, format)
		}
		if drawFlag != nil && *drawFlag != l.Params.DrawProbability {
			return fmt.Errorf("-draw %v differs from the draw probability %v of -state %s, with which its ratings were computed", *drawFlag, l.Params.DrawProbability, statePath)
		}
		sum.DrawSource = "state " + statePath
		sum.Before = len(l.Games)
	} else {
		p := trueskill.DefaultParams()
		if drawFlag != nil {
			p.DrawProbability = *drawFlag
			sum.DrawSource = "-draw"
		} else {
			ties, pairs := drawShare(games)
			p.DrawProbability = float64(ties) / float64(pairs)
			what := "games"
			if pairs != len(games) {
				what = "pairs of teams adjacent in finishing order"
			}
			sum.DrawSource = fmt.Sprintf("observed: %d of %d %s drawn", ties, pairs, what)
			if ties == pairs {
				return fmt.Errorf("%s: every game is a draw, so the draw share cannot be the draw probability: set -draw", path)
			}
		}
		l = newLeague(format, p)
	}
	if sum.New, err = l.rate(context.Background(), games); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	sum.fill(l)

	// The query is answered before the state is saved, so that a run that
	// fails leaves the state as it was.
	var out view
	switch q.view {
	case "leaderboard":
		out = leaderboard(l)
	case "prediction":
		out, err = predict(l, q.sides)
	case "pairings":
		out, err = pairings(l, q.top)
	case "history":
		out, err = playerHistory(l, q.history)
	}
	if err != nil {
		return err
	}
	if statePath != "" && (sum.New > 0 || !hadState) {
		if err := saveState(statePath, l); err != nil {
			return fmt.Errorf("-state: writing %s: %w", statePath, err)
		}
	}
	return write(stdout, stderr, q, sum, out)
}

// summary describes the league rated, for the first lines of the output.
type summary struct {
	File       string           `json:"file"`
	Format     string           `json:"format"`
	State      string           `json:"state,omitempty"`
	Before     int              `json:"games_in_state"` // rated in earlier runs
	New        int              `json:"games_rated"`    // rated in this run
	Games      int              `json:"games"`
	Players    int              `json:"players"`
	FirstDate  string           `json:"first_date"`
	LastDate   string           `json:"last_date"`
	Params     trueskill.Params `json:"params"`
	DrawSource string           `json:"draw_probability_source"`
}

// fill sets the counts and dates of l.
func (s *summary) fill(l *league) {
	s.Games, s.Players, s.LastDate, s.Params = len(l.Games), len(l.Players), l.LastDate, l.Params
	s.FirstDate = l.LastDate
	for _, pl := range l.Players {
		s.FirstDate = min(s.FirstDate, pl.History[0].Date)
	}
}

// lines returns the summary as the table's first lines.
func (s *summary) lines() []string {
	p := s.Params
	out := []string{
		fmt.Sprintf("%s: %d games (%s to %s), %d players", s.File, s.Games, s.FirstDate, s.LastDate, s.Players),
	}
	if s.State != "" {
		out = append(out, fmt.Sprintf("state %s: %d games rated before, %d now", s.State, s.Before, s.New))
	}
	src := s.DrawSource
	if strings.HasPrefix(src, "observed") {
		src += "; set it with -draw"
	}
	out = append(out, fmt.Sprintf("TrueSkill μ₀ = %.4g, σ₀ = %.4g, β = %.4g, τ = %.4g; draw probability %.4g (%s)",
		p.Mu, p.Sigma, p.Beta, p.Tau, p.DrawProbability, src))
	return out
}
