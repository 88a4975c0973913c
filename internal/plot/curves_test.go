package plot

import (
	"bytes"
	"errors"
	"image/png"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/messages"
)

// day is a date at midnight UTC.
func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// curvesAt returns three players' curves over four games, μ = mu + player
// and σ = sigma.
func curvesAt(mu, sigma float64) []Curve {
	var cs []Curve
	for i, name := range []string{"Ann", "Bob & <Co>", "Cat"} {
		c := Curve{Name: name}
		for k := range 4 {
			c.Points = append(c.Points, CurvePoint{Time: day(2000, 1, 1+7*k), Mu: mu + float64(i), Sigma: sigma})
		}
		cs = append(cs, c)
	}
	return cs
}

func TestLearningCurvesSVGAndPNG(t *testing.T) {
	cs := curvesAt(25, 3)
	var svg bytes.Buffer
	if err := LearningCurves(&svg, "svg", cs); err != nil {
		t.Fatal(err)
	}
	s := svg.String()
	wellFormed(t, s)
	// Four weekly games: ticks every week, written as dates; the names
	// escaped.
	for _, want := range []string{"2000-01-01", "2000-01-08", "2000-01-22", "Bob &amp; &lt;Co&gt;", "skill μ ± σ", `width="760pt"`} {
		if !strings.Contains(s, want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	var p bytes.Buffer
	if err := LearningCurves(&p, "png", cs); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&p)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 1013 || b.Dy() != 560 {
		t.Errorf("PNG %v, want 1013 × 560", b)
	}
}

// TestLearningCurvesBoundedAtHugeScales: at scales where a grid line
// every half unit would never end or fill the disk (μ₀ = 3e10 or 1e17,
// σ = 6e6), four games draw in a few kilobytes, with round ticks where
// float64 has them.
func TestLearningCurvesBoundedAtHugeScales(t *testing.T) {
	for _, c := range []struct {
		mu, sigma float64
		tick      string // a y tick label the figure must show
	}{
		{3e10, 6, "30000000000"},
		{1e17, 6, "1e+17"},
		{0, 6e6, "−5000000"},
		{-1e300, 1e299, "e+300"},
		{1e-300, 1e-301, "1.5"},
	} {
		var buf bytes.Buffer
		if err := LearningCurves(&buf, "svg", curvesAt(c.mu, c.sigma)); err != nil {
			t.Errorf("μ %v, σ %v: %v", c.mu, c.sigma, err)
			continue
		}
		s := buf.String()
		wellFormed(t, s)
		if buf.Len() > 64<<10 || !strings.Contains(s, c.tick) {
			t.Errorf("μ %v, σ %v: %d bytes, tick %q shown: %v", c.mu, c.sigma, buf.Len(), c.tick, strings.Contains(s, c.tick))
		}
	}
}

func TestLearningCurvesRejects(t *testing.T) {
	bad := func(f func(*CurvePoint)) []Curve {
		cs := curvesAt(0, 1)
		f(&cs[1].Points[2])
		return cs
	}
	for _, c := range []struct {
		name   string
		curves []Curve
		text   string
	}{
		{"none", nil, "no points"},
		{"no points", []Curve{{Name: "a"}}, "no points"},
		{"NaN μ", bad(func(p *CurvePoint) { p.Mu = math.NaN() }), "point 2: μ = NaN"},
		{"infinite σ", bad(func(p *CurvePoint) { p.Sigma = math.Inf(1) }), "σ = +Inf"},
		{"negative σ", bad(func(p *CurvePoint) { p.Sigma = -1 }), "σ = -1"},
		{"μ + σ overflows", bad(func(p *CurvePoint) { p.Mu, p.Sigma = math.MaxFloat64, math.MaxFloat64 }), "μ = 1.79"},
		{"year 10000", bad(func(p *CurvePoint) { p.Time = day(10000, 1, 1) }), "outside years 0 to 9999"},
		{"year -1", bad(func(p *CurvePoint) { p.Time = day(0, 1, 1).Add(-time.Hour) }), "outside years 0 to 9999"},
		{"NUL in a name", []Curve{{Name: "a\x00", Points: []CurvePoint{{Time: day(2000, 1, 1)}}}}, "control character"},
	} {
		var buf bytes.Buffer
		err := LearningCurves(&buf, "svg", c.curves)
		if !errors.Is(err, messages.ErrInput) || !strings.Contains(err.Error(), c.text) || buf.Len() != 0 {
			t.Errorf("%s: %v (%d bytes), want messages.ErrInput saying %q", c.name, err, buf.Len(), c.text)
		}
	}
}

// TestDateTicks: the step is the smallest calendar step giving at most
// eight ticks, counted here by hand for each span.
func TestDateTicks(t *testing.T) {
	sec := func(t time.Time) float64 { return float64(t.Unix()) }
	for _, c := range []struct {
		lo, hi time.Time
		want   []string
	}{
		// 1950-03 to 2025-11: 75.7 years; 10-year steps give 1960 … 2020.
		{day(1950, 3, 1), day(2025, 11, 1), []string{"1960", "1970", "1980", "1990", "2000", "2010", "2020"}},
		// 1872-11-30 to 2025-06-30: 152.6 years; 20-year steps (7.6 of
		// them) from 1880.
		{day(1872, 11, 30), day(2025, 6, 30), []string{"1880", "1900", "1920", "1940", "1960", "1980", "2000", "2020"}},
		// 2008-08-16 to 2009-05-24: 9.3 months; 2-month steps.
		{day(2008, 8, 16), day(2009, 5, 24), []string{"2008-09", "2008-11", "2009-01", "2009-03", "2009-05"}},
		// Three weeks: 7-day steps from midnight of the first day.
		{day(2000, 1, 1), day(2000, 1, 22), []string{"2000-01-01", "2000-01-08", "2000-01-15", "2000-01-22"}},
		// Ten hours: 2-hour steps.
		{day(2004, 8, 6).Add(18 * time.Hour), day(2004, 8, 7).Add(4 * time.Hour), []string{"2004-08-06 18h", "2004-08-06 20h", "2004-08-06 22h", "2004-08-07 00h", "2004-08-07 02h", "2004-08-07 04h"}},
	} {
		var got []string
		for _, tk := range (dateTicks{}).Ticks(sec(c.lo), sec(c.hi)) {
			got = append(got, tk.Label)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%v to %v: %q, want %q", c.lo, c.hi, got, c.want)
		}
	}
	// Any range, however wide or empty, gives between 1 and 64 ticks.
	for _, r := range [][2]float64{{0, 0}, {-6e10, 2.5e11}, {-1e300, 1e300}, {math.NaN(), 1}, {5, 4}} {
		if n := len((dateTicks{}).Ticks(r[0], r[1])); n > 64 {
			t.Errorf("%v: %d ticks", r, n)
		}
	}
}

// TestLearningCurvesEmptyCurveKeepsColours: a curve without points draws
// nothing and leaves out its name, and the curves after it keep their
// colours (series 2's is #2CA02C).
func TestLearningCurvesEmptyCurveKeepsColours(t *testing.T) {
	cs := curvesAt(25, 3)
	cs[1].Points = nil
	var buf bytes.Buffer
	if err := LearningCurves(&buf, "svg", cs); err != nil {
		t.Fatal(err)
	}
	s := buf.String()
	if !strings.Contains(s, "stroke:#2CA02C") || strings.Contains(s, "stroke:#D62728") || strings.Contains(s, "Bob &amp;") || !strings.Contains(s, ">Cat<") {
		t.Errorf("an empty second curve: colours or names wrong")
	}
}

// TestLearningCurvesYearsZeroTo9999: every year a record's time may have,
// 0 to 9999, draws, labelled as four digits; a single date a day from
// either end keeps the axis, and so its labels, within those years.
func TestLearningCurvesYearsZeroTo9999(t *testing.T) {
	for _, c := range []struct {
		name   string
		times  []time.Time
		labels []string // each tick's label, counted by hand (TestDateTicks's steps)
	}{
		// Three weeks from 0000-01-01: 7-day steps.
		{"year 0", []time.Time{day(0, 1, 1), day(0, 1, 15), day(0, 1, 22)}, []string{"0000-01-01", "0000-01-08", "0000-01-15", "0000-01-22"}},
		// One date: the axis from it to a day after, 6-hour steps.
		{"first day", []time.Time{day(0, 1, 1)}, []string{"0000-01-01 00h", "0000-01-01 06h", "0000-01-01 12h", "0000-01-01 18h", "0000-01-02 00h"}},
		// One date: the axis from a day before to the last second of 9999.
		{"last day", []time.Time{day(9999, 12, 31)}, []string{"9999-12-30 00h", "9999-12-30 06h", "9999-12-30 12h", "9999-12-30 18h", "9999-12-31 00h", "9999-12-31 06h", "9999-12-31 12h", "9999-12-31 18h"}},
	} {
		cs := []Curve{{Name: "Ann"}}
		for k, tm := range c.times {
			cs[0].Points = append(cs[0].Points, CurvePoint{Time: tm, Mu: float64(k), Sigma: 1})
		}
		var buf bytes.Buffer
		if err := LearningCurves(&buf, "svg", cs); err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		s := buf.String()
		for _, l := range c.labels {
			if !strings.Contains(s, ">"+l+"<") {
				t.Errorf("%s: no tick labelled %q", c.name, l)
			}
		}
		if strings.Contains(s, ">-0001") || strings.Contains(s, ">10000") {
			t.Errorf("%s: a tick labelled beyond the years 0 to 9999", c.name)
		}
	}
}
