// Package progress prints a subcommand's progress on stderr for steps that
// run long: a step shorter than the threshold prints nothing, and a longer
// one prints a line for each event from the threshold on, so that a user
// waiting sees where it is and a quick run stays quiet.
package progress

import (
	"fmt"
	"io"
	"time"
)

// Step is one timed step of a subcommand.
type Step struct {
	w     io.Writer
	after time.Duration
	start time.Time
}

// Start starts a step whose lines go to w once it has run longer than
// after (0: every line).
func Start(w io.Writer, after time.Duration) *Step {
	return &Step{w: w, after: after, start: time.Now()}
}

// Printf writes one line, format and a followed by a newline, if the step
// has run long enough.
func (s *Step) Printf(format string, a ...any) {
	if time.Since(s.start) >= s.after {
		fmt.Fprintf(s.w, format+"\n", a...)
	}
}

// Elapsed is the time since the step started.
func (s *Step) Elapsed() time.Duration { return time.Since(s.start) }
