package record

import (
	"fmt"
	"strings"
	"time"
)

// timeForms describes timeLayouts to a user, after "is not".
const timeForms = "YYYY-MM-DD, an RFC 3339 timestamp, YYYY-MM-DDTHH:MM:SS or YYYY-MM-DD HH:MM:SS"

// ParseTime reads a time in any of the forms Read takes: a date
// (2006-01-02), an RFC 3339 timestamp, or a zone-less 2006-01-02T15:04:05
// or 2006-01-02 15:04:05 (each with an optional fraction of a second),
// zone-less ones as UTC. It returns the time in UTC, or an error wrapping
// ErrInput.
func ParseTime(s string) (time.Time, error) {
	// Every form starts with a date, and the character after it and the
	// end tell the forms apart, so one layout is tried.
	if layout := layoutOf(s); layout != "" {
		if t, err := time.Parse(layout, s); err == nil {
			if layout == time.RFC3339 && !strings.HasSuffix(s, "Z") {
				// time.Parse takes offsets up to +24:00 and minutes up to
				// 60; RFC 3339 (section 5.6) has hours 00 to 23 and
				// minutes 00 to 59, and a time 24 hours off is no time.
				if off := s[len(s)-len("07:00"):]; off[:2] > "23" || off[3:] > "59" {
					return time.Time{}, fmt.Errorf("%q has the offset %s, outside -23:59 to +23:59: %w", s, s[len(s)-len("-07:00"):], ErrInput)
				}
			}
			// An offset can carry the first or last hour of the four-digit
			// years out of them in UTC, where FormatTime could not write it.
			if t = t.UTC(); t.Year() < 0 || t.Year() > 9999 {
				return time.Time{}, fmt.Errorf("%q is outside the years 0 to 9999 in UTC: %w", s, ErrInput)
			}
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not %s: %w", s, timeForms, ErrInput)
}

// layoutOf returns the layout s may be in, "" for none: a date, RFC 3339
// (a T and a zone), or a zone-less timestamp with a T or a space, which
// time.Parse reads as UTC. Parsing accepts a fraction of a second after
// the seconds in each of the timestamps.
func layoutOf(s string) string {
	const date = len(time.DateOnly)
	switch {
	case len(s) < date:
		return ""
	case len(s) == date:
		return time.DateOnly
	case s[date] == ' ':
		return time.DateTime
	case s[date] != 'T':
		return ""
	case strings.HasSuffix(s, "Z") || strings.ContainsAny(s[date:], "+-"):
		return time.RFC3339
	}
	return "2006-01-02T15:04:05"
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
