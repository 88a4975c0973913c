package history

import (
	"encoding/json"
	"os"
	"path/filepath"
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

// scores is a small league in the scores format: four teams over eight
// weeks, with draws.
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
// drivers, the last with two sharing last place.
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

func TestScoresFormat(t *testing.T) {
	path := writeTemp(t, "league.csv", scores)
	code, stdout, stderr := runArgs("-matches", path, "-draw", "0.25", "-unit", "weeks", "-tol", "1e-6")
	if code != cli.OK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"10 games, 4 players", "smoothing: converged true after ", "Ants"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stderr, "sweep 1: largest move") {
		t.Errorf("no progress on stderr: %q", stderr)
	}
	// Without a draw probability the draws cannot be declared.
	code, _, stderr = runArgs("-matches", path)
	if code != cli.Error || !strings.Contains(stderr, "draw probability is 0") {
		t.Errorf("draws without -draw: exit %d, %q", code, stderr)
	}
}

func TestLongFormatOutFiles(t *testing.T) {
	path := writeTemp(t, "races.csv", long)
	dir := t.TempDir()
	code, stdout, stderr := runArgs("-matches", path, "-draw", "0.1", "-out", dir, "-max", "2", "-tol", "1e-12")
	if code != cli.OK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// Two sweeps cannot reach 1e-12: it says it did not converge.
	if !strings.Contains(stdout, "3 games, 3 players") || !strings.Contains(stdout, "converged false after 2 sweeps") {
		t.Errorf("output:\n%s", stdout)
	}
	for _, name := range []string{"learning_curves.csv", "learning_curves.svg"} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestFitFlag(t *testing.T) {
	path := writeTemp(t, "league.csv", scores)
	code, stdout, stderr := runArgs("-matches", path, "-draw", "0.25", "-unit", "7", "-fit")
	if code != cli.OK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.HasPrefix(stdout, "fit (filtered evidence, β = 1 fixed): σ = ") || !strings.Contains(stdout, "converged") {
		t.Errorf("output:\n%s", stdout)
	}
}

func TestEvaluateFlag(t *testing.T) {
	path := writeTemp(t, "league.csv", scores)
	js := filepath.Join(t.TempDir(), "eval.json")
	code, stdout, stderr := runArgs("-matches", path, "-draw", "0.25", "-unit", "weeks", "-evaluate", "-k", "2", "-json", js)
	if code != cli.OK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"10 games in 5 batches", "| TTT filtering | default: μ=0 σ=6 β=1 γ=0.03/unit p_draw=0.25 |", "| TTT smoothing, k=2 |", "| TrueSkill | default: μ=0 σ=6 β=1 τ=0.06/game p_draw=0.25 |"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
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

func TestUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		text string
	}{
		{nil, "give -cases or -matches"},
		{[]string{"-bogus"}, "flag provided but not defined: -bogus"},
		{[]string{"-matches", "f", "-unit", "fortnights"}, `-unit "fortnights"`},
		{[]string{"-matches", "f", "-unit", "-3"}, `-unit "-3"`},
		{[]string{"-matches", "f", "-fit-evidence", "best"}, `-fit-evidence "best"`},
		{[]string{"-matches", "f", "-tol", "0"}, "-tol 0: must be positive"},
		{[]string{"-matches", "f", "-k", "-1"}, "-k -1: must not be negative"},
		{[]string{"-matches", "f", "-cases", "g"}, "give one"},
		{[]string{"-matches", "f", "extra"}, `unexpected argument "extra"`},
	} {
		code, _, stderr := runArgs(c.args...)
		if code != cli.Usage {
			t.Errorf("%v: exit %d", c.args, code)
		}
		clitest.WantOneLine(t, "history", stderr, c.text)
	}
	code, _, stderr := runArgs("-matches", filepath.Join(t.TempDir(), "missing.csv"))
	if code != cli.Error {
		t.Errorf("missing file: exit %d", code)
	}
	clitest.WantOneLine(t, "history", stderr, "missing.csv")
}

func TestParseUnit(t *testing.T) {
	for s, want := range map[string]float64{"days": 1, "week": 7, "years": 365.25, "30.5": 30.5} {
		if got, err := parseUnit(s); err != nil || got != want {
			t.Errorf("%q: %v, %v; want %v", s, got, err, want)
		}
	}
	for _, s := range []string{"", "0", "NaN", "Inf", "1e9", "weekly"} {
		if _, err := parseUnit(s); err == nil {
			t.Errorf("%q accepted", s)
		}
	}
}
