package cli

import "testing"

// TestDidYouMean: the close names, quoted and joined; nothing when none
// is close.
func TestDidYouMean(t *testing.T) {
	for _, c := range []struct {
		name  string
		cands []string
		want  string
	}{
		{"Brasil", []string{"Brazil", "Chile", "Peru"}, `did you mean "Brazil"?`},
		{"Ana", []string{"Ada", "Ava", "Zed"}, `did you mean "Ada" or "Ava"?`},
		{"Xavier", []string{"Ada", "Ava"}, ""},
	} {
		if got := DidYouMean(c.name, c.cands); got != c.want {
			t.Errorf("DidYouMean(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}
