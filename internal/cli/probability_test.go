package cli

import (
	"flag"
	"io"
	"math"
	"strings"
	"testing"
)

// TestParseProbability: a probability in [0, 1) is read as
// strconv.ParseFloat reads it; a number written as nonzero that float64
// rounds to 0 (below 2⁻¹⁰⁷⁵, half the least subnormal 5e-324) is refused,
// as are text that is not a number and numbers outside [0, 1).
func TestParseProbability(t *testing.T) {
	for _, c := range []struct {
		s    string
		want float64
	}{
		{"0", 0}, {"-0", 0}, {"0.000e-999", 0}, {"0x0p-5", 0}, {"0.25", 0.25}, {"5e-324", 5e-324}, {"3e-324", 5e-324}, {"0.999", 0.999},
	} {
		got, err := ParseProbability(c.s)
		if err != nil || got != c.want || math.Signbit(got) {
			t.Errorf("%q: %v, %v; want %v", c.s, got, err, c.want)
		}
	}
	for _, c := range []struct{ s, want string }{
		{"1e-400", "not 0, but below the least float64 above 0 (5e-324)"},
		{"2e-324", "not 0, but below"},
		{"-1e-400", "not 0, but below"},
		{"0x1p-2000", "not 0, but below"},
		{"1e400", "must be in [0, 1)"},
		{"inf", "must be in [0, 1)"},
		{"-Inf", "must be in [0, 1)"},
		{"NaN", "must be in [0, 1)"},
		{"1", "must be in [0, 1)"},
		{"-0.1", "must be in [0, 1)"},
		{"x", "not a number"},
		{"", "not a number"},
	} {
		if got, err := ParseProbability(c.s); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, %v; want an error saying %q", c.s, got, err, c.want)
		}
	}
}

// TestProbabilityFlag: the flag is nil until given, holds the value
// given, and a refused value is a parse error naming the flag.
func TestProbabilityFlag(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	p := ProbabilityFlag(fs, "draw", "")
	if err := fs.Parse(nil); err != nil || *p != nil {
		t.Fatalf("not given: %v, %v", *p, err)
	}
	if err := fs.Parse([]string{"-draw", "0.1"}); err != nil || *p == nil || **p != 0.1 {
		t.Errorf("-draw 0.1: %v", err)
	}
	err := fs.Parse([]string{"-draw", "1e-400"})
	if want := `invalid value "1e-400" for flag -draw: not 0`; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("-draw 1e-400: %v, want %q", err, want)
	}
}
