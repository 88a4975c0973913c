package rate

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/skillgraph/skillgraph/internal/cli"
	"github.com/skillgraph/skillgraph/internal/cli/clitest"
	"github.com/skillgraph/skillgraph/internal/league"
	"github.com/skillgraph/skillgraph/internal/sharedtest"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

// runArgs runs the program in-process and returns its exit status and
// output.
func runArgs(args ...string) (code int, stdout, stderr string) { return clitest.Run(Run, args...) }

// mustRun runs the program and fails t unless it exits 0.
func mustRun(t *testing.T, args ...string) (stdout, stderr string) {
	t.Helper()
	code, stdout, stderr := runArgs(args...)
	if code != cli.OK {
		t.Fatalf("%q: exit %d, stderr %q", args, code, stderr)
	}
	return stdout, stderr
}

// output is the program's JSON output, whichever view it holds.
type output struct {
	League      summary      `json:"league"`
	Leaderboard []boardRow   `json:"leaderboard"`
	Prediction  *prediction  `json:"prediction"`
	Pairings    []pair       `json:"pairings"`
	History     *historyView `json:"history"`
}

// runJSON runs the program with -format json and decodes its output
// strictly.
func runJSON(t *testing.T, args ...string) output {
	t.Helper()
	stdout, _ := mustRun(t, append(args, "-format", "json")...)
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	var out output
	if err := dec.Decode(&out); err != nil {
		t.Fatalf("%q: output is not the JSON expected: %v\n%s", args, err, stdout)
	}
	return out
}

// writeFile writes body to a file name in a temporary folder and returns
// its path.
func writeFile(t *testing.T, name, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// The standard normal density and distribution, for the hand computations.
func phi(x float64) float64 { return math.Exp(-x*x/2) / math.Sqrt(2*math.Pi) }
func Phi(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

var (
	defaults = trueskill.DefaultParams()
	beta2    = defaults.Beta * defaults.Beta
	tau2     = defaults.Tau * defaults.Tau
	sigma02  = defaults.Sigma * defaults.Sigma
)

// near reports whether got is within tol of want, relatively for large
// values.
func near(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))
}

// checkPage checks a leaderboard row's display rating and stability
// against the league page's formulas, (μ − σ)·48 and 1 − σ²/σ₀².
func checkPage(t *testing.T, r boardRow) {
	t.Helper()
	if want := (r.Mu - r.Sigma) * 48; !near(r.DisplayRating, want, 1e-12) {
		t.Errorf("%s: display rating %v, want (μ − σ)·48 = %v", r.Player, r.DisplayRating, want)
	}
	if want := 1 - r.Sigma*r.Sigma/sigma02; !near(r.Stability, want, 1e-12) {
		t.Errorf("%s: stability %v, want 1 − σ²/σ₀² = %v", r.Player, r.Stability, want)
	}
}

// TestOneGame: after one 1v1 game between new players, with draws
// impossible, the leaderboard holds the rating page's update, computed
// here by hand (σ² + τ², c² = σ_W² + σ_L² + 2β², v = φ(t)/Φ(t),
// w = v(v + t)), which is also Rate1v1's; and its display rating and
// stability follow the page.
func TestOneGame(t *testing.T) {
	path := writeFile(t, "one.csv", "match_id,date,team,player,rank\nm1,2025-03-01,x,Ann,1\nm1,2025-03-01,y,Bob,2\n")
	out := runJSON(t, "-matches", path)

	s2 := sigma02 + tau2
	c2 := 2*s2 + 2*beta2
	c := math.Sqrt(c2)
	tt := 0.0 // equal means
	v := phi(tt) / Phi(tt)
	w := v * (v + tt)
	winner := trueskill.Rating{Mu: 25 + s2/c*v, Sigma: math.Sqrt(s2 * (1 - w*s2/c2))}
	loser := trueskill.Rating{Mu: 25 - s2/c*v, Sigma: winner.Sigma}
	noDraws := defaults
	noDraws.DrawProbability = 0
	rw, rl, err := noDraws.Rate1v1(noDraws.NewRating(), noDraws.NewRating(), false)
	if err != nil {
		t.Fatal(err)
	}
	if !near(rw.Mu, winner.Mu, 1e-12) || !near(rw.Sigma, winner.Sigma, 1e-12) || !near(rl.Mu, loser.Mu, 1e-12) {
		t.Fatalf("the hand computation %v, %v disagrees with Rate1v1 %v, %v", winner, loser, rw, rl)
	}
	if out.League.Params.DrawProbability != 0 || out.League.DrawSource != "observed: 0 of 1 games drawn" {
		t.Errorf("draw probability %v from %q, want 0 observed", out.League.Params.DrawProbability, out.League.DrawSource)
	}
	if len(out.Leaderboard) != 2 {
		t.Fatalf("leaderboard %+v, want 2 rows", out.Leaderboard)
	}
	for k, want := range []struct {
		name string
		r    trueskill.Rating
	}{{"Ann", winner}, {"Bob", loser}} {
		got := out.Leaderboard[k]
		if got.Rank != k+1 || got.Player != want.name || got.Games != 1 || got.LastPlayed != "2025-03-01" {
			t.Errorf("row %d: %+v", k, got)
		}
		if !near(got.Mu, want.r.Mu, 1e-12) || !near(got.Sigma, want.r.Sigma, 1e-12) {
			t.Errorf("%s: μ = %v, σ = %v; want %v", want.name, got.Mu, got.Sigma, want.r)
		}
		checkPage(t, got)
	}
	// About 26 % stability after one even game, as the page says.
	if s := out.Leaderboard[0].Stability; math.Abs(s-0.26) > 0.01 {
		t.Errorf("stability after one game %v, want about 0.26", s)
	}

	// The same game in the scores format, with a season column, which is
	// ignored, and no home advantage.
	scores := writeFile(t, "one.csv", "date,season,home,away,home_score,away_score\n2025-03-01,s,Bob,Ann,0,3\n")
	if diff := cmp.Diff(out.Leaderboard, runJSON(t, "-matches", scores, "-home", "off").Leaderboard); diff != "" {
		t.Errorf("scores format differs from the long format (-long +scores):\n%s", diff)
	}
}

// TestDraw: a draw between two new players at draw probability p leaves μ
// and moves σ by the draw factor's correction at t = 0, computed by hand:
// e = ε/c with ε = √2·erfinv(p)·√2·β, W = 2eφ(e)/(2Φ(e) − 1).
func TestDraw(t *testing.T) {
	path := writeFile(t, "draw.csv", "date,home,away,home_score,away_score\n2025-03-01,Ann,Bob,2,2\n")
	out := runJSON(t, "-matches", path, "-draw", "0.1", "-home", "off")
	s2 := sigma02 + tau2
	c2 := 2*s2 + 2*beta2
	e := math.Sqrt2 * math.Erfinv(0.1) * math.Sqrt2 * defaults.Beta / math.Sqrt(c2)
	w := 2 * e * phi(e) / (2*Phi(e) - 1)
	sigma := math.Sqrt(s2 * (1 - w*s2/c2))
	if out.League.DrawSource != "-draw" || out.League.Params.DrawProbability != 0.1 {
		t.Errorf("draw probability %v from %q, want 0.1 from -draw", out.League.Params.DrawProbability, out.League.DrawSource)
	}
	for _, r := range out.Leaderboard {
		if r.Rank != 1 || !near(r.Mu, 25, 1e-12) || !near(r.Sigma, sigma, 1e-12) {
			t.Errorf("%+v; want rank 1 (shared), μ = 25, σ = %v", r, sigma)
		}
	}
	// A draw with draws impossible is an error naming the game.
	code, _, stderr := runArgs("-matches", path, "-draw", "0")
	if code != cli.Error {
		t.Errorf("-draw 0 with a draw: exit %d", code)
	}
	clitest.WantOneLine(t, Prog, stderr, "2025-03-01 Ann v Bob", "is a draw", "set -draw above 0")
}

// TestStateDrawZero: a state started on games without draws keeps the
// draw probability 0 estimated from them; a later draw cannot be rated
// into it, and the error says to start a new state with -draw, which a
// run on the state cannot change, not to set -draw; the state is kept.
func TestStateDrawZero(t *testing.T) {
	state := filepath.Join(t.TempDir(), "league.json")
	first := "match_id,date,team,player,rank\nm1,2025-03-01,x,Ann,1\nm1,2025-03-01,y,Bob,2\n"
	if out := runJSON(t, "-matches", writeFile(t, "a.csv", first), "-state", state); out.League.Params.DrawProbability != 0 {
		t.Fatalf("draw probability %v, want 0 from a game without draws", out.League.Params.DrawProbability)
	}
	good, err := os.ReadFile(state)
	if err != nil {
		t.Fatal(err)
	}
	later := writeFile(t, "b.csv", first+"m2,2025-03-02,x,Ann,1\nm2,2025-03-02,y,Bob,1\n")
	code, stdout, stderr := runArgs("-matches", later, "-state", state)
	if code != cli.Error || stdout != "" {
		t.Errorf("exit %d, stdout %q", code, stdout)
	}
	clitest.WantOneLine(t, Prog, stderr, "game m2 (2025-03-02) is a draw", "-state "+state+" keeps the draw probability", "start a new state file with -draw above 0")
	if strings.Contains(stderr, "set -draw") {
		t.Errorf("stderr %q tells to set -draw, which the state refuses", stderr)
	}
	if now, _ := os.ReadFile(state); string(now) != string(good) {
		t.Error("the failed run changed the state")
	}
}

// TestTeams: a 2v2 game between new players follows the rating page's
// team formulas (team μ and σ² are sums, c² = Σ(σ² + τ²) + 4β²); the
// history of a three-team game says each team's place.
func TestTeams(t *testing.T) {
	path := writeFile(t, "teams.csv", "match_id,date,team,player,rank\n"+
		"g1,2025-03-01,red,Ann,1\ng1,2025-03-01,red,Bob,1\ng1,2025-03-01,blue,Cy,2\ng1,2025-03-01,blue,Di,2\n"+
		"g2,2025-03-02,a,Ann,2\ng2,2025-03-02,b,Cy,1\ng2,2025-03-02,c,Di,2\n")
	out := runJSON(t, "-matches", path, "-draw", "0.1")
	if out.League.Games != 2 || out.League.Players != 4 {
		t.Errorf("%d games, %d players; want 2, 4", out.League.Games, out.League.Players)
	}
	s2 := sigma02 + tau2
	c2 := 4*s2 + 4*beta2
	c := math.Sqrt(c2)
	eps := math.Sqrt2 * math.Erfinv(0.1) * math.Sqrt(4) * defaults.Beta
	tt, e := 0.0, eps/c
	v := phi(tt-e) / Phi(tt-e)
	w := v * (v + tt - e)
	after := map[string]trueskill.Rating{
		"Ann": {Mu: 25 + s2/c*v, Sigma: math.Sqrt(s2 * (1 - w*s2/c2))},
		"Cy":  {Mu: 25 - s2/c*v, Sigma: math.Sqrt(s2 * (1 - w*s2/c2))},
	}
	for _, name := range []string{"Ann", "Cy"} {
		h := runJSON(t, "-matches", path, "-draw", "0.1", "-history", name).History
		if len(h.Rows) != 2 {
			t.Fatalf("%s: history %+v, want 2 games", name, h)
		}
		if got := h.Rows[0]; !near(got.Mu, after[name].Mu, 1e-12) || !near(got.Sigma, after[name].Sigma, 1e-12) {
			t.Errorf("%s after the 2v2: μ = %v, σ = %v; want %v", name, got.Mu, got.Sigma, after[name])
		}
	}
	results := map[string][]string{"Ann": {"won", "=2nd of 3"}, "Cy": {"lost", "1st of 3"}}
	for name, want := range results {
		h := runJSON(t, "-matches", path, "-draw", "0.1", "-history", name).History
		var got []string
		for _, r := range h.Rows {
			got = append(got, r.Result)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s's results %q, want %q", name, got, want)
		}
	}
}

// officeFile is the bundled league, read here with encoding/csv alone.
type officeFile struct {
	games     []league.Match // in file order, ranks as in the file
	draws     int
	count     map[string]int    // games of each player
	last      map[string]string // last date of each player
	firstDate string
}

func readOffice(t *testing.T) officeFile {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "..", "examples", "data", "office.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(recs[0], []string{"match_id", "date", "team", "player", "rank"}) {
		t.Fatalf("header %q", recs[0])
	}
	o := officeFile{count: map[string]int{}, last: map[string]string{}, firstDate: recs[1][1]}
	var teams []string // names of the current game's teams
	for _, rec := range recs[1:] {
		id, date, team, pl := rec[0], rec[1], rec[2], rec[3]
		rank, err := strconv.Atoi(rec[4])
		if err != nil {
			t.Fatal(err)
		}
		if len(o.games) == 0 || o.games[len(o.games)-1].Key != id {
			o.games = append(o.games, league.Match{Key: id, Date: date})
			teams = nil
		}
		g := &o.games[len(o.games)-1]
		j := slices.Index(teams, team)
		if j < 0 {
			j = len(teams)
			teams = append(teams, team)
			g.Teams = append(g.Teams, nil)
			g.Ranks = append(g.Ranks, rank)
		}
		g.Teams[j] = append(g.Teams[j], pl)
		o.count[pl]++
		o.last[pl] = date
	}
	for _, g := range o.games {
		if len(g.Teams) != 2 {
			t.Fatalf("game %s has %d teams", g.Key, len(g.Teams))
		}
		// The file ranks from 1; the program's ranks are dense from 0,
		// which rates the same.
		if g.Ranks[0] == g.Ranks[1] {
			o.draws++
		}
	}
	return o
}

// TestBundled: with no flags the program rates the bundled office league;
// every number agrees with the file read here and rated match by match
// with trueskill.Params.Rate at the file's draw share.
func TestBundled(t *testing.T) {
	o := readOffice(t)
	stdout, _ := mustRun(t)
	first := strings.SplitN(stdout, "\n", 2)[0]
	if want := fmt.Sprintf("office.csv: %d games (%s to 2025-04-29), 11 players", len(o.games), o.firstDate); !strings.HasSuffix(first, want) {
		t.Errorf("first line %q, want it to end %q", first, want)
	}
	if want := fmt.Sprintf("draw probability %.4g (observed: %d of %d games drawn; set it with -draw)", float64(o.draws)/float64(len(o.games)), o.draws, len(o.games)); !strings.Contains(stdout, want) {
		t.Errorf("output does not say %q:\n%s", want, stdout)
	}
	if !strings.Contains(stdout, "rank  player  rating      μ      σ  stability  games  last played\n") {
		t.Errorf("no leaderboard header:\n%s", stdout)
	}

	out := runJSON(t)
	p := defaults
	p.DrawProbability = float64(o.draws) / float64(len(o.games))
	if out.League.Params != p || out.League.Games != len(o.games) || out.League.Players != len(o.count) {
		t.Errorf("league %+v, want params %+v, %d games, %d players", out.League, p, len(o.games), len(o.count))
	}
	played := make([]sharedtest.Played, len(o.games))
	for k, g := range o.games {
		played[k] = sharedtest.Played{Teams: g.Teams, Ranks: g.Ranks}
	}
	ratings, _ := sharedtest.Replay(t, p, played)
	for k, r := range out.Leaderboard {
		want := ratings[r.Player]
		if r.Mu != want.Mu || r.Sigma != want.Sigma || r.Games != o.count[r.Player] || r.LastPlayed != o.last[r.Player] {
			t.Errorf("%+v; want %v, %d games, last %s", r, want, o.count[r.Player], o.last[r.Player])
		}
		checkPage(t, r)
		if k > 0 && (r.DisplayRating > out.Leaderboard[k-1].DisplayRating || r.Rank != k+1) {
			t.Errorf("row %d (%+v) out of order", k, r)
		}
	}
	if len(out.Leaderboard) != len(ratings) {
		t.Errorf("%d rows for %d players", len(out.Leaderboard), len(ratings))
	}

	// The CSV holds the same numbers, in full precision.
	stdout, stderr := mustRun(t, "-format", "csv")
	recs, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"rank", "player", "display_rating", "mu", "sigma", "stability", "games", "last_played"}; !slices.Equal(recs[0], want) {
		t.Errorf("CSV header %q, want %q", recs[0], want)
	}
	if len(recs) != len(out.Leaderboard)+1 {
		t.Fatalf("%d CSV rows, want %d", len(recs)-1, len(out.Leaderboard))
	}
	for k, r := range out.Leaderboard {
		want := []string{strconv.Itoa(r.Rank), r.Player, num(r.DisplayRating), num(r.Mu), num(r.Sigma), num(r.Stability), strconv.Itoa(r.Games), r.LastPlayed}
		if !slices.Equal(recs[k+1], want) {
			t.Errorf("CSV row %q, want %q", recs[k+1], want)
		}
	}
	if !strings.Contains(stderr, "draw probability") {
		t.Errorf("the CSV run does not say the draw probability on stderr: %q", stderr)
	}
}

// TestJSONColumns: every view's JSON decodes, holds the league summary,
// and has the columns documented.
func TestJSONColumns(t *testing.T) {
	for _, c := range []struct {
		args []string
		key  string
		cols []string
	}{
		{nil, "leaderboard", []string{"rank", "player", "display_rating", "mu", "sigma", "stability", "games", "last_played"}},
		{[]string{"-pairings"}, "pairings", []string{"rank", "a", "b", "quality", "win", "draw", "loss"}},
		{[]string{"-history", "Ada"}, "history", []string{"player", "games"}},
		{[]string{"-predict", "Ada+Ben,Cleo+Dev"}, "prediction", []string{"teams", "win", "draw", "loss", "quality"}},
	} {
		stdout, _ := mustRun(t, append(c.args, "-format", "json")...)
		if !strings.HasPrefix(stdout, "{\n  \"league\": {") {
			t.Errorf("%q: the JSON does not start with the league summary:\n%s", c.args, stdout)
		}
		var out map[string]any
		if err := json.Unmarshal([]byte(stdout), &out); err != nil {
			t.Fatalf("%q: invalid JSON: %v", c.args, err)
		}
		if len(out) != 2 || out["league"] == nil || out[c.key] == nil {
			t.Errorf("%q: keys of %v, want league and %s", c.args, out, c.key)
		}
		v := out[c.key]
		if list, ok := v.([]any); ok {
			v = list[0]
		}
		obj, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("%q: %s is %T", c.args, c.key, v)
		}
		var keys []string
		for k := range obj {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		want := slices.Sorted(slices.Values(c.cols))
		if !slices.Equal(keys, want) {
			t.Errorf("%q: columns %q, want %q", c.args, keys, want)
		}
	}
}

// quality is equation 7 of the paper for two teams, by hand: n players in
// all, Δμ the difference of the team sums and s2 the sum of the σ².
func quality(n int, dmu, s2 float64) float64 {
	base := float64(n) * beta2
	return math.Sqrt(base/(base+s2)) * math.Exp(-dmu*dmu/(2*(base+s2)))
}

// TestPairings: every pair of players, sorted by match quality, highest
// first, each quality equation 7 of the leaderboard's ratings; -top keeps
// the first N.
func TestPairings(t *testing.T) {
	board := map[string]boardRow{}
	for _, r := range runJSON(t).Leaderboard {
		board[r.Player] = r
	}
	all := runJSON(t, "-pairings", "-top", "0").Pairings
	if n := len(board); len(all) != n*(n-1)/2 {
		t.Fatalf("%d pairings of %d players, want %d", len(all), n, n*(n-1)/2)
	}
	seen := map[[2]string]bool{}
	for k, x := range all {
		a, b := board[x.A], board[x.B]
		want := quality(2, a.Mu-b.Mu, a.Sigma*a.Sigma+b.Sigma*b.Sigma)
		if !near(x.Quality, want, 1e-12) || x.Rank != k+1 {
			t.Errorf("%+v: quality, want %v and rank %d", x, want, k+1)
		}
		if k > 0 && x.Quality > all[k-1].Quality {
			t.Errorf("pair %d (%v) above pair %d (%v)", k, x.Quality, k-1, all[k-1].Quality)
		}
		if a.Rank > b.Rank || x.A == x.B || seen[[2]string{x.A, x.B}] {
			t.Errorf("pair %+v: not leaderboard order, or repeated", x)
		}
		seen[[2]string{x.A, x.B}] = true
		if !near(x.Win+x.Draw+x.Loss, 1, 1e-12) {
			t.Errorf("%+v: probabilities do not sum to 1", x)
		}
	}
	top := runJSON(t, "-pairings").Pairings
	if diff := cmp.Diff(all[:10], top); diff != "" {
		t.Errorf("-pairings is not the first 10 of -top 0 (-want +got):\n%s", diff)
	}
	stdout, _ := mustRun(t, "-pairings", "-top", "3")
	if want := fmt.Sprintf("The fairest 1v1 games by match quality (3 of %d)\n", len(all)); !strings.Contains(stdout, want) {
		t.Errorf("output does not say %q:\n%s", want, stdout)
	}
	if lines := strings.Count(stdout, "\n"); lines != 2+1+1+1+3 { // summary, blank, title, header, 3 games
		t.Errorf("%d lines:\n%s", lines, stdout)
	}
}

// TestPairingsBounded: -top 0 on a league of 150 players, whose
// 150·149/2 = 11,175 pairs are more than a list holds, is an error that
// says so and lists nothing; -top 10000, the most, lists 10,000 games.
func TestPairingsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("match_id,date,team,player,rank\n")
	for g := range 75 {
		fmt.Fprintf(&b, "g%d,2025-01-01,a,P%03d,1\ng%d,2025-01-01,b,P%03d,2\n", g, 2*g, g, 2*g+1)
	}
	path := writeFile(t, "many.csv", b.String())
	code, stdout, stderr := runArgs("-matches", path, "-pairings", "-top", "0")
	if code != cli.Error || stdout != "" {
		t.Errorf("-top 0 of 150 players: exit %d, stdout %.200q", code, stdout)
	}
	clitest.WantOneLine(t, Prog, stderr, "-pairings -top 0: the 11175 pairs of 150 players are more than the 10000 a list holds; give -top N")
	if pairs := runJSON(t, "-matches", path, "-pairings", "-top", "10000").Pairings; len(pairs) != 10000 {
		t.Errorf("-top 10000 of 150 players: %d games", len(pairs))
	}
}

// TestPredict: win, draw and loss of two teams are those of the
// difference of their performances, N(Δμ, Σ(σ² + τ² + β²)), against the
// draw margin ε = √2·erfinv(p)·√n·β, computed by hand; match quality is
// equation 7.
func TestPredict(t *testing.T) {
	out := runJSON(t)
	board := map[string]boardRow{}
	for _, r := range out.Leaderboard {
		board[r.Player] = r
	}
	p := out.League.Params.DrawProbability
	for _, c := range []struct {
		flag string
		a, b []string
	}{
		{"Ada,Ben", []string{"Ada"}, []string{"Ben"}},
		{" Ada + Hana , Kai+Jun ", []string{"Ada", "Hana"}, []string{"Kai", "Jun"}},
		{"Kai,Dev+Eli", []string{"Kai"}, []string{"Dev", "Eli"}},
	} {
		got := runJSON(t, "-predict", c.flag).Prediction
		var dmu, s2, c2 float64
		for _, n := range c.a {
			dmu += board[n].Mu
		}
		for _, n := range c.b {
			dmu -= board[n].Mu
		}
		for _, n := range append(slices.Clone(c.a), c.b...) {
			s := board[n].Sigma
			s2 += s * s
			c2 += s*s + tau2 + beta2
		}
		n := len(c.a) + len(c.b)
		eps := math.Sqrt2 * math.Erfinv(p) * math.Sqrt(float64(n)) * defaults.Beta
		cc := math.Sqrt(c2)
		win, loss := Phi((dmu-eps)/cc), Phi((-dmu-eps)/cc)
		want := &prediction{Teams: [][]string{c.a, c.b}, Win: win, Draw: 1 - win - loss, Loss: loss, Quality: quality(n, dmu, s2)}
		if diff := cmp.Diff(want, got, cmp.Comparer(func(x, y float64) bool { return near(x, y, 1e-12) })); diff != "" {
			t.Errorf("-predict %q (-want +got):\n%s", c.flag, diff)
		}
	}
	stdout, _ := mustRun(t, "-predict", "Ada+Hana,Kai+Jun")
	for _, s := range []string{"Ada+Hana v Kai+Jun\n", "P(Ada+Hana wins)", "P(draw)", "P(Kai+Jun wins)", "match quality"} {
		if !strings.Contains(stdout, s) {
			t.Errorf("output does not say %q:\n%s", s, stdout)
		}
	}
}

// TestHistory: a player's history has one row per game in the file, in
// date order, with the result the file gives, and ends at the
// leaderboard's rating.
func TestHistory(t *testing.T) {
	o := readOffice(t)
	board := map[string]boardRow{}
	for _, r := range runJSON(t).Leaderboard {
		board[r.Player] = r
	}
	for _, name := range []string{"Gus", "Kai", "Eli"} {
		h := runJSON(t, "-history", name).History
		var want []string // game, date and result
		for _, g := range o.games {
			for j, team := range g.Teams {
				if slices.Contains(team, name) {
					res := map[bool]string{true: "won", false: "lost"}[g.Ranks[j] < g.Ranks[1-j]]
					if g.Ranks[0] == g.Ranks[1] {
						res = "drew"
					}
					want = append(want, g.Key+" "+g.Date+" "+res)
				}
			}
		}
		var got []string
		for k, r := range h.Rows {
			got = append(got, r.Game+" "+r.Date+" "+r.Result)
			if r.N != k+1 || !near(r.DisplayRating, (r.Mu-r.Sigma)*48, 1e-12) || !near(r.Stability, 1-r.Sigma*r.Sigma/sigma02, 1e-12) {
				t.Errorf("%s row %+v", name, r)
			}
		}
		if h.Player != name || !slices.Equal(got, want) {
			t.Errorf("%s: history %q, want %q", name, got, want)
		}
		if last := h.Rows[len(h.Rows)-1]; last.Mu != board[name].Mu || last.Sigma != board[name].Sigma {
			t.Errorf("%s: last row %+v, leaderboard %+v", name, last, board[name])
		}
	}
}

// smallLeague returns a long-format file of the first n of 12 games among
// five players, with draws, a 2v2 and a three-team game.
func smallLeague(from, to int) string {
	games := []string{
		"g01,2025-01-01,a,Ann,1\ng01,2025-01-01,b,Bob,2\n",
		"g02,2025-01-02,a,Cy,1\ng02,2025-01-02,b,Di,1\n",
		"g03,2025-01-02,a,Ann,1\ng03,2025-01-02,a,Cy,1\ng03,2025-01-02,b,Bob,2\ng03,2025-01-02,b,Di,2\n",
		"g04,2025-01-03,a,Ed,2\ng04,2025-01-03,b,Ann,1\n",
		"g05,2025-01-04,a,Ed,1\ng05,2025-01-04,b,Bob,3\ng05,2025-01-04,c,Cy,2\n",
		"g06,2025-01-05,a,Di,1\ng06,2025-01-05,b,Ann,1\n",
		"g07,2025-01-05,a,Bob,1\ng07,2025-01-05,b,Cy,2\n",
		"g08,2025-01-06,a,Ed,1\ng08,2025-01-06,a,Di,1\ng08,2025-01-06,b,Ann,2\ng08,2025-01-06,b,Bob,2\n",
		"g09,2025-01-07,a,Cy,2\ng09,2025-01-07,b,Ed,1\n",
		"g10,2025-01-08,a,Ann,1\ng10,2025-01-08,b,Di,2\ng10,2025-01-08,c,Bob,2\n",
		"g11,2025-01-09,a,Bob,1\ng11,2025-01-09,b,Ed,1\n",
		"g12,2025-01-10,a,Cy,1\ng12,2025-01-10,b,Ann,2\n",
	}
	return "match_id,date,team,player,rank\n" + strings.Join(games[from:to], "")
}

// TestState: a league rated in several runs through -state has the same
// leaderboard and histories as rated at once, whether the later file
// holds every game or only the new ones; a run with nothing new changes
// nothing, and the state file is not rewritten.
func TestState(t *testing.T) {
	dir := t.TempDir()
	whole := writeFile(t, "all.csv", smallLeague(0, 12))
	once := runJSON(t, "-matches", whole, "-draw", "0.15")
	onceHist := runJSON(t, "-matches", whole, "-draw", "0.15", "-history", "Ann").History

	for name, later := range map[string]string{"appended": smallLeague(0, 12), "new games only": smallLeague(7, 12)} {
		state := filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+".json")
		first := runJSON(t, "-matches", writeFile(t, "a.csv", smallLeague(0, 7)), "-draw", "0.15", "-state", state)
		if first.League.New != 7 || first.League.Before != 0 {
			t.Errorf("%s: first run rated %d, had %d", name, first.League.New, first.League.Before)
		}
		// Without -draw the state's draw probability is used.
		second := runJSON(t, "-matches", writeFile(t, "b.csv", later), "-state", state)
		if second.League.New != 5 || second.League.Before != 7 || second.League.Games != 12 || second.League.DrawSource != "state "+state {
			t.Errorf("%s: second run %+v", name, second.League)
		}
		if diff := cmp.Diff(once.Leaderboard, second.Leaderboard); diff != "" {
			t.Errorf("%s: in two runs differs from at once (-once +two):\n%s", name, diff)
		}
		hist := runJSON(t, "-matches", writeFile(t, "b.csv", later), "-state", state, "-history", "Ann").History
		if diff := cmp.Diff(onceHist, hist); diff != "" {
			t.Errorf("%s: history differs (-once +two):\n%s", name, diff)
		}
		// Running again on the same file rates nothing and leaves the file.
		before, err := os.ReadFile(state)
		if err != nil {
			t.Fatal(err)
		}
		info, _ := os.Stat(state)
		again := runJSON(t, "-matches", writeFile(t, "b.csv", later), "-state", state)
		if again.League.New != 0 || again.League.Games != 12 {
			t.Errorf("%s: rerun %+v, want nothing rated", name, again.League)
		}
		if diff := cmp.Diff(once.Leaderboard, again.Leaderboard); diff != "" {
			t.Errorf("%s: rerun counts games twice (-once +rerun):\n%s", name, diff)
		}
		after, _ := os.ReadFile(state)
		info2, _ := os.Stat(state)
		if string(after) != string(before) || !info2.ModTime().Equal(info.ModTime()) {
			t.Errorf("%s: a run with nothing new rewrote the state", name)
		}
	}
}

// TestStateErrors: a state that cannot be used is an error, and no failed
// run changes the state file.
func TestStateErrors(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "league.json")
	runJSON(t, "-matches", writeFile(t, "a.csv", smallLeague(0, 6)), "-draw", "0.15", "-state", state)
	good, err := os.ReadFile(state)
	if err != nil {
		t.Fatal(err)
	}
	later := writeFile(t, "b.csv", smallLeague(0, 12))
	early := writeFile(t, "c.csv", "match_id,date,team,player,rank\nold,2024-12-31,a,Ann,1\nold,2024-12-31,b,Bob,2\n")
	swapped := writeFile(t, "d.csv", smallLeague(6, 7)+strings.SplitN(smallLeague(5, 6), "\n", 2)[1])
	scores := writeFile(t, "e.csv", "date,home,away,home_score,away_score\n2025-02-01,Ann,Bob,1,0\n")
	for _, c := range []struct {
		args  []string
		texts []string
	}{
		{[]string{"-matches", later, "-draw", "0.2"}, []string{"-draw 0.2 differs from the draw probability 0.15"}},
		{[]string{"-matches", early}, []string{"new game old is dated 2024-12-31, before the last game rated (2025-01-05)"}},
		{[]string{"-matches", swapped}, []string{"game g06 was rated before, but comes after the new game g07"}},
		{[]string{"-matches", scores}, []string{"long-format file", "scores format"}},
		{[]string{"-matches", later, "-history", "Zed"}, []string{`no player "Zed"`}},
	} {
		code, stdout, stderr := runArgs(append(c.args, "-state", state)...)
		if code != cli.Error || stdout != "" {
			t.Errorf("%q: exit %d, stdout %q", c.args, code, stdout)
		}
		clitest.WantOneLine(t, Prog, stderr, c.texts...)
		if now, _ := os.ReadFile(state); string(now) != string(good) {
			t.Errorf("%q: the failed run changed the state", c.args)
		}
	}

	// A state that is not whole, or was edited into nonsense, is refused
	// and kept.
	for name, body := range map[string]string{
		"truncated":      string(good[:len(good)/2]),
		"empty":          "",
		"unknown field":  strings.Replace(string(good), `"version"`, `"extra": 1, "version"`, 1),
		"bad sigma":      strings.Replace(string(good), `"sigma": 8.333333333333334`, `"sigma": -1`, 1),
		"tiny sigma":     strings.Replace(string(good), `"sigma": 8.333333333333334`, `"sigma": 1e-300`, 1),
		"huge mu":        strings.Replace(string(good), `"mu": 25,`, `"mu": 1e308,`, 1),
		"other version":  strings.Replace(string(good), league.Version, "skillgraph-league/0", 1),
		"trailing data":  string(good) + "{}",
		"games mismatch": strings.Replace(string(good), `"games": 4`, `"games": 5`, 1),
	} {
		if body == string(good) {
			t.Fatalf("%s: the edit did not apply", name)
		}
		bad := filepath.Join(dir, "bad.json")
		if err := os.WriteFile(bad, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := runArgs("-matches", later, "-state", bad)
		if code != cli.Error {
			t.Errorf("%s: exit %d", name, code)
		}
		clitest.WantOneLine(t, Prog, stderr, "-state "+bad)
		if now, _ := os.ReadFile(bad); string(now) != body {
			t.Errorf("%s: the state was changed", name)
		}
	}
}

// TestStateFiles: a state file in a folder that does not exist is an
// error; a new one is created readable; one reached through a symbolic
// link is written to the link's target, the link kept.
func TestStateFiles(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := runArgs("-state", filepath.Join(dir, "no", "such.json"))
	if code != cli.Error {
		t.Errorf("-state in a missing folder: exit %d", code)
	}
	clitest.WantOneLine(t, Prog, stderr, "-state", "no such file")
	fresh := filepath.Join(dir, "fresh.json")
	mustRun(t, "-state", fresh)
	if info, err := os.Stat(fresh); err != nil || info.Mode().Perm() != 0o644 {
		t.Errorf("new state file: %v, %v", info, err)
	}
	link := filepath.Join(dir, "link.json")
	target := filepath.Join(dir, "target.json")
	if err := os.Symlink("target.json", link); err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{6, 12} {
		out := runJSON(t, "-matches", writeFile(t, "all.csv", smallLeague(0, n)), "-state", link, "-draw", "0.1")
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("the state's symbolic link was replaced (%v)", err)
		}
		l, err := league.Decode(openFile(t, target))
		if err != nil || len(l.Games) != n || out.League.Games != n {
			t.Errorf("the link's target holds %v games (%v), the run says %d; want %d", l, err, out.League.Games, n)
		}
	}
}

// openFile opens path for the test.
func openFile(t *testing.T, path string) io.Reader {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// TestUsageErrors: flag mistakes are one line and exit 2, before any work.
func TestUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args  []string
		texts []string
	}{
		{[]string{"-bogus"}, []string{"flag provided but not defined: -bogus", "run skillgraph rate -h"}},
		{[]string{"-format", "xml"}, []string{`-format "xml": want table, csv or json`}},
		{[]string{"-draw", "1"}, []string{`invalid value "1" for flag -draw: must be in [0, 1)`}},
		{[]string{"-draw", "-0.1"}, []string{`invalid value "-0.1" for flag -draw: must be in [0, 1)`}},
		{[]string{"-draw", "NaN"}, []string{`invalid value "NaN" for flag -draw: must be in [0, 1)`}},
		{[]string{"-draw", "1e-400"}, []string{`invalid value "1e-400" for flag -draw: not 0, but below the least float64 above 0 (5e-324), so it would be read as 0`}},
		{[]string{"-predict", "Ada"}, []string{`-predict "Ada": want two teams`}},
		{[]string{"-predict", "Ada,Ben,Cleo"}, []string{"want two teams"}},
		{[]string{"-predict", "Ada+,Ben"}, []string{"an empty player name"}},
		{[]string{"-predict", "Ada,Ada"}, []string{`"Ada" named twice`}},
		{[]string{"-pairings", "-history", "Ada"}, []string{"at most one of -predict, -pairings and -history"}},
		{[]string{"-top", "3"}, []string{"-top goes with -pairings"}},
		{[]string{"-pairings", "-top", "-1"}, []string{"-top -1: must be from 0 (all) to 10000"}},
		{[]string{"-pairings", "-top", "10001"}, []string{"-top 10001: must be from 0 (all) to 10000"}},
		{[]string{"-history", " "}, []string{"-history: give a player's name"}},
		{[]string{"extra"}, []string{`unexpected argument "extra"`}},
	} {
		code, stdout, stderr := runArgs(c.args...)
		if code != cli.Usage || stdout != "" {
			t.Errorf("%q: exit %d, stdout %q; want %d and nothing", c.args, code, stdout, cli.Usage)
		}
		clitest.WantOneLine(t, Prog, stderr, c.texts...)
	}
	code, _, stderr := runArgs("-h")
	if code != cli.OK || !strings.Contains(stderr, "usage: skillgraph rate") || !strings.Contains(stderr, "-predict string") {
		t.Errorf("-h: exit %d, stderr %q", code, stderr)
	}
}

// TestErrors: bad files and unknown players are one line and exit 1.
func TestErrors(t *testing.T) {
	scores := func(rows string) string {
		return writeFile(t, "s.csv", "date,home,away,home_score,away_score\n"+rows)
	}
	for _, c := range []struct {
		args  []string
		texts []string
	}{
		{[]string{"-predict", "Ada,Zed"}, []string{`-predict: no player "Zed" in the league (players: Ada, Ben, Cleo`}},
		{[]string{"-history", "ada"}, []string{`-history: no player "ada" in the league; did you mean "Ada"?`}},
		{[]string{"-history", strings.Repeat("Zé", 3000)}, []string{`-history: no player "ZéZé`}},
		{[]string{"-matches", writeFile(t, "long.csv", "match_id,date,team,player,rank\nm,2025-01-01,a,"+strings.Repeat("x", 5000)+",1\n")}, []string{"long.csv:2"}},
		{[]string{"-matches", filepath.Join(t.TempDir(), "none.csv")}, []string{"none.csv", "no such file"}},
		{[]string{"-matches", writeFile(t, "h.csv", "a,b\n1,2\n")}, []string{"h.csv:1", "neither the long format", "nor the scores format"}},
		{[]string{"-matches", writeFile(t, "e.csv", "")}, []string{"e.csv", "empty"}},
		{[]string{"-matches", scores("")}, []string{"a header and no rows"}},
		{[]string{"-matches", scores("2025-01-01,Ann,Bob,-1,0\n")}, []string{"s.csv:2:", "home score -1 is negative"}},
		{[]string{"-matches", scores("2025-1-1,Ann,Bob,1,0\n")}, []string{"s.csv:2:1", `date "2025-1-1" is not YYYY-MM-DD`}},
		{[]string{"-matches", scores("2025-01-01,Ann,Ann,1,0\n")}, []string{"s.csv:2:", `"Ann"`, "a team cannot play itself"}},
		{[]string{"-matches", scores("2025-01-01,,Bob,1,0\n")}, []string{"s.csv:2:", "home: empty name"}},
		{[]string{"-matches", scores("2025-01-01,Ann\x01,Bob,1,0\n")}, []string{"s.csv:2:", "control character"}},
		{[]string{"-matches", scores("2025-01-01,Ann,Bob,1\n")}, []string{"s.csv:2", "wrong number of fields"}},
		{[]string{"-matches", scores("2025-01-01,Ann,Bob,1,1\n")}, []string{"every game is a draw", "-draw"}},
		{[]string{"-matches", writeFile(t, "l.csv", "match_id,date,team,player,rank\nm,2025-01-01,a,Ann,1\n")}, []string{"l.csv:2", "1 team"}},
	} {
		code, stdout, stderr := runArgs(c.args...)
		if code != cli.Error || stdout != "" {
			t.Errorf("%q: exit %d, stdout %q; want %d and nothing", c.args, code, stdout, cli.Error)
		}
		clitest.WantOneLine(t, Prog, stderr, c.texts...)
	}
}

// TestScoresKeys: a second game between the same players on one day is
// told apart from the first, so -state rates it when it is added.
func TestScoresKeys(t *testing.T) {
	state := filepath.Join(t.TempDir(), "s.json")
	one := "date,home,away,home_score,away_score\n2025-01-01,Ann,Bob,1,0\n"
	two := one + "2025-01-01,Ann,Bob,0,1\n"
	runJSON(t, "-matches", writeFile(t, "1.csv", one), "-state", state, "-draw", "0")
	out := runJSON(t, "-matches", writeFile(t, "2.csv", two), "-state", state, "-history", "Bob")
	if out.League.New != 1 || len(out.History.Rows) != 2 || out.History.Rows[1].Game != "2025-01-01 Ann v Bob #2" || out.History.Rows[1].Result != "won" {
		t.Errorf("second game of the day: %+v %+v", out.League, out.History)
	}
}

// TestDocExamples: every command shown in the package comment prints the
// lines shown under it (run from the module root, as documented; lines
// with "…" are abridged and skipped, and so are commands in a pipeline).
func TestDocExamples(t *testing.T) {
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	doc, _, _ := strings.Cut(string(src), "\npackage rate")
	t.Chdir(filepath.Join("..", "..", ".."))
	var args []string
	var want []string
	check := func() {
		if args == nil {
			return
		}
		stdout, _ := mustRun(t, args...)
		for _, line := range want {
			if !strings.Contains(stdout, line+"\n") {
				t.Errorf("%q does not print %q:\n%s", args, line, stdout)
			}
		}
	}
	commands := 0
	for _, line := range strings.Split(doc, "\n") {
		code, ok := strings.CutPrefix(line, "//\t")
		if !ok {
			check()
			args, want = nil, nil
			continue
		}
		if cmd, ok := strings.CutPrefix(code, "$ skillgraph rate"); ok {
			check()
			args, want = nil, nil
			if !strings.Contains(cmd, "|") {
				args = strings.Fields(cmd)
				commands++
			}
			continue
		}
		if args != nil && !strings.Contains(code, "…") {
			want = append(want, code)
		}
	}
	check()
	if commands < 6 {
		t.Errorf("%d commands checked in the package comment, want at least 6", commands)
	}
}

// TestOutsideModule: without -matches, outside the module, the program
// says where it looked for the bundled file.
func TestOutsideModule(t *testing.T) {
	t.Chdir(t.TempDir())
	code, stdout, stderr := runArgs()
	if code != cli.Error || stdout != "" {
		t.Errorf("exit %d, stdout %q", code, stdout)
	}
	clitest.WantOneLine(t, Prog, stderr, "no -matches given", "examples/data/office.csv", "give -matches FILE")
}

// TestZeroWeightStability: a player of weight 0 learns nothing from a
// game, so their σ² grows by τ² and their stability is 1 − (σ₀² + τ²)/σ₀²
// = −τ²/σ₀², −0.0001: the JSON says so, and the table, at whole per
// cents, shows 0%, not -0%.
func TestZeroWeightStability(t *testing.T) {
	path := writeFile(t, "w.csv", "match_id,date,team,player,rank,weight\nm1,2025-03-01,x,Ann,1,0\nm1,2025-03-01,y,Bob,2,1\n")
	out := runJSON(t, "-matches", path)
	var ann *boardRow
	for i := range out.Leaderboard {
		if out.Leaderboard[i].Player == "Ann" {
			ann = &out.Leaderboard[i]
		}
	}
	if want := -tau2 / sigma02; ann == nil || !near(ann.Stability, want, 1e-12) || !near(ann.Sigma, math.Sqrt(sigma02+tau2), 1e-12) {
		t.Fatalf("Ann: %+v, want σ = √(σ₀² + τ²) and stability %v", ann, want)
	}
	stdout, _ := mustRun(t, "-matches", path)
	row := regexp.MustCompile(`(?m)^ +[0-9]+  Ann .*$`).FindString(stdout)
	if f := strings.Fields(row); len(f) != 8 || f[5] != "0%" {
		t.Errorf("Ann's row %q, want stability 0%%:\n%s", row, stdout)
	}
}

// TestPlotNotOverInput checks that -plot naming the -matches file is
// refused, the file unchanged.
func TestPlotNotOverInput(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.svg")
	body := "match_id,time,team,player,rank\ng1,2025-01-01,a,A,1\ng1,2025-01-01,b,B,2\n"
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runArgs("-matches", path, "-history", "A", "-plot", path)
	if code == cli.OK || stdout != "" || !strings.Contains(stderr, "which the plot would overwrite") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if now, _ := os.ReadFile(path); string(now) != body {
		t.Errorf("the input was changed to %q", now)
	}
}
