package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/skillgraph/skillgraph/models/trueskill"
)

// stateVersion names the layout of the state file.
const stateVersion = "skillgraph-league/1"

// league is everything the program knows after rating: the parameters,
// the games rated so far (by key, in order) and each player. It is also
// the state file, as JSON.
type league struct {
	Version  string           `json:"version"`
	Format   string           `json:"format"` // of the files its games came from
	Params   trueskill.Params `json:"params"`
	Games    []string         `json:"games"` // keys of the rated games, in the order rated
	LastDate string           `json:"last_date"`
	Players  []*player        `json:"players"` // in order of first game

	byName map[string]*player
}

// player is one player's rating, record and history.
type player struct {
	Name       string           `json:"name"`
	Rating     trueskill.Rating `json:"rating"`
	Games      int              `json:"games"`
	LastPlayed string           `json:"last_played"`
	History    []step           `json:"history"`
}

// step is a player's rating after one game.
type step struct {
	Game   string           `json:"game"`
	Date   string           `json:"date"`
	Result string           `json:"result"`
	Rating trueskill.Rating `json:"rating"`
}

// newLeague returns a league with no games.
func newLeague(format string, p trueskill.Params) *league {
	return &league{Version: stateVersion, Format: format, Params: p, Games: []string{}, Players: []*player{}, byName: map[string]*player{}}
}

// rate rates, in file order, the games not rated yet, and returns how
// many it rated. Games already rated are recognised by their key; they
// must all come before the new games in the file, and no new game may be
// dated before the last one rated, since ratings cannot be taken back.
func (l *league) rate(ctx context.Context, games []game) (int, error) {
	known := make(map[string]bool, len(l.Games))
	for _, k := range l.Games {
		known[k] = true
	}
	firstNew := ""
	n := 0
	for _, g := range games {
		if known[g.Key] {
			if firstNew != "" {
				return n, fmt.Errorf("game %s was rated before, but comes after the new game %s in the file: the state's games must come first", g.Key, firstNew)
			}
			continue
		}
		if firstNew == "" {
			firstNew = g.Key
		}
		if g.Date < l.LastDate {
			return n, fmt.Errorf("new game %s is dated %s, before the last game rated (%s): ratings cannot be redone in the past", g.Key, g.Date, l.LastDate)
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
func (l *league) rateOne(ctx context.Context, g game) error {
	m := trueskill.Match{Teams: make([][]trueskill.Rating, len(g.Teams)), Ranks: g.Ranks}
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
	res, err := l.Params.Rate(ctx, m)
	if err != nil {
		if errors.Is(err, trueskill.ErrDrawMargin) {
			return fmt.Errorf("game %s (%s) is a draw, but the draw probability is 0: set -draw", g.Key, g.Date)
		}
		return fmt.Errorf("game %s (%s): %w", g.Key, g.Date, err)
	}
	for j, team := range g.Teams {
		result := resultOf(g.Ranks, j)
		for i, name := range team {
			pl := l.byName[name]
			if pl == nil {
				pl = &player{Name: name, History: []step{}}
				l.byName[name] = pl
				l.Players = append(l.Players, pl)
			}
			pl.Rating = res.Ratings[j][i]
			pl.Games++
			pl.LastPlayed = g.Date
			pl.History = append(pl.History, step{Game: g.Key, Date: g.Date, Result: result, Rating: pl.Rating})
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
	return fmt.Sprintf("%s%s of %d", eq, ordinal(better+1), len(ranks))
}

// ordinal spells n as 1st, 2nd, 3rd, 4th, ….
func ordinal(n int) string {
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

// drawShare is the share of drawn games in a file: of the pairs of teams
// adjacent in finishing order (one pair in a game of two teams), the
// share that tied, the draw probability's estimate if every pair were
// evenly matched. It returns the ties and the pairs.
func drawShare(games []game) (ties, pairs int) {
	for _, g := range games {
		sorted := slices.Sorted(slices.Values(g.Ranks))
		for k := 1; k < len(sorted); k++ {
			pairs++
			if sorted[k] == sorted[k-1] {
				ties++
			}
		}
	}
	return ties, pairs
}

// loadState reads a state file; it returns nil and no error if there is
// none yet. The file is checked as strictly as a league file: a state that
// is not whole, or holds a value the program would not write, is an error
// and is left as it is.
func loadState(path string) (*league, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	dec.DisallowUnknownFields()
	var l league
	if err := dec.Decode(&l); err != nil {
		return nil, fmt.Errorf("%s: not a league state file: %w", path, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%s: not a league state file: data after its JSON object", path)
	}
	if err := l.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &l, nil
}

// check validates a league read from a state file and indexes its players.
func (l *league) check() error {
	if l.Version != stateVersion {
		return fmt.Errorf("version %q, want %q", l.Version, stateVersion)
	}
	if l.Format != formatLong && l.Format != formatScores {
		return fmt.Errorf("format %q, want %q or %q", l.Format, formatLong, formatScores)
	}
	if err := l.Params.Validate(); err != nil {
		return fmt.Errorf("params: %w", err)
	}
	if l.Games == nil || l.Players == nil {
		return fmt.Errorf("no games or players list")
	}
	games := make(map[string]bool, len(l.Games))
	for _, k := range l.Games {
		if k == "" || games[k] {
			return fmt.Errorf("game key %q empty or repeated", k)
		}
		games[k] = true
	}
	l.byName = make(map[string]*player, len(l.Players))
	for _, pl := range l.Players {
		if pl == nil || pl.Name == "" || l.byName[pl.Name] != nil {
			return fmt.Errorf("a player is missing, unnamed or listed twice")
		}
		if !validRating(pl.Rating) {
			return fmt.Errorf("player %q: rating %v is not a finite μ and a positive σ", pl.Name, pl.Rating)
		}
		if pl.Games != len(pl.History) || pl.Games == 0 || pl.LastPlayed != pl.History[len(pl.History)-1].Date ||
			pl.Rating != pl.History[len(pl.History)-1].Rating || pl.LastPlayed > l.LastDate {
			return fmt.Errorf("player %q: games, last game and history disagree", pl.Name)
		}
		for _, s := range pl.History {
			if !games[s.Game] || !validRating(s.Rating) {
				return fmt.Errorf("player %q: history names game %q, not rated, or holds an invalid rating", pl.Name, s.Game)
			}
		}
		l.byName[pl.Name] = pl
	}
	return nil
}

// validRating reports whether r has a finite μ and a finite positive σ.
func validRating(r trueskill.Rating) bool {
	return !math.IsNaN(r.Mu) && !math.IsInf(r.Mu, 0) && r.Sigma > 0 && !math.IsInf(r.Sigma, 1)
}

// saveState writes l to path atomically.
func saveState(path string, l *league) error {
	return writeAtomic(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", " ")
		return enc.Encode(l)
	})
}

// writeAtomic writes a file with write so that path holds either its old
// contents or all of the new ones, whatever happens: the new contents go
// to a temporary file in the same folder, which is flushed to disk and
// then renamed over path (a rename within a file system is atomic); on
// any error the temporary file is removed and path is untouched.
func writeAtomic(path string, write func(io.Writer) error) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	// The new file keeps the old one's permissions, or gets the usual
	// ones (CreateTemp makes it private).
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := tmp.Chmod(mode); err != nil {
		return err
	}
	if err := write(tmp); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	// The rename itself is made durable by syncing the folder; a file
	// system that cannot sync a folder still has the whole file.
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}
