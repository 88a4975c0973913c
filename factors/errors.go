package factors

import (
	"errors"
	"fmt"
	"math"

	"github.com/skillgraph/skillgraph/messages"
)

// Errors returned (wrapped with the offending value) by factor updates and
// validation.
var (
	// ErrParameter reports an invalid factor parameter (negative variance,
	// non-finite mean or margin, …).
	ErrParameter = errors.New("invalid factor parameter")
	// ErrImproperCavity reports a cavity with negative precision where the
	// factor needs a proper one to moment-match.
	ErrImproperCavity = errors.New("improper cavity")
	// ErrImpossible reports an observation the factor gives probability zero
	// (e.g. a point-mass cavity outside a truncation).
	ErrImpossible = errors.New("observation has zero probability under the factor")
	// ErrDiverges reports an evidence integral that is infinite because too
	// many cavities are uniform.
	ErrDiverges = errors.New("evidence integral diverges")
)

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func checkVariance(name string, v float64) error {
	if !(v > 0) || math.IsInf(v, 1) {
		return fmt.Errorf("%w: %s = %v, want a finite positive number", ErrParameter, name, v)
	}
	return nil
}

func checkFinite(name string, x float64) error {
	if !finite(x) {
		return fmt.Errorf("%w: %s = %v, want a finite number", ErrParameter, name, x)
	}
	return nil
}

func checkMargin(eps float64) error {
	if !(eps >= 0) || math.IsInf(eps, 1) {
		return fmt.Errorf("%w: margin ε = %v, want a finite number ≥ 0", ErrParameter, eps)
	}
	return nil
}

// checkCavity rejects a cavity with negative precision.
func checkCavity(c messages.Gaussian) error {
	if c.Pi < 0 {
		return fmt.Errorf("%w (precision %v)", ErrImproperCavity, c.Pi)
	}
	return nil
}
