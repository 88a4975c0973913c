package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/internal/cli"
	"github.com/skillgraph/skillgraph/internal/cli/clitest"
)

// TestBadFlags: a flag the command lacks, an argument and a negative
// -after are each one line on stderr and exit 2, with nothing written.
func TestBadFlags(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{{"-q"}, {"-o", dir, "extra"}, {"-o", dir, "-values", "-after", "-5"}, {"-after", "x"}} {
		code, stdout, stderr := clitest.Run(run, args...)
		if code != cli.Usage || stdout != "" {
			t.Errorf("%q: exit %d, stdout %q; want %d and nothing", args, code, stdout, cli.Usage)
		}
		clitest.WantOneLine(t, "figure1", stderr)
	}
	if files, _ := os.ReadDir(dir); len(files) != 0 {
		t.Errorf("bad flags wrote %d files", len(files))
	}
}

// TestWritesFigures: the three DOT files are written, each a Graphviz graph
// (graphviz, if installed, adds the SVGs), after a partial schedule too.
func TestWritesFigures(t *testing.T) {
	for _, args := range [][]string{nil, {"-values"}, {"-values", "-after", "3"}} {
		dir := t.TempDir()
		code, stdout, stderr := clitest.Run(run, append([]string{"-o", dir}, args...)...)
		if code != cli.OK || stderr != "" {
			t.Fatalf("%q: exit %d, stderr %q", args, code, stderr)
		}
		for _, name := range []string{"figure1", "figure2", "figure3"} {
			text, err := os.ReadFile(filepath.Join(dir, name+".dot"))
			if err != nil || !strings.HasPrefix(string(text), "graph ") && !strings.HasPrefix(string(text), "digraph ") {
				t.Errorf("%q: %s.dot: %v, %.40q", args, name, err, text)
			}
			if !strings.Contains(stdout, name+".dot") {
				t.Errorf("%q: stdout does not name %s.dot: %q", args, name, stdout)
			}
		}
	}
}
