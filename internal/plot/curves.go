package plot

import (
	"fmt"
	"io"
	"math"
	"time"

	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/record"
	gplot "gonum.org/v1/plot"
)

// Curve is one player's learning curve: their skill at each time they
// played.
type Curve struct {
	Name   string
	Points []CurvePoint
}

// CurvePoint is a skill estimate, mean μ and standard deviation σ, at a
// time.
type CurvePoint struct {
	Time      time.Time
	Mu, Sigma float64
}

// curvesLook draws learning curves: faint outlined bands, the palette of
// Grid, calendar ticks, round skill ticks, and the names in a column on
// the right.
var curvesLook = look{palette: seriesColors, band: 0.12, edge: 0.35, lineWidth: 1.6, marker: 2.5,
	calendar: true, yTicks: 6, legendWidth: 170}

// LearningCurves draws curves, μ over time with a band of ±σ each, dates
// on the x axis and the names on the right, in format ("svg" or "png") to
// w, as a Figure 760 by 420 points. The axes span the data with ticks at
// round steps (RoundTicks for skill, whole years, months, days or hours
// for time), so its size is bounded by the number of points whatever
// their scale.
//
// Every point must have a finite μ, a finite σ ≥ 0 and μ ± σ finite, and
// a time within years 0 to 9999; names must be text (record.CheckText); at least
// one point must be given. Otherwise nothing is written and the error
// wraps messages.ErrInput.
func LearningCurves(w io.Writer, format string, curves []Curve) error {
	f, err := curvesFigure(curves)
	if err != nil {
		return fmt.Errorf("plot: learning curves: %w", err)
	}
	return f.Write(w, format)
}

// curvesFigure checks the curves and returns their figure.
func curvesFigure(curves []Curve) (*Figure, error) {
	f := &Figure{XLabel: "date", YLabel: "skill μ ± σ", Dates: true, Width: 760, Height: 420, look: &curvesLook,
		Series: make([]Series, len(curves))}
	first, last := time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	points := false
	ylo, yhi := math.Inf(1), math.Inf(-1)
	for i, c := range curves {
		if err := record.CheckText("name", c.Name); err != nil {
			return nil, fmt.Errorf("curves[%d]: %w", i, err)
		}
		s := &f.Series[i]
		s.Name = c.Name
		for k, p := range c.Points {
			lo, hi := p.Mu-p.Sigma, p.Mu+p.Sigma
			if !messages.IsFinite(p.Mu) || !messages.IsFinite(p.Sigma) || p.Sigma < 0 || !messages.IsFinite(lo) || !messages.IsFinite(hi) {
				return nil, fmt.Errorf("%s: point %d: μ = %v, σ = %v: %w", c.Name, k, p.Mu, p.Sigma, messages.ErrInput)
			}
			if p.Time.Before(first) || !p.Time.Before(last) {
				return nil, fmt.Errorf("%s: point %d: time %v outside years 0 to 9999: %w", c.Name, k, p.Time, messages.ErrInput)
			}
			s.X, s.Y = append(s.X, unixSeconds(p.Time)), append(s.Y, p.Mu)
			s.Lo, s.Hi = append(s.Lo, lo), append(s.Hi, hi)
			ylo, yhi = math.Min(ylo, lo), math.Max(yhi, hi)
			points = true
		}
	}
	if !points {
		return nil, fmt.Errorf("no points: %w", messages.ErrInput)
	}
	if !messages.IsFinite(yhi - ylo) {
		return nil, fmt.Errorf("skills span beyond float64: %w", messages.ErrInput)
	}
	return f, nil
}

// unixSeconds is t in seconds since 1970, the x coordinate of the curves.
func unixSeconds(t time.Time) float64 { return float64(t.Unix()) + float64(t.Nanosecond())/1e9 }

// dateTicks is a plot.Ticker for times in Unix seconds, with ticks at whole
// years, months, days or hours: the smallest step (1, 2, 5, 10 … years; 1,
// 2, 3 or 6 months; 1, 2, 7 or 14 days; 1, 2, 6 or 12 hours) that gives at
// most eight, each labelled to that precision. At most 64 ticks are made,
// whatever the range.
type dateTicks struct{}

// A dateStep is a calendar step: years, months, days and hours to add, and
// the label's layout.
type dateStep struct {
	years, months, days, hours int
	layout                     string
}

// seconds is the step's approximate length.
func (s dateStep) seconds() float64 {
	return float64(s.years)*365.25*86400 + float64(s.months)*30.44*86400 + float64(s.days)*86400 + float64(s.hours)*3600
}

// next adds the step to t.
func (s dateStep) next(t time.Time) time.Time {
	return t.AddDate(s.years, s.months, s.days).Add(time.Duration(s.hours) * time.Hour)
}

// start is the first multiple of the step at or before t.
func (s dateStep) start(t time.Time) time.Time {
	switch {
	case s.years > 0:
		y := t.Year() - (t.Year() % s.years)
		return time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC)
	case s.months > 0:
		m := int(t.Month()) - 1
		return time.Date(t.Year(), time.Month(m-m%s.months+1), 1, 0, 0, 0, 0, time.UTC)
	case s.days > 0:
		return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	}
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour()-t.Hour()%s.hours, 0, 0, 0, time.UTC)
}

// dateSteps are the steps from the smallest.
var dateSteps = func() []dateStep {
	const hour, day, month, year = "2006-01-02 15h", "2006-01-02", "2006-01", "2006"
	out := []dateStep{{hours: 1, layout: hour}, {hours: 2, layout: hour}, {hours: 6, layout: hour}, {hours: 12, layout: hour},
		{days: 1, layout: day}, {days: 2, layout: day}, {days: 7, layout: day}, {days: 14, layout: day},
		{months: 1, layout: month}, {months: 2, layout: month}, {months: 3, layout: month}, {months: 6, layout: month}}
	for _, y := range []int{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000} {
		out = append(out, dateStep{years: y, layout: year})
	}
	return out
}()

// Ticks implements plot.Ticker.
func (dateTicks) Ticks(lo, hi float64) []gplot.Tick {
	const want, most = 8, 64
	at := func(x float64) time.Time {
		sec, frac := math.Modf(x)
		return time.Unix(int64(sec), int64(frac*1e9)).UTC()
	}
	if !messages.IsFinite(lo) || !messages.IsFinite(hi) {
		return nil
	}
	span := hi - lo
	step := dateSteps[len(dateSteps)-1]
	for _, s := range dateSteps {
		if span/s.seconds() <= want {
			step = s
			break
		}
	}
	var out []gplot.Tick
	t := step.start(at(lo))
	for range most {
		x := unixSeconds(t)
		if x > hi {
			break
		}
		if x >= lo {
			out = append(out, gplot.Tick{Value: x, Label: t.Format(step.layout)})
		}
		t = step.next(t)
	}
	if len(out) == 0 {
		out = append(out, gplot.Tick{Value: lo, Label: at(lo).Format(step.layout)})
	}
	return out
}
