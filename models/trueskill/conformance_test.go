package trueskill_test

import (
	"testing"

	"github.com/skillgraph/skillgraph/internal/conformance"
	"github.com/skillgraph/skillgraph/internal/sharedtest"
)

// TestConformance rates every case of ../shared/vectors/peer_cases.json and
// compares with the peers' expected values at their own tolerances.
func TestConformance(t *testing.T) {
	file := sharedtest.PeerCases(t)
	pass, skip := 0, 0
	for _, c := range file.Cases {
		o := conformance.Check(c)
		switch o.Status {
		case conformance.Fail:
			t.Errorf("%s: %s", o.Name, o.Detail)
		case conformance.Skip:
			skip++
			t.Logf("%s: skipped: %s", o.Name, o.Detail)
		default:
			pass++
		}
	}
	t.Logf("conformance: %d passed, %d skipped of %d", pass, skip, len(file.Cases))
}
