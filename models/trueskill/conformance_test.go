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
	pass := 0
	for _, c := range file.Cases {
		if o := conformance.Check(c); o.Status == conformance.Fail {
			t.Errorf("%s: %s", o.Name, o.Detail)
		} else {
			pass++
		}
	}
	t.Logf("%d of %d reference cases pass", pass, len(file.Cases))
}
