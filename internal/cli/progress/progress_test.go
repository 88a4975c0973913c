package progress

import (
	"strings"
	"testing"
	"time"
)

// TestThreshold: with no threshold every line is printed, each on its
// own line; with one far beyond the test's run, none is.
func TestThreshold(t *testing.T) {
	var all, none strings.Builder
	s, quiet := Start(&all, 0), Start(&none, time.Hour)
	for i := range 3 {
		s.Printf("step %d of %d", i+1, 3)
		quiet.Printf("step %d", i+1)
	}
	if all.String() != "step 1 of 3\nstep 2 of 3\nstep 3 of 3\n" || none.Len() != 0 {
		t.Errorf("printed %q and %q", all.String(), none.String())
	}
	if s.Elapsed() < 0 {
		t.Errorf("elapsed %v", s.Elapsed())
	}
}
