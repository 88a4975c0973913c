package throughtime

import (
	"fmt"
	"time"
)

// At returns the Time of a game played at t, counted in units since the
// Unix epoch: with unit 24·time.Hour, in days, so that γ is a drift per
// day. A history only orders its times and takes their differences, so
// the origin does not matter; the unit sets what γ means. A unit that is
// not positive is ErrInput.
func At(t time.Time, unit time.Duration) (float64, error) {
	if unit <= 0 {
		return 0, fmt.Errorf("throughtime: time unit %v: %w", unit, ErrInput)
	}
	return (float64(t.Unix()) + float64(t.Nanosecond())/1e9) / unit.Seconds(), nil
}
