package evaluate

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/internal/cli"
	"github.com/skillgraph/skillgraph/internal/cli/clitest"
)

// runArgs runs the program in-process and returns its exit status and
// output.
func runArgs(args ...string) (code int, stdout, stderr string) { return clitest.Run(Run, args...) }

// wantOneLine fails unless stderr is one line under 1 KB starting
// "evaluate: " and containing each of texts.
func wantOneLine(t *testing.T, stderr string, texts ...string) {
	t.Helper()
	clitest.WantOneLine(t, Prog, stderr, texts...)
}

func TestUsageErrorsAreOneLineWithStatus2(t *testing.T) {
	for _, c := range []struct {
		args  []string
		texts []string
	}{
		{[]string{"-bogus"}, []string{"flag provided but not defined: -bogus", "run skillgraph evaluate -h"}},
		{[]string{"-tau", "abc"}, []string{`invalid value "abc" for flag -tau`, "run skillgraph evaluate -h"}},
		{[]string{"-tau", "-1"}, []string{"-tau -1: must be finite, not negative"}},
		{[]string{"-tau", "NaN"}, []string{"-tau NaN"}},
		{[]string{"-data", "d", "extra"}, []string{`unexpected argument "extra"`, "run skillgraph evaluate -h"}},
		{[]string{"-tau1", "-0.5"}, []string{"-tau1 -0.5: must be finite, not negative"}},
		{[]string{"-tau", "1e308"}, []string{"-tau 1e+308: must be finite, not negative and at most 1e100"}},
		{[]string{"-ties", "coin"}, []string{`-ties "coin": want wrong or half`}},
		{[]string{"-figure", "gif"}, []string{`-figure "gif": want svg or png`}},
		{[]string{"-progress", "-1s"}, []string{"-progress -1s: must not be negative"}},
		{[]string{"-draw", "1"}, []string{`invalid value "1" for flag -draw: must be in [0, 1)`}},
		{[]string{"-draw", "x"}, []string{`invalid value "x" for flag -draw`}},
		{[]string{"-matches", "f.csv", "-out", "o", "x", "y"}, []string{`unexpected argument "x"`}},
		{[]string{"-matches", "f.csv", "-out", "o"}, []string{"-out does not go with -matches"}},
		{[]string{"-matches", "f.csv", "-data", "d"}, []string{"-data does not go with -matches"}},
		{[]string{"-matches", "f.csv", "-fit"}, []string{"-fit does not go with -matches"}},
		{[]string{"-matches", "f.csv", "-tau1", "0.5"}, []string{"-tau1 does not go with -matches"}},
		{[]string{"-figure", "png"}, []string{"-figure goes with -out"}},
	} {
		code, stdout, stderr := runArgs(c.args...)
		if code != cli.Usage || stdout != "" {
			t.Errorf("%q: exit %d, stdout %q; want %d and nothing", c.args, code, stdout, cli.Usage)
		}
		wantOneLine(t, stderr, c.texts...)
	}
}

func TestHelp(t *testing.T) {
	code, _, stderr := runArgs("-h")
	if code != cli.OK || !strings.Contains(stderr, "-matches string") || !strings.Contains(stderr, "last ⌈0.2·N⌉ matches") || !strings.Contains(stderr, "-json string") {
		t.Errorf("-h: exit %d, stderr %q", code, stderr)
	}
}

// TestOutCheckedBeforeWork: with an -out that cannot be a folder, the
// program stops before reading the data (here absent) or running anything.
func TestOutCheckedBeforeWork(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runArgs("-data", filepath.Join(dir, "no-such-data"), "-out", filepath.Join(file, "sub"))
	if code != cli.Error || stdout != "" {
		t.Errorf("exit %d, stdout %q; want %d and nothing", code, stdout, cli.Error)
	}
	wantOneLine(t, stderr, "-out", "not a directory")
}

// TestInputsCheckedBeforeWork: a broken third input file stops the
// program before the first experiment, and no figure is left behind.
func TestInputsCheckedBeforeWork(t *testing.T) {
	data, out := t.TempDir(), t.TempDir()
	league := "date,season,home,away,home_score,away_score\n2000-01-01,2000,A,B,1,0\n"
	for name, body := range map[string]string{
		"epl.csv":      league,
		"afl.csv":      league,
		"f1_races.csv": "match_id,date,team,player,rank\nr1,2000-01-01,a,ann,1\nr1,2000-01-01,b,ann,2\n",
	} {
		if err := os.WriteFile(filepath.Join(data, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, stdout, stderr := runArgs("-data", data, "-out", out)
	if code != cli.Error || stdout != "" {
		t.Errorf("exit %d, stdout %q; want %d and nothing", code, stdout, cli.Error)
	}
	wantOneLine(t, stderr, "f1_races.csv:3:", "player appears twice")
	if left, _ := os.ReadDir(out); len(left) != 0 {
		t.Errorf("left %v in -out", left)
	}
}

// TestSeasonsMissing: a league file of experiment 1 without the paper's
// seasons is refused naming the file and the first season it lacks.
func TestSeasonsMissing(t *testing.T) {
	data := t.TempDir()
	path := filepath.Join(data, "epl.csv")
	if err := os.WriteFile(path, []byte("date,season,home,away,home_score,away_score\n2025-01-01,2024-25,A,B,1,0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runArgs("-data", data)
	if code != cli.Error || stdout != "" {
		t.Errorf("exit %d, stdout %q; want %d and nothing", code, stdout, cli.Error)
	}
	wantOneLine(t, stderr, path+": ", `season "1995-96" has 0 matches`)
}

// TestAllDrawn: experiment 2 on a file whose every game is a draw has
// nothing to predict, and says so naming the file.
func TestAllDrawn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "drawn.csv")
	if err := os.WriteFile(path, []byte("match_id,time,team,player,rank\ng1,2025-01-01,a,A,1\ng1,2025-01-01,b,B,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runArgs("-matches", path)
	if code != cli.Error || stdout != "" {
		t.Errorf("exit %d, stdout %q; want %d and nothing", code, stdout, cli.Error)
	}
	wantOneLine(t, stderr, path+": ", "no pair of teams with different ranks")
}

// TestWeightsIgnored: experiment 2 rates every player in full, and says
// so of a file with weights, as the reader says so of unknown columns.
func TestWeightsIgnored(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.csv")
	if err := os.WriteFile(path, []byte("match_id,time,team,player,rank,weight\ng1,2025-01-01,a,A,1,0.5\ng1,2025-01-01,b,B,2,\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runArgs("-matches", path)
	if want := "skillgraph evaluate: " + path + ": ignored the weights of the weight column"; code != cli.OK || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr %q; want %q", code, stderr, want)
	}
}

// TestJSONNotOverInput: -json naming the input it would overwrite, by
// its name or through a symbolic link, is refused and the input kept.
func TestJSONNotOverInput(t *testing.T) {
	dir := t.TempDir()
	path, link := filepath.Join(dir, "games.csv"), filepath.Join(dir, "link.json")
	body := "match_id,time,team,player,rank\ng1,2025-01-01,a,A,1\ng1,2025-01-01,b,B,2\n"
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{path, link} {
		code, stdout, stderr := runArgs("-matches", path, "-json", out)
		if code != cli.Usage || stdout != "" {
			t.Errorf("-json %s: exit %d, stdout %q", out, code, stdout)
		}
		wantOneLine(t, stderr, "-json "+out+" is the input "+path+", which it would overwrite")
	}
	if now, _ := os.ReadFile(path); string(now) != body {
		t.Errorf("the input was changed to %q", now)
	}
}

func TestMatchesFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.csv")
	var sb strings.Builder
	sb.WriteString("match_id,date,team,player,rank\n")
	players := []string{"ann", "bob", "cat", "dan"}
	for g := range 12 {
		for k := range 3 {
			p := players[(g+k)%4]
			sb.WriteString("g" + string(rune('a'+g)) + ",2020-01-01," + p + "," + p + "," + string(rune('1'+(k*g)%3)) + "\n")
		}
	}
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runArgs("-matches", path)
	if code != cli.OK || !strings.Contains(stdout, "## Experiment 2: "+path) || !strings.Contains(stdout, "12 games (up to 3 teams)") ||
		!strings.Contains(stdout, "(estimated from the data)") || !strings.Contains(stdout, "a predicted tie counts as an error") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	// A draw probability given: printed, with the data's beside it.
	code, stdout, stderr = runArgs("-matches", path, "-draw", "0.2", "-ties", "half")
	if code != cli.OK || !regexp.MustCompile(`draw probability 0\.200 \(given; the data's is 0\.\d{3}\)`).MatchString(stdout) || !strings.Contains(stdout, "as half an error") {
		t.Errorf("-draw 0.2 -ties half: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}

	// A match whose rows disagree on its time: the error names the file,
	// line and column.
	if err := os.WriteFile(path, []byte("match_id,date,team,player,rank\n"+
		"a,2020-01-01,x,ann,1\na,2020-01-01,y,bob,2\nb,2020-01-01,x,ann,1\nb,2020-01-01,y,bob,2\na,2020-01-02,z,cat,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = runArgs("-matches", path)
	if code != cli.Error || stdout != "" {
		t.Errorf("exit %d, stdout %q; want %d and nothing", code, stdout, cli.Error)
	}
	wantOneLine(t, stderr, "m.csv:6:3: ")
}

// TestJSONOutputCheckedBeforeWork: a -json file that cannot be created
// stops the program before any work.
func TestJSONOutputCheckedBeforeWork(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := runArgs("-data", filepath.Join(dir, "no-such-data"), "-json", filepath.Join(dir, "no-such-folder", "r.json"))
	if code != cli.Error || stdout != "" {
		t.Errorf("exit %d, stdout %q; want %d and nothing", code, stdout, cli.Error)
	}
	wantOneLine(t, stderr, "no-such-folder", "no such file or directory")
}

// TestDefaultRunOnShippedData is `go run ./examples/evaluate` on a fresh
// clone: no -data, so the repository's examples/data, found from this
// folder by walking up. It exits 0, says that the AFL is left out, runs the
// Premier League and Formula 1, and its -json file is valid JSON holding
// every number printed and the figure's source values.
func TestDefaultRunOnShippedData(t *testing.T) {
	out := t.TempDir()
	jsonPath := filepath.Join(out, "r.json")
	code, stdout, stderr := runArgs("-out", out, "-json", jsonPath, "-progress", "0")
	if code != cli.OK {
		t.Fatalf("exit %d\nstderr:\n%s", code, stderr)
	}
	// Progress on stderr, a line per season and per thousand games.
	for _, want := range []string{"\nskillgraph evaluate: experiment 1, UK-PL: season 1995-96 (1 of 14)\n", "\nskillgraph evaluate: experiment 1, UK-PL: season 2008-09 (14 of 14)\n", ": 1000 of 1138 games\n", ": 11000 of 11266 games\n"} {
		if !strings.Contains("\n"+stderr, want) || strings.Contains(stdout, strings.TrimSpace(want)) {
			t.Errorf("stderr lacks %q, or stdout holds it:\n%s", want, stderr)
		}
	}
	for _, want := range []string{
		"Left out: experiment 1, AFL (" + filepath.Join("..", "..", "..", "examples", "data", "afl.csv"),
		"## Experiment 1: UK-PL, seasons 1995-96 to 2008-09 (14 seasons)",
		"76 of 380 in every season",
		"## Experiment 2: Formula 1 races",
		"## Experiment 2: Premier League 1992-93 to 2020-21 as two-team games",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if fig, err := os.ReadFile(filepath.Join(out, "figure4.svg")); err != nil || !strings.Contains(string(fig), "UK-PL: information gain") || !strings.Contains(string(fig), "Gaussian-OD") {
		t.Errorf("figure: %v, %d bytes", err, len(fig))
	}
	raw, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	var rep report
	if err := json.Unmarshal(raw, &rep); err != nil {
		t.Fatalf("-json is not valid JSON: %v", err)
	}
	// Round trip: the decoded report prints exactly what the program printed.
	var sb strings.Builder
	printReport(&sb, &rep)
	if sb.String() != stdout {
		t.Errorf("the JSON report prints differently from the run:\n%s\nwant:\n%s", sb.String(), stdout)
	}
	if len(rep.Experiment1) != 1 || len(rep.Experiment2) != 2 || len(rep.LeftOut) != 1 {
		t.Fatalf("report holds %d, %d, %d parts", len(rep.Experiment1), len(rep.Experiment2), len(rep.LeftOut))
	}
	// And independently of printReport: every number of the Markdown is a
	// number of the JSON (percentages as printed, or as shares).
	values := map[float64]bool{}
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case float64:
			values[v] = true
		case string:
			for _, m := range numberRE.FindAllString(v, -1) {
				if f, err := strconv.ParseFloat(m, 64); err == nil {
					values[f] = true
				}
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		case map[string]any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	var generic any
	if err := json.Unmarshal(raw, &generic); err != nil {
		t.Fatal(err)
	}
	walk(generic)
	for _, tok := range numberRE.FindAllString(stdout, -1) {
		printed, _ := strconv.ParseFloat(tok, 64)
		decimals := 0
		if i := strings.IndexByte(tok, '.'); i >= 0 {
			decimals = len(tok) - i - 1
		}
		found := false
		for v := range values {
			for _, scaled := range []float64{v, 100 * v, math.Abs(v)} {
				if strconv.FormatFloat(scaled, 'f', decimals, 64) == strconv.FormatFloat(math.Abs(printed), 'f', decimals, 64) ||
					strconv.FormatFloat(scaled, 'f', decimals, 64) == strconv.FormatFloat(printed, 'f', decimals, 64) {
					found = true
				}
			}
		}
		if !found {
			t.Errorf("printed number %s is not in the JSON", tok)
		}
	}
	// The figure's values: UK-PL information gain of Gaussian-OD at 10 %,
	// as in the table.
	c := rep.Experiment1[0].Metrics[0].Rows[2].Cells[0]
	if rep.Experiment1[0].Metrics[0].Rows[2].Model != "Gaussian-OD" || !strings.Contains(stdout, "| Gaussian-OD | "+strconv.FormatFloat(float64(c.Mean), 'f', 3, 64)+" ± ") {
		t.Errorf("Gaussian-OD information gain at 10 %%: %+v", c)
	}
}

// numberRE matches the numbers of the output.
var numberRE = regexp.MustCompile(`\d+(\.\d+)?`)

// TestShuffledTimestampedMatches: experiment 2 on a long file with
// timestamps and its games out of order gives what the file in order
// gives, and says on stderr how many games moved.
func TestShuffledTimestampedMatches(t *testing.T) {
	dir := t.TempDir()
	players := []string{"ann", "bob", "cat", "dan"}
	var games []string
	for g := range 12 {
		var rows []string
		for k := range 3 {
			p := players[(g+k)%4]
			rows = append(rows, fmt.Sprintf("g%02d,2020-01-%02dT%02d:30:00Z,%s,%s,%d", g, 1+g/3, 9+g%3, p, p, 1+(k*g)%3))
		}
		games = append(games, strings.Join(rows, "\n"))
	}
	header := "match_id,time,team,player,rank\n"
	write := func(name string, gs []string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(header+strings.Join(gs, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	inOrder := write("in-order.csv", games)
	shuffled := slices.Clone(games)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	moved := write("shuffled.csv", shuffled)
	code1, want, _ := runArgs("-matches", inOrder)
	code2, got, stderr := runArgs("-matches", moved)
	if code1 != cli.OK || code2 != cli.OK || strings.ReplaceAll(got, moved, inOrder) != want {
		t.Errorf("exit %d and %d; in order:\n%s\nshuffled:\n%s", code1, code2, want, got)
	}
	if !regexp.MustCompile(`(?m)^skillgraph evaluate: .*shuffled.csv: \d+ matches out of time order were moved into place$`).MatchString(stderr) {
		t.Errorf("no note of the moved games on stderr:\n%s", stderr)
	}
}

// TestJSONThroughSymlink: a -json path that is a symbolic link stays a
// link, and the file it names gets the report.
func TestJSONThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	matches := filepath.Join(dir, "m.csv")
	if err := os.WriteFile(matches, []byte("match_id,time,team,player,rank\na,2020-01-01,x,x,1\na,2020-01-01,y,y,2\nb,2020-01-02,x,x,2\nb,2020-01-02,y,y,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	target, link := filepath.Join(dir, "report.json"), filepath.Join(dir, "link.json")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runArgs("-matches", matches, "-json", link)
	fi, err := os.Lstat(link)
	if code != cli.OK || err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("exit %d (%s); the link: %v, %v", code, stderr, fi, err)
	}
	var rep report
	if b, err := os.ReadFile(target); err != nil || json.Unmarshal(b, &rep) != nil || len(rep.Experiment2) != 1 || rep.Experiment2[0].Games != 2 {
		t.Errorf("the link's target: %v, %+v", err, rep)
	}
}
