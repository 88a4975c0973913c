package evaluation

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Panel is one plot of a figure: a metric by training share, one line per
// model, with its 95 % interval as a band.
type Panel struct {
	Title  string
	YLabel string
	X      []float64
	Lines  []Line
}

// Line is one model's series.
type Line struct {
	Name       string
	Mean, Half []float64
}

// The models' styles: colour, dash pattern of the mean line, and marker.
// Distinct dashes and markers keep a line visible where another lies on
// it (two models equal to three decimals draw one path otherwise).
var (
	palette = []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"}
	dashes  = []string{"", "7,3", "2,2", "9,3,2,3", "4,4", "1,3"}
	markers = []string{"circle", "square", "triangle", "diamond", "cross", "circle"}
)

// WriteFigureSVG draws panels in a grid of cols columns, like Figure 4 of
// the score-based paper (rows: data sets; columns: metrics), as a
// self-contained SVG.
//
// Each y axis spans the panel's bands rounded out to a tick, with ticks at
// round steps (1, 2 or 5 times a power of ten, about five a panel,
// niceTicks); x ticks are the same kind of steps over the x values. Bands
// (the 95 % intervals) are drawn first, each a light fill of its line's
// colour with dashed edges, so that where they overlap both edges stay
// visible; every mean line is drawn over every band, with its own dash
// pattern and marker.
//
// A NaN in a line's Mean is a missing point, left out. Otherwise the
// figure must be drawable, or nothing is written: cols at least 1 and
// panels not empty, each panel with x values (ErrNoData) that are finite
// (ErrNotFinite) and increasing, and lines with one Mean and one Half per
// x value, each Half not negative (ErrInput), and finite where Mean is
// given (ErrNotFinite); titles, labels and names hold no control
// characters and are valid UTF-8 (ErrText).
func WriteFigureSVG(w io.Writer, panels []Panel, cols int) error {
	if err := checkFigure(panels, cols); err != nil {
		return err
	}
	const pw, ph, ml, mr, mt, mb = 320.0, 230.0, 58.0, 12.0, 28.0, 40.0
	rows := (len(panels)-1)/cols + 1 // ⌈len/cols⌉ without overflow for a huge cols
	legend := 40.0
	W, H := float64(cols)*pw, float64(rows)*ph+legend
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="Helvetica,Arial,sans-serif" font-size="11">`+"\n", W, H, W, H)
	fmt.Fprintf(bw, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	for pi, p := range panels {
		ox, oy := float64(pi%cols)*pw, float64(pi/cols)*ph
		x0, x1 := ox+ml, ox+pw-mr
		y0, y1 := oy+ph-mb, oy+mt
		lo, hi := p.yRange()
		yt := niceTicks(lo, hi, 5)
		lo, hi = math.Min(lo, yt.lo), math.Max(hi, yt.hi)
		xmin, xmax := p.X[0], p.X[len(p.X)-1]
		sx := func(x float64) float64 {
			if xmax == xmin {
				return (x0 + x1) / 2
			}
			return x0 + (x-xmin)/(xmax-xmin)*(x1-x0)
		}
		sy := func(y float64) float64 { return y0 - (y-lo)/(hi-lo)*(y0-y1) }
		fmt.Fprintf(bw, `<text x="%.1f" y="%.1f" text-anchor="middle" font-weight="bold">%s</text>`+"\n", (x0+x1)/2, oy+16, html.EscapeString(p.Title))
		for _, v := range yt.values() {
			fmt.Fprintf(bw, `<text x="%.1f" y="%.1f" text-anchor="end" font-size="9">%s</text>`+"\n", x0-4, sy(v)+3, yt.label(v))
			fmt.Fprintf(bw, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#e4e4e4"/>`+"\n", x0, sy(v), x1, sy(v))
		}
		xt := niceTicks(xmin, xmax, 8)
		for _, x := range xt.values() {
			if x < xmin-1e-9*xt.step || x > xmax+1e-9*xt.step {
				continue
			}
			fmt.Fprintf(bw, `<text x="%.1f" y="%.1f" text-anchor="middle" font-size="9">%s</text>`+"\n", sx(x), y0+12, xt.label(x))
			fmt.Fprintf(bw, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#888"/>`+"\n", sx(x), y0, sx(x), y0+3)
		}
		fmt.Fprintf(bw, `<text x="%.1f" y="%.1f" text-anchor="middle" font-size="9">proportion of data used for training</text>`+"\n", (x0+x1)/2, y0+26)
		fmt.Fprintf(bw, `<text transform="translate(%.1f,%.1f) rotate(-90)" text-anchor="middle" font-size="9">%s</text>`+"\n", ox+12, (y0+y1)/2, html.EscapeString(p.YLabel))
		paths := make([]path, len(p.Lines))
		for li, l := range p.Lines {
			for k, x := range p.X {
				if math.IsNaN(l.Mean[k]) {
					continue
				}
				paths[li].mean = append(paths[li].mean, point{sx(x), sy(l.Mean[k])})
				paths[li].upper = append(paths[li].upper, point{sx(x), sy(l.Mean[k] + l.Half[k])})
				paths[li].lower = append(paths[li].lower, point{sx(x), sy(l.Mean[k] - l.Half[k])})
			}
		}
		for li, pa := range paths {
			if len(pa.mean) == 0 {
				continue
			}
			c := palette[li%len(palette)]
			band := slices.Clone(pa.upper)
			for k := len(pa.lower) - 1; k >= 0; k-- {
				band = append(band, pa.lower[k])
			}
			fmt.Fprintf(bw, `<polygon points="%s" fill="%s" fill-opacity="0.07" stroke="none"/>`+"\n", points(band), c)
			for _, edge := range [][]point{pa.upper, pa.lower} {
				fmt.Fprintf(bw, `<polyline class="band" points="%s" fill="none" stroke="%s" stroke-width="0.8" stroke-dasharray="2,3" stroke-opacity="0.8"/>`+"\n", points(edge), c)
			}
		}
		for li, pa := range paths {
			if len(pa.mean) == 0 {
				continue
			}
			c, d := palette[li%len(palette)], dashes[li%len(dashes)]
			dash := ""
			if d != "" {
				dash = fmt.Sprintf(` stroke-dasharray="%s"`, d)
			}
			fmt.Fprintf(bw, `<polyline class="mean" points="%s" fill="none" stroke="%s" stroke-width="1.8"%s/>`+"\n", points(pa.mean), c, dash)
			for _, pt := range pa.mean {
				writeMarker(bw, markers[li%len(markers)], pt.x, pt.y, c)
			}
		}
		fmt.Fprintf(bw, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="#888"/>`+"\n", x0, y1, x1-x0, y0-y1)
	}
	// Legend from the first panel's lines.
	if len(panels) > 0 {
		x := 20.0
		ly := H - legend + 16
		for li, l := range panels[0].Lines {
			c, d := palette[li%len(palette)], dashes[li%len(dashes)]
			dash := ""
			if d != "" {
				dash = fmt.Sprintf(` stroke-dasharray="%s"`, d)
			}
			fmt.Fprintf(bw, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="1.8"%s/>`+"\n", x, ly, x+28, ly, c, dash)
			writeMarker(bw, markers[li%len(markers)], x+14, ly, c)
			fmt.Fprintf(bw, `<text x="%.1f" y="%.1f">%s</text>`+"\n", x+34, ly+4, html.EscapeString(l.Name))
			x += 50 + 7*float64(utf8.RuneCountInString(l.Name))
		}
		fmt.Fprintf(bw, `<text x="20" y="%.1f" font-size="9">lines: mean over seasons; shaded bands with dashed edges: 95 %% intervals</text>`+"\n", ly+18)
	}
	fmt.Fprintln(bw, "</svg>")
	return bw.Flush()
}

// point is a point of the drawing, in SVG units.
type point struct{ x, y float64 }

// path is one line of a panel: its means and its band's edges.
type path struct{ mean, upper, lower []point }

// points writes pts as an SVG points list.
func points(pts []point) string {
	var sb strings.Builder
	for i, p := range pts {
		if i > 0 {
			sb.WriteByte(' ')
		}
		fmt.Fprintf(&sb, "%.1f,%.1f", p.x, p.y)
	}
	return sb.String()
}

// writeMarker draws a marker of the given shape centred at (x, y), white
// filled so that it reads on top of other lines.
func writeMarker(w io.Writer, shape string, x, y float64, c string) {
	const r = 3.0
	switch shape {
	case "square":
		fmt.Fprintf(w, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="white" stroke="%s" stroke-width="1.2"/>`+"\n", x-r, y-r, 2*r, 2*r, c)
	case "triangle":
		fmt.Fprintf(w, `<polygon points="%.1f,%.1f %.1f,%.1f %.1f,%.1f" fill="white" stroke="%s" stroke-width="1.2"/>`+"\n", x, y-r-0.5, x+r+0.5, y+r, x-r-0.5, y+r, c)
	case "diamond":
		fmt.Fprintf(w, `<polygon points="%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f" fill="white" stroke="%s" stroke-width="1.2"/>`+"\n", x, y-r-1, x+r+1, y, x, y+r+1, x-r-1, y, c)
	case "cross":
		fmt.Fprintf(w, `<path d="M%.1f,%.1f L%.1f,%.1f M%.1f,%.1f L%.1f,%.1f" stroke="%s" stroke-width="1.6"/>`+"\n", x-r, y-r, x+r, y+r, x-r, y+r, x+r, y-r, c)
	default:
		fmt.Fprintf(w, `<circle cx="%.1f" cy="%.1f" r="%.1f" fill="white" stroke="%s" stroke-width="1.2"/>`+"\n", x, y, r, c)
	}
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
	if n := (t.hi - t.lo) / step; !(step > 0) || !finite(t.lo) || !finite(t.hi) || !(n <= 4*float64(want)+4) || t.decimals > 20 {
		// No round step: subnormal spans, or values so large that the
		// multiples of the step do not round-trip.
		return ticks{lo: lo, hi: hi, step: hi - lo, decimals: -1}
	}
	return t
}

// values returns the tick values, each rounded to the step's decimals so
// that 0.1·3 is written as 0.3.
func (t ticks) values() []float64 {
	if t.decimals < 0 {
		if t.hi == t.lo {
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
// sign.
func (t ticks) label(v float64) string {
	var s string
	if t.decimals < 0 {
		s = strconv.FormatFloat(v, 'g', 4, 64)
	} else {
		s = strconv.FormatFloat(v, 'f', t.decimals, 64)
	}
	if strings.Trim(s, "-0.") == "" {
		s = strings.TrimPrefix(s, "-")
	}
	return strings.Replace(s, "-", "−", 1)
}

// yRange returns the extent of the panel's bands, or [0, 1] if the panel
// has no points. A single value is widened by ½ or half its size, whichever
// is more, so that the span is not lost to rounding.
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
	if hi == lo {
		d := math.Max(0.5, 0.5*math.Abs(hi))
		hi, lo = hi+d, lo-d
	}
	return lo, hi
}

// checkFigure is WriteFigureSVG's rule for a drawable figure.
func checkFigure(panels []Panel, cols int) error {
	if cols < 1 {
		return fmt.Errorf("evaluation: WriteFigureSVG: cols = %d: %w", cols, ErrInput)
	}
	if len(panels) == 0 {
		return fmt.Errorf("evaluation: WriteFigureSVG: no panels: %w", ErrNoData)
	}
	for pi, p := range panels {
		fail := func(format string, a ...any) error {
			return fmt.Errorf("evaluation: WriteFigureSVG: panels[%d]: "+format, append([]any{pi}, a...)...)
		}
		if err := checkText("title", p.Title); err != nil {
			return fail("%w", err)
		}
		if err := checkText("y label", p.YLabel); err != nil {
			return fail("%w", err)
		}
		if len(p.X) == 0 {
			return fail("no x values: %w", ErrNoData)
		}
		for k, x := range p.X {
			if !finite(x) {
				return fail("X[%d] = %v: %w", k, x, ErrNotFinite)
			}
			if k > 0 && !(x > p.X[k-1]) {
				return fail("X[%d] = %v after %v, not increasing: %w", k, x, p.X[k-1], ErrInput)
			}
		}
		if span := p.X[len(p.X)-1] - p.X[0]; !finite(span) {
			return fail("x values span %v: %w", span, ErrNotFinite)
		}
		for li, l := range p.Lines {
			if err := checkText("line name", l.Name); err != nil {
				return fail("Lines[%d]: %w", li, err)
			}
			if len(l.Mean) != len(p.X) || len(l.Half) != len(p.X) {
				return fail("Lines[%d]: %d means and %d half-widths for %d x values: %w", li, len(l.Mean), len(l.Half), len(p.X), ErrInput)
			}
			for k, m := range l.Mean {
				if math.IsNaN(m) {
					continue
				}
				if !finite(m) || !finite(l.Half[k]) {
					return fail("Lines[%d]: Mean[%d] = %v, Half[%d] = %v: %w", li, k, m, k, l.Half[k], ErrNotFinite)
				}
				if l.Half[k] < 0 {
					return fail("Lines[%d]: Half[%d] = %v is negative: %w", li, k, l.Half[k], ErrInput)
				}
			}
		}
		if lo, hi := p.yRange(); !finite(hi - lo) {
			return fail("y values span beyond float64: %w", ErrNotFinite)
		}
	}
	return nil
}
