package cli

import (
	"errors"
	"flag"
	"strconv"
	"strings"
)

// ProbabilityFlag defines on fs the flag name of a probability in [0, 1),
// read by ParseProbability, and returns where its value is kept: nil
// until the flag is given. A value the flag refuses is a mistake that
// Parse reports naming the flag.
func ProbabilityFlag(fs *flag.FlagSet, name, usage string) **float64 {
	var p *float64
	fs.Func(name, usage, func(s string) error {
		v, err := ParseProbability(s)
		if err != nil {
			return err
		}
		p = &v
		return nil
	})
	return &p
}

// ParseProbability reads a probability in [0, 1) as strconv.ParseFloat
// reads a float64, refusing text that is not a number, a number outside
// [0, 1), and a number written as nonzero that float64 rounds to 0
// (1e-400, below the least float64 above 0, 5e-324), which would be read
// as a probability of none.
func ParseProbability(s string) (float64, error) {
	p, err := strconv.ParseFloat(s, 64)
	switch {
	case err != nil && !errors.Is(err, strconv.ErrRange):
		return 0, errors.New("not a number")
	case err != nil || !(p >= 0 && p < 1):
		return 0, errors.New("must be in [0, 1)")
	case p == 0 && nonzero(s):
		return 0, errors.New("not 0, but below the least float64 above 0 (5e-324), so it would be read as 0: give 0 or a larger probability")
	case p == 0:
		return 0, nil // +0 for "-0"
	}
	return p, nil
}

// nonzero reports whether the number s, which strconv.ParseFloat parses,
// is written with a digit other than 0 before its exponent: not a zero,
// whatever float64 makes of it.
func nonzero(s string) bool {
	s = strings.TrimLeft(s, "+-")
	digits, exponent := "123456789", "eE"
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		s, digits, exponent = s[2:], "123456789abcdefABCDEF", "pP"
	}
	if i := strings.IndexAny(s, exponent); i >= 0 {
		s = s[:i]
	}
	return strings.ContainsAny(s, digits)
}
