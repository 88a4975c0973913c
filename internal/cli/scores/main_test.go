package scores

import (
	"fmt"
	"math"
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
// "scores: " and containing each of texts.
func wantOneLine(t *testing.T, stderr string, texts ...string) {
	t.Helper()
	clitest.WantOneLine(t, Prog, stderr, texts...)
}

// leagueFile writes a season "s" of n matches among four teams, the
// first draws of them draws, and returns its path.
func leagueFile(t *testing.T, n, draws int) string {
	t.Helper()
	teams := []string{"Ants", "Bees", "Cats", "Dogs"}
	var sb strings.Builder
	sb.WriteString("date,season,home,away,home_score,away_score\n")
	for i := range n {
		h, a := teams[i%4], teams[(i+1+i/4)%4]
		if h == a {
			a = teams[(i+2)%4]
		}
		hs, as := (i+1)%3, i%2
		if i < draws {
			hs, as = i%3, i%3
		}
		fmt.Fprintf(&sb, "2020-01-%02d,s,%s,%s,%d,%d\n", 1+i, h, a, hs, as)
	}
	path := filepath.Join(t.TempDir(), "league.csv")
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestUsageErrorsAreOneLineWithStatus2(t *testing.T) {
	for _, c := range []struct {
		args  []string
		texts []string
	}{
		{[]string{"-bogus"}, []string{"flag provided but not defined: -bogus", "run skillgraph scores -h"}},
		{[]string{"-next", "x"}, []string{`invalid value "x" for flag -next`}},
		{[]string{"-next", "-1"}, []string{"-next -1: must not be negative"}},
		{[]string{"-matches", "a.csv", "-data", "b.csv"}, []string{"-matches and -data are the same flag: give one"}},
		{[]string{"-data", "f.csv", "extra"}, []string{`unexpected argument "extra"`, "run skillgraph scores -h"}},
	} {
		code, stdout, stderr := runArgs(c.args...)
		if code != cli.Usage || stdout != "" {
			t.Errorf("%q: exit %d, stdout %q; want %d and nothing", c.args, code, stdout, cli.Usage)
		}
		wantOneLine(t, stderr, c.texts...)
	}
}

func TestFitsAndPredicts(t *testing.T) {
	for _, fit := range []string{"-fit=false", "-fit"} {
		code, stdout, stderr := runArgs("-data", leagueFile(t, 24, 0), "-season", "s", "-next", "2", fit)
		if code != cli.OK || !strings.Contains(stdout, "fitted on 22 matches") || strings.Count(stdout, "  Poisson-OD   score") != 2 {
			t.Errorf("%s: exit %d\nstdout:\n%s\nstderr:\n%s", fit, code, stdout, stderr)
		}
	}
	// A training slice of nothing but draws leaves no home advantage to
	// find and no spread of score differences to start from.
	code, stdout, stderr := runArgs("-data", leagueFile(t, 12, 10), "-season", "s", "-next", "2", "-fit")
	if code != cli.OK || !strings.Contains(stdout, "Hyperparameters fitted by evidence") {
		t.Errorf("all draws, -fit: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

// eplTrain returns the 2008-09 Premier League matches the program trains
// on by default (all but the last five), read from the file directly.
func eplTrain(t *testing.T) (home, away, draws []float64) {
	t.Helper()
	body, err := os.ReadFile("../../../examples/data/epl.csv")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(body), "\n") {
		f := strings.Split(line, ",")
		if len(f) != 6 || f[1] != "2008-09" {
			continue
		}
		h, err1 := strconv.Atoi(f[4])
		a, err2 := strconv.Atoi(f[5])
		if err1 != nil || err2 != nil {
			t.Fatalf("line %q", line)
		}
		d := 0.0
		if h == a {
			d = 1
		}
		home, away, draws = append(home, float64(h)), append(away, float64(a)), append(draws, d)
	}
	if len(home) != 380 {
		t.Fatalf("2008-09: %d matches, want 380", len(home))
	}
	return home[:375], away[:375], draws[:375]
}

func mean(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// calibration parses the one-step-ahead table: home goals, away goals
// (NaN for "-") and draw rate by row name.
func calibration(t *testing.T, stdout string) map[string][3]float64 {
	t.Helper()
	_, table, ok := strings.Cut(stdout, "One-step-ahead predictions")
	if !ok {
		t.Fatalf("no one-step-ahead table in\n%s", stdout)
	}
	rows := map[string][3]float64{}
	for _, line := range strings.Split(table, "\n")[2:8] {
		f := strings.Fields(line)
		if len(f) != 4 {
			continue
		}
		var r [3]float64
		for i, s := range f[1:] {
			if s == "-" {
				r[i] = math.NaN()
				continue
			}
			x, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatalf("line %q", line)
			}
			r[i] = x
		}
		rows[f[0]] = r
	}
	return rows
}

// TestPaperSettingsSayWhatIsWrong runs the default command (the shipped
// Premier League, 2008-09, the paper's settings): it says plainly that the
// settings are on the wrong scale, with 2β² = 2·(25/6)² = 34.7 goals², and
// shows the observed means, computed here from the file, beside the
// models' far-off ones.
func TestPaperSettingsSayWhatIsWrong(t *testing.T) {
	code, stdout, stderr := runArgs("-data", "../../../examples/data/epl.csv", "-season", "2008-09", "-fit=false")
	if code != cli.OK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"paper's settings", "wrong scale for goals", "2β² = 34.7 goals²", "nearly flat", "Poisson-OD's expected goals and draw rates are off", "Run without -fit=false"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	home, away, draws := eplTrain(t)
	rows := calibration(t, stdout)
	obs := [3]float64{mean(home), mean(away), mean(draws)}
	for i, x := range rows["observed"] {
		if math.Abs(x-obs[i]) > 0.005 {
			t.Errorf("observed row %v, from the file %.3f", rows["observed"], obs)
		}
	}
	// The paper's settings: Poisson-OD's goals less than half the
	// observed and draws more than twice; the Gaussian models' draws a
	// quarter of the observed at most.
	if p := rows["Poisson-OD"]; !(p[0] < obs[0]/2 && p[2] > 2*obs[2]) {
		t.Errorf("Poisson-OD row %v, observed %.3f", p, obs)
	}
	for _, m := range []string{"Gaussian-OD", "Gaussian-SD"} {
		if g := rows[m]; !(g[2] < obs[2]/4) {
			t.Errorf("%s row %v, observed %.3f", m, g, obs)
		}
	}
}

// TestFitMatchesTheLeague runs -fit: the fitted hyperparameters' evidence
// beats the paper's for each model, and the one-step-ahead means of the
// score models come within 10 % of the observed goals per side and 0.05
// of the observed draw rate.
func TestFitMatchesTheLeague(t *testing.T) {
	code, stdout, stderr := runArgs("-season", "2008-09")
	if code != cli.OK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, m := range []string{"Poisson-OD", "Gaussian-OD", "Gaussian-SD"} {
		_, rest, _ := strings.Cut(stdout, "\n"+m+" ")
		f := strings.Fields(strings.NewReplacer("(", " ", ")", " ").Replace(strings.SplitN(rest, "\n", 2)[0]))
		if len(f) < 7 {
			t.Fatalf("%s: no row of fitted hyperparameters in\n%s", m, stdout)
		}
		fitted, err1 := strconv.ParseFloat(f[5], 64)
		paper, err2 := strconv.ParseFloat(f[6], 64)
		if err1 != nil || err2 != nil || !(fitted > paper) {
			t.Errorf("%s: log evidence fitted %v, paper %v (%v %v)", m, fitted, paper, err1, err2)
		}
	}
	home, away, draws := eplTrain(t)
	obs := [3]float64{mean(home), mean(away), mean(draws)}
	rows := calibration(t, stdout)
	for _, m := range []string{"Poisson-OD", "Gaussian-OD", "Gaussian-SD"} {
		r := rows[m]
		if m != "Gaussian-SD" && (math.Abs(r[0]/obs[0]-1) > 0.1 || math.Abs(r[1]/obs[1]-1) > 0.1) {
			t.Errorf("%s goals %v, observed %.3f", m, r, obs)
		}
		if math.Abs(r[2]-obs[2]) > 0.05 {
			t.Errorf("%s draw rate %v, observed %.3f", m, r, obs)
		}
	}
}

// TestAllDrawTrainingDrawProbability: the draw probability of a training
// slice of draws is capped as the evaluation package caps it (0.999), not
// 1, which TrueSkill rejects.
func TestAllDrawTrainingDrawProbability(t *testing.T) {
	code, stdout, stderr := runArgs("-data", leagueFile(t, 12, 10), "-season", "s", "-next", "2")
	if code != cli.OK || !strings.Contains(stdout, "draw probability 0.999, estimated from the data)") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

func TestBadDataIsOneLineWithStatus1(t *testing.T) {
	dir := t.TempDir()
	write := func(body string) string {
		path := filepath.Join(dir, "bad.csv")
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	header := "date,season,home,away,home_score,away_score\n"
	for _, c := range []struct {
		name, body string
		texts      []string
	}{
		{"home == away", header + "2020-01-01,s,Ants,Bees,1,0\n2020-01-02,s,Cats,Cats,1,0\n", []string{"bad.csv:3:19:", "a team cannot play itself"}},
		{"empty team", header + "2020-01-01,s,Ants,,1,0\n", []string{"bad.csv:2:19:", "away: empty name"}},
		{"empty file", "", []string{"bad.csv: file is empty"}},
	} {
		code, stdout, stderr := runArgs("-data", write(c.body))
		if code != cli.Error || stdout != "" {
			t.Errorf("%s: exit %d, stdout %q; want %d and nothing", c.name, code, stdout, cli.Error)
		}
		wantOneLine(t, stderr, c.texts...)
	}
	code, _, stderr := runArgs("-data", leagueFile(t, 12, 0), "-season", "s", "-next", "12")
	if code != cli.Error {
		t.Errorf("-next 12 of 12: exit %d", code)
	}
	wantOneLine(t, stderr, "-next 12: season s has 12 matches, and at least one match must be left")
	code, _, stderr = runArgs("-data", write("\uFEFF"+header+"2020-01-01,s,Ants,Bees,1,0\n"), "-season", "2008-09")
	if code != cli.Error {
		t.Errorf("absent season: exit %d", code)
	}
	wantOneLine(t, stderr, `no matches in season "2008-09" (it has 1 seasons, s to s)`)
}

// TestDefaultIsLastSeason: without -matches or -season, the shipped
// league's last season (read here from the file's last row).
func TestDefaultIsLastSeason(t *testing.T) {
	body, err := os.ReadFile("../../../examples/data/epl.csv")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(body)), "\n")
	last := strings.Split(lines[len(lines)-1], ",")[1]
	n := 0
	for _, l := range lines[1:] {
		if strings.Split(l, ",")[1] == last {
			n++
		}
	}
	code, stdout, stderr := runArgs("-fit=false")
	if code != cli.OK || !strings.Contains(stdout, fmt.Sprintf(", season %s: fitted on %d matches", last, n-5)) {
		t.Errorf("exit %d, want season %s of %d matches:\n%s\nstderr:\n%s", code, last, n, stdout, stderr)
	}
}

// TestFitProgress: models are fitted by default, and with -progress 0 each
// fitted model gets a line on stderr and none on stdout.
func TestFitProgress(t *testing.T) {
	code, stdout, stderr := runArgs("-matches", leagueFile(t, 24, 0), "-progress", "0")
	if code != cli.OK || !strings.Contains(stdout, "Hyperparameters fitted by evidence") {
		t.Errorf("exit %d\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, m := range []string{"Poisson-OD", "Gaussian-OD", "Gaussian-SD"} {
		if !regexp.MustCompile(`(?m)^skillgraph scores: fit `+m+`: log evidence -?\d+\.\d after \d+ evaluations`).MatchString(stderr) || strings.Contains(stdout, "fit "+m+":") {
			t.Errorf("no progress line for %s on stderr:\n%s", m, stderr)
		}
	}
}

// TestAnyScoresFile: a file without seasons, with timestamps, the usual
// header aliases, a neutral column and its rows in reverse order, is
// rated whole in time order: the held-out fixtures are the latest, the
// moved rows and the neutral matches are reported.
func TestAnyScoresFile(t *testing.T) {
	teams := []string{"Ants", "Bees", "Cats", "Dogs"}
	var rows []string
	for i := range 24 {
		h, a := teams[i%4], teams[(i+1+i/4)%4]
		if h == a {
			a = teams[(i+2)%4]
		}
		neutral := "0"
		if i%8 == 3 {
			neutral = "1"
		}
		rows = append(rows, fmt.Sprintf("2020-01-%02dT15:30:00,%s,%s,%d,%d,%s", 1+i, h, a, (i+1)%3, i%2, neutral))
	}
	slices.Reverse(rows)
	path := filepath.Join(t.TempDir(), "cup.csv")
	body := "datetime,home_team,away_team,home_score,away_score,neutral\n" + strings.Join(rows, "\n") + "\n"
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runArgs("-matches", path, "-next", "2", "-fit=false")
	if code != cli.OK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// The last two fixtures by time are the 23rd and 24th listed first.
	for _, want := range []string{", all matches: fitted on 22 matches", "3 matches were on neutral ground", "\n2020-01-23  ", "\n2020-01-24  "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	wantOneLine(t, stderr, "cup.csv: 23 matches out of time order were moved into place")
	slices.Reverse(rows)
	if err := os.WriteFile(path, []byte("time,home,away,home_score,away_score,neutral\n"+strings.Join(rows, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runArgs("-matches", path, "-season", "2020")
	if code != cli.Error {
		t.Errorf("-season on a file without seasons: exit %d", code)
	}
	wantOneLine(t, stderr, `-season "2020": `, "has no season column")
}

func TestHelp(t *testing.T) {
	code, stdout, stderr := runArgs("-h")
	if code != cli.OK || stdout != "" || !strings.HasPrefix(stderr, "usage: skillgraph scores [-matches FILE]") || !strings.Contains(stderr, "a file without seasons is rated whole") {
		t.Errorf("-h: exit %d, stderr %q", code, stderr)
	}
}

// TestNoSignedZero: numbers that round to zero print as 0.00, not -0.00:
// on three matches of two teams the fitted models' offences, defences and
// predicted away goals are zeros of either sign, and a predicted score
// reads "1.50-0.00", not "1.50--0.00".
func TestNoSignedZero(t *testing.T) {
	path := filepath.Join(t.TempDir(), "three.csv")
	body := "time,home,away,home_score,away_score\n2025-01-01,A,B,1,0\n2025-01-02,B,A,2,0\n2025-01-03,A,B,0,0\n"
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runArgs("-matches", path, "-next", "1")
	if code != cli.OK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if z := regexp.MustCompile(`(^|[^0-9])-0\.0+([^0-9]|$)`).FindString(stdout); z != "" {
		t.Errorf("a signed zero %q in:\n%s", z, stdout)
	}
	scores := regexp.MustCompile(`(?m)^  (Poisson|Gaussian)-OD +score +[0-9]+\.[0-9]{2}-[0-9]+\.[0-9]{2} `).FindAllString(stdout, -1)
	if len(scores) != 2 {
		t.Errorf("want two predicted scores HOME-AWAY of numbers from 0, got %q in:\n%s", scores, stdout)
	}
}
