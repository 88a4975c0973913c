package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/internal/cli"
	"github.com/skillgraph/skillgraph/internal/cli/clitest"
)

// runArgs runs the program in-process and returns its exit status and
// output.
func runArgs(args ...string) (code int, stdout, stderr string) { return clitest.Run(run, args...) }

// wantOneLine fails unless stderr is one line starting "evaluate: " and
// containing each of texts.
func wantOneLine(t *testing.T, stderr string, texts ...string) {
	t.Helper()
	clitest.WantOneLine(t, "evaluate", stderr, texts...)
}

func TestUsageErrorsAreOneLineWithStatus2(t *testing.T) {
	for _, c := range []struct {
		args  []string
		texts []string
	}{
		{[]string{"-bogus"}, []string{"flag provided but not defined: -bogus", "run evaluate -h"}},
		{[]string{"-tau", "abc"}, []string{`invalid value "abc" for flag -tau`, "run evaluate -h"}},
		{[]string{"-tau", "-1"}, []string{"-tau -1: must be finite and not negative"}},
		{[]string{"-tau", "NaN"}, []string{"-tau NaN"}},
		{[]string{"-data", "d", "extra"}, []string{`unexpected argument "extra"`, "run evaluate -h"}},
		{[]string{"-matches", "f.csv", "-out", "o", "x", "y"}, []string{`unexpected argument "x"`}},
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
	if code != cli.OK || !strings.Contains(stderr, "-matches string") {
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
	if code != cli.OK || !strings.Contains(stdout, "## Experiment 2: "+path) || !strings.Contains(stdout, "12 games (up to 3 teams)") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}

	// A match whose rows are apart: the error names the file and line.
	if err := os.WriteFile(path, []byte("match_id,date,team,player,rank\n"+
		"a,2020-01-01,x,ann,1\na,2020-01-01,y,bob,2\nb,2020-01-01,x,ann,1\nb,2020-01-01,y,bob,2\na,2020-01-01,z,cat,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = runArgs("-matches", path)
	if code != cli.Error || stdout != "" {
		t.Errorf("exit %d, stdout %q; want %d and nothing", code, stdout, cli.Error)
	}
	wantOneLine(t, stderr, "m.csv:6:1: match a also starts on line 2")
}
