package plot

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"strings"
	"time"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/skillgraph/skillgraph/internal/safefile"
	"github.com/skillgraph/skillgraph/messages"
)

// Series is one line of a figure.
type Series struct {
	// Name labels the line in the legend ("" leaves it out).
	Name string
	// X and Y are the points, in order; with Figure.Dates, X is in Unix
	// seconds.
	X, Y []float64
	// Lo and Hi, if set (both, as long as X), shade a band from Lo to Hi
	// around the line.
	Lo, Hi []float64
}

// Figure is a plot of lines over one x axis.
type Figure struct {
	Title, XLabel, YLabel string
	// Dates labels the x axis with dates (X in Unix seconds, UTC).
	Dates bool
	// Series are the lines, drawn in order, coloured by gonum's palette.
	// A series without points draws nothing but keeps its colour.
	Series []Series
	// Width and Height are the figure's size; 0 means 16 cm by 10 cm.
	Width, Height vg.Length

	// look is how the series, axes and legend are drawn; nil is
	// defaultLook.
	look *look
}

// look is how a Figure draws its series, axes and legend.
type look struct {
	// palette colours the series, by index.
	palette []color.RGBA
	// band and edge are the opacities of a band's fill and outline (0: no
	// outline).
	band, edge float64
	// lineWidth is the width of a series' line; marker is the radius of
	// its markers, which every point has with allMarkers, and otherwise
	// only a series of one point, whose line draws nothing.
	lineWidth, marker vg.Length
	allMarkers        bool
	// calendar puts date ticks at whole calendar steps (dateTicks) over
	// the x axis spanning the data (a day either side of a single date);
	// otherwise Dates labels gonum's ticks as dates.
	calendar bool
	// yTicks, if above 0, spans the y axis by the bands rounded out to
	// about this many ticks at round steps (setRange); 0 leaves it to
	// gonum.
	yTicks int
	// legendWidth, if above 0, puts the legend in a column this wide at
	// the right; 0 puts it inside the plot, top left.
	legendWidth vg.Length
}

// defaultLook draws lines with a marker at every point over gonum's axes
// and palette, the legend inside the plot.
var defaultLook = func() look {
	l := look{band: 60.0 / 255, lineWidth: vg.Points(1.5), marker: vg.Points(1.5), allMarkers: true}
	for _, c := range plotutil.DefaultColors {
		r, g, b, a := c.RGBA()
		l.palette = append(l.palette, color.RGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: uint8(a >> 8)})
	}
	return l
}()

// color returns series i's colour with the given opacity (0 to 1).
func (l *look) color(i int, opacity float64) color.NRGBA {
	c := l.palette[i%len(l.palette)]
	return color.NRGBA{R: c.R, G: c.G, B: c.B, A: uint8(math.Round(255 * opacity))}
}

// undrawable reports data a figure cannot draw.
func undrawable(format string, a ...any) error {
	return fmt.Errorf("plot: cannot draw the data: "+format+": %w", append(a, messages.ErrInput)...)
}

// check validates f's data and returns the span of its x values (lo[0]
// to hi[0]) and y values, bands included (lo[1] to hi[1]).
func (f *Figure) check() (lo, hi [2]float64, err error) {
	lo, hi = [2]float64{math.Inf(1), math.Inf(1)}, [2]float64{math.Inf(-1), math.Inf(-1)}
	for _, s := range f.Series {
		n := len(s.X)
		if len(s.Y) != n || (s.Lo == nil) != (s.Hi == nil) || (s.Lo != nil && (len(s.Lo) != n || len(s.Hi) != n)) {
			return lo, hi, undrawable("series %q has columns of unequal lengths", s.Name)
		}
		for axis, cols := range [][][]float64{{s.X}, {s.Y, s.Lo, s.Hi}} {
			for _, col := range cols {
				for _, v := range col {
					if math.IsNaN(v) || math.IsInf(v, 0) {
						return lo, hi, undrawable("series %q holds %v", s.Name, v)
					}
					lo[axis], hi[axis] = min(lo[axis], v), max(hi[axis], v)
				}
			}
		}
	}
	if math.IsInf(lo[0], 1) {
		return lo, hi, undrawable("no points")
	}
	for axis := range lo {
		if math.IsInf(hi[axis]-lo[axis], 0) {
			return lo, hi, undrawable("values from %v to %v, a range beyond float64", lo[axis], hi[axis])
		}
	}
	if f.Dates && (lo[0] < minUnix || hi[0] >= endUnix) {
		return lo, hi, undrawable("dates beyond the years 0 to 9999")
	}
	return lo, hi, nil
}

// The dates a figure can label, as four digits: the years 0 to 9999,
// every year a record's time may have, from minUnix to before endUnix.
var (
	minUnix = float64(time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC).Unix())
	endUnix = float64(time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC).Unix())
)

// build returns f as a gonum plot and its legend.
func (f *Figure) build() (*gplot.Plot, *gplot.Legend, error) {
	lo, hi, err := f.check()
	if err != nil {
		return nil, nil, err
	}
	l := f.style()
	p := gplot.New()
	p.Title.Text = f.Title
	p.X.Label.Text = f.XLabel
	p.Y.Label.Text = f.YLabel
	p.Add(plotter.NewGrid())
	legend := &p.Legend
	if l.legendWidth > 0 {
		sep := gplot.NewLegend()
		sep.TextStyle.Font.Size = 10
		legend = &sep
	}
	named := false
	for i, s := range f.Series {
		if len(s.X) == 0 {
			continue
		}
		line, err := l.addSeries(p, i, s)
		if err != nil {
			return nil, nil, err
		}
		if s.Name != "" {
			legend.Add(s.Name, line)
			named = true
		}
	}
	if named {
		legend.Top, legend.Left = true, true
	}
	switch {
	case f.Dates && l.calendar:
		xlo, xhi := lo[0], hi[0]
		if !(xhi > xlo) { // one date: a day either side, within the years labelled
			xlo, xhi = max(xlo-86400, minUnix), min(xhi+86400, endUnix-1)
		}
		p.X.Min, p.X.Max = xlo, xhi
		p.X.Tick.Marker = dateTicks{}
	case f.Dates:
		p.X.Tick.Marker = gplot.TimeTicks{Format: "2006-01-02", Time: func(t float64) time.Time { return time.Unix(int64(t), 0).UTC() }}
	}
	if l.yTicks > 0 {
		setRange(&p.Y, lo[1], hi[1], l.yTicks, true)
	}
	return p, legend, nil
}

// addSeries adds series i, s, to p: its band, its line and its markers.
// It returns the line, the series' entry in the legend.
func (l *look) addSeries(p *gplot.Plot, i int, s Series) (*plotter.Line, error) {
	if s.Lo != nil {
		band := make(plotter.XYs, 0, 2*len(s.X))
		for k := range s.X {
			band = append(band, plotter.XY{X: s.X[k], Y: s.Hi[k]})
		}
		for k := len(s.X) - 1; k >= 0; k-- {
			band = append(band, plotter.XY{X: s.X[k], Y: s.Lo[k]})
		}
		poly, err := plotter.NewPolygon(band)
		if err != nil {
			return nil, undrawable("series %q: %v", s.Name, err)
		}
		poly.Color = l.color(i, l.band)
		poly.LineStyle.Width = 0
		if l.edge > 0 {
			// A faint band with an outline keeps each line readable where
			// bands overlap.
			poly.LineStyle = draw.LineStyle{Color: l.color(i, l.edge), Width: 0.5}
		}
		p.Add(poly)
	}
	xy := make(plotter.XYs, len(s.X))
	for k := range s.X {
		xy[k] = plotter.XY{X: s.X[k], Y: s.Y[k]}
	}
	line, err := plotter.NewLine(xy)
	if err != nil {
		return nil, undrawable("series %q: %v", s.Name, err)
	}
	line.Color = l.color(i, 1)
	line.Width = l.lineWidth
	p.Add(line)
	if l.allMarkers || len(xy) == 1 {
		points, err := plotter.NewScatter(xy)
		if err != nil {
			return nil, undrawable("series %q: %v", s.Name, err)
		}
		points.GlyphStyle = draw.GlyphStyle{Color: l.color(i, 1), Radius: l.marker, Shape: draw.CircleGlyph{}}
		p.Add(points)
	}
	return line, nil
}

// Write draws f to w in format "svg" or "png".
func (f *Figure) Write(w io.Writer, format string) error {
	width, height := f.Width, f.Height
	if width <= 0 || height <= 0 {
		width, height = 16*vg.Centimeter, 10*vg.Centimeter
	}
	cw, err := formatCanvas(format, width, height)
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	p, legend, err := f.build()
	if err != nil {
		return err
	}
	dc := draw.New(cw)
	if lw := f.style().legendWidth; lw > 0 {
		p.Draw(draw.Crop(dc, 0, -lw, 0, 0))
		legend.Draw(draw.Crop(dc, width-lw+10, 0, 0, -20))
	} else {
		p.Draw(dc)
	}
	_, err = cw.WriteTo(w)
	return err
}

// style returns f's look.
func (f *Figure) style() *look {
	if f.look == nil {
		return &defaultLook
	}
	return f.look
}

// Save draws f to the file path, in the format its extension names (.svg
// or .png), replacing it atomically; on an error path is left as it was.
func (f *Figure) Save(path string) error {
	format := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	if _, err := formatCanvas(format, 1, 1); err != nil {
		return fmt.Errorf("plot: %s: %w", path, err)
	}
	if _, _, err := f.build(); err != nil {
		return err
	}
	return safefile.Write(path, func(w io.Writer) error { return f.Write(w, format) })
}
