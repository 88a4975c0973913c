package evaluation

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"math"
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

var palette = []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"}

// WriteFigureSVG draws panels in a grid of cols columns, like Figure 4 of
// the score-based paper (rows: data sets; columns: metrics), as a
// self-contained SVG.
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
	const pw, ph, ml, mr, mt, mb = 300.0, 220.0, 55.0, 10.0, 28.0, 40.0
	rows := (len(panels)-1)/cols + 1 // ⌈len/cols⌉ without overflow for a huge cols
	legend := 24.0
	W, H := float64(cols)*pw, float64(rows)*ph+legend
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="Helvetica,Arial,sans-serif" font-size="11">`+"\n", W, H, W, H)
	fmt.Fprintf(bw, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	for pi, p := range panels {
		ox, oy := float64(pi%cols)*pw, float64(pi/cols)*ph
		x0, x1 := ox+ml, ox+pw-mr
		y0, y1 := oy+ph-mb, oy+mt
		lo, hi := p.yRange()
		xmin, xmax := p.X[0], p.X[len(p.X)-1]
		sx := func(x float64) float64 {
			if xmax == xmin {
				return (x0 + x1) / 2
			}
			return x0 + (x-xmin)/(xmax-xmin)*(x1-x0)
		}
		sy := func(y float64) float64 { return y0 - (y-lo)/(hi-lo)*(y0-y1) }
		fmt.Fprintf(bw, `<text x="%.1f" y="%.1f" text-anchor="middle" font-weight="bold">%s</text>`+"\n", (x0+x1)/2, oy+16, html.EscapeString(p.Title))
		fmt.Fprintf(bw, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="#888"/>`+"\n", x0, y1, x1-x0, y0-y1)
		for k := 0; k <= 4; k++ {
			v := lo + (hi-lo)*float64(k)/4
			fmt.Fprintf(bw, `<text x="%.1f" y="%.1f" text-anchor="end" font-size="9">%.3g</text>`+"\n", x0-4, sy(v)+3, v)
			fmt.Fprintf(bw, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#eee"/>`+"\n", x0, sy(v), x1, sy(v))
		}
		for _, x := range p.X {
			fmt.Fprintf(bw, `<text x="%.1f" y="%.1f" text-anchor="middle" font-size="9">%.1f</text>`+"\n", sx(x), y0+12, x)
		}
		fmt.Fprintf(bw, `<text x="%.1f" y="%.1f" text-anchor="middle" font-size="9">proportion of data used for training</text>`+"\n", (x0+x1)/2, y0+26)
		fmt.Fprintf(bw, `<text transform="translate(%.1f,%.1f) rotate(-90)" text-anchor="middle" font-size="9">%s</text>`+"\n", ox+12, (y0+y1)/2, html.EscapeString(p.YLabel))
		for li, l := range p.Lines {
			c := palette[li%len(palette)]
			var band, line string
			for k, x := range p.X {
				if math.IsNaN(l.Mean[k]) {
					continue
				}
				line += fmt.Sprintf("%.1f,%.1f ", sx(x), sy(l.Mean[k]))
				band += fmt.Sprintf("%.1f,%.1f ", sx(x), sy(l.Mean[k]+l.Half[k]))
			}
			if line == "" {
				continue
			}
			for k := len(p.X) - 1; k >= 0; k-- {
				if !math.IsNaN(l.Mean[k]) {
					band += fmt.Sprintf("%.1f,%.1f ", sx(p.X[k]), sy(l.Mean[k]-l.Half[k]))
				}
			}
			fmt.Fprintf(bw, `<polygon points="%s" fill="%s" fill-opacity="0.12" stroke="none"/>`+"\n", band, c)
			fmt.Fprintf(bw, `<polyline points="%s" fill="none" stroke="%s" stroke-width="1.6"/>`+"\n", line, c)
		}
	}
	// Legend from the first panel's lines.
	if len(panels) > 0 {
		x := 20.0
		for li, l := range panels[0].Lines {
			c := palette[li%len(palette)]
			fmt.Fprintf(bw, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="2"/>`+"\n", x, H-10, x+18, H-10, c)
			fmt.Fprintf(bw, `<text x="%.1f" y="%.1f">%s</text>`+"\n", x+22, H-6, html.EscapeString(l.Name))
			x += 40 + 7*float64(len(l.Name))
		}
	}
	fmt.Fprintln(bw, "</svg>")
	return bw.Flush()
}

// yRange returns the panel's y axis: the extent of the bands, or [0, 1]
// if the panel has no points, padded by 5 % each side. A single value is
// widened by ½ or half its size, whichever is more, so that the span is not
// lost to rounding.
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
	pad := 0.05 * (hi - lo)
	return lo - pad, hi + pad
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
