package messages

import (
	"errors"
	"fmt"
	"math"
)

// The project's error vocabulary. Every package of skillgraph reports a
// failure a caller can act on by wrapping one of these three values (with
// context saying what and where), so that one errors.Is test serves every
// package; the model packages re-export them under the same names, as os
// does fs.ErrNotExist. Detail that a caller may want to read (a file
// position, the factor whose update failed) travels in a typed error whose
// Unwrap leads back here.
var (
	// ErrInput reports an argument outside its documented domain: a
	// parameter, rating, shape, name or file content that the caller can
	// correct.
	ErrInput = errors.New("invalid input")
	// ErrImpossible reports an observation that has probability zero under
	// the model as given (a draw with no draw margin, a truncation whose
	// cavity puts no mass on its side in float64): the data and the model
	// disagree, and one of them has to change.
	ErrImpossible = errors.New("observation has probability zero under the model")
	// ErrNumerical reports valid input whose answer float64 cannot carry:
	// a result outside the representable range, an improper marginal, or
	// a precision loss the computation refuses to hide.
	ErrNumerical = errors.New("numerical failure")
)

// ClampLogProbability returns lz, the computed logarithm of a
// probability, at most 0: a computation's rounding can leave a probability
// within an ulp or so of 1 just above it, so a log up to 1e-9 above 0 is
// 0; one further above is no probability's (an overflow or cancellation
// upstream) and gives NaN, as NaN does, for the caller's check.
func ClampLogProbability(lz float64) float64 {
	if !(lz <= 1e-9) {
		return math.NaN()
	}
	return min(lz, 0)
}

// CheckLogMass is the one test of a log probability that a factor's
// evidence term, or any log mass, returns: nil for a finite number; for
// −∞ (probability zero: an observation the model rules out) an error
// wrapping ErrImpossible; for NaN or +∞ (beyond float64's range) one
// wrapping ErrNumerical.
func CheckLogMass(l float64) error {
	switch {
	case IsFinite(l):
		return nil
	case math.IsInf(l, -1):
		return fmt.Errorf("log evidence −∞ (probability zero): %w", ErrImpossible)
	}
	return fmt.Errorf("log evidence %v: %w", l, ErrNumerical)
}
