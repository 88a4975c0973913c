package plot

import (
	"errors"
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
	Series []Series
	// Width and Height are the figure's size; 0 means 16 cm by 10 cm.
	Width, Height vg.Length
}

// Errors of Write and Save.
var (
	// ErrData reports a figure that cannot be drawn: no points, a value
	// not finite, lines of unequal lengths, a range beyond float64.
	ErrData = errors.New("plot: cannot draw the data")
	// ErrFormat reports a file format other than svg or png.
	ErrFormat = errors.New("plot: format must be svg or png")
)

// check validates f's data.
func (f *Figure) check() error {
	if len(f.Series) == 0 {
		return fmt.Errorf("%w: no series", ErrData)
	}
	lo, hi := [2]float64{math.Inf(1), math.Inf(1)}, [2]float64{math.Inf(-1), math.Inf(-1)}
	for _, s := range f.Series {
		n := len(s.X)
		if n == 0 || len(s.Y) != n || (s.Lo == nil) != (s.Hi == nil) || (s.Lo != nil && (len(s.Lo) != n || len(s.Hi) != n)) {
			return fmt.Errorf("%w: series %q has no points or columns of unequal lengths", ErrData, s.Name)
		}
		for axis, cols := range [][][]float64{{s.X}, {s.Y, s.Lo, s.Hi}} {
			for _, col := range cols {
				for _, v := range col {
					if math.IsNaN(v) || math.IsInf(v, 0) {
						return fmt.Errorf("%w: series %q holds %v", ErrData, s.Name, v)
					}
					lo[axis], hi[axis] = min(lo[axis], v), max(hi[axis], v)
				}
			}
		}
	}
	for axis := range lo {
		if math.IsInf(hi[axis]-lo[axis], 0) {
			return fmt.Errorf("%w: values from %v to %v, a range beyond float64", ErrData, lo[axis], hi[axis])
		}
	}
	if f.Dates && (lo[0] < minUnix || hi[0] > maxUnix) {
		return fmt.Errorf("%w: dates beyond the years 1 to 9999", ErrData)
	}
	return nil
}

// The dates a figure can label: the years 1 to 9999.
var (
	minUnix = float64(time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC).Unix())
	maxUnix = float64(time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC).Unix())
)

// build returns f as a gonum plot.
func (f *Figure) build() (*gplot.Plot, error) {
	if err := f.check(); err != nil {
		return nil, err
	}
	p := gplot.New()
	p.Title.Text = f.Title
	p.X.Label.Text = f.XLabel
	p.Y.Label.Text = f.YLabel
	p.Add(plotter.NewGrid())
	if f.Dates {
		p.X.Tick.Marker = gplot.TimeTicks{Format: "2006-01-02", Time: func(t float64) time.Time { return time.Unix(int64(t), 0).UTC() }}
	}
	legend := false
	for i, s := range f.Series {
		c := plotutil.Color(i)
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
				return nil, fmt.Errorf("%w: %v", ErrData, err)
			}
			r, g, b, _ := c.RGBA()
			poly.Color = color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 60}
			poly.LineStyle.Width = 0
			p.Add(poly)
		}
		xy := make(plotter.XYs, len(s.X))
		for k := range s.X {
			xy[k] = plotter.XY{X: s.X[k], Y: s.Y[k]}
		}
		line, points, err := plotter.NewLinePoints(xy)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrData, err)
		}
		line.Color = c
		line.Width = vg.Points(1.5)
		points.Color = c
		points.Shape = draw.CircleGlyph{}
		points.Radius = vg.Points(1.5)
		p.Add(line, points)
		if s.Name != "" {
			p.Legend.Add(s.Name, line)
			legend = true
		}
	}
	if legend {
		p.Legend.Top = true
		p.Legend.Left = true
	}
	return p, nil
}

// Write draws f to w in format "svg" or "png".
func (f *Figure) Write(w io.Writer, format string) error {
	if format != "svg" && format != "png" {
		return fmt.Errorf("%w: %q", ErrFormat, format)
	}
	p, err := f.build()
	if err != nil {
		return err
	}
	width, height := f.Width, f.Height
	if width <= 0 || height <= 0 {
		width, height = 16*vg.Centimeter, 10*vg.Centimeter
	}
	wt, err := p.WriterTo(width, height, format)
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	_, err = wt.WriteTo(w)
	return err
}

// Save draws f to the file path, in the format its extension names (.svg
// or .png), replacing it atomically; on an error path is left as it was.
func (f *Figure) Save(path string) error {
	format := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	if format != "svg" && format != "png" {
		return fmt.Errorf("%s: %w", path, ErrFormat)
	}
	if _, err := f.build(); err != nil {
		return err
	}
	return safefile.Write(path, func(w io.Writer) error { return f.Write(w, format) })
}
