package history

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"math"

	"github.com/skillgraph/skillgraph/models/throughtime"
)

// curve is one player's learning curve, with the label to show.
type curve struct {
	name   string
	points []throughtime.Point
}

var palette = []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"}

// writeCurvesSVG draws learning curves, μ over time with a ±σ band each,
// as a self-contained SVG; toYear turns a time into the year shown on the
// axis.
func writeCurvesSVG(w io.Writer, curves []curve, toYear func(float64) float64) error {
	const W, H, ml, mr, mt, mb = 760.0, 420.0, 50.0, 170.0, 20.0, 40.0
	x0, x1, y0, y1 := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, c := range curves {
		for _, p := range c.points {
			x := toYear(p.Time)
			x0, x1 = math.Min(x0, x), math.Max(x1, x)
			y0, y1 = math.Min(y0, p.Mu-p.Sigma), math.Max(y1, p.Mu+p.Sigma)
		}
	}
	if !(x1 > x0) || !(y1 > y0) {
		return fmt.Errorf("learning curves: nothing to draw")
	}
	// Round axis ends: whole decades and steps of 0.5 in skill.
	x0, x1 = math.Floor(x0/10)*10, math.Ceil(x1/10)*10
	y0, y1 = math.Floor(y0*2)/2, math.Ceil(y1*2)/2
	px := func(x float64) float64 { return ml + (x-x0)/(x1-x0)*(W-ml-mr) }
	py := func(y float64) float64 { return H - mb - (y-y0)/(y1-y0)*(H-mt-mb) }
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="Helvetica,Arial,sans-serif" font-size="11">`+"\n", W, H, W, H)
	fmt.Fprintf(bw, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	for x := x0; x <= x1; x += 10 {
		fmt.Fprintf(bw, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/><text x="%.1f" y="%.1f" text-anchor="middle">%.0f</text>`+"\n",
			px(x), py(y0), px(x), py(y1), px(x), H-mb+15, x)
	}
	for y := y0; y <= y1+1e-9; y += 0.5 {
		fmt.Fprintf(bw, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/><text x="%.1f" y="%.1f" text-anchor="end">%.1f</text>`+"\n",
			px(x0), py(y), px(x1), py(y), ml-5, py(y)+4, y)
	}
	fmt.Fprintf(bw, `<text x="%.1f" y="%.1f" text-anchor="middle">year</text>`+"\n", (ml+W-mr)/2, H-8)
	fmt.Fprintf(bw, `<text transform="translate(14 %.1f) rotate(-90)" text-anchor="middle">skill μ ± σ</text>`+"\n", (mt+H-mb)/2)
	for i, c := range curves {
		col := palette[i%len(palette)]
		var band, line string
		for _, p := range c.points {
			band += fmt.Sprintf("%.1f,%.1f ", px(toYear(p.Time)), py(p.Mu+p.Sigma))
		}
		for j := len(c.points) - 1; j >= 0; j-- {
			p := c.points[j]
			band += fmt.Sprintf("%.1f,%.1f ", px(toYear(p.Time)), py(p.Mu-p.Sigma))
		}
		for _, p := range c.points {
			line += fmt.Sprintf("%.1f,%.1f ", px(toYear(p.Time)), py(p.Mu))
		}
		// Bands are faint and outlined, so that where they overlap each
		// line stays readable.
		fmt.Fprintf(bw, `<polygon points="%s" fill="%s" fill-opacity="0.12" stroke="%s" stroke-opacity="0.35" stroke-width="0.5"/>`+"\n", band, col, col)
		fmt.Fprintf(bw, `<polyline points="%s" fill="none" stroke="%s" stroke-width="1.6"/>`+"\n", line, col)
		ly := mt + 14 + float64(i)*16
		fmt.Fprintf(bw, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="2"/><text x="%.1f" y="%.1f">%s</text>`+"\n",
			W-mr+10, ly-4, W-mr+28, ly-4, col, W-mr+32, ly, html.EscapeString(c.name))
	}
	fmt.Fprintln(bw, "</svg>")
	return bw.Flush()
}
