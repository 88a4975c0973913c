package throughtime_test

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/models/throughtime"
)

// TestAt: a day apart is 1 in days and 1/7 in weeks; a time before the
// epoch is negative; a unit of 0 is an error.
func TestAt(t *testing.T) {
	day := 24 * time.Hour
	a := time.Date(2020, 3, 1, 12, 0, 0, 0, time.UTC)
	b := a.Add(day)
	for _, c := range []struct {
		unit time.Duration
		want float64
	}{{day, 1}, {7 * day, 1.0 / 7}, {time.Hour, 24}} {
		x, err1 := throughtime.At(a, c.unit)
		y, err2 := throughtime.At(b, c.unit)
		if err1 != nil || err2 != nil || math.Abs(y-x-c.want) > 1e-9 {
			t.Errorf("unit %v: %v − %v = %v, want %v (%v, %v)", c.unit, y, x, y-x, c.want, err1, err2)
		}
	}
	if x, _ := throughtime.At(time.Date(1969, 12, 31, 0, 0, 0, 0, time.UTC), day); x != -1 {
		t.Errorf("the day before the epoch: %v, want −1", x)
	}
	if _, err := throughtime.At(a, 0); !errors.Is(err, throughtime.ErrInput) {
		t.Errorf("unit 0: %v", err)
	}
}
