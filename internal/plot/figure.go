package plot

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/record"
	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Panel is one plot of a figure: a metric by training share, one line per
// model, with its 95 % interval as a band.
type Panel struct {
	Title  string
	XLabel string
	YLabel string
	X      []float64
	Lines  []Line
}

// Line is one model's series: a mean and the half-width of its interval
// at each x. A NaN mean is a missing point.
type Line struct {
	Name       string
	Mean, Half []float64
}

// The series' styles, by index: colour, dash pattern of the mean line, and
// marker. Distinct dashes and markers keep a line visible where another
// lies on it (two models equal to three decimals draw one path otherwise).
var (
	seriesColors = []color.RGBA{
		{0x1f, 0x77, 0xb4, 0xff}, {0xd6, 0x27, 0x28, 0xff}, {0x2c, 0xa0, 0x2c, 0xff},
		{0x94, 0x67, 0xbd, 0xff}, {0xff, 0x7f, 0x0e, 0xff}, {0x8c, 0x56, 0x4b, 0xff},
		{0xe3, 0x77, 0xc2, 0xff}, {0x17, 0xbe, 0xcf, 0xff},
	}
	seriesDashes = [][]vg.Length{nil, {7, 3}, {2, 2}, {9, 3, 2, 3}, {4, 4}, {1, 3}}
	seriesGlyphs = []draw.GlyphDrawer{draw.RingGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{}, draw.SquareGlyph{}}
)

// seriesColor returns series i's colour with the given opacity (0 to 1).
func seriesColor(i int, opacity float64) color.NRGBA { return curvesLook.color(i, opacity) }

// The evaluation figure's sizes, in points.
const (
	panelWidth   = 320
	panelHeight  = 230
	legendHeight = 40
)

// Grid draws panels in a grid of cols columns, like Figure 4 of the
// score-based paper (rows: data sets; columns: metrics), in format ("svg"
// or "png") to w, with the lines' legend (the first panel's names) below.
//
// Each axis spans its data rounded out to a tick, with ticks at round
// steps (RoundTicks). Bands (the intervals) are drawn first, each a light
// fill of its line's colour with dashed edges, so that where they overlap
// both edges stay visible; every mean line is drawn over every band, with
// its own dash pattern and marker. A NaN mean is a missing point, left out.
//
// The figure must be drawable, or nothing is written and the error wraps
// messages.ErrInput: cols at least 1 and panels not empty, each panel with x
// values that are finite and increasing, lines with one Mean and one Half
// per x value, each Half not negative and finite where Mean is given;
// titles, labels and names text (record.CheckText).
func Grid(w io.Writer, format string, panels []Panel, cols int) error {
	if err := checkFigure(panels, cols); err != nil {
		return fmt.Errorf("plot: grid: %w", err)
	}
	rows := (len(panels)-1)/cols + 1 // ⌈len/cols⌉ without overflow for a huge cols
	if cols > len(panels) {
		cols = len(panels)
	}
	width, height := vg.Length(cols*panelWidth), vg.Length(rows*panelHeight+legendHeight)
	cw, err := formatCanvas(format, width, height)
	if err != nil {
		return fmt.Errorf("plot: grid: %w", err)
	}
	dc := draw.New(cw)
	body := draw.Crop(dc, 0, 0, legendHeight, 0)
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: 4, PadY: 4, PadTop: 4, PadLeft: 4, PadRight: 4}
	for i, p := range panels {
		plt := panelPlot(p)
		plt.Draw(tiles.At(body, i%cols, i/cols))
	}
	legend := draw.Crop(dc, 16, 0, 0, -(height - legendHeight))
	var names []string
	for _, l := range panels[0].Lines {
		names = append(names, l.Name)
	}
	drawRowLegend(legend, names, "lines: mean over seasons; shaded bands with dashed edges: 95 % intervals")
	_, err = cw.WriteTo(w)
	return err
}

// panelPlot builds one panel's plot.
func panelPlot(p Panel) *gplot.Plot {
	plt := gplot.New()
	plt.Add(plotter.NewGrid())
	plt.Title.Text = p.Title
	plt.Title.TextStyle.Font.Size = 10
	plt.X.Label.Text, plt.Y.Label.Text = p.XLabel, p.YLabel
	for _, a := range []*gplot.Axis{&plt.X, &plt.Y} {
		a.Label.TextStyle.Font.Size = 9
		a.Tick.Label.Font.Size = 8
	}
	type series struct{ mean, upper, lower plotter.XYs }
	all := make([]series, len(p.Lines))
	for li, l := range p.Lines {
		for k, x := range p.X {
			if math.IsNaN(l.Mean[k]) {
				continue
			}
			all[li].mean = append(all[li].mean, plotter.XY{X: x, Y: l.Mean[k]})
			all[li].upper = append(all[li].upper, plotter.XY{X: x, Y: l.Mean[k] + l.Half[k]})
			all[li].lower = append(all[li].lower, plotter.XY{X: x, Y: l.Mean[k] - l.Half[k]})
		}
	}
	for li, s := range all {
		if len(s.mean) == 0 {
			continue
		}
		band := append(plotter.XYs{}, s.upper...)
		for k := len(s.lower) - 1; k >= 0; k-- {
			band = append(band, s.lower[k])
		}
		if poly, err := plotter.NewPolygon(band); err == nil {
			poly.Color = seriesColor(li, 0.07)
			poly.LineStyle.Width = 0
			plt.Add(poly)
		}
		for _, edge := range []plotter.XYs{s.upper, s.lower} {
			if ln, err := plotter.NewLine(edge); err == nil {
				ln.Color = seriesColor(li, 0.8)
				ln.Width = 0.8
				ln.Dashes = []vg.Length{2, 3}
				plt.Add(ln)
			}
		}
	}
	for li, s := range all {
		if len(s.mean) == 0 {
			continue
		}
		ln, sc, err := plotter.NewLinePoints(s.mean)
		if err != nil {
			continue
		}
		ln.LineStyle = meanStyle(li)
		sc.GlyphStyle = glyphStyle(li)
		plt.Add(ln, sc)
	}
	xlo, xhi := p.X[0], p.X[len(p.X)-1]
	ylo, yhi := p.yRange()
	setRange(&plt.X, xlo, xhi, 8, false)
	setRange(&plt.Y, ylo, yhi, 5, true)
	return plt
}

// meanStyle is series i's mean line.
func meanStyle(i int) draw.LineStyle {
	return draw.LineStyle{Color: seriesColor(i, 1), Width: 1.8, Dashes: seriesDashes[i%len(seriesDashes)]}
}

// glyphStyle is series i's marker.
func glyphStyle(i int) draw.GlyphStyle {
	return draw.GlyphStyle{Color: seriesColor(i, 1), Radius: 3, Shape: seriesGlyphs[i%len(seriesGlyphs)]}
}

// entryThumb draws series i's legend entry: its mean line and marker.
type entryThumb int

// Thumbnail implements plot.Thumbnailer.
func (i entryThumb) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(meanStyle(int(i)), c.Min.X, y, c.Max.X, y)
	c.DrawGlyph(glyphStyle(int(i)), c.Center())
}

// drawRowLegend writes the names side by side along the top of c, each
// after its series' line and marker, and note under them.
func drawRowLegend(c draw.Canvas, names []string, note string) {
	x := c.Min.X
	for i, name := range names {
		l := gplot.NewLegend()
		l.Top, l.Left = true, true
		l.TextStyle.Font.Size = 10
		l.ThumbnailWidth = 28
		l.Add(name, entryThumb(i))
		cell := c
		cell.Min.X = x
		r := l.Rectangle(cell)
		l.Draw(cell)
		x += r.Max.X - r.Min.X + 20
	}
	sty := gplot.NewLegend().TextStyle
	sty.Font.Size = 8
	c.FillText(sty, vg.Point{X: c.Min.X, Y: c.Max.Y - 28}, note)
}

// setRange sets axis a to [lo, hi] rounded out to round ticks (about want
// of them), with those ticks; pad widens a single value.
func setRange(a *gplot.Axis, lo, hi float64, want int, pad bool) {
	if pad && hi == lo {
		d := math.Max(0.5, 0.5*math.Abs(hi))
		lo, hi = lo-d, hi+d
	}
	t := niceTicks(lo, hi, want)
	if t.decimals >= 0 {
		lo, hi = math.Min(lo, t.lo), math.Max(hi, t.hi)
	}
	if !(hi > lo) { // one x value: centred
		d := math.Max(0.5, 0.5*math.Abs(hi))
		lo, hi = lo-d, hi+d
		t = niceTicks(lo, hi, want)
	}
	a.Min, a.Max = lo, hi
	if t.decimals < 0 {
		a.Tick.Marker = RoundTicks{Want: want}
		return
	}
	// The ticks of the step the ends were rounded to, so that both ends
	// are labelled.
	var marks gplot.ConstantTicks
	for _, v := range t.values() {
		if v >= lo-1e-9*t.step && v <= hi+1e-9*t.step {
			marks = append(marks, gplot.Tick{Value: v, Label: t.label(v)})
		}
	}
	a.Tick.Marker = marks
}

// RoundTicks is a plot.Ticker whose ticks are at round steps, 1, 2 or 5
// times a power of ten, about Want of them (5 if Want < 1), written with
// the step's decimals and a true minus sign. Its work is bounded whatever
// the range: for a span too small or too large for round steps (at 1e17 a
// step of 1 is below float64's resolution) it marks just the two ends.
type RoundTicks struct{ Want int }

// Ticks implements plot.Ticker.
func (r RoundTicks) Ticks(lo, hi float64) []gplot.Tick {
	want := r.Want
	if want < 1 {
		want = 5
	}
	if !(hi > lo) { // a point, or NaN
		return []gplot.Tick{{Value: lo, Label: ticks{decimals: -1}.label(lo)}}
	}
	t := niceTicks(lo, hi, want)
	var out []gplot.Tick
	for _, v := range t.values() {
		if v < lo-1e-9*t.step || v > hi+1e-9*t.step {
			continue
		}
		out = append(out, gplot.Tick{Value: v, Label: t.label(v)})
	}
	return out
}

// ticks are axis ticks: values from lo to hi, step apart, written with
// decimals digits after the point (or, for a span too small or too large
// for round steps, just lo and hi in %g form, decimals < 0).
type ticks struct {
	lo, hi, step float64
	decimals     int
}

// niceTicks returns ticks for the span [lo, hi]: a step of 1, 2 or 5 times
// a power of ten giving about want ticks or fewer, and lo and hi rounded out
// to multiples of it. A span of 0 is widened to the value's own size.
func niceTicks(lo, hi float64, want int) ticks {
	span := hi - lo
	if !(span > 0) {
		span = math.Max(math.Abs(lo), 1)
	}
	raw := span / float64(max(want, 1))
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * mag
	for _, m := range []float64{1, 2, 5} {
		if m*mag >= raw*(1-1e-9) {
			step = m * mag
			break
		}
	}
	t := ticks{lo: math.Floor(lo/step+1e-9) * step, hi: math.Ceil(hi/step-1e-9) * step, step: step}
	t.decimals = max(0, int(-math.Floor(math.Log10(step)+1e-9)))
	if n := (t.hi - t.lo) / step; !(step > 0) || !messages.IsFinite(t.lo) || !messages.IsFinite(t.hi) || !(n <= 4*float64(want)+4) || t.decimals > 20 ||
		step < 1e-12*math.Max(math.Abs(t.lo), math.Abs(t.hi)) {
		// No round step: subnormal spans, or a span so small beside its
		// values that float64 cannot hold the multiples of the step.
		return ticks{lo: lo, hi: hi, step: hi - lo, decimals: -1}
	}
	return t
}

// values returns the tick values, each rounded to the step's decimals so
// that 0.1·3 is written as 0.3.
func (t ticks) values() []float64 {
	if t.decimals < 0 {
		if !(t.hi > t.lo) {
			return []float64{t.lo}
		}
		return []float64{t.lo, t.hi}
	}
	n := int(math.Round((t.hi - t.lo) / t.step))
	out := make([]float64, 0, n+1)
	for k := 0; k <= n; k++ {
		v, _ := strconv.ParseFloat(strconv.FormatFloat(t.lo+float64(k)*t.step, 'f', t.decimals, 64), 64)
		out = append(out, v)
	}
	return out
}

// label writes v with the step's decimals, never as "-0", with a true minus
// sign. Past 1e15 it writes as many significant digits as tell the steps
// apart, in exponent form, rather than hundreds of digits; the ends of a
// range without round steps are written in full.
func (t ticks) label(v float64) string {
	var s string
	switch {
	case t.decimals < 0:
		s = strconv.FormatFloat(v, 'g', -1, 64)
	case math.Abs(v) >= 1e15:
		digits := int(math.Ceil(math.Log10(math.Max(math.Abs(t.lo), math.Abs(t.hi))/t.step))) + 1
		s = strconv.FormatFloat(v, 'g', min(max(digits, 1), 17), 64)
	default:
		s = strconv.FormatFloat(v, 'f', t.decimals, 64)
	}
	if strings.Trim(s, "-0.") == "" {
		s = strings.TrimPrefix(s, "-")
	}
	return strings.Replace(s, "-", "−", 1)
}

// yRange returns the extent of the panel's bands, or [0, 1] if the panel
// has no points.
func (p Panel) yRange() (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, l := range p.Lines {
		for k := range l.Mean {
			if !math.IsNaN(l.Mean[k]) {
				lo, hi = math.Min(lo, l.Mean[k]-l.Half[k]), math.Max(hi, l.Mean[k]+l.Half[k])
			}
		}
	}
	if math.IsInf(lo, 1) {
		lo, hi = 0, 1
	}
	return lo, hi
}

// checkFigure is Grid's rule for a drawable figure.
func checkFigure(panels []Panel, cols int) error {
	if cols < 1 {
		return fmt.Errorf("cols = %d: %w", cols, messages.ErrInput)
	}
	if len(panels) == 0 {
		return fmt.Errorf("no panels: %w", messages.ErrInput)
	}
	for pi, p := range panels {
		fail := func(format string, a ...any) error {
			return fmt.Errorf("panels[%d]: "+format+": %w", append(append([]any{pi}, a...), messages.ErrInput)...)
		}
		for _, s := range []struct{ what, text string }{{"title", p.Title}, {"x label", p.XLabel}, {"y label", p.YLabel}} {
			if err := record.CheckText(s.what, s.text); err != nil {
				return fmt.Errorf("panels[%d]: %w", pi, err)
			}
		}
		if len(p.X) == 0 {
			return fail("no x values")
		}
		for k, x := range p.X {
			if !messages.IsFinite(x) {
				return fail("X[%d] = %v", k, x)
			}
			if k > 0 && !(x > p.X[k-1]) {
				return fail("X[%d] = %v after %v, not increasing", k, x, p.X[k-1])
			}
		}
		if span := p.X[len(p.X)-1] - p.X[0]; !messages.IsFinite(span) {
			return fail("x values span %v", span)
		}
		for li, l := range p.Lines {
			if err := record.CheckText("line name", l.Name); err != nil {
				return fmt.Errorf("panels[%d]: Lines[%d]: %w", pi, li, err)
			}
			if len(l.Mean) != len(p.X) || len(l.Half) != len(p.X) {
				return fail("Lines[%d]: %d means and %d half-widths for %d x values", li, len(l.Mean), len(l.Half), len(p.X))
			}
			for k, m := range l.Mean {
				if math.IsNaN(m) {
					continue
				}
				if !messages.IsFinite(m) || !messages.IsFinite(l.Half[k]) {
					return fail("Lines[%d]: Mean[%d] = %v, Half[%d] = %v", li, k, m, k, l.Half[k])
				}
				if l.Half[k] < 0 {
					return fail("Lines[%d]: Half[%d] = %v is negative", li, k, l.Half[k])
				}
			}
		}
		if lo, hi := p.yRange(); !messages.IsFinite(hi - lo) {
			return fail("y values span beyond float64")
		}
	}
	return nil
}

// formatCanvas returns a canvas of the given size that writes format:
// "svg" or "png".
func formatCanvas(format string, w, h vg.Length) (vg.CanvasWriterTo, error) {
	switch format {
	case "svg":
		return vgsvg.New(w, h), nil
	case "png":
		return vgimg.PngCanvas{Canvas: vgimg.New(w, h)}, nil
	}
	return nil, fmt.Errorf("format %q (want svg or png): %w", format, messages.ErrInput)
}
