package conformance

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/internal/cli"
	"github.com/skillgraph/skillgraph/internal/cli/clitest"
	"github.com/skillgraph/skillgraph/internal/peercases"
)

// TestShippedCases runs the default: the shipped vectors, found from this
// folder, all passing, and the count printed is the file's, read here on
// its own.
func TestShippedCases(t *testing.T) {
	f, err := peercases.Load("../../../" + shipped)
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := clitest.Run(Run)
	want := "conformance: " + strconv.Itoa(len(f.Cases)) + " passed, 0 failed\n"
	if code != cli.OK || !strings.HasSuffix(stdout, want) || stderr != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want the last line %q", code, stdout, stderr, want)
	}
	code, stdout, _ = clitest.Run(Run, "-v")
	if n := strings.Count("\n"+stdout, "\nok   "); code != cli.OK || n != len(f.Cases) {
		t.Errorf("-v: exit %d, %d ok lines for %d cases", code, n, len(f.Cases))
	}
}

// TestBadInput: each mistake is one line, status 2 for usage and 1 for a
// file that cannot be read or holds no cases.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		args []string
		code int
		text string
	}{
		{[]string{"-bogus"}, cli.Usage, "flag provided but not defined"},
		{[]string{"extra"}, cli.Usage, `unexpected argument "extra"`},
		{[]string{"-cases", filepath.Join(dir, "missing.json")}, cli.Error, "missing.json"},
		{[]string{"-cases", write("bad.json", "{")}, cli.Error, "bad.json"},
		{[]string{"-cases", write("empty.json", "{}")}, cli.Error, "no cases"},
		{[]string{"-cases", write("none.json", `{"cases": []}`)}, cli.Error, "holds no cases: nothing to check"},
	} {
		code, stdout, stderr := clitest.Run(Run, c.args...)
		if code != c.code || stdout != "" {
			t.Errorf("%q: exit %d, stdout %q; want %d", c.args, code, stdout, c.code)
		}
		clitest.WantOneLine(t, Prog, stderr, c.text)
	}
}
