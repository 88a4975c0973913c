package record

import (
	"fmt"
	"time"
)

// timeLayouts are the layouts a time field may take; the zone-less ones
// are read as UTC. Parsing accepts a fraction of a second after the
// seconds in each of the timestamps.
var timeLayouts = [...]string{time.DateOnly, time.RFC3339, "2006-01-02T15:04:05", time.DateTime}

// timeForms describes timeLayouts to a user, after "is not".
const timeForms = "YYYY-MM-DD, an RFC 3339 timestamp, YYYY-MM-DDTHH:MM:SS or YYYY-MM-DD HH:MM:SS"

// ParseTime reads a time in any of the forms Read takes: a date
// (2006-01-02), an RFC 3339 timestamp, or a zone-less 2006-01-02T15:04:05
// or 2006-01-02 15:04:05 (each with an optional fraction of a second),
// zone-less ones as UTC. It returns the time in UTC, or an error wrapping
// ErrInput.
func ParseTime(s string) (time.Time, error) {
	// Every form starts with a date, so a shorter field is none of them;
	// the check also keeps long junk out of the parser's error.
	if len(s) >= len(time.DateOnly) {
		for _, layout := range timeLayouts {
			if t, err := time.Parse(layout, s); err == nil {
				return t.UTC(), nil
			}
		}
	}
	return time.Time{}, fmt.Errorf("%q is not %s: %w", s, timeForms, ErrInput)
}

// FormatTime writes t as WriteLong does: a date when t is midnight UTC,
// else an RFC 3339 timestamp in UTC with as many digits of the second as
// it needs, so that ParseTime gives back the same instant.
func FormatTime(t time.Time) string {
	t = t.UTC()
	if t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0 {
		return t.Format(time.DateOnly)
	}
	return t.Format(time.RFC3339Nano)
}
