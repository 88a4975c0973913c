package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/internal/cli"
	"github.com/skillgraph/skillgraph/internal/cli/clitest"
	"github.com/skillgraph/skillgraph/internal/repo"
)

// TestDrawFlag runs the command (this test binary, re-executed into main)
// with -draw below 1: one line on stderr and exit 2, before any work and
// with no file written, where slicing the season's matches by it panicked.
func TestDrawFlag(t *testing.T) {
	if args := os.Getenv("NEWMODEL_TEST_ARGS"); args != "" {
		os.Args = append([]string{"newmodel"}, strings.Split(args, "\n")...)
		main()
		os.Exit(0)
	}
	data, err := repo.Path("examples/data/epl.csv")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "model.dot")
	for _, draw := range []string{"-1", "0"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestDrawFlag$")
		cmd.Env = append(os.Environ(), "NEWMODEL_TEST_ARGS="+strings.Join([]string{"-data", data, "-dot", out, "-draw", draw}, "\n"))
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != cli.Usage || stdout.Len() != 0 {
			t.Errorf("-draw %s: %v, stdout %q; want exit %d and nothing", draw, err, stdout.String(), cli.Usage)
		}
		clitest.WantOneLine(t, "newmodel", stderr.String(), "-draw "+draw)
		if _, err := os.Stat(out); err == nil {
			t.Errorf("-draw %s wrote %s", draw, out)
		}
	}
}

// TestBadArguments: a flag the command lacks or an argument it does not
// take is one line on stderr and exit 2; a data file it cannot read or a
// season the file lacks is one line naming it and exit 1; nothing is
// printed on stdout.
func TestBadArguments(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none.csv")
	for _, c := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"-q"}, cli.Usage, "-q"},
		{[]string{"extra"}, cli.Usage, `unexpected argument "extra"`},
		{[]string{"-data", missing}, cli.Error, missing},
		{[]string{"-season", "1800"}, cli.Error, `season "1800"`},
	} {
		args := c.args
		if c.code == cli.Error && args[0] == "-season" {
			data, err := repo.Path("examples/data/epl.csv")
			if err != nil {
				t.Fatal(err)
			}
			args = append([]string{"-data", data}, args...)
		}
		code, stdout, stderr := clitest.Run(run, args...)
		if code != c.code || stdout != "" {
			t.Errorf("%q: exit %d, stdout %q; want %d and nothing", args, code, stdout, c.code)
		}
		clitest.WantOneLine(t, "newmodel", stderr, c.says)
	}
}
