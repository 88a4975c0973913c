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

// MaxLine is the most bytes a one-line report may take.
const MaxLine = 1024

// WantOneLine fails t unless stderr is one line of under MaxLine bytes
// starting "prog: " and containing each of texts.
func WantOneLine(t testing.TB, prog, stderr string, texts ...string) {
	t.Helper()
	if len(stderr) >= MaxLine {
		t.Errorf("stderr is %d bytes, want under %d: %.200q…", len(stderr), MaxLine, stderr)
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
