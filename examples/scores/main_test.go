package main

import (
	"fmt"
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

// wantOneLine fails unless stderr is one line starting "scores: " and
// containing each of texts.
func wantOneLine(t *testing.T, stderr string, texts ...string) {
	t.Helper()
	clitest.WantOneLine(t, "scores", stderr, texts...)
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
		{[]string{"-bogus"}, []string{"flag provided but not defined: -bogus", "run scores -h"}},
		{[]string{"-next", "x"}, []string{`invalid value "x" for flag -next`}},
		{[]string{"-next", "-1"}, []string{"-next -1: must not be negative"}},
		{[]string{"-data", "f.csv", "extra"}, []string{`unexpected argument "extra"`, "run scores -h"}},
	} {
		code, stdout, stderr := runArgs(c.args...)
		if code != cli.Usage || stdout != "" {
			t.Errorf("%q: exit %d, stdout %q; want %d and nothing", c.args, code, stdout, cli.Usage)
		}
		wantOneLine(t, stderr, c.texts...)
	}
}

func TestFitsAndPredicts(t *testing.T) {
	code, stdout, stderr := runArgs("-data", leagueFile(t, 24, 0), "-season", "s", "-next", "2")
	if code != cli.OK || !strings.Contains(stdout, "fitted on 22 matches") || strings.Count(stdout, "  Poisson-OD   score") != 2 {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

// TestAllDrawTrainingDrawProbability: the draw probability of a training
// slice of draws is capped as the evaluation package caps it (0.999), where
// it used to be 1, which TrueSkill rejects.
func TestAllDrawTrainingDrawProbability(t *testing.T) {
	code, stdout, stderr := runArgs("-data", leagueFile(t, 12, 10), "-season", "s", "-next", "2")
	if code != cli.OK || !strings.Contains(stdout, "draw probability 0.999;") {
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
		{"byte-order mark, season absent", "\uFEFF" + header + "2020-01-01,s,Ants,Bees,1,0\n", []string{`no matches in season "2008-09"`}},
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
	wantOneLine(t, stderr, "-next 12: season s has 12 matches")
}
