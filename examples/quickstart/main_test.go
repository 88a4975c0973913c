package main

import (
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/internal/cli"
	"github.com/skillgraph/skillgraph/internal/cli/clitest"
)

// TestArguments: the example takes no flags or arguments: -h says so,
// anything else is one line on stderr and exit 2 before any output; with
// none it prints Figure 1's game, the league and the pairings.
func TestArguments(t *testing.T) {
	code, stdout, stderr := clitest.Run(run, "-h")
	if code != cli.OK || stdout != "" || !strings.Contains(stderr, "usage: quickstart") {
		t.Errorf("-h: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	for _, args := range [][]string{{"-q"}, {"extra"}, {"--", "x"}} {
		code, stdout, stderr := clitest.Run(run, args...)
		if code != cli.Usage || stdout != "" {
			t.Errorf("%q: exit %d, stdout %q; want %d and nothing", args, code, stdout, cli.Usage)
		}
		clitest.WantOneLine(t, "quickstart", stderr)
	}
	code, stdout, stderr = clitest.Run(run)
	if code != cli.OK || stderr != "" {
		t.Fatalf("no arguments: exit %d, stderr %q", code, stderr)
	}
	for _, want := range []string{"Figure 1 game", "Office league after 120 games", "Suggested next games"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output does not say %q:\n%s", want, stdout)
		}
	}
}
