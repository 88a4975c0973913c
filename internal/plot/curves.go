package plot

import (
	"fmt"
	"io"
	"math"
	"time"

	"github.com/skillgraph/skillgraph/messages"
	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"
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

// The learning-curve figure's sizes, in points.
const (
	curvesWidth  = 760
	curvesHeight = 420
	curvesLegend = 170
)

// LearningCurves draws curves, μ over time with a band of ±σ each, dates
// on the x axis and the names on the right, in format ("svg" or "png") to
// w. The axes span the data with ticks at round steps (RoundTicks for
// skill, whole years, months, days or hours for time), so its size is
// bounded by the number of points whatever their scale.
//
// Every point must have a finite μ, a finite σ ≥ 0 and μ ± σ finite, and
// a time within years 1 to 9999; names must be printable UTF-8; at least
// one point must be given. Otherwise nothing is written and the error
// wraps ErrUndrawable.
func LearningCurves(w io.Writer, format string, curves []Curve) error {
	tlo, thi, ylo, yhi, err := curvesRange(curves)
	if err != nil {
		return fmt.Errorf("plot: learning curves: %w", err)
	}
	cw, err := formatCanvas(format, curvesWidth, curvesHeight)
	if err != nil {
		return fmt.Errorf("plot: learning curves: %w", err)
	}
	plt := gplot.New()
	plt.Add(plotter.NewGrid())
	plt.X.Label.Text, plt.Y.Label.Text = "date", "skill μ ± σ"
	legend := gplot.NewLegend()
	legend.Top, legend.Left = true, true
	legend.TextStyle.Font.Size = 10
	for i, c := range curves {
		if len(c.Points) == 0 {
			continue
		}
		band := make(plotter.XYs, 0, 2*len(c.Points))
		mean := make(plotter.XYs, 0, len(c.Points))
		for _, p := range c.Points {
			x := unixSeconds(p.Time)
			band = append(band, plotter.XY{X: x, Y: p.Mu + p.Sigma})
			mean = append(mean, plotter.XY{X: x, Y: p.Mu})
		}
		for k := len(c.Points) - 1; k >= 0; k-- {
			p := c.Points[k]
			band = append(band, plotter.XY{X: unixSeconds(p.Time), Y: p.Mu - p.Sigma})
		}
		// Bands are faint and outlined, so that where they overlap each
		// line stays readable.
		poly, err := plotter.NewPolygon(band)
		if err != nil {
			return fmt.Errorf("plot: learning curves: %s: %v: %w", c.Name, err, ErrUndrawable)
		}
		poly.Color = seriesColor(i, 0.12)
		poly.LineStyle = draw.LineStyle{Color: seriesColor(i, 0.35), Width: 0.5}
		line, err := plotter.NewLine(mean)
		if err != nil {
			return fmt.Errorf("plot: learning curves: %s: %v: %w", c.Name, err, ErrUndrawable)
		}
		line.LineStyle = draw.LineStyle{Color: seriesColor(i, 1), Width: 1.6}
		plt.Add(poly, line)
		if len(mean) == 1 { // a line of one point draws nothing: mark it
			dot, err := plotter.NewScatter(mean)
			if err != nil {
				return fmt.Errorf("plot: learning curves: %s: %v: %w", c.Name, err, ErrUndrawable)
			}
			dot.GlyphStyle = draw.GlyphStyle{Color: seriesColor(i, 1), Radius: 2.5, Shape: draw.CircleGlyph{}}
			plt.Add(dot)
		}
		legend.Add(c.Name, line)
	}
	if !(thi > tlo) { // one date: a day either side
		tlo, thi = tlo-86400, thi+86400
	}
	plt.X.Min, plt.X.Max = tlo, thi
	plt.X.Tick.Marker = dateTicks{}
	setRange(&plt.Y, ylo, yhi, 6, true)
	dc := draw.New(cw)
	plt.Draw(draw.Crop(dc, 0, -curvesLegend, 0, 0))
	legend.Draw(draw.Crop(dc, curvesWidth-curvesLegend+10, 0, 0, -20))
	_, err = cw.WriteTo(w)
	return err
}

// curvesRange checks the curves and returns the span of their times, in
// Unix seconds, and of their bands.
func curvesRange(curves []Curve) (tlo, thi, ylo, yhi float64, err error) {
	tlo, thi, ylo, yhi = math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	first, last := time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, c := range curves {
		if err := checkText(c.Name); err != nil {
			return 0, 0, 0, 0, fmt.Errorf("curves[%d]: name %v: %w", i, err, ErrUndrawable)
		}
		for k, p := range c.Points {
			lo, hi := p.Mu-p.Sigma, p.Mu+p.Sigma
			if !messages.IsFinite(p.Mu) || !messages.IsFinite(p.Sigma) || p.Sigma < 0 || !messages.IsFinite(lo) || !messages.IsFinite(hi) {
				return 0, 0, 0, 0, fmt.Errorf("%s: point %d: μ = %v, σ = %v: %w", c.Name, k, p.Mu, p.Sigma, ErrUndrawable)
			}
			if p.Time.Before(first) || !p.Time.Before(last) {
				return 0, 0, 0, 0, fmt.Errorf("%s: point %d: time %v outside years 1 to 9999: %w", c.Name, k, p.Time, ErrUndrawable)
			}
			t := unixSeconds(p.Time)
			tlo, thi = math.Min(tlo, t), math.Max(thi, t)
			ylo, yhi = math.Min(ylo, lo), math.Max(yhi, hi)
		}
	}
	if math.IsInf(tlo, 1) {
		return 0, 0, 0, 0, fmt.Errorf("no points: %w", ErrUndrawable)
	}
	if !messages.IsFinite(yhi - ylo) {
		return 0, 0, 0, 0, fmt.Errorf("skills span beyond float64: %w", ErrUndrawable)
	}
	return tlo, thi, ylo, yhi, nil
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
