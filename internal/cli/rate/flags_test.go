package rate

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/internal/cli"
	"github.com/skillgraph/skillgraph/internal/cli/clitest"
	"github.com/skillgraph/skillgraph/internal/safefile"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

// TestRankBy: -rank-by conservative ranks by μ − 3σ, which each row holds;
// -min-games leaves out players with fewer games from the leaderboard and
// the pairings.
func TestRankBy(t *testing.T) {
	all := runJSON(t).Leaderboard
	cons := runJSON(t, "-rank-by", "conservative").Leaderboard
	if len(cons) != len(all) {
		t.Fatalf("%d rows, want %d", len(cons), len(all))
	}
	for k, r := range cons {
		if r.Conservative == nil || *r.Conservative != r.Mu-3*r.Sigma {
			t.Fatalf("%+v: want conservative μ − 3σ = %v", r, r.Mu-3*r.Sigma)
		}
		if k > 0 && *r.Conservative > *cons[k-1].Conservative {
			t.Errorf("row %d out of order", k)
		}
	}
	stdout, _ := mustRun(t, "-rank-by", "conservative")
	if !strings.Contains(stdout, "μ−3σ") {
		t.Errorf("the table has no μ−3σ column:\n%s", stdout)
	}
	want := 0
	for _, r := range all {
		if r.Games >= 20 {
			want++
		}
	}
	min20 := runJSON(t, "-min-games", "20").Leaderboard
	if len(min20) != want || want == 0 || want == len(all) {
		t.Fatalf("-min-games 20: %d rows, want %d of %d", len(min20), want, len(all))
	}
	for _, r := range min20 {
		if r.Games < 20 {
			t.Errorf("%+v has fewer than 20 games", r)
		}
	}
	pairs := runJSON(t, "-min-games", "20", "-pairings", "-top", "0").Pairings
	if len(pairs) != want*(want-1)/2 {
		t.Errorf("%d pairings of %d players", len(pairs), want)
	}
	stdout, _ = mustRun(t, "-min-games", "1000")
	if !strings.Contains(stdout, "No player has played enough games") {
		t.Errorf("an empty leaderboard does not say so:\n%s", stdout)
	}
}

// TestDidYouMean: a misspelt name suggests the closest players.
func TestDidYouMean(t *testing.T) {
	path := writeFile(t, "s.csv", "date,home,away,home_score,away_score\n2025-01-01,Brazil,Bahrain,1,0\n2025-01-02,Peru,Brazil,1,1\n")
	code, _, stderr := runArgs("-matches", path, "-history", "Brasil")
	if code != cli.Error {
		t.Errorf("exit %d", code)
	}
	clitest.WantOneLine(t, Prog, stderr, `no player "Brasil"`, `did you mean "Brazil"?`)
	code, _, stderr = runArgs("-matches", path, "-predict", "Peru,Bahrian")
	if code != cli.Error {
		t.Errorf("exit %d", code)
	}
	clitest.WantOneLine(t, Prog, stderr, `did you mean "Bahrain"?`)
}

// TestPlot: -history NAME -plot writes an SVG or a PNG of the history; a
// plot without -history or of another kind is a usage error.
func TestPlot(t *testing.T) {
	dir := t.TempDir()
	svg := filepath.Join(dir, "kai.svg")
	mustRun(t, "-history", "Kai", "-plot", svg)
	b, err := os.ReadFile(svg)
	if err != nil || !bytes.Contains(b, []byte("<svg")) || !bytes.Contains(b, []byte("Kai: rating after each of 12 games")) {
		t.Errorf("%s: %v, %.200s", svg, err, b)
	}
	pngPath := filepath.Join(dir, "kai.png")
	mustRun(t, "-history", "Kai", "-plot", pngPath)
	f, err := os.Open(pngPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := png.Decode(f); err != nil {
		t.Errorf("%s is not a PNG: %v", pngPath, err)
	}
	for _, args := range [][]string{{"-plot", svg}, {"-history", "Kai", "-plot", "kai.pdf"}} {
		code, _, stderr := runArgs(args...)
		if code != cli.Usage {
			t.Errorf("%q: exit %d", args, code)
		}
		clitest.WantOneLine(t, Prog, stderr, "-plot")
	}
	code, _, stderr := runArgs("-history", "Kai", "-plot", filepath.Join(dir, "none", "k.svg"))
	if code != cli.Error {
		t.Errorf("a plot in a missing folder: exit %d", code)
	}
	clitest.WantOneLine(t, Prog, stderr, "-plot")
}

// TestStateSplit: the bundled league rated through -state in two runs,
// 90 % of its games then the rest, gives the leaderboard of rating all at
// once to 1e-12.
func TestStateSplit(t *testing.T) {
	o := readOffice(t)
	cut := len(o.games) * 9 / 10
	lines := officeLines(t)
	state := filepath.Join(t.TempDir(), "league.json")
	draw := "0.1"
	first := writeFile(t, "first.csv", lines[0]+strings.Join(lines[1:1+rowsOf(o, cut)], ""))
	runJSON(t, "-matches", first, "-state", state, "-draw", draw)
	split := runJSON(t, "-matches", writeFile(t, "all.csv", strings.Join(lines, "")), "-state", state)
	once := runJSON(t, "-draw", draw)
	if split.League.Before != cut || split.League.New != len(o.games)-cut {
		t.Fatalf("second run: %d games before, %d new; want %d and %d", split.League.Before, split.League.New, cut, len(o.games)-cut)
	}
	compareBoards(t, once.Leaderboard, split.Leaderboard)
}

// compareBoards fails t unless two leaderboards list the same players
// with μ and σ within 1e-12.
func compareBoards(t *testing.T, want, got []boardRow) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d", len(got), len(want))
	}
	for k := range want {
		if got[k].Player != want[k].Player || !near(got[k].Mu, want[k].Mu, 1e-12) || !near(got[k].Sigma, want[k].Sigma, 1e-12) || got[k].Games != want[k].Games {
			t.Errorf("row %d: %+v, want %+v", k, got[k], want[k])
		}
	}
}

// officeLines returns the bundled file's lines, the header first.
func officeLines(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "examples", "data", "office.csv"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.TrimSuffix(string(b), "\n") + "\n"
	return strings.SplitAfter(text, "\n")[:strings.Count(text, "\n")]
}

// rowsOf counts the file rows of the first n games.
func rowsOf(o officeFile, n int) int {
	rows := 0
	for _, g := range o.games[:n] {
		for _, team := range g.Teams {
			rows += len(team)
		}
	}
	return rows
}

// TestStateConcurrent: runs adding games to one -state at once, each
// with the games so far up to a point of its own, lose none: the state
// ends with every game and the leaderboard of rating all at once.
func TestStateConcurrent(t *testing.T) {
	o := readOffice(t)
	lines := officeLines(t)
	state := filepath.Join(t.TempDir(), "league.json")
	dir := t.TempDir()
	const runs = 8
	files := make([]string, runs)
	for i := range files {
		n := len(o.games) * (i + 1) / runs // the last run has every game
		files[i] = filepath.Join(dir, fmt.Sprint(i, ".csv"))
		if err := os.WriteFile(files[i], []byte(lines[0]+strings.Join(lines[1:1+rowsOf(o, n)], "")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	codes := make([]int, runs)
	errs := make([]string, runs)
	for i := range files {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i], _, errs[i] = runArgs("-matches", files[i], "-state", state, "-draw", "0.1", "-format", "csv")
		}()
	}
	wg.Wait()
	for i, code := range codes {
		if code != cli.OK {
			t.Errorf("run %d: exit %d, %s", i, code, errs[i])
		}
	}
	final := runJSON(t, "-matches", files[runs-1], "-state", state)
	if final.League.Games != len(o.games) || final.League.New != 0 {
		t.Errorf("the state holds %d games (%d rated by the check), want %d", final.League.Games, final.League.New, len(o.games))
	}
	compareBoards(t, runJSON(t, "-draw", "0.1").Leaderboard, final.Leaderboard)
}

// TestHome: the Premier League's scores file learns a positive home
// advantage, which the first lines and the JSON give; a file whose rows
// are all neutral rates as -home off does; -home learn needs the scores
// format.
func TestHome(t *testing.T) {
	epl := filepath.Join("..", "..", "..", "examples", "data", "epl.csv")
	out := runJSON(t, "-matches", epl)
	if h := out.League.Home; h == nil || !(h.Mu > 3*h.Sigma) {
		t.Errorf("home advantage %v, want clearly positive", h)
	}
	stdout, _ := mustRun(t, "-matches", epl, "-min-games", "1000")
	if !strings.Contains(stdout, "home advantage 1.") {
		t.Errorf("the first lines do not give the home advantage:\n%.600s", stdout)
	}
	if off := runJSON(t, "-matches", epl, "-home", "off"); off.League.Home != nil {
		t.Errorf("-home off: %v", off.League.Home)
	}

	rows := "2025-01-01,Ann,Bob,2,0,%s\n2025-01-02,Bob,Cy,1,1,%s\n2025-01-03,Cy,Ann,0,3,%s\n"
	header := "date,home,away,home_score,away_score,neutral\n"
	neutral := writeFile(t, "n.csv", header+fmt.Sprintf(rows, "TRUE", "true", "1"))
	plain := writeFile(t, "p.csv", header+fmt.Sprintf(rows, "FALSE", "FALSE", "0"))
	compareBoards(t, runJSON(t, "-matches", plain, "-home", "off").Leaderboard, runJSON(t, "-matches", neutral).Leaderboard)
	// With no game at home the home advantage is its prior, N(0, β²) with
	// the default β = 25/6, and says so.
	if out := runJSON(t, "-matches", neutral).League; out.HomeLearned || out.Home == nil || *out.Home != (trueskill.Rating{Mu: 0, Sigma: 25.0 / 6}) {
		t.Errorf("all neutral: home advantage %v, learned %v, want the prior N(0, (25/6)²) not learned", out.Home, out.HomeLearned)
	}
	if !runJSON(t, "-matches", plain).League.HomeLearned {
		t.Errorf("games at home: the home advantage is not learned")
	}
	stdout, _ = mustRun(t, "-matches", neutral)
	if want := "\nhome advantage 0 ± 4.2 in skill points, its prior: no game at home has informed it (every game is on neutral ground; set -home off)\n"; !strings.Contains(stdout, want) || strings.Contains(stdout, "learnt") {
		t.Errorf("all neutral, the first lines:\n%.600s\nwant %q", stdout, want)
	}
	if a, b := runJSON(t, "-matches", plain).Leaderboard, runJSON(t, "-matches", neutral).Leaderboard; a[0].Mu == b[0].Mu {
		t.Errorf("games at home rate as neutral ones")
	}

	code, _, stderr := runArgs("-home", "learn")
	if code != cli.Error {
		t.Errorf("-home learn on the long format: exit %d", code)
	}
	clitest.WantOneLine(t, Prog, stderr, "no home team")
	code, _, stderr = runArgs("-home", "maybe")
	if code != cli.Usage {
		t.Errorf("-home maybe: exit %d", code)
	}
	clitest.WantOneLine(t, Prog, stderr, `-home "maybe"`)
	code, _, stderr = runArgs("-matches", writeFile(t, "b.csv", header+"2025-01-01,Ann,Bob,2,0,perhaps\n"))
	if code != cli.Error {
		t.Errorf("neutral perhaps: exit %d", code)
	}
	clitest.WantOneLine(t, Prog, stderr, "b.csv:2:", `neutral "perhaps"`)
}

// TestShuffledAndTimestamped: the bundled file with its days in reverse
// order (each day's rows in order) is sorted back, says how many games
// moved, and rates as the file does; with timestamps in place of dates it
// rates the same too.
func TestShuffledAndTimestamped(t *testing.T) {
	lines := officeLines(t)
	var days [][]string
	for _, line := range lines[1:] {
		date := strings.Split(line, ",")[1]
		if len(days) == 0 || strings.Split(days[len(days)-1][0], ",")[1] != date {
			days = append(days, nil)
		}
		days[len(days)-1] = append(days[len(days)-1], line)
	}
	var reversed strings.Builder
	reversed.WriteString(lines[0])
	for i := len(days) - 1; i >= 0; i-- {
		reversed.WriteString(strings.Join(days[i], ""))
	}
	once := runJSON(t, "-draw", "0.1")
	shuffled := runJSON(t, "-matches", writeFile(t, "r.csv", reversed.String()), "-draw", "0.1")
	compareBoards(t, once.Leaderboard, shuffled.Leaderboard)
	if len(shuffled.League.Notes) != 1 || !strings.Contains(shuffled.League.Notes[0], "out of time order were moved into place") {
		t.Errorf("notes %q, want one saying how many games moved", shuffled.League.Notes)
	}

	var stamped strings.Builder
	stamped.WriteString(lines[0])
	for _, line := range lines[1:] {
		f := strings.Split(line, ",")
		f[1] += " 18:13:50"
		stamped.WriteString(strings.Join(f, ","))
	}
	ts := runJSON(t, "-matches", writeFile(t, "t.csv", stamped.String()), "-draw", "0.1")
	compareBoards(t, once.Leaderboard, ts.Leaderboard)
	if ts.League.LastDate != "2025-04-29T18:13:50Z" {
		t.Errorf("last date %q, want the timestamp", ts.League.LastDate)
	}
}

// TestStateSplitHome: the first 3,000 Premier League games through -state
// in two runs, 90 % then the rest, give the leaderboard and the home
// advantage of rating them at once, to 1e-12.
func TestStateSplitHome(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "examples", "data", "epl.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")[:3001]
	cut := 1 + 2700
	state := filepath.Join(t.TempDir(), "epl.json")
	runJSON(t, "-matches", writeFile(t, "a.csv", strings.Join(lines[:cut], "")), "-state", state, "-draw", "0.25")
	all := writeFile(t, "all.csv", strings.Join(lines, ""))
	split := runJSON(t, "-matches", all, "-state", state)
	once := runJSON(t, "-matches", all, "-draw", "0.25")
	if split.League.New != 300 || split.League.Home == nil || once.League.Home == nil {
		t.Fatalf("second run rated %d games, home advantage %v and %v", split.League.New, split.League.Home, once.League.Home)
	}
	if h, w := *split.League.Home, *once.League.Home; !near(h.Mu, w.Mu, 1e-12) || !near(h.Sigma, w.Sigma, 1e-12) {
		t.Errorf("home advantage %v in two runs, %v at once", h, w)
	}
	compareBoards(t, once.Leaderboard, split.Leaderboard)
	code, _, stderr := runArgs("-matches", all, "-state", state, "-home", "off")
	if code != cli.Error {
		t.Errorf("-home off on a state with a home advantage: exit %d", code)
	}
	clitest.WantOneLine(t, Prog, stderr, "-home off differs from -state")
}

// TestProgress: rating that runs past the progress interval says how far
// it has gone on stderr (here an interval of 0, so every game); a run that
// ends sooner says nothing.
func TestProgress(t *testing.T) {
	var out, errs bytes.Buffer
	path := filepath.Join("..", "..", "..", "examples", "data", "office.csv")
	q := query{format: "table", view: "leaderboard", rankBy: "display", progress: time.Hour}
	if err := rateLeague(&out, &errs, path, "", nil, q); err != nil {
		t.Fatal(err)
	}
	if errs.Len() != 0 {
		t.Errorf("a quick run printed progress: %q", errs.String())
	}
	errs.Reset()
	q.progress = 0
	if err := rateLeague(&out, &errs, path, "", nil, q); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(errs.String()), "\n")
	if len(lines) != 89 || !strings.HasPrefix(lines[88], Prog+": rating ") || !strings.HasSuffix(lines[88], ": 88 of 89 games") {
		t.Errorf("%d progress lines, the last %q", len(lines), lines[len(lines)-1])
	}
}

// syncBuffer is a bytes.Buffer for one writer and one reader goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestLockWaitSaid: a run that waits for another run's lock on the state
// says so once the progress interval has passed, instead of hanging
// silently, and rates once the lock is released; a run that finds the
// lock free says nothing of it.
func TestLockWaitSaid(t *testing.T) {
	path := filepath.Join("..", "..", "..", "examples", "data", "office.csv")
	state := filepath.Join(t.TempDir(), "league.json")
	q := query{format: "table", view: "leaderboard", rankBy: "display", progress: 20 * time.Millisecond}
	held, err := safefile.Lock(context.Background(), state)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	var errs syncBuffer
	result := make(chan error, 1)
	go func() { result <- rateLeague(&out, &errs, path, state, nil, q) }()
	want := Prog + ": waiting up to 10m0s for another run to release -state " + state + "\n"
	for deadline := time.Now().Add(10 * time.Second); errs.String() == "" && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	if got := errs.String(); got != want {
		t.Errorf("stderr while waiting %q, want %q", got, want)
	}
	held.Unlock()
	if err := <-result; err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "0 games rated before, 89 now") || errs.String() != want {
		t.Errorf("after the wait: stdout %q, stderr %q", out.String(), errs.String())
	}
	// The lock is free now: nothing is said of it.
	q.progress = time.Hour
	var quiet bytes.Buffer
	if err := rateLeague(&out, &quiet, path, state, nil, q); err != nil || quiet.Len() != 0 {
		t.Errorf("a free lock: error %v, stderr %q", err, quiet.String())
	}
}
