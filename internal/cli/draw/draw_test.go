package draw

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/dot"
	"github.com/skillgraph/skillgraph/internal/cli"
	"github.com/skillgraph/skillgraph/internal/cli/clitest"
	"github.com/skillgraph/skillgraph/internal/cli/rate"
	"github.com/skillgraph/skillgraph/internal/league"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

// mustRun runs the subcommand and fails t unless it exits 0.
func mustRun(t *testing.T, args ...string) (stdout, stderr string) {
	t.Helper()
	code, stdout, stderr := clitest.Run(Run, args...)
	if code != cli.OK {
		t.Fatalf("%q: exit %d, stderr %q", args, code, stderr)
	}
	return stdout, stderr
}

// chessFile writes a chess-like league: n 1v1 games among players, a third
// of them drawn, two a day, on neutral ground (chess has no home team),
// and returns its path.
func chessFile(t *testing.T, n, players int) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 4))
	var b strings.Builder
	b.WriteString("date,home,away,home_score,away_score,neutral\n")
	for g := range n {
		perm := rng.Perm(players)
		score := [][2]int{{1, 0}, {0, 1}, {1, 1}}[rng.IntN(3)]
		fmt.Fprintf(&b, "2025-01-%02d,P%d,P%d,%d,%d,TRUE\n", 1+g/2, perm[0], perm[1], score[0], score[1])
	}
	path := filepath.Join(t.TempDir(), "chess.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// dotRows returns the rows of a DOT text (the nodes of each rank=same
// subgraph) and its edges.
func dotRows(text string) (rows [][]string, edges [][2]string) {
	for _, m := range regexp.MustCompile(`rank=same;\n\t\t([^\n]*);\n`).FindAllStringSubmatch(text, -1) {
		rows = append(rows, strings.Split(m[1], "; "))
	}
	for _, m := range regexp.MustCompile(`(?m)^\t([vf]\d+) -- ([vf]\d+)( \[(dir|color)[^\n]*)?;$`).FindAllStringSubmatch(text, -1) {
		edges = append(edges, [2]string{m[1], m[2]})
	}
	return rows, edges
}

// TestGame: the default draws the bundled file's last game, -game another,
// each as the paper's Figure 1 with the schedule's numbers; a first game's
// priors are new players' N(25, (25/3)² + τ²).
func TestGame(t *testing.T) {
	stdout, _ := mustRun(t)
	if !strings.HasPrefix(stdout, `graph "trueskill" {`) || strings.Count(stdout, "rank=same") != 9 {
		t.Errorf("not a Figure 1 graph of 9 rows:\n%.300s", stdout)
	}
	first, _ := mustRun(t, "-game", "g001")
	for _, s := range []string{"N(s1; 25, 69.45)", "N(s4; 25, 69.45)", "legend", "label=\"1\""} {
		if !strings.Contains(first, s) && !(s == "legend" && strings.Contains(first, "messages in schedule order")) {
			t.Errorf("the first game's graph does not hold %q", s)
		}
	}
	values, _ := mustRun(t, "-game", "g001", "-values")
	if !strings.Contains(values, "μ=") {
		t.Errorf("-values labels no marginal")
	}
}

// TestSlice: -depth 1 holds the player's games, -depth 2 also their
// opponents' games, in file order.
func TestSlice(t *testing.T) {
	g := func(key, a, b string) league.Match {
		return league.Match{Key: key, Teams: [][]string{{a}, {b}}, Ranks: []int{0, 1}}
	}
	games := []league.Match{g("1", "A", "B"), g("2", "C", "D"), g("3", "B", "C"), g("4", "A", "E"), g("5", "D", "F")}
	for depth, want := range map[int][]string{1: {"1", "4"}, 2: {"1", "3", "4"}, 3: {"1", "2", "3", "4"}, 4: {"1", "2", "3", "4", "5"}} {
		var got []string
		for _, x := range seasonSlice(games, "A", depth) {
			got = append(got, x.Key)
		}
		if !slices.Equal(got, want) {
			t.Errorf("depth %d: games %q, want %q", depth, got, want)
		}
	}
}

// TestSeason: a 30-game chess-like season is drawn in rows derived from
// its structure: every edge joins two rows, no row holds more than a few
// nodes per player, the priors are each player's rating before the slice,
// and (with Graphviz) the picture is bounded, where the builder's named
// layers put every game's performances in one row.
func TestSeason(t *testing.T) {
	const games, players = 30, 8
	path := chessFile(t, games, players)
	stdout, _ := mustRun(t, "-matches", path, "-player", "P0", "-depth", "3")
	if n := strings.Count(stdout, `xlabel="I(`); n != games {
		t.Fatalf("%d comparisons drawn, want the %d games", n, games)
	}
	rows, edges := dotRows(stdout)
	row := map[string]int{}
	widest := 0
	for r, ids := range rows {
		widest = max(widest, len(ids))
		for _, id := range ids {
			row[id] = r
		}
	}
	if len(edges) == 0 || len(rows) < 10 {
		t.Fatalf("%d edges, %d rows", len(edges), len(rows))
	}
	for _, e := range edges {
		if row[e[0]] >= row[e[1]] {
			t.Errorf("edge %s -- %s goes from row %d to row %d", e[0], e[1], row[e[0]], row[e[1]])
		}
	}
	if widest > 3*players {
		t.Errorf("a row of %d nodes for %d players", widest, players)
	}

	// The priors: a player's rating before their first game of the slice.
	// rate's model of the file: the draw share, and no game at home.
	_, all, _, err := league.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	l, _, err := league.Setup(league.FormatScores, all, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	cut := all[:10]
	if _, err := l.Rate(t.Context(), cut); err != nil {
		t.Fatal(err)
	}
	name := all[10].Teams[0][0]
	want := l.Params.NewRating()
	if pl := l.Player(name); pl != nil {
		want = pl.Rating
	}
	out, _ := mustRun(t, "-matches", path, "-player", name, "-max-games", fmt.Sprint(countFrom(all, name, 10)))
	v := want.Sigma*want.Sigma + l.Params.Tau*l.Params.Tau
	if label := fmt.Sprintf("N(%s 1; %.4g, %.4g)", name, want.Mu, v); !strings.Contains(out, label) {
		t.Errorf("%s's prior %s is not drawn", name, label)
	}

	if _, err := exec.LookPath("dot"); err != nil {
		t.Log("Graphviz not installed: the picture's size is not checked")
		return
	}
	svgPath := filepath.Join(t.TempDir(), "season.svg")
	mustRun(t, "-matches", path, "-player", "P0", "-depth", "3", "-o", svgPath)
	w, h := svgSize(t, svgPath)
	// A row of at most 3 nodes a player is at most 24 nodes of about 2.5
	// inches with their labels: 60 inches, 4,320 pt, and 30 rows of about
	// 1.5 inches are 3,240 pt; a little over both is allowed.
	if w > 6000 || h > 6000 {
		t.Errorf("the season is %v × %v pt", w, h)
	}
	// The same graph in the builder's named layers: one enormous row.
	s, err := newSeason(l.Params, all, nil, func(string, string) trueskill.Rating { return l.Params.NewRating() })
	if err != nil {
		t.Fatal(err)
	}
	text, err := dot.Marshal(s.graph, dot.Options{HideNumbers: true})
	if err != nil {
		t.Fatal(err)
	}
	named := filepath.Join(t.TempDir(), "named.svg")
	svg, err := render(text)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(named, svg, 0o644)
	if nw, _ := svgSize(t, named); nw < 2*w {
		t.Errorf("the named layers are %v pt wide, the derived rows %v: the test does not show the difference", nw, w)
	}
}

// countFrom counts the games of name from game i on.
func countFrom(games []league.Match, name string, i int) int {
	n := 0
	for _, g := range games[i:] {
		if plays(g, map[string]bool{name: true}) {
			n++
		}
	}
	return n
}

// svgSize reads an SVG's width and height in points.
func svgSize(t *testing.T, path string) (w, h float64) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`<svg width="([\d.]+)pt" height="([\d.]+)pt"`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("%s: no SVG size", path)
	}
	w, _ = strconv.ParseFloat(string(m[1]), 64)
	h, _ = strconv.ParseFloat(string(m[2]), 64)
	return w, h
}

func TestValuesSeason(t *testing.T) {
	stdout, _ := mustRun(t, "-player", "Kai", "-values")
	if n := strings.Count(stdout, "μ="); n < 12 {
		t.Errorf("%d marginals drawn", n)
	}
}

// TestBadInput: usage mistakes exit 2 and failures 1, each in one line of
// under 1 KB, and write nothing to standard output.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"-bogus"}, cli.Usage, []string{"-bogus"}},
		{[]string{"-game", "g001", "-player", "Kai"}, cli.Usage, []string{"one of -game and -player"}},
		{[]string{"-depth", "2"}, cli.Usage, []string{"go with -player"}},
		{[]string{"-player", "Kai", "-depth", "0"}, cli.Usage, []string{"-depth 0"}},
		{[]string{"-player", "Kai", "-depth", "11"}, cli.Usage, []string{"-depth 11"}},
		{[]string{"-player", "Kai", "-max-games", "100000"}, cli.Usage, []string{"-max-games 100000"}},
		{[]string{"-draw", "1"}, cli.Usage, []string{`invalid value "1" for flag -draw: must be in [0, 1)`}},
		{[]string{"-draw", "1e-400"}, cli.Usage, []string{`invalid value "1e-400" for flag -draw: not 0`}},
		{[]string{"-o", "x.png"}, cli.Usage, []string{`-o "x.png"`}},
		{[]string{"-player", " "}, cli.Usage, []string{"-player"}},
		{[]string{"extra"}, cli.Usage, []string{"unexpected argument"}},
		{[]string{"-player", "kia"}, cli.Error, []string{`no player "kia"`, `did you mean "Kai"?`}},
		{[]string{"-player", strings.Repeat("é", 3000)}, cli.Error, []string{"no player"}},
		{[]string{"-game", "g0001"}, cli.Error, []string{`no game "g0001"`, "did you mean"}},
		{[]string{"-game", "nothing-like-it"}, cli.Error, []string{`no game "nothing-like-it"`}},
		{[]string{"-matches", filepath.Join(dir, "none.csv")}, cli.Error, []string{"none.csv"}},
		{[]string{"-o", filepath.Join(dir, "no", "g.dot")}, cli.Error, []string{"-o", filepath.Join(dir, "no", "g.dot")}},
		{[]string{"-draw", "0"}, cli.Error, []string{"game g028 (2025-02-10) is a draw", "set -draw above 0"}},
	} {
		code, stdout, stderr := clitest.Run(Run, c.args...)
		if code != c.code || stdout != "" {
			t.Errorf("%.60q: exit %d, stdout %.80q; want %d and nothing", c.args, code, stdout, c.code)
		}
		clitest.WantOneLine(t, Prog, stderr, c.want...)
		if len(stderr) >= 1024 {
			t.Errorf("%.60q: a report of %d bytes", c.args, len(stderr))
		}
	}
	// Without Graphviz an SVG is refused in one line.
	t.Setenv("PATH", "")
	code, _, stderr := clitest.Run(Run, "-o", filepath.Join(dir, "g.svg"))
	if code != cli.Error {
		t.Errorf("no Graphviz: exit %d", code)
	}
	clitest.WantOneLine(t, Prog, stderr, "Graphviz")
	if _, err := os.Stat(filepath.Join(dir, "g.svg")); err == nil {
		t.Error("an SVG was written without Graphviz")
	}
}

// TestWeights: a game's graph and a season's weigh each player's
// performance by their weight. Ann, of weight 0, beats Bob: her team's
// performance is 0, so her skill keeps its prior N(25, σ₀² + τ²), and
// Bob's is the prior truncated to a performance below 0, by the closed
// form of the TrueSkill paper (v = φ(t)/Φ(t), w = v(v + t), t = −μ/c,
// c² = σ₀² + τ² + β²).
func TestWeights(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.csv")
	if err := os.WriteFile(path, []byte("match_id,date,team,player,rank,weight\nm1,2025-03-01,x,Ann,1,0\nm1,2025-03-01,y,Bob,2,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := trueskill.DefaultParams()
	s2 := p.Sigma*p.Sigma + p.Tau*p.Tau
	c := math.Sqrt(s2 + p.Beta*p.Beta)
	tt := -p.Mu / c
	v := math.Exp(-tt*tt/2) / math.Sqrt(2*math.Pi) / (0.5 * math.Erfc(-tt/math.Sqrt2))
	w := v * (v + tt)
	want := map[string][2]float64{
		"Ann": {p.Mu, math.Sqrt(s2)},
		"Bob": {p.Mu - s2/c*v, math.Sqrt(s2 * (1 - s2/(c*c)*w))},
	}
	for _, args := range [][]string{{"-game", "m1"}, {"-player", "Ann"}} {
		stdout, _ := mustRun(t, append(args, "-matches", path, "-values")...)
		for i, name := range []string{"Ann", "Bob"} {
			label := regexp.MustCompile(fmt.Sprintf(`v%d \[shape=ellipse, label="[^\\]*\\nμ=([^ ]+) σ=([^"]+)"`, i)).FindStringSubmatch(stdout)
			if label == nil {
				t.Fatalf("%q: no label of %s's skill in\n%s", args, name, stdout)
			}
			for k, what := range []string{"μ", "σ"} {
				got, err := strconv.ParseFloat(label[1+k], 64)
				if err != nil || math.Abs(got-want[name][k]) > 5e-4*math.Abs(want[name][k]) {
					t.Errorf("%q: %s's %s = %s, want %.4g", args, name, what, label[1+k], want[name][k])
				}
			}
		}
	}
}

// TestHomeGameIsRates: the graph drawn of a scores file's game at home is
// the one rate rates it by: with -values, the skills' and the home
// advantage's marginals after the file's last game are rate's ratings and
// home advantage at the end (to the 4 digits drawn), and the season around
// a player holds the home advantage as one variable under rate's prior
// for it, N(0, β²), since its first game is the file's first.
func TestHomeGameIsRates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "home.csv")
	text := "date,home,away,home_score,away_score\n2025-01-01,Ann,Bob,2,0\n2025-01-02,Bob,Cy,1,0\n2025-01-03,Cy,Ann,3,1\n" +
		"2025-01-04,Bob,Ann,2,2\n2025-01-05,Ann,Cy,1,0\n2025-01-06,Cy,Bob,2,1\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := clitest.Run(rate.Run, "-matches", path, "-format", "json", "-min-games", "0")
	if code != cli.OK {
		t.Fatalf("rate: exit %d, %s", code, stderr)
	}
	var out struct {
		League struct {
			Home *trueskill.Rating `json:"home_advantage"`
		} `json:"league"`
		Leaderboard []struct {
			Player string  `json:"player"`
			Mu     float64 `json:"mu"`
			Sigma  float64 `json:"sigma"`
		} `json:"leaderboard"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil || out.League.Home == nil {
		t.Fatalf("rate's JSON: %v, home advantage %v", err, out.League.Home)
	}
	want := map[string]trueskill.Rating{"h": *out.League.Home}
	for _, r := range out.Leaderboard {
		switch r.Player {
		case "Cy": // the last game's home team: s1
			want["s1"] = trueskill.Rating{Mu: r.Mu, Sigma: r.Sigma}
		case "Bob":
			want["s2"] = trueskill.Rating{Mu: r.Mu, Sigma: r.Sigma}
		}
	}
	drawn, _ := mustRun(t, "-matches", path, "-values")
	for name, w := range want {
		label := regexp.MustCompile(fmt.Sprintf(`label="%s\\nμ=([^ ]+) σ=([^"]+)"`, name)).FindStringSubmatch(drawn)
		if label == nil {
			t.Fatalf("no label of %s in\n%s", name, drawn)
		}
		for k, wv := range []float64{w.Mu, w.Sigma} {
			got, err := strconv.ParseFloat(label[1+k], 64)
			if err != nil || math.Abs(got-wv) > 5e-4*math.Abs(wv) {
				t.Errorf("%s: %s drawn, rate's %.4g", name, label[1+k], wv)
			}
		}
	}
	season, _ := mustRun(t, "-matches", path, "-player", "Ann")
	if prior := fmt.Sprintf("N(h; 0, %.4g)", 25.0/6*25.0/6); strings.Count(season, `label="h"`) != 1 || !strings.Contains(season, prior) {
		t.Errorf("the season does not hold one home advantage under %s", prior)
	}
}

// TestOutputNotOverInput checks that -o naming the -matches file (which
// record reads by its header, whatever its name) is refused, the file
// unchanged.
func TestOutputNotOverInput(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.dot")
	body := "match_id,time,team,player,rank\ng1,2025-01-01,a,A,1\ng1,2025-01-01,b,B,2\n"
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := clitest.Run(Run, "-matches", path, "-o", path)
	if code != cli.Usage || stdout != "" || !strings.Contains(stderr, "which the drawing would overwrite") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if now, _ := os.ReadFile(path); string(now) != body {
		t.Errorf("the input was changed to %q", now)
	}
}
