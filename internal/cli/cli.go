// Package cli holds what the example programs share on the command line:
// exit statuses, and flag parsing that reports a mistake in one line.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// Exit statuses.
const (
	OK    = 0
	Error = 1 // the inputs, the outputs or the work failed
	Usage = 2 // bad flags or arguments
)

// Usagef reports a usage mistake of program prog on stderr, in one line
// with a hint to run -h, and returns Usage.
func Usagef(stderr io.Writer, prog, format string, a ...any) int {
	fmt.Fprintf(stderr, prog+": "+format+" (run "+prog+" -h for usage)\n", a...)
	return Usage
}

// Parse parses args with fs (which must be flag.ContinueOnError) and
// rejects extra arguments. With -h it prints synopsis and the flags on
// stderr. It returns done = true and the status to exit with when the
// program should stop: after -h (OK) or a mistake (Usage).
func Parse(fs *flag.FlagSet, args []string, synopsis string, stderr io.Writer) (status int, done bool) {
	fs.SetOutput(io.Discard) // mistakes are reported in one line below
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stderr, "usage: "+synopsis)
			fs.SetOutput(stderr)
			fs.PrintDefaults()
			return OK, true
		}
		return Usagef(stderr, fs.Name(), "%v", err), true
	}
	if fs.NArg() > 0 {
		return Usagef(stderr, fs.Name(), "unexpected argument %q", fs.Arg(0)), true
	}
	return OK, false
}
