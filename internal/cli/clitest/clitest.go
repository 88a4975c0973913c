// Package clitest runs the example programs in-process for their tests and
// checks their one-line error reports.
package clitest

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// Run calls a program's run function with args and returns its exit
// status and output.
func Run(run func(args []string, stdout, stderr io.Writer) int, args ...string) (code int, stdout, stderr string) {
	var out, errs bytes.Buffer
	code = run(args, &out, &errs)
	return code, out.String(), errs.String()
}

// WantOneLine fails t unless stderr is one line under 1 KB starting
// "prog: " and containing each of texts.
func WantOneLine(t testing.TB, prog, stderr string, texts ...string) {
	t.Helper()
	if len(stderr) >= 1024 {
		t.Errorf("stderr is %d bytes, not under 1 KB", len(stderr))
	}
	if !strings.HasPrefix(stderr, prog+": ") || strings.Count(stderr, "\n") != 1 || !strings.HasSuffix(stderr, "\n") {
		t.Errorf("stderr is not one line starting %q:\n%s", prog+": ", stderr)
	}
	for _, s := range texts {
		if !strings.Contains(stderr, s) {
			t.Errorf("stderr %q does not say %q", stderr, s)
		}
	}
}
