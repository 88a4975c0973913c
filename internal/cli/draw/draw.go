package draw

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/skillgraph/skillgraph/dot"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/internal/cli"
	"github.com/skillgraph/skillgraph/internal/league"
	"github.com/skillgraph/skillgraph/internal/safefile"
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/models/trueskill"
	"github.com/skillgraph/skillgraph/schedules"
)

// Prog is the subcommand's name in its messages.
const Prog = "skillgraph draw"

// Synopsis is the subcommand's usage line.
const Synopsis = Prog + " [-matches FILE] [-game KEY | -player NAME [-depth D] [-max-games N]] [-draw p] [-values] [-o FILE.dot|FILE.svg]"

// Summary is the subcommand's one-line description.
const Summary = "draw the factor graph of a game, or of a season around a player, as DOT or SVG"

// Limits that bound a drawing's work by its flags.
const (
	maxDepth = 10
	maxGames = 500
	// renderTimeout bounds Graphviz's run.
	renderTimeout = 2 * time.Minute
	// inferenceTimeout bounds -values' inference.
	inferenceTimeout = time.Minute
)

// request is what to draw.
type request struct {
	matches, game, player string
	depth, maxGames       int
	draw                  *float64
	values                bool
	out                   string
}

// Run is the subcommand with its arguments and streams, returning the exit
// status.
func Run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(Prog, flag.ContinueOnError)
	var r request
	fs.StringVar(&r.matches, "matches", "", "league file, in either format skillgraph rate reads (default: the bundled examples/data/office.csv)")
	fs.StringVar(&r.game, "game", "", "draw the game with this key (match_id, or in the scores format \"DATE HOME v AWAY\"); default: the file's last game")
	fs.StringVar(&r.player, "player", "", "draw the season around this player")
	fs.IntVar(&r.depth, "depth", 1, fmt.Sprintf("with -player, how many steps from the player: 1 their games, 2 also their opponents' games, … (at most %d)", maxDepth))
	fs.IntVar(&r.maxGames, "max-games", 30, fmt.Sprintf("with -player, draw at most this many games, the latest (at most %d)", maxGames))
	draw := cli.ProbabilityFlag(fs, "draw", "draw probability in [0, 1) (default: the share of drawn games in the file)")
	fs.BoolVar(&r.values, "values", false, "run inference and label each variable with its marginal")
	fs.StringVar(&r.out, "o", "", "output file, .dot or .svg (Graphviz's dot renders the SVG); default: DOT on standard output")
	usage := func(format string, a ...any) int { return cli.Usagef(stderr, Prog, format, a...) }
	if status, done := cli.Parse(fs, args, Synopsis, stderr); done {
		return status
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case set["game"] && set["player"]:
		return usage("give one of -game and -player")
	case (set["depth"] || set["max-games"]) && !set["player"]:
		return usage("-depth and -max-games go with -player")
	case r.depth < 1 || r.depth > maxDepth:
		return usage("-depth %d: must be from 1 to %d", r.depth, maxDepth)
	case r.maxGames < 1 || r.maxGames > maxGames:
		return usage("-max-games %d: must be from 1 to %d", r.maxGames, maxGames)
	case set["player"] && strings.TrimSpace(r.player) == "":
		return usage("-player: give a player's name")
	case set["game"] && r.game == "":
		return usage("-game: give a game's key")
	}
	if r.out != "" {
		if ext := strings.ToLower(filepath.Ext(r.out)); ext != ".dot" && ext != ".svg" {
			return usage("-o %q: the file name must end in .dot or .svg", r.out)
		}
		if r.matches != "" && cli.SameFile(r.out, r.matches) {
			return usage("-o %s is the -matches file, which the drawing would overwrite", r.out)
		}
	}
	r.draw = *draw
	r.player = strings.TrimSpace(r.player)
	if err := run(r, stdout, stderr); err != nil {
		return cli.Failf(stderr, Prog, "%v", err)
	}
	return cli.OK
}

// run draws what r asks for.
func run(r request, stdout, stderr io.Writer) error {
	path, format, games, _, err := league.ReadFileOrBundled(r.matches)
	if err != nil {
		return err
	}
	l, _, err := league.Setup(format, games, r.draw, false)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	p := l.Params
	// The league is rated up to the first game at home drawn, where its
	// home advantage (if it has one) is the prior of the drawing's, as a
	// player's rating before their first game drawn is theirs; then on to
	// the end, so that every player's rating before each game is known.
	var slice []league.Match
	key := r.game
	if r.player != "" {
		slice = seasonSlice(games, r.player, r.depth)
		if len(slice) > r.maxGames {
			fmt.Fprintf(stderr, "%s: %d games around %s at depth %d; drawing the latest %d (set -max-games)\n", Prog, len(slice), r.player, r.depth, r.maxGames)
			slice = slice[len(slice)-r.maxGames:]
		}
	} else if key == "" {
		key = games[len(games)-1].Key
	}
	index := func(key string) int {
		return slices.IndexFunc(games, func(g league.Match) bool { return g.Key == key })
	}
	first, stop := index(key), len(games)
	if first >= 0 {
		stop = first
	}
	if i := slices.IndexFunc(slice, func(g league.Match) bool { return g.Home }); i >= 0 {
		stop = index(slice[i].Key)
	}
	var home *trueskill.Rating
	for _, upTo := range []int{stop, len(games)} {
		if _, err := l.Rate(context.Background(), games[:upTo]); err != nil {
			if errors.Is(err, messages.ErrImpossible) {
				return fmt.Errorf("%s: %w; set -draw above 0", path, err)
			}
			return fmt.Errorf("%s: %w", path, err)
		}
		if home == nil && l.Home != nil {
			h := *l.Home
			home = &h
		}
	}
	var g *graph.Graph
	var opt dot.Options
	if r.player != "" {
		if l.Player(r.player) == nil {
			return unknownPlayer(l, r.player)
		}
		s, err := newSeason(p, slice, home, func(name, key string) trueskill.Rating { return ratingBefore(l, name, key) })
		if err != nil {
			return err
		}
		g = s.graph
		opt = dot.Options{Structural: true, HideNumbers: true}
		if r.values {
			if err := s.infer(); err != nil {
				return err
			}
		}
	} else {
		if first < 0 {
			return unknownGame(games, key)
		}
		var sch schedules.Schedule
		var run func(context.Context) error
		if g, sch, run, err = gameGraph(p, games[first], home, func(name string) trueskill.Rating { return ratingBefore(l, name, key) }); err != nil {
			return err
		}
		opt = dot.Options{Schedule: sch}
		if r.values {
			ctx, cancel := context.WithTimeout(context.Background(), inferenceTimeout)
			defer cancel()
			if err := run(ctx); err != nil {
				return fmt.Errorf("game %s: %w", key, err)
			}
		}
	}
	opt.Values = r.values
	text, err := dot.Marshal(g, opt)
	if err != nil {
		return err
	}
	return output(r.out, text, stdout)
}

// output writes the DOT text to stdout, or to path as DOT or SVG.
func output(path string, text []byte, stdout io.Writer) error {
	if path == "" {
		_, err := stdout.Write(text)
		return err
	}
	if strings.EqualFold(filepath.Ext(path), ".svg") {
		var err error
		if text, err = render(text); err != nil {
			return err
		}
	}
	if err := safefile.Write(path, func(w io.Writer) error { _, err := w.Write(text); return err }); err != nil {
		return fmt.Errorf("-o: %w", err)
	}
	return nil
}

// render runs Graphviz's dot -Tsvg on text, for at most renderTimeout.
func render(text []byte) ([]byte, error) {
	bin, err := exec.LookPath("dot")
	if err != nil {
		return nil, errors.New("the dot program of Graphviz is not installed: install graphviz, or write DOT with -o FILE.dot")
	}
	ctx, cancel := context.WithTimeout(context.Background(), renderTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-Tsvg")
	cmd.Stdin = bytes.NewReader(text)
	var errs bytes.Buffer
	cmd.Stderr = &errs
	svg, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("dot -Tsvg: %w: %s", err, strings.TrimSpace(errs.String()))
	}
	return svg, nil
}

// ratingBefore returns the named player's rating before the game key:
// after their previous game, or a new player's.
func ratingBefore(l *league.League, name, key string) trueskill.Rating {
	pl := l.Player(name)
	if pl == nil {
		return l.Params.NewRating()
	}
	prev := l.Params.NewRating()
	for _, s := range pl.History {
		if s.Game == key {
			break
		}
		prev = s.Rating
	}
	return prev
}

// unknownPlayer reports a name not in the league, with close names.
func unknownPlayer(l *league.League, name string) error {
	if hint := cli.DidYouMean(name, l.Names()); hint != "" {
		return fmt.Errorf("-player: no player %q in the league; %s", name, hint)
	}
	return fmt.Errorf("-player: no player %q in the league of %d players", name, len(l.Players))
}

// unknownGame reports a game key not in the file, with close keys.
func unknownGame(games []league.Match, key string) error {
	keys := make([]string, len(games))
	for i, g := range games {
		keys[i] = g.Key
	}
	if hint := cli.DidYouMean(key, keys); hint != "" {
		return fmt.Errorf("-game: no game %q in the file; %s", key, hint)
	}
	return fmt.Errorf("-game: no game %q in the file of %d games (the first is %q)", key, len(games), keys[0])
}

// gameGraph is one game's graph with the players' priors, its schedule
// and a function that runs it: TrueSkill's Figure 1, or with a home
// advantage's prior home (nil if the league has none) a game at home's
// graph with it (league.DeclareHome), as the league rates them.
func gameGraph(p trueskill.Params, g league.Match, home *trueskill.Rating, prior func(name string) trueskill.Rating) (*graph.Graph, schedules.Schedule, func(context.Context) error, error) {
	m := trueskill.Match{Ranks: g.Ranks, Weights: g.Weights, Teams: make([][]trueskill.Rating, len(g.Teams))}
	for j, team := range g.Teams {
		for _, name := range team {
			m.Teams[j] = append(m.Teams[j], prior(name))
		}
	}
	if home != nil && g.Home {
		hg, err := league.DeclareHome(p, m, *home)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("game %s: %w", g.Key, err)
		}
		run := func(ctx context.Context) error {
			_, err := schedules.Run(ctx, hg.Graph, hg.Schedule)
			return err
		}
		return hg.Graph, hg.Schedule, run, nil
	}
	gm, err := p.NewGame(m)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("game %s: %w", g.Key, err)
	}
	run := func(ctx context.Context) error {
		_, err := gm.Run(ctx)
		return err
	}
	return gm.Graph(), gm.Schedule(), run, nil
}
