package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/internal/cli"
	"github.com/skillgraph/skillgraph/internal/cli/clitest"
)

// TestHelp: help lists every subcommand with its summary; help NAME and
// NAME -h print NAME's flags.
func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}} {
		code, stdout, stderr := clitest.Run(run, args...)
		if code != cli.OK || stderr != "" {
			t.Errorf("%q: exit %d, stderr %q", args, code, stderr)
		}
		for _, s := range subcommands {
			if !strings.Contains(stdout, "  "+s.name+" ") || !strings.Contains(stdout, s.summary) {
				t.Errorf("%q: %s is not listed:\n%s", args, s.name, stdout)
			}
		}
	}
	for _, s := range subcommands {
		for _, args := range [][]string{{"help", s.name}, {s.name, "-h"}} {
			code, _, stderr := clitest.Run(run, args...)
			if code != cli.OK || !strings.Contains(stderr, "usage: skillgraph "+s.name) || !strings.Contains(stderr, "\n  -") {
				t.Errorf("%q: exit %d, stderr %q; want the usage and flags", args, code, stderr)
			}
		}
	}
	code, _, stderr := clitest.Run(run)
	if code != cli.Usage || !strings.Contains(stderr, "usage: skillgraph SUBCOMMAND") {
		t.Errorf("no arguments: exit %d, stderr %q", code, stderr)
	}
}

// TestUnknown: a mistyped subcommand is a usage error in one line that
// suggests the closest names.
func TestUnknown(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"rat"}, []string{`unknown subcommand "rat"`, `did you mean rate?`}},
		{[]string{"Rate", "-h"}, []string{`did you mean rate?`}},
		{[]string{"help", "raet"}, []string{`unknown subcommand "raet"`, "did you mean rate?"}},
		{[]string{"frobnicate"}, []string{`unknown subcommand "frobnicate" (subcommands: rate`}},
		{[]string{"help", "rate", "draw"}, []string{"help takes one subcommand"}},
		{[]string{strings.Repeat("x", 5000)}, []string{"unknown subcommand"}},
	} {
		code, stdout, stderr := clitest.Run(run, c.args...)
		if code != cli.Usage || stdout != "" {
			t.Errorf("%.40q: exit %d, stdout %q", c.args, code, stdout)
		}
		clitest.WantOneLine(t, "skillgraph", stderr, c.want...)
		if len(stderr) > 1024 {
			t.Errorf("%.40q: a report of %d bytes", c.args, len(stderr))
		}
	}
}

// TestRate: the rate subcommand runs on the bundled league through the
// command.
func TestRate(t *testing.T) {
	code, stdout, stderr := clitest.Run(run, "rate", "-pairings", "-top", "2")
	if code != cli.OK || !strings.Contains(stdout, "The fairest 1v1 games by match quality (2 of 55)") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// fullDisk is a standard output on a full disk: every write fails.
type fullDisk struct{ writes int }

func (f *fullDisk) Write([]byte) (int, error) {
	f.writes++
	return 0, errors.New("no space left on device")
}

// TestOutputFails: a subcommand whose output cannot be written fails in
// one line naming the error, after a single failed write, whether it
// checks its writes (draw) or prints a table line by line (rate,
// conformance).
func TestOutputFails(t *testing.T) {
	for _, args := range [][]string{{"rate"}, {"rate", "-pairings"}, {"conformance"}, {"draw"}} {
		out := &fullDisk{}
		var errs strings.Builder
		code := run(args, out, &errs)
		if code != cli.Error || out.writes != 1 {
			t.Errorf("%q: exit %d after %d writes, want %d after 1", args, code, out.writes, cli.Error)
		}
		clitest.WantOneLine(t, "skillgraph "+args[0], errs.String(), "no space left on device")
	}
}
