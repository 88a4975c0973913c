package cli

import (
	"bytes"
	"fmt"
	"math"
	"testing"
)

// TestUnsignedZeros: a float64 that rounds to zero prints without a
// minus sign at any verb, width and flag; a number that does not round
// to zero, -Inf, NaN and other arguments print as fmt prints them.
func TestUnsignedZeros(t *testing.T) {
	negZero := math.Copysign(0, -1)
	for _, c := range []struct {
		format string
		x      any
		want   string
	}{
		{"%.2f", -0.001, "0.00"},
		{"%5.2f", -0.004, " 0.00"},
		{"%-6.1f|", -0.01, "0.0   |"},
		{"%06.2f", -0.001, "000.00"},
		{"%+.2f", -0.001, "+0.00"},
		{"%8.0f%%", 100 * -9.99e-05, "       0%"},
		{"%.0f", -0.4, "0"},
		{"%v", negZero, "0"},
		{"%g", negZero, "0"},
		{"%.3e", negZero, "0.000e+00"},
		{"%.2f", negZero, "0.00"},
		{"%.2f", -0.005001, "-0.01"},
		{"%.0f", -0.6, "-1"},
		{"%g", -1e-300, "-1e-300"},
		{"%.3e", -1e-300, "-1.000e-300"},
		{"%.2f", 0.001, "0.00"},
		{"%.2f", -12.5, "-12.50"},
		{"%5.1f", math.Inf(-1), " -Inf"},
		{"%5.1f", math.NaN(), "  NaN"},
		{"%d", -3, "-3"},
		{"%s", "-0.00", "-0.00"},
		{"%x", -0.0001, "-0x1.a36e2eb1c432dp-14"},
	} {
		if got := Sprintf(c.format, c.x); got != c.want {
			t.Errorf("Sprintf(%q, %v) = %q, want %q", c.format, c.x, got, c.want)
		}
		var b bytes.Buffer
		if n, err := Fprintf(&b, c.format, c.x); err != nil || n != b.Len() || b.String() != c.want {
			t.Errorf("Fprintf(%q, %v): %q, %d bytes, error %v; want %q", c.format, c.x, b.String(), n, err, c.want)
		}
	}
	// A named float64 type prints as a float64; one with a String method
	// prints as that says.
	type mean float64
	if got := Sprintf("%+.3f|%v", mean(-0.0001), stringer(-0.0001)); got != "+0.000|-0.000" {
		t.Errorf("named floats: %q, want %q", got, "+0.000|-0.000")
	}
	// An argument of the wrong type for its verb is reported as fmt does.
	if got := Sprintf("%d", -0.001); got != "%!d(float64=-0.001)" {
		t.Errorf("Sprintf(%%d, -0.001) = %q, want fmt's report", got)
	}
}

// stringer is a float64 that says what it is.
type stringer float64

func (s stringer) String() string { return fmt.Sprintf("%.3f", float64(s)) }
