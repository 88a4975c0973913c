package rate

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/skillgraph/skillgraph/internal/cli"
	"github.com/skillgraph/skillgraph/internal/league"
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

// Prog is the subcommand's name in its messages.
const Prog = "skillgraph rate"

// Synopsis is the subcommand's usage line.
const Synopsis = Prog + " [-matches FILE] [-state FILE] [-draw p] [-home learn|off] [-format table|csv|json] [-min-games N] [-rank-by display|conservative]" +
	" [-predict A,B | -pairings [-top N] | -history PLAYER [-plot FILE.svg|png]]"

// Summary is the subcommand's one-line description.
const Summary = "rate a league with TrueSkill: leaderboard, predictions, fairest pairings, a player's history"

// Run is the subcommand with its arguments and streams, returning the exit
// status.
func Run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(Prog, flag.ContinueOnError)
	f := newFlags(fs)
	if status, done := cli.Parse(fs, args, Synopsis, stderr); done {
		return status
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	q, drawFlag, err := f.query(set)
	if err != nil {
		return cli.Usagef(stderr, Prog, "%v", err)
	}
	if err := rateLeague(stdout, stderr, *f.matches, *f.statePath, drawFlag, q); err != nil {
		return cli.Failf(stderr, Prog, "%v", err)
	}
	return cli.OK
}

// flags are the subcommand's flags.
type flags struct {
	matches, statePath, home, format, rankBy, predict, history, plotPath *string
	draw                                                                 **float64
	minGames, top                                                        *int
	pairings                                                             *bool
}

// newFlags defines the flags on fs.
func newFlags(fs *flag.FlagSet) *flags {
	return &flags{
		matches:   fs.String("matches", "", "league file, long (match_id,date,team,player,rank) or scores (date,home,away,home_score,away_score) format (default: the bundled examples/data/office.csv)"),
		statePath: fs.String("state", "", "JSON file keeping the league between runs: locked, loaded if present, games not in it rated, written back atomically"),
		draw:      cli.ProbabilityFlag(fs, "draw", "draw probability in [0, 1) (default: the share of drawn games in the file, or the state's)"),
		home:      fs.String("home", "", "home advantage in the scores format: learn (the default there) or off; rows with neutral TRUE have none"),
		format:    fs.String("format", "table", "output format: table, csv or json"),
		minGames:  fs.Int("min-games", 0, "leave players with fewer games out of the leaderboard and the pairings"),
		rankBy:    fs.String("rank-by", string(league.Display), "rank by the display rating (μ−σ)·48 (display) or μ−3σ (conservative)"),
		predict:   fs.String("predict", "", "predict a game: A,B or teams A+B,C+D"),
		pairings:  fs.Bool("pairings", false, "list the fairest 1v1 games by match quality"),
		top:       fs.Int("top", 10, fmt.Sprintf("with -pairings, how many games to list, at most %d (0 for all, if there are at most that many)", maxPairings)),
		history:   fs.String("history", "", "one player's rating after each game"),
		plotPath:  fs.String("plot", "", "with -history, plot the rating history to FILE.svg or FILE.png"),
	}
}

// query checks the flags (set holds those given) and returns the query
// they ask, and the draw probability if -draw is given; an error is a
// usage message.
func (f *flags) query(set map[string]bool) (query, *float64, error) {
	switch *f.format {
	case "table", "csv", "json":
	default:
		return query{}, nil, fmt.Errorf("-format %q: want table, csv or json", *f.format)
	}
	if set["home"] && *f.home != "learn" && *f.home != "off" {
		return query{}, nil, fmt.Errorf("-home %q: want learn or off", *f.home)
	}
	by, err := league.ParseRankBy(*f.rankBy)
	if err != nil {
		return query{}, nil, fmt.Errorf("-rank-by %v", err)
	}
	if *f.minGames < 0 {
		return query{}, nil, fmt.Errorf("-min-games %d: must not be negative", *f.minGames)
	}
	q := query{progress: progressInterval, home: *f.home, format: *f.format, top: *f.top, history: strings.TrimSpace(*f.history),
		plot: *f.plotPath, minGames: *f.minGames, rankBy: by, view: "leaderboard"}
	views := 0
	for _, v := range []struct {
		given bool
		view  string
	}{{set["history"], "history"}, {set["predict"], "prediction"}, {*f.pairings, "pairings"}} {
		if v.given {
			views++
			q.view = v.view
		}
	}
	if views > 1 {
		return query{}, nil, fmt.Errorf("give at most one of -predict, -pairings and -history")
	}
	if set["top"] && !*f.pairings {
		return query{}, nil, fmt.Errorf("-top goes with -pairings")
	}
	if *f.top < 0 || *f.top > maxPairings {
		return query{}, nil, fmt.Errorf("-top %d: must be from 0 (all) to %d", *f.top, maxPairings)
	}
	if set["plot"] {
		if !set["history"] {
			return query{}, nil, fmt.Errorf("-plot goes with -history")
		}
		if ext := strings.ToLower(filepath.Ext(*f.plotPath)); ext != ".svg" && ext != ".png" {
			return query{}, nil, fmt.Errorf("-plot %q: the file name must end in .svg or .png", *f.plotPath)
		}
		for _, in := range []struct{ flag, path string }{{"-matches", *f.matches}, {"-state", *f.statePath}} {
			if in.path != "" && cli.SameFile(*f.plotPath, in.path) {
				return query{}, nil, fmt.Errorf("-plot %s is the %s file, which the plot would overwrite", *f.plotPath, in.flag)
			}
		}
	}
	if set["predict"] {
		if q.sides, err = parseTeams(*f.predict); err != nil {
			return query{}, nil, fmt.Errorf("-predict %q: %v", *f.predict, err)
		}
	}
	if set["history"] && q.history == "" {
		return query{}, nil, fmt.Errorf("-history: give a player's name")
	}
	return q, *f.draw, nil
}

// query is what to print and how.
type query struct {
	progress time.Duration // how often to say how far rating has gone
	home     string        // learn, off, or "" for the format's default
	format   string        // table, csv or json
	view     string        // leaderboard, prediction, pairings or history
	sides    [][]string
	top      int
	history  string
	plot     string
	minGames int
	rankBy   league.RankBy
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

// rateLeague loads the league file and the state (locked until the end),
// rates the new games, answers the query, and saves the state.
func rateLeague(stdout, stderr io.Writer, path, statePath string, drawFlag *float64, q query) error {
	path, format, games, rep, err := league.ReadFileOrBundled(path)
	if err != nil {
		return err
	}
	sum := summary{File: path, Format: format, State: statePath, Notes: rep.Notes()}

	var l *league.League
	var state *league.State
	if statePath != "" {
		ctx, cancel := context.WithTimeout(context.Background(), lockTimeout)
		stop := waitNote(stderr, q.progress, fmt.Sprintf("%s: waiting up to %v for another run to release -state %s", Prog, lockTimeout, statePath))
		state, err = league.OpenState(ctx, statePath)
		stop()
		cancel()
		if err != nil {
			return fmt.Errorf("-state %s: %w", statePath, err)
		}
		defer state.Close()
		l = state.League
	}
	hadState := l != nil
	if hadState {
		err = resume(l, &sum, drawFlag, q)
	} else {
		l, err = newLeague(&sum, games, drawFlag, q)
	}
	if err != nil {
		return err
	}
	progress := cli.NewProgress(stderr, Prog, q.progress)
	report := func(done int) {
		progress.Printf("rating %s: %d of %d games", path, done, len(games))
	}
	if sum.New, err = l.RateProgress(context.Background(), games, report); err != nil {
		switch {
		case errors.Is(err, messages.ErrImpossible) && hadState:
			return fmt.Errorf("%s: %w; -state %s keeps the draw probability it was started with, which -draw cannot change: start a new state file with -draw above 0", path, err, statePath)
		case errors.Is(err, messages.ErrImpossible):
			return fmt.Errorf("%s: %w; set -draw above 0", path, err)
		}
		return fmt.Errorf("%s: %w", path, err)
	}
	sum.fill(l)

	// The query is answered before the state is saved, so that a run that
	// fails leaves the state as it was.
	out, err := answer(l, q)
	if err != nil {
		return err
	}
	if state != nil && (sum.New > 0 || !hadState) {
		if err := state.Save(l); err != nil {
			return fmt.Errorf("-state: writing %s: %w", statePath, err)
		}
	}
	return write(stdout, stderr, q, sum, out)
}

// waitNote writes note on w, once, if it is not stopped within after: a
// wait for another run's lock, which prints nothing else, would look like
// a hang. The returned stop returns once the note is written or will not
// be.
func waitNote(w io.Writer, after time.Duration, note string) (stop func()) {
	done, ended := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(ended)
		t := time.NewTimer(after)
		defer t.Stop()
		select {
		case <-t.C:
			fmt.Fprintln(w, note)
		case <-done:
		}
	}()
	return func() {
		close(done)
		<-ended
	}
}

// resume checks that the league l of the state sum.State suits the file
// and the flags, which cannot change how its ratings were computed.
func resume(l *league.League, sum *summary, drawFlag *float64, q query) error {
	statePath := sum.State
	if l.Format != sum.Format {
		return fmt.Errorf("-state %s was built from a %s-format file, and %s is in the %s format: their games cannot be matched", statePath, l.Format, sum.File, sum.Format)
	}
	if drawFlag != nil && *drawFlag != l.Params.DrawProbability {
		return fmt.Errorf("-draw %v differs from the draw probability %v of -state %s, with which its ratings were computed", *drawFlag, l.Params.DrawProbability, statePath)
	}
	if q.home != "" && (q.home == "learn") != (l.Home != nil) {
		return fmt.Errorf("-home %s differs from -state %s, which was rated with the home advantage %s", q.home, statePath, onOff(l.Home != nil))
	}
	sum.DrawSource = "state " + statePath
	sum.Before = len(l.Games)
	return nil
}

// newLeague returns an empty league for the file sum.File of games: the
// draw probability given or estimated from the games, and a home
// advantage learnt in the scores format unless -home is off.
func newLeague(sum *summary, games []league.Match, drawFlag *float64, q query) (*league.League, error) {
	path, format := sum.File, sum.Format
	if q.home == "learn" && format != league.FormatScores {
		return nil, fmt.Errorf("-home learn: %s is in the %s format, which has no home team", path, format)
	}
	l, source, err := league.Setup(format, games, drawFlag, q.home == "off")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	sum.DrawSource = source
	if drawFlag != nil {
		sum.DrawSource = "-draw"
	}
	return l, nil
}

// answer returns the view the query asks of the rated league.
func answer(l *league.League, q query) (view, error) {
	switch q.view {
	case "prediction":
		return predict(l, q.sides)
	case "pairings":
		return pairings(l, q)
	case "history":
		h, err := playerHistory(l, q.history)
		if err == nil && q.plot != "" {
			err = plotHistory(q.plot, h)
		}
		return h, err
	}
	return leaderboard(l, q), nil
}

// onOff says whether a league has a home advantage.
func onOff(on bool) string {
	if on {
		return "learnt"
	}
	return "off"
}

// maxPairings bounds the games -pairings lists, so that a league of
// thousands of players, with millions of pairs, is not listed whole.
const maxPairings = 10000

// progressInterval is how long rating may run before a progress line,
// and how often they come.
const progressInterval = 2 * time.Second

// lockTimeout bounds the wait for another run's lock on the state.
const lockTimeout = 10 * time.Minute

// summary describes the league rated, for the first lines of the output.
type summary struct {
	File   string `json:"file"`
	Format string `json:"format"`
	// Notes are the reader's remarks: rows moved into time order,
	// columns ignored.
	Notes      []string         `json:"notes,omitempty"`
	State      string           `json:"state,omitempty"`
	Before     int              `json:"games_in_state"` // rated in earlier runs
	New        int              `json:"games_rated"`    // rated in this run
	Games      int              `json:"games"`
	Players    int              `json:"players"`
	FirstDate  string           `json:"first_date"`
	LastDate   string           `json:"last_date"`
	Params     trueskill.Params `json:"params"`
	DrawSource string           `json:"draw_probability_source"`
	// Home is the home advantage learnt, added to the home team's
	// performance in games not marked neutral; nil if the league has none.
	Home *trueskill.Rating `json:"home_advantage,omitempty"`
	// HomeLearned says that games at home informed Home; without them
	// Home is its prior, league.HomePrior.
	HomeLearned bool `json:"home_advantage_learned,omitempty"`
}

// fill sets the counts and dates of l.
func (s *summary) fill(l *league.League) {
	s.Games, s.Players, s.LastDate, s.Params = len(l.Games), len(l.Players), l.LastDate, l.Params
	s.FirstDate = l.FirstDate()
	s.Home, s.HomeLearned = l.Home, l.HomeLearned()
}

// lines returns the summary as the table's first lines.
func (s *summary) lines() []string {
	p := s.Params
	out := []string{
		fmt.Sprintf("%s: %d games (%s to %s), %d players", s.File, s.Games, s.FirstDate, s.LastDate, s.Players),
	}
	out = append(out, s.Notes...)
	if s.State != "" {
		out = append(out, fmt.Sprintf("state %s: %d games rated before, %d now", s.State, s.Before, s.New))
	}
	src := s.DrawSource
	if strings.HasPrefix(src, "observed") {
		src += "; set it with -draw"
	}
	out = append(out, fmt.Sprintf("TrueSkill μ₀ = %.4g, σ₀ = %.4g, β = %.4g, τ = %.4g; draw probability %.4g (%s)",
		p.Mu, p.Sigma, p.Beta, p.Tau, p.DrawProbability, src))
	switch {
	case s.Home != nil && !s.HomeLearned:
		out = append(out, fmt.Sprintf("home advantage %.3g ± %.2g in skill points, its prior: no game at home has informed it (every game is on neutral ground; set -home off)",
			s.Home.Mu, s.Home.Sigma))
	case s.Home != nil:
		out = append(out, fmt.Sprintf("home advantage %.3g ± %.2g in skill points, learnt from the games at home (neutral games have none; set -home off)",
			s.Home.Mu, s.Home.Sigma))
	}
	return out
}
