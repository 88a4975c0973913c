package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/skillgraph/skillgraph/internal/cli"
	"github.com/skillgraph/skillgraph/internal/cli/clitest"
)

// TestNoCasesFails: a file without cases checks nothing, and must not
// report success ("0 passed, 0 failed", exit 0): one line, exit 1.
func TestNoCasesFails(t *testing.T) {
	dir := t.TempDir()
	for _, text := range []string{`{}`, `{"cases": []}`} {
		path := filepath.Join(dir, "empty.json")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := clitest.Run(run, "-cases", path)
		if code != cli.Error || stdout != "" {
			t.Errorf("%s: exit %d, stdout %q; want exit %d and nothing", text, code, stdout, cli.Error)
		}
		clitest.WantOneLine(t, "conformance", stderr, "no cases")
	}
}

// TestBadFlags: a flag the command lacks is one line and exit 2.
func TestBadFlags(t *testing.T) {
	code, _, stderr := clitest.Run(run, "-q")
	if code != cli.Usage {
		t.Errorf("-q: exit %d, want %d", code, cli.Usage)
	}
	clitest.WantOneLine(t, "conformance", stderr, "-q")
	code, _, stderr = clitest.Run(run, "-cases", filepath.Join(t.TempDir(), "missing.json"))
	if code != cli.Error {
		t.Errorf("missing file: exit %d, want %d", code, cli.Error)
	}
	clitest.WantOneLine(t, "conformance", stderr, "missing.json")
}

// TestShippedCasesPass: the shipped peers' cases, found from the package's
// folder, all pass.
func TestShippedCasesPass(t *testing.T) {
	code, stdout, stderr := clitest.Run(run)
	if code != cli.OK || stderr != "" || !regexp.MustCompile(`(?m)^conformance: [1-9][0-9]* passed, 0 failed\n\z`).MatchString(stdout) {
		t.Errorf("exit %d, stderr %q, stdout ending %q", code, stderr, stdout[max(0, len(stdout)-80):])
	}
}
