package plot_test

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/skillgraph/skillgraph/internal/plot"
)

// A player's learning curve over three seasons, as SVG.
func ExampleLearningCurves() {
	c := plot.Curve{Name: "Ada"}
	for k, mu := range []float64{25, 27.5, 29} {
		c.Points = append(c.Points, plot.CurvePoint{Time: time.Date(2020+k, 6, 1, 0, 0, 0, 0, time.UTC), Mu: mu, Sigma: 8.3 - 2*float64(k)})
	}
	var buf bytes.Buffer
	err := plot.LearningCurves(&buf, "svg", []plot.Curve{c})
	fmt.Println(err, strings.Contains(buf.String(), "<svg"), strings.Contains(buf.String(), "2021"))
	// Output: <nil> true true
}

// One panel of the evaluation figure: a model's metric by training share
// with its interval.
func ExampleGrid() {
	p := plot.Panel{Title: "league: AUC", XLabel: "share of training data", YLabel: "AUC",
		X:     []float64{0.2, 0.4, 0.6, 0.8},
		Lines: []plot.Line{{Name: "TrueSkill", Mean: []float64{0.6, 0.65, 0.68, 0.7}, Half: []float64{0.05, 0.04, 0.04, 0.03}}}}
	var buf bytes.Buffer
	err := plot.Grid(&buf, "svg", []plot.Panel{p}, 1)
	fmt.Println(err, strings.Contains(buf.String(), "league: AUC"))
	// A mean with a negative half-width cannot be drawn.
	p.Lines[0].Half[0] = -1
	fmt.Println(plot.Grid(&buf, "svg", []plot.Panel{p}, 1))
	// Output:
	// <nil> true
	// plot: grid: panels[0]: Lines[0]: Half[0] = -1 is negative: invalid input
}

// A rating history with its μ ± σ band, drawn as SVG.
func ExampleFigure_Write() {
	f := plot.Figure{
		Title: "Ada", XLabel: "game", YLabel: "skill μ",
		Series: []plot.Series{{
			Name: "μ ± σ",
			X:    []float64{1, 2, 3},
			Y:    []float64{25, 27.9, 26.4},
			Lo:   []float64{16.7, 21.6, 20.9},
			Hi:   []float64{33.3, 34.2, 31.9},
		}},
	}
	var svg bytes.Buffer
	if err := f.Write(&svg, "svg"); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(strings.Contains(svg.String(), "<svg"))
	// Output: true
}
