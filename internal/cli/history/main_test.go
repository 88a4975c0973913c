package history

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/internal/cli"
	"github.com/skillgraph/skillgraph/internal/cli/clitest"
)

func runArgs(args ...string) (code int, stdout, stderr string) { return clitest.Run(Run, args...) }

func writeTemp(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// scores is a small league in the scores format: four teams over five
// weeks, 3 of its 10 matches drawn.
const scores = `date,season,home,away,home_score,away_score
2020-01-04,s,Ants,Bees,2,0
2020-01-04,s,Cats,Dogs,1,1
2020-01-11,s,Bees,Cats,0,3
2020-01-11,s,Dogs,Ants,0,2
2020-01-18,s,Ants,Cats,1,1
2020-01-18,s,Bees,Dogs,2,1
2020-01-25,s,Bees,Ants,1,2
2020-01-25,s,Dogs,Cats,0,1
2020-02-01,s,Cats,Bees,2,2
2020-02-01,s,Ants,Dogs,3,0
`

// long is a small history in the long format: three races of three
// drivers, the last with two sharing last place, so that 1 of the 6
// adjacent places is tied.
const long = `match_id,date,team,player,rank
r1,2020-03-01,x,x,1
r1,2020-03-01,y,y,2
r1,2020-03-01,z,z,3
r2,2020-04-01,y,y,1
r2,2020-04-01,x,x,2
r2,2020-04-01,z,z,3
r3,2020-05-01,x,x,1
r3,2020-05-01,y,y,2
r3,2020-05-01,z,z,2
`

// TestDrawsEstimated: a history with draws runs without -draw, with the
// data's share of tied places as the draw probability, printed: 3 of the
// 10 matches, and 1 of the 6 adjacent places of the races.
func TestDrawsEstimated(t *testing.T) {
	for _, c := range []struct {
		text, want string
	}{
		{scores, "draw probability 0.3, estimated from the data"},
		{long, "draw probability 0.1667, estimated from the data"},
	} {
		code, stdout, stderr := runArgs("-matches", writeTemp(t, "h.csv", c.text), "-unit", "weeks")
		if code != cli.OK || !strings.HasPrefix(stdout, c.want) || !strings.Contains(stdout, "smoothing: converged true") {
			t.Errorf("exit %d, stdout:\n%s\nstderr: %s", code, stdout, stderr)
		}
	}
	code, stdout, _ := runArgs("-matches", writeTemp(t, "h.csv", scores), "-draw", "0.25")
	if code != cli.OK || !strings.HasPrefix(stdout, "draw probability 0.25 (given; the data's share of tied places is 0.3)") {
		t.Errorf("-draw 0.25: exit %d, stdout:\n%s", code, stdout)
	}
}

func TestScoresFormat(t *testing.T) {
	path := writeTemp(t, "league.csv", scores)
	code, stdout, stderr := runArgs("-matches", path, "-draw", "0.25", "-unit", "weeks", "-tol", "1e-6", "-progress", "0")
	if code != cli.OK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"10 games, 4 players", "smoothing: converged true after ", "Ants"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	// Progress, on stderr only: a line per sweep.
	sweeps := regexp.MustCompile(`after (\d+) sweeps`).FindStringSubmatch(stdout)
	if sweeps == nil || !strings.HasPrefix(stderr, "skillgraph history: sweep 1: largest move ") || strings.Count(stderr, "\n") != atoi(t, sweeps[1]) || strings.Contains(stdout, "largest move") {
		t.Errorf("progress: stderr %q for %v sweeps", stderr, sweeps)
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestLongFormatOutFiles: -out, a folder not there yet, gets the curves
// as CSV with each game's date, and the figure.
func TestLongFormatOutFiles(t *testing.T) {
	path := writeTemp(t, "races.csv", long)
	dir := filepath.Join(t.TempDir(), "new", "out")
	code, stdout, stderr := runArgs("-matches", path, "-out", dir, "-max", "2", "-tol", "1e-12")
	if code != cli.OK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// Two sweeps cannot reach 1e-12: it says it did not converge.
	if !strings.Contains(stdout, "3 games, 3 players") || !strings.Contains(stdout, "converged false after 2 sweeps") {
		t.Errorf("output:\n%s", stdout)
	}
	f, err := os.Open(filepath.Join(dir, "learning_curves.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// Each driver raced three times: nine rows at the races' dates.
	dates := map[string]int{}
	for _, r := range rows[1:] {
		dates[r[1]]++
	}
	if strings.Join(rows[0], ",") != "player,date,mu,sigma" || len(rows) != 10 || dates["2020-03-01"] != 3 || dates["2020-04-01"] != 3 || dates["2020-05-01"] != 3 {
		t.Errorf("learning_curves.csv: %q", rows)
	}
	b, err := os.ReadFile(filepath.Join(dir, "learning_curves.svg"))
	if err != nil || !strings.Contains(string(b), "2020-04") || !strings.Contains(string(b), "</svg>") {
		t.Errorf("learning_curves.svg: %v, %d bytes, dated: %v", err, len(b), strings.Contains(string(b), "2020-04"))
	}
	code, _, stderr = runArgs("-matches", path, "-out", dir, "-max", "1", "-figure", "png")
	if b, err := os.ReadFile(filepath.Join(dir, "learning_curves.png")); code != cli.OK || err != nil || !strings.HasPrefix(string(b), "\x89PNG") {
		t.Errorf("-figure png: exit %d, %v, %s", code, err, stderr)
	}
}

// TestOutMadeFirst: the output folder is made, or found unusable, before
// the input is read: a missing input still leaves the folder, and an
// -out inside a file fails before any work is printed.
func TestOutMadeFirst(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b")
	code, _, stderr := runArgs("-matches", filepath.Join(t.TempDir(), "missing.csv"), "-out", dir)
	if fi, err := os.Stat(dir); code != cli.Error || err != nil || !fi.IsDir() {
		t.Errorf("exit %d, folder %v; stderr %q", code, err, stderr)
	}
	clitest.WantOneLine(t, Prog, stderr, "missing.csv")
	file := writeTemp(t, "file", "")
	code, stdout, stderr := runArgs("-matches", writeTemp(t, "h.csv", long), "-out", filepath.Join(file, "sub"), "-fit")
	if code != cli.Error || stdout != "" {
		t.Errorf("exit %d, stdout %q", code, stdout)
	}
	clitest.WantOneLine(t, Prog, stderr, "-out", "not a directory")
	code, stdout, stderr = runArgs("-matches", writeTemp(t, "h.csv", long), "-evaluate", "-json", filepath.Join(file, "sub", "r.json"))
	if code != cli.Error || stdout != "" {
		t.Errorf("-json: exit %d, stdout %q", code, stdout)
	}
	clitest.WantOneLine(t, Prog, stderr, "-json", "not a directory")
}

// TestFitFlag: -fit prints the fitted parameters, and with -progress 0 a
// line per evaluation of the evidence on stderr, as many as it reports.
func TestFitFlag(t *testing.T) {
	path := writeTemp(t, "league.csv", scores)
	code, stdout, stderr := runArgs("-matches", path, "-unit", "7", "-fit", "-progress", "0")
	if code != cli.OK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	m := regexp.MustCompile(`fit \(filtered evidence, β = 1 fixed\): σ = .*; (\d+) evaluations in `).FindStringSubmatch(stdout)
	if m == nil || !strings.Contains(stdout, "converged") {
		t.Fatalf("output:\n%s", stdout)
	}
	lines := regexp.MustCompile(`(?m)^skillgraph history: fit: evaluation (\d+): σ = \S+, γ = \S+, draw probability \S+: log evidence -?\d+\.\d\d \(best -?\d+\.\d\d\)$`).FindAllStringSubmatch(stderr, -1)
	if len(lines) != atoi(t, m[1]) || lines[0][1] != "1" || lines[len(lines)-1][1] != m[1] {
		t.Errorf("%d progress lines for %s evaluations:\n%s", len(lines), m[1], stderr)
	}
	// Starts beyond the fit's bounds (σ₀ in [β/100, 100β], the draw
	// probability at most 0.9) are moved inside them.
	for _, args := range [][]string{{"-sigma", "1000"}, {"-draw", "0.95"}} {
		code, stdout, stderr := runArgs(append([]string{"-matches", path, "-fit", "-max", "1"}, args...)...)
		if code != cli.OK || !strings.Contains(stdout, "fit (filtered evidence") {
			t.Errorf("%v: exit %d\n%s\n%s", args, code, stdout, stderr)
		}
	}
}

func TestEvaluateFlag(t *testing.T) {
	path := writeTemp(t, "league.csv", scores)
	js := filepath.Join(t.TempDir(), "eval.json")
	code, stdout, stderr := runArgs("-matches", path, "-draw", "0.25", "-unit", "weeks", "-evaluate", "-k", "2", "-json", js, "-progress", "0")
	if code != cli.OK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"10 games in 5 batches", "| TTT filtering | default: μ=0 σ=6 β=1 γ=0.03/unit p_draw=0.25 |", "| TTT smoothing, k=2 |", "| TrueSkill | default: μ=0 σ=6 β=1 τ=0.06/game p_draw=0.25 |"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stderr, "skillgraph history: smoothing: 10 of 10 games") {
		t.Errorf("no progress on stderr: %q", stderr)
	}
	b, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	var rep report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	// 10 games, 3 of them draws: 7 decisive pairs for every method.
	if len(rep.Results) != 3 || rep.Games != 10 || rep.Batches != 5 || rep.K != 2 {
		t.Fatalf("%+v", rep)
	}
	for _, r := range rep.Results {
		if r.Pairs != 7 || r.Games != 10 || !(r.LogLoss > 0) {
			t.Errorf("%+v", r)
		}
	}
}

func TestCasesLastLine(t *testing.T) {
	code, stdout, stderr := runArgs("-cases", "../../../models/throughtime/testdata/ttt_cases.json")
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if code != cli.OK || !strings.HasPrefix(lines[len(lines)-1], "ttt conformance: ") || !strings.HasSuffix(lines[len(lines)-1], " passed, 0 failed") {
		t.Errorf("exit %d, last line %q, stderr %q", code, lines[len(lines)-1], stderr)
	}
}

// TestHugeScalesBounded: at scales where a grid line every half unit of
// skill would never end or fill the disk (μ₀ = 3e10 or 1e17, σ₀ = 6e6),
// the run ends and writes a few kilobytes, or, where float64 cannot hold
// the skills' differences, fails with one line saying so.
func TestHugeScalesBounded(t *testing.T) {
	path := writeTemp(t, "races.csv", long)
	for _, args := range [][]string{
		{"-mu", "3e10"},
		{"-mu", "1e17"},
		{"-sigma", "6e6", "-beta", "1e6", "-gamma", "3e4"},
		{"-mu", "1e308"},
	} {
		dir := t.TempDir()
		code, stdout, stderr := runArgs(append([]string{"-matches", path, "-out", dir, "-max", "20"}, args...)...)
		var size int64
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if fi, err := e.Info(); err == nil {
				size += fi.Size()
			}
		}
		switch code {
		case cli.OK:
			if len(entries) != 2 || size > 64<<10 {
				t.Errorf("%v: %d files, %d bytes", args, len(entries), size)
			}
		case cli.Error:
			clitest.WantOneLine(t, Prog, stderr, "beyond float64's precision")
			if len(entries) != 0 {
				t.Errorf("%v: failed but wrote %d files", args, len(entries))
			}
		default:
			t.Errorf("%v: exit %d\n%s\n%s", args, code, stdout, stderr)
		}
		if strings.Contains(stdout, "NaN") || len(stdout) > 4<<10 {
			t.Errorf("%v: stdout of %d bytes:\n%s", args, len(stdout), stdout)
		}
	}
}

// TestShippedData runs the shipped Premier League (scores format) and
// office league (long format, teams of two) for a sweep each; the game
// counts are the files' own, counted here from their rows.
func TestShippedData(t *testing.T) {
	for _, c := range []struct {
		file  string
		games func(rows [][]string) int
	}{
		{"epl.csv", func(rows [][]string) int { return len(rows) - 1 }},
		{"office.csv", func(rows [][]string) int {
			ids := map[string]bool{}
			for _, r := range rows[1:] {
				ids[r[0]] = true
			}
			return len(ids)
		}},
	} {
		path := filepath.Join("..", "..", "..", "examples", "data", c.file)
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := runArgs("-matches", path, "-max", "1", "-top", "3")
		want := " " + strconv.Itoa(c.games(rows)) + " games, "
		if code != cli.OK || !strings.Contains(stdout, want) || !strings.Contains(stdout, "estimated from the data") || strings.Count(stdout, "(last played ") != 3 {
			t.Errorf("%s: exit %d, want %q in\n%s\nstderr: %s", c.file, code, want, stdout, stderr)
		}
	}
}

// TestBadInput: every mistake is one line under 1 KB naming no Go
// identifier, with status 2 for usage and 1 for a failure.
func TestBadInput(t *testing.T) {
	draws := writeTemp(t, "d.csv", scores)
	curves := writeTemp(t, "learning_curves.csv", scores)
	for _, c := range []struct {
		args []string
		code int
		text string
	}{
		{nil, cli.Usage, "give -cases or -matches"},
		{[]string{"-bogus"}, cli.Usage, "flag provided but not defined: -bogus"},
		{[]string{"-matches", "f", "-unit", "fortnights"}, cli.Usage, `-unit "fortnights"`},
		{[]string{"-matches", "f", "-unit", "-3"}, cli.Usage, `-unit "-3"`},
		{[]string{"-matches", "f", "-unit", "1e6"}, cli.Usage, `-unit "1e6": at most 106751 days (292 years)`},
		{[]string{"-matches", "f", "-unit", "1e-20"}, cli.Usage, "shorter than a nanosecond"},
		{[]string{"-matches", "f", "-fit-evidence", "best"}, cli.Usage, `-fit-evidence "best"`},
		{[]string{"-matches", "f", "-tol", "0"}, cli.Usage, "-tol 0: must be positive"},
		{[]string{"-matches", "f", "-k", "-1"}, cli.Usage, "-k -1: must not be negative"},
		{[]string{"-matches", "f", "-draw", "1"}, cli.Usage, `invalid value "1" for flag -draw: must be in [0, 1)`},
		{[]string{"-matches", "f", "-draw", "1e-400"}, cli.Usage, `invalid value "1e-400" for flag -draw: not 0, but below the least float64 above 0`},
		{[]string{"-matches", "f", "-sigma", "0"}, cli.Usage, "-sigma 0: must be at least 1e-100"},
		{[]string{"-matches", "f", "-mu", "NaN"}, cli.Usage, "-mu NaN: must be finite"},
		{[]string{"-matches", "f", "-gamma", "-1"}, cli.Usage, "-gamma -1: must not be negative"},
		{[]string{"-matches", "f", "-sigma", "1e300"}, cli.Usage, "-sigma 1e+300: must be at most 1e+100"},
		{[]string{"-matches", "f", "-beta", "1e-300"}, cli.Usage, "-beta 1e-300: must be at least 1e-100"},
		{[]string{"-matches", "f", "-tau", "NaN"}, cli.Usage, `"NaN" is not a number at least 0`},
		{[]string{"-matches", "f", "-tau", "1e308"}, cli.Usage, "-tau 1e+308: must be at most 1e+100"},
		{[]string{"-matches", "f", "-figure", "gif"}, cli.Usage, `-figure "gif"`},
		{[]string{"-matches", "f", "-home", "maybe"}, cli.Usage, `-home "maybe": want learn or off`},
		{[]string{"-matches", "f", "-cases", "g"}, cli.Usage, "give one"},
		{[]string{"-matches", "f", "-json", "r.json"}, cli.Usage, "-json goes with -evaluate"},
		{[]string{"-matches", "f", "-k", "2"}, cli.Usage, "-k goes with -evaluate"},
		{[]string{"-matches", "f", "-tau", "0.1", "-fit"}, cli.Usage, "-tau goes with -evaluate"},
		{[]string{"-matches", "f", "-figure", "png"}, cli.Usage, "-figure goes with -out"},
		{[]string{"-matches", "f", "-fit-evidence", "smoothed", "-evaluate"}, cli.Usage, "-fit-evidence goes with -fit"},
		{[]string{"-matches", "f", "extra"}, cli.Usage, `unexpected argument "extra"`},
		{[]string{"-matches", filepath.Join(t.TempDir(), "missing.csv")}, cli.Error, "missing.csv"},
		{[]string{"-matches", draws, "-draw", "0"}, cli.Error, "3 games with tied places, which a draw probability of 0 (-draw 0) makes impossible"},
		{[]string{"-matches", writeTemp(t, "w.csv", "match_id,date,team,player,rank,weight\nm1,2020-01-01,x,ann,1,1\nm1,2020-01-01,y,bob,2,1e-12\n")}, cli.Error, `w.csv: match m1: player "bob" has weight 1e-12, which TrueSkill cannot take`},
		{[]string{"-matches", draws, "-evaluate", "-json", draws}, cli.Usage, "d.csv is the -matches file, which the output would overwrite"},
		{[]string{"-matches", curves, "-out", filepath.Dir(curves)}, cli.Usage, "learning_curves.csv is the -matches file, which the output would overwrite"},
		{[]string{"-matches", draws, "-draw", "5e-324"}, cli.Error, "and draw probability 5e-324 the history's probabilities are beyond float64's precision"},
		{[]string{"-matches", writeTemp(t, "e.csv", "")}, cli.Error, "e.csv"},
		{[]string{"-matches", writeTemp(t, "b.csv", "match_id,date,team,player,rank\nr1,2020-13-01,x,x,1\nr1,2020-13-01,y,y,2\n")}, cli.Error, "b.csv"},
		{[]string{"-cases", writeTemp(t, "c.json", "{}")}, cli.Error, "no cases"},
	} {
		code, stdout, stderr := runArgs(c.args...)
		if code != c.code || (code == cli.Usage && stdout != "") {
			t.Errorf("%q: exit %d, want %d; stdout %q", c.args, code, c.code, stdout)
		}
		clitest.WantOneLine(t, Prog, stderr, c.text)
		if regexp.MustCompile(`\b[A-Z][a-z]+\.[A-Z]\w+`).MatchString(stderr) {
			t.Errorf("%q: a Go identifier in %q", c.args, stderr)
		}
	}
}

func TestParseUnit(t *testing.T) {
	const day = 24 * 3600e9
	for s, want := range map[string]float64{"days": day, "week": 7 * day, "years": 365.25 * day, "30.5": 30.5 * day, "106751": 106751 * day} {
		if got, err := parseUnit(s); err != nil || float64(got) != want {
			t.Errorf("%q: %v, %v; want %v ns", s, got, err, want)
		}
	}
	for _, s := range []string{"", "0", "NaN", "Inf", "1e6", "106752", "weekly"} {
		if _, err := parseUnit(s); err == nil {
			t.Errorf("%q accepted", s)
		}
	}
}

// TestTimestampedFile: times of day are kept: the games of one evening
// are ordered by their timestamps, and the curves are written with them.
func TestTimestampedFile(t *testing.T) {
	path := writeTemp(t, "halo.csv", `match_id,time,team,player,rank
g1,2004-08-06T18:13:50,red,ann,1
g1,2004-08-06T18:13:50,blue,bob,2
g2,2004-08-06 19:02:11,red,bob,1
g2,2004-08-06 19:02:11,blue,cat,2
g3,2004-08-06T20:45:00Z,red,cat,1
g3,2004-08-06T20:45:00Z,blue,ann,1
`)
	dir := t.TempDir()
	code, stdout, stderr := runArgs("-matches", path, "-unit", "days", "-out", dir)
	if code != cli.OK || !strings.Contains(stdout, "3 games, 3 players") || !strings.Contains(stdout, "(last played 2004-08-06T20:45:00Z)") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	b, err := os.ReadFile(filepath.Join(dir, "learning_curves.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\nann,2004-08-06T18:13:50Z,", "\nann,2004-08-06T20:45:00Z,", "\nbob,2004-08-06T19:02:11Z,", "\ncat,2004-08-06T19:02:11Z,"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("learning_curves.csv lacks %q:\n%s", want, b)
		}
	}
}

// TestTimesAsRead: the times printed and written are the games' times as
// the file gave them, fractions of a second included: a game at
// 08:00:00.4 is not moved to 08:00:00, nor one at 9999-12-31T23:59:59.9
// into a year 10000 that no reader takes.
func TestTimesAsRead(t *testing.T) {
	path := writeTemp(t, "late.csv", `match_id,time,team,player,rank
g1,2025-01-01T08:00:00.4Z,red,ann,1
g1,2025-01-01T08:00:00.4Z,blue,bob,2
g2,9999-12-31T23:59:59.9Z,red,bob,1
g2,9999-12-31T23:59:59.9Z,blue,cat,2
`)
	dir := t.TempDir()
	code, stdout, stderr := runArgs("-matches", path, "-unit", "days", "-out", dir)
	if code != cli.OK || !strings.Contains(stdout, "ann                          μ =") || !strings.Contains(stdout, "(last played 2025-01-01T08:00:00.4Z)") ||
		!strings.Contains(stdout, "(last played 9999-12-31T23:59:59.9Z)") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	b, err := os.ReadFile(filepath.Join(dir, "learning_curves.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\nann,2025-01-01T08:00:00.4Z,", "\nbob,9999-12-31T23:59:59.9Z,"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("learning_curves.csv lacks %q:\n%s", want, b)
		}
	}
}

// TestHomeLearnWithoutHomeGames: -home learn on a file without games at
// home adds no player to the count, and a player named as the home
// advantage's pseudo-player is refused rather than merged into it.
func TestHomeLearnWithoutHomeGames(t *testing.T) {
	path := writeTemp(t, "three.csv", "match_id,time,team,player,rank\ng1,2025-01-01,a,ann,1\ng1,2025-01-01,b,bob,2\ng2,2025-01-02,a,bob,1\ng2,2025-01-02,b,cat,2\n")
	for _, args := range [][]string{{"-home", "learn"}, {}} {
		code, stdout, stderr := runArgs(append([]string{"-matches", path}, args...)...)
		if code != cli.OK || !strings.Contains(stdout, "three.csv: 2 games, 3 players;") {
			t.Errorf("%q: exit %d, want 2 games and 3 players:\n%s\n%s", args, code, stdout, stderr)
		}
	}
	// Away, the team would silently share the home advantage's skill.
	named := writeTemp(t, "named.csv", "time,home,away,home_score,away_score\n2025-01-01,B,"+homeName+",1,0\n")
	code, _, stderr := runArgs("-matches", named)
	if code != cli.Error {
		t.Errorf("a team named %q: exit %d, want %d", homeName, code, cli.Error)
	}
	clitest.WantOneLine(t, Prog, stderr, `a player is named "(home advantage)"`, "-home off")
	if code, stdout, _ := runArgs("-matches", named, "-home", "off"); code != cli.OK || !strings.Contains(stdout, "  (home advantage)  ") {
		t.Errorf("-home off: exit %d, want the team listed:\n%s", code, stdout)
	}
}

// TestShuffledFile: the league's weeks given in reverse order are read in
// time order, with a line on stderr saying how many moved, and give the
// same output as the file in order.
func TestShuffledFile(t *testing.T) {
	lines := strings.Split(strings.TrimSpace(scores), "\n")
	var shuffled []string
	for k := len(lines) - 2; k >= 1; k -= 2 { // two matches a week
		shuffled = append(shuffled, lines[k], lines[k+1])
	}
	inOrder := writeTemp(t, "league.csv", scores)
	reversed := filepath.Join(t.TempDir(), "league.csv")
	if err := os.WriteFile(reversed, []byte(lines[0]+"\n"+strings.Join(shuffled, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code1, want, _ := runArgs("-matches", inOrder, "-unit", "weeks")
	code2, got, stderr := runArgs("-matches", reversed, "-unit", "weeks")
	// Reversing five weeks of two matches moves the 8 matches of the
	// first four weeks behind the last week's.
	clitest.WantOneLine(t, Prog, stderr, "league.csv: 8 matches out of time order were moved into place")
	got = strings.ReplaceAll(got, reversed, inOrder)
	// Durations differ from run to run.
	d := regexp.MustCompile(`\b\d+(\.\d+)?(ns|µs|ms|s|m)\b`)
	got, want = d.ReplaceAllString(got, "T"), d.ReplaceAllString(want, "T")
	if code1 != cli.OK || code2 != cli.OK || got != want {
		t.Errorf("exit %d and %d; in order:\n%s\nshuffled:\n%s", code1, code2, want, got)
	}
}

func TestHelp(t *testing.T) {
	code, stdout, stderr := runArgs("-h")
	if code != cli.OK || stdout != "" || !strings.HasPrefix(stderr, "usage: skillgraph history -matches FILE") || !strings.Contains(stderr, "-progress duration") || !strings.Contains(stderr, "the data's share of tied places") {
		t.Errorf("-h: exit %d, stderr %q", code, stderr)
	}
}

// TestGarbageFiles: scores files whose fields are each wrong one time in
// twenty, and files of CSV-like pieces at random (a fixed seed), either
// run, with output bounded by the input, or fail with one line.
func TestGarbageFiles(t *testing.T) {
	pieces := []string{"match_id", "time", "team", "player", "rank", "home", "away", "home_score", "away_score", "neutral", "season",
		",", ",", ",", "\n", "\n", "a", "b", "1", "2", "-1", "1e9", "NaN", "2020-01-01", "2020-13-45", "2004-08-06T18:13:50", "\"", "\x00", "\xff", " "}
	rng := rand.New(rand.NewPCG(3, 4))
	pick := func(good []string, bad ...string) string {
		if rng.IntN(20) == 0 {
			return bad[rng.IntN(len(bad))]
		}
		return good[rng.IntN(len(good))]
	}
	dir := t.TempDir()
	ran := 0
	for i := range 200 {
		var sb strings.Builder
		if i%2 == 0 {
			sb.WriteString("time,home,away,home_score,away_score\n")
			for range 1 + rng.IntN(8) {
				fmt.Fprintf(&sb, "%s,%s,%s,%s,%s\n", pick([]string{"2020-01-01", "2020-01-09", "2020-01-02T10:00:00"}, "2020-13-45", "", "x"),
					pick([]string{"a", "b"}, "", "\x00"), pick([]string{"c", "d"}, "a", "\xff"), pick([]string{"0", "1", "2"}, "-1", "1.5"), pick([]string{"0", "1"}, "NaN", ""))
			}
		} else {
			for range rng.IntN(60) {
				sb.WriteString(pieces[rng.IntN(len(pieces))])
			}
		}
		path := filepath.Join(dir, "g.csv")
		if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := runArgs("-matches", path, "-max", "5")
		switch code {
		case cli.OK:
			ran++
			if len(stdout) > 4096+20*sb.Len() {
				t.Errorf("%q: %d bytes of output", sb.String(), len(stdout))
			}
		case cli.Error:
			clitest.WantOneLine(t, Prog, stderr[strings.LastIndex("\n"+strings.TrimSuffix(stderr, "\n"), "\n"):])
		default:
			t.Errorf("%q: exit %d: %s", sb.String(), code, stderr)
		}
	}
	if ran < 20 || ran > 180 {
		t.Errorf("%d of 200 files ran: the test should see both outcomes", ran)
	}
}

// TestOutThroughSymlink: a learning_curves.csv that is a symbolic link
// stays a link, its target rewritten, and no temporary file is left.
func TestOutThroughSymlink(t *testing.T) {
	dir, elsewhere := t.TempDir(), t.TempDir()
	target := filepath.Join(elsewhere, "curves.csv")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, "learning_curves.csv")); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runArgs("-matches", writeTemp(t, "r.csv", long), "-out", dir, "-max", "1")
	fi, err := os.Lstat(filepath.Join(dir, "learning_curves.csv"))
	b, _ := os.ReadFile(target)
	if code != cli.OK || err != nil || fi.Mode()&os.ModeSymlink == 0 || !strings.HasPrefix(string(b), "player,date,mu,sigma\n") {
		t.Errorf("exit %d (%s); link %v, %v; target %q", code, stderr, fi, err, b)
	}
	for _, d := range []string{dir, elsewhere} {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".") {
				t.Errorf("%s left in %s", e.Name(), d)
			}
		}
	}
}

// TestHomeAdvantage: on the Premier League the learned home advantage
// ends positive and raises the one-step-ahead evidence over -home off;
// games on neutral ground leave it out: its curve has a point for each
// date with a home game and none for the neutral ones.
func TestHomeAdvantage(t *testing.T) {
	evidence := regexp.MustCompile(`one-step-ahead log evidence (-?\d+\.\d)`)
	path := filepath.Join("..", "..", "..", "examples", "data", "epl.csv")
	_, learned, _ := runArgs("-matches", path, "-max", "1", "-top", "0")
	_, off, _ := runArgs("-matches", path, "-max", "1", "-top", "0", "-home", "off")
	home := regexp.MustCompile(`home advantage at the end: μ = +(-?\d+\.\d+)`).FindStringSubmatch(learned)
	l, o := evidence.FindStringSubmatch(learned), evidence.FindStringSubmatch(off)
	if home == nil || l == nil || o == nil || !(atof(t, home[1]) > 0) || !(atof(t, l[1]) > atof(t, o[1])) || strings.Contains(off, "home advantage") {
		t.Errorf("learned:\n%s\noff:\n%s", learned, off)
	}

	// A and B alternate home wins, weekly; three more weeks on neutral
	// ground.
	var rows []string
	for w := range 8 {
		home, away := "A", "B"
		if w%2 == 1 {
			home, away = "B", "A"
		}
		rows = append(rows, fmt.Sprintf("2020-01-%02d,%s,%s,2,1,0", 1+7*(w/2), home, away))
		if w < 3 {
			rows = append(rows, fmt.Sprintf("2020-03-%02d,%s,%s,1,0,1", 1+7*w, home, away))
		}
	}
	file := writeTemp(t, "cup.csv", "date,home,away,home_score,away_score,neutral\n"+strings.Join(rows, "\n")+"\n")
	dir := t.TempDir()
	code, stdout, stderr := runArgs("-matches", file, "-unit", "weeks", "-out", dir)
	b, _ := os.ReadFile(filepath.Join(dir, "learning_curves.csv"))
	if code != cli.OK || !strings.Contains(stdout, "home advantage learned from 8 home games (3 on neutral ground have none") ||
		strings.Count(string(b), "\n(home advantage),2020-01-") != 4 || strings.Contains(string(b), "\n(home advantage),2020-03-") {
		t.Errorf("exit %d\n%s\n%s\n%s", code, stdout, stderr, b)
	}
}

func atof(t *testing.T, s string) float64 {
	t.Helper()
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// TestHomeAdvantageHugeMean: a learned home advantage (a pseudo-player
// with prior mean 0) in a league rated at μ₀ = 3e10 or 1e15 cannot be held
// to float64's precision; the run fails with one line saying so instead of
// printing a log evidence of −3e12, and at μ₀ = 25 it runs.
func TestHomeAdvantageHugeMean(t *testing.T) {
	path := writeTemp(t, "scores.csv", "date,home,away,home_score,away_score\n"+
		"2020-01-01,A,B,2,1\n2020-02-01,B,A,0,0\n2020-03-01,A,C,1,3\n")
	if code, stdout, stderr := runArgs("-matches", path, "-mu", "25"); code != cli.OK || !strings.Contains(stdout, "home advantage") {
		t.Errorf("μ₀ = 25: exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, mu := range []string{"3e10", "1e15"} {
		code, stdout, stderr := runArgs("-matches", path, "-mu", mu)
		if code != cli.Error {
			t.Errorf("μ₀ = %s: exit %d, want %d\n%s", mu, code, cli.Error, stdout)
			continue
		}
		clitest.WantOneLine(t, Prog, stderr, "beyond float64's precision")
	}
}

// TestGameErrorNamesMatch: a match the model refuses (here teams of weight
// 0 either side of one that played) is named by the file and its match
// ID, not by its index among the games, whether the history is smoothed,
// fitted or evaluated. The file lists it first, though it is the second
// in time (the reader says it moved it, before the error).
func TestGameErrorNamesMatch(t *testing.T) {
	path := writeTemp(t, "h.csv", `match_id,date,team,player,rank,weight
final,2020-04-01,x,x,1,0
final,2020-04-01,y,y,2,1
final,2020-04-01,z,z,3,0
opener,2020-03-01,x,x,1,1
opener,2020-03-01,y,y,2,1
late,2020-05-01,x,x,1,1
late,2020-05-01,y,y,2,1
`)
	refusal := path + ": match final: trueskill: Weights[0] = 0: all weights of a team are 0"
	for _, c := range []struct {
		flags []string
		want  string
	}{
		{nil, "skillgraph history: " + refusal},
		{[]string{"-fit"}, "skillgraph history: fitting σ, γ and the draw probability: " + refusal},
		{[]string{"-evaluate"}, "skillgraph history: " + refusal},
	} {
		code, _, stderr := runArgs(append([]string{"-matches", path}, c.flags...)...)
		if code != cli.Error || !strings.Contains(stderr, "\n"+c.want) || strings.Contains(stderr, "game 1") {
			t.Errorf("%v: exit %d, stderr %q, want %q", c.flags, code, stderr, c.want)
		}
	}
}

// TestOutYearZero: dates in the year 0000, which the reader takes, give
// both outputs of -out: the curves and their figure, labelled in that
// year.
func TestOutYearZero(t *testing.T) {
	path := writeTemp(t, "old.csv", `match_id,date,team,player,rank
g1,0000-01-01,a,ann,1
g1,0000-01-01,b,bob,2
g2,0000-01-15,a,bob,1
g2,0000-01-15,b,ann,2
g3,0000-01-22,a,ann,1
g3,0000-01-22,b,bob,2
`)
	dir := t.TempDir()
	code, stdout, stderr := runArgs("-matches", path, "-out", dir, "-figure", "svg")
	if code != cli.OK {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	b, err := os.ReadFile(filepath.Join(dir, "learning_curves.csv"))
	if err != nil || !strings.Contains(string(b), "\nann,0000-01-22,") {
		t.Errorf("learning_curves.csv (%v):\n%s", err, b)
	}
	// Three weeks: ticks a week apart (internal/plot's date steps).
	b, err = os.ReadFile(filepath.Join(dir, "learning_curves.svg"))
	if err != nil || !strings.Contains(string(b), ">0000-01-08<") || !strings.Contains(string(b), ">ann<") {
		t.Errorf("learning_curves.svg (%v) lacks the tick 0000-01-08 or the name ann", err)
	}
}
