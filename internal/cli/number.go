package cli

import (
	"fmt"
	"io"
	"math"
	"reflect"
	"strings"
)

// Fprintf is fmt.Fprintf for the numbers of a table: a float64 argument
// that prints as a zero prints without a minus sign, "0.00" rather than
// "-0.00" for −0.001 at %.2f and "0%" rather than "-0%" for a stability
// of −0.0001 at %.0f%%, since a signed zero reads as a number below 0
// that the table does not show. So does a value of a named type of kind
// float64 without a Format or String method of its own. Every other
// argument prints as fmt prints it.
func Fprintf(w io.Writer, format string, a ...any) (int, error) {
	return fmt.Fprintf(w, format, unsignZeros(a)...)
}

// Sprintf is fmt.Sprintf with Fprintf's zeros.
func Sprintf(format string, a ...any) string { return fmt.Sprintf(format, unsignZeros(a)...) }

// unsignZeros returns a with each float64 made a number.
func unsignZeros(a []any) []any {
	out := make([]any, len(a))
	for i, x := range a {
		switch v := x.(type) {
		case float64:
			x = number(v)
		case fmt.Formatter, fmt.Stringer:
		default:
			if rv := reflect.ValueOf(x); rv.Kind() == reflect.Float64 {
				x = number(rv.Float())
			}
		}
		out[i] = x
	}
	return out
}

// number is a float64 that formats a zero, however it was rounded to one,
// without a sign.
type number float64

// Format formats x as fmt formats a float64 with the same verb, flags,
// width and precision; where that gives a zero with a minus sign, it
// formats −x instead (the same digits, the sign of +0).
func (x number) Format(f fmt.State, verb rune) {
	layout := fmt.FormatString(f, verb)
	s := fmt.Sprintf(layout, float64(x))
	if x <= 0 && !math.IsInf(float64(x), -1) && strings.ContainsRune("eEfFgGv", verb) && signedZero(s) {
		s = fmt.Sprintf(layout, -float64(x))
	}
	io.WriteString(f, s)
}

// signedZero reports whether the formatted number s has a minus sign and
// no digit other than 0 before its exponent.
func signedZero(s string) bool {
	if !strings.Contains(s, "-") {
		return false
	}
	mantissa := s
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mantissa = s[:i]
	}
	return !strings.ContainsAny(mantissa, "123456789")
}
