package rate

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/skillgraph/skillgraph/internal/cli"
	"github.com/skillgraph/skillgraph/internal/league"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

// view is one of the program's answers: a table, CSV rows and a JSON value.
type view interface {
	key() string                              // its name in the JSON output
	table(w io.Writer)                        // the table after the summary lines
	rows() (header []string, rows [][]string) // the CSV
}

// write prints the summary and v in the query's format.
func write(stdout, stderr io.Writer, q query, sum summary, v view) error {
	switch q.format {
	case "json":
		// One object, the summary first.
		head, err := json.MarshalIndent(sum, "  ", "  ")
		if err != nil {
			return err
		}
		body, err := json.MarshalIndent(v, "  ", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "{\n  \"league\": %s,\n  %q: %s\n}\n", head, v.key(), body)
		return err
	case "csv":
		for _, line := range sum.lines() {
			fmt.Fprintln(stderr, line)
		}
		w := csv.NewWriter(stdout)
		header, rows := v.rows()
		w.Write(header)
		w.WriteAll(rows)
		return w.Error()
	}
	for _, line := range sum.lines() {
		fmt.Fprintln(stdout, line)
	}
	fmt.Fprintln(stdout)
	v.table(stdout)
	return nil
}

// num formats x in full precision for CSV.
func num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// pad returns s padded with spaces to n runes.
func pad(s string, n int) string {
	return s + strings.Repeat(" ", max(0, n-utf8.RuneCountInString(s)))
}

// width returns the widest of the names and min, in runes.
func width(names []string, least int) int {
	w := least
	for _, n := range names {
		w = max(w, utf8.RuneCountInString(n))
	}
	return w
}

// unknown reports a player not in the league, with the names it may be a
// misspelling of (by edit distance, case ignored), or the players if
// there are few.
func unknown(l *league.League, flagName, name string) error {
	names := l.Names()
	if hint := cli.DidYouMean(name, names); hint != "" {
		return fmt.Errorf("%s: no player %q in the league; %s", flagName, name, hint)
	}
	if len(names) <= 30 {
		slices.Sort(names)
		return fmt.Errorf("%s: no player %q in the league (players: %s)", flagName, name, strings.Join(names, ", "))
	}
	return fmt.Errorf("%s: no player %q in the league of %d players", flagName, name, len(names))
}

// boardRow is one line of the leaderboard.
type boardRow struct {
	Rank          int     `json:"rank"`
	Player        string  `json:"player"`
	DisplayRating float64 `json:"display_rating"` // (μ − σ)·48
	Mu            float64 `json:"mu"`
	Sigma         float64 `json:"sigma"`
	Stability     float64 `json:"stability"` // 1 − σ²/σ₀², a fraction
	Games         int     `json:"games"`
	LastPlayed    string  `json:"last_played"`
	// Conservative is μ − 3σ, ranked by with -rank-by conservative.
	Conservative *float64 `json:"conservative,omitempty"`
}

type board []boardRow

// leaderboard ranks the players with at least q.minGames games by
// q.rankBy, highest first; equal scores share a rank (1, 2, 2, 4) and are
// listed by name.
func leaderboard(l *league.League, q query) board {
	st := l.Standings(q.rankBy, q.minGames)
	b := make(board, len(st))
	for i, s := range st {
		r := s.Player.Rating
		b[i] = boardRow{Rank: s.Rank, Player: s.Player.Name, DisplayRating: r.DisplayRating(), Mu: r.Mu, Sigma: r.Sigma,
			Stability: l.Params.Stability(r), Games: s.Player.Games, LastPlayed: s.Player.LastPlayed}
		if q.rankBy == league.Conservative {
			c := s.Score
			b[i].Conservative = &c
		}
	}
	return b
}

func (b board) key() string { return "leaderboard" }

func (b board) table(w io.Writer) {
	names := make([]string, len(b))
	for i, r := range b {
		names[i] = r.Player
	}
	nw := width(names, len("player"))
	if len(b) == 0 {
		fmt.Fprintln(w, "No player has played enough games (see -min-games).")
		return
	}
	cons := b[0].Conservative != nil
	extra := ""
	if cons {
		extra = "   μ−3σ"
	}
	fmt.Fprintf(w, "rank  %s%s  rating      μ      σ  stability  games  last played\n", pad("player", nw), extra)
	for _, r := range b {
		extra = ""
		if cons {
			extra = cli.Sprintf("  %5.2f", *r.Conservative)
		}
		cli.Fprintf(w, "%4d  %s%s  %6.0f  %5.2f  %5.2f  %8.0f%%  %5d  %s\n",
			r.Rank, pad(r.Player, nw), extra, r.DisplayRating, r.Mu, r.Sigma, 100*r.Stability, r.Games, r.LastPlayed)
	}
}

func (b board) rows() ([]string, [][]string) {
	rows := make([][]string, len(b))
	for i, r := range b {
		rows[i] = []string{strconv.Itoa(r.Rank), r.Player, num(r.DisplayRating), num(r.Mu), num(r.Sigma),
			num(r.Stability), strconv.Itoa(r.Games), r.LastPlayed}
		if r.Conservative != nil {
			rows[i] = append(rows[i], num(*r.Conservative))
		}
	}
	header := []string{"rank", "player", "display_rating", "mu", "sigma", "stability", "games", "last_played"}
	if len(b) > 0 && b[0].Conservative != nil {
		header = append(header, "conservative")
	}
	return header, rows
}

// prediction is the forecast of one game between two teams.
type prediction struct {
	Teams   [][]string `json:"teams"`
	Win     float64    `json:"win"`  // the first team wins
	Draw    float64    `json:"draw"` // they draw
	Loss    float64    `json:"loss"` // the second team wins
	Quality float64    `json:"quality"`
}

// ratingsOf returns the ratings of the named players, or an error naming
// one not in the league.
func ratingsOf(l *league.League, flagName string, names []string) ([]trueskill.Rating, error) {
	rs := make([]trueskill.Rating, len(names))
	for i, n := range names {
		pl := l.Player(n)
		if pl == nil {
			return nil, unknown(l, flagName, n)
		}
		rs[i] = pl.Rating
	}
	return rs, nil
}

// predict forecasts a game between two teams of the league's players.
func predict(l *league.League, sides [][]string) (*prediction, error) {
	a, err := ratingsOf(l, "-predict", sides[0])
	if err != nil {
		return nil, err
	}
	b, err := ratingsOf(l, "-predict", sides[1])
	if err != nil {
		return nil, err
	}
	pr, err := l.Params.Predict(a, b)
	win, draw, loss := pr.Win, pr.Draw, pr.Loss
	if err != nil {
		return nil, fmt.Errorf("-predict: %w", err)
	}
	q, err := l.Params.Quality([][]trueskill.Rating{a, b}, nil)
	if err != nil {
		return nil, fmt.Errorf("-predict: %w", err)
	}
	return &prediction{Teams: sides, Win: win, Draw: draw, Loss: loss, Quality: q}, nil
}

func (p *prediction) key() string { return "prediction" }

func (p *prediction) table(w io.Writer) {
	a, b := strings.Join(p.Teams[0], "+"), strings.Join(p.Teams[1], "+")
	labels := []string{"P(" + a + " wins)", "P(draw)", "P(" + b + " wins)", "match quality"}
	nw := width(labels, 0)
	fmt.Fprintf(w, "%s v %s\n", a, b)
	for i, x := range []float64{p.Win, p.Draw, p.Loss, p.Quality} {
		cli.Fprintf(w, "  %s  %.3f\n", pad(labels[i], nw), x)
	}
}

func (p *prediction) rows() ([]string, [][]string) {
	return []string{"team_a", "team_b", "win", "draw", "loss", "quality"},
		[][]string{{strings.Join(p.Teams[0], "+"), strings.Join(p.Teams[1], "+"), num(p.Win), num(p.Draw), num(p.Loss), num(p.Quality)}}
}

// pair is a possible 1v1 game.
type pair struct {
	Rank    int     `json:"rank"`
	A       string  `json:"a"`
	B       string  `json:"b"`
	Quality float64 `json:"quality"`
	Win     float64 `json:"win"` // A wins
	Draw    float64 `json:"draw"`
	Loss    float64 `json:"loss"` // B wins
}

// pairList is the fairest games and how many there were to choose from.
type pairList struct {
	Pairs []pair
	Of    int
}

// pairings lists the q.top fairest 1v1 games (all if q.top is 0, which
// is an error if they are more than maxPairings) between the players on
// the leaderboard (those with at least q.minGames games), by match
// quality, highest first, ties in leaderboard order; in each pair the
// player higher on the leaderboard comes first. Only the pairs that can
// be among the fairest are computed (league.FairestPairs).
func pairings(l *league.League, q query) (*pairList, error) {
	b := leaderboard(l, q)
	if n := len(b); q.top == 0 && n*(n-1)/2 > maxPairings {
		return nil, fmt.Errorf("-pairings -top 0: the %d pairs of %d players are more than the %d a list holds; give -top N (at most %d)", n*(n-1)/2, n, maxPairings, maxPairings)
	}
	rs := make([]trueskill.Rating, len(b))
	for i, r := range b {
		rs[i] = trueskill.Rating{Mu: r.Mu, Sigma: r.Sigma}
	}
	best, err := league.FairestPairs(l.Params, rs, q.top)
	if err != nil {
		return nil, fmt.Errorf("-pairings: %w", err)
	}
	ps := make([]pair, len(best))
	for i, x := range best {
		pr, err := l.Params.Predict(rs[x.A:x.A+1], rs[x.B:x.B+1])
		if err != nil {
			return nil, fmt.Errorf("-pairings: %w", err)
		}
		ps[i] = pair{Rank: i + 1, A: b[x.A].Player, B: b[x.B].Player, Quality: x.Quality, Win: pr.Win, Draw: pr.Draw, Loss: pr.Loss}
	}
	n := len(b)
	return &pairList{Pairs: ps, Of: n * (n - 1) / 2}, nil
}

func (p *pairList) key() string { return "pairings" }

// MarshalJSON writes the pairs alone, an empty list if there are none.
func (p *pairList) MarshalJSON() ([]byte, error) {
	if p.Pairs == nil {
		return []byte("[]"), nil
	}
	return json.Marshal(p.Pairs)
}

func (p *pairList) table(w io.Writer) {
	if p.Of == 0 {
		fmt.Fprintln(w, "No pairings: fewer than two players on the leaderboard.")
		return
	}
	games := make([]string, len(p.Pairs))
	for i, x := range p.Pairs {
		games[i] = x.A + " v " + x.B
	}
	nw := width(games, len("game"))
	fmt.Fprintf(w, "The fairest 1v1 games by match quality (%d of %d)\n", len(p.Pairs), p.Of)
	fmt.Fprintf(w, "   #  %s  quality  P(first wins)  P(draw)  P(second wins)\n", pad("game", nw))
	for i, x := range p.Pairs {
		cli.Fprintf(w, "%4d  %s  %7.3f  %13.3f  %7.3f  %14.3f\n", x.Rank, pad(games[i], nw), x.Quality, x.Win, x.Draw, x.Loss)
	}
}

func (p *pairList) rows() ([]string, [][]string) {
	rows := make([][]string, len(p.Pairs))
	for i, x := range p.Pairs {
		rows[i] = []string{strconv.Itoa(x.Rank), x.A, x.B, num(x.Quality), num(x.Win), num(x.Draw), num(x.Loss)}
	}
	return []string{"rank", "player_a", "player_b", "quality", "win", "draw", "loss"}, rows
}

// historyRow is a player's rating after one game.
type historyRow struct {
	N             int     `json:"n"` // the player's game number, from 1
	Game          string  `json:"game"`
	Date          string  `json:"date"`
	Result        string  `json:"result"`
	Mu            float64 `json:"mu"`
	Sigma         float64 `json:"sigma"`
	DisplayRating float64 `json:"display_rating"`
	Stability     float64 `json:"stability"`
}

// historyView is one player's history.
type historyView struct {
	Player string       `json:"player"`
	Rows   []historyRow `json:"games"`
}

// playerHistory returns the named player's rating after each game.
func playerHistory(l *league.League, name string) (*historyView, error) {
	pl := l.Player(name)
	if pl == nil {
		return nil, unknown(l, "-history", name)
	}
	h := &historyView{Player: name, Rows: make([]historyRow, len(pl.History))}
	for i, s := range pl.History {
		h.Rows[i] = historyRow{N: i + 1, Game: s.Game, Date: s.Date, Result: s.Result, Mu: s.Rating.Mu, Sigma: s.Rating.Sigma,
			DisplayRating: s.Rating.DisplayRating(), Stability: l.Params.Stability(s.Rating)}
	}
	return h, nil
}

func (h *historyView) key() string { return "history" }

func (h *historyView) table(w io.Writer) {
	games, results := make([]string, len(h.Rows)), make([]string, len(h.Rows))
	for i, r := range h.Rows {
		games[i], results[i] = r.Game, r.Result
	}
	gw, rw := width(games, len("game")), width(results, len("result"))
	fmt.Fprintf(w, "%s after each of %d games\n", h.Player, len(h.Rows))
	fmt.Fprintf(w, "   #  date        %s  %s      μ      σ  rating  stability\n", pad("game", gw), pad("result", rw))
	for _, r := range h.Rows {
		cli.Fprintf(w, "%4d  %s  %s  %s  %5.2f  %5.2f  %6.0f  %8.0f%%\n",
			r.N, r.Date, pad(r.Game, gw), pad(r.Result, rw), r.Mu, r.Sigma, r.DisplayRating, 100*r.Stability)
	}
}

func (h *historyView) rows() ([]string, [][]string) {
	rows := make([][]string, len(h.Rows))
	for i, r := range h.Rows {
		rows[i] = []string{strconv.Itoa(r.N), r.Game, r.Date, r.Result, num(r.Mu), num(r.Sigma), num(r.DisplayRating), num(r.Stability)}
	}
	return []string{"n", "game", "date", "result", "mu", "sigma", "display_rating", "stability"}, rows
}
