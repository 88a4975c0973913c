package plot_test

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/skillgraph/skillgraph/internal/plot"
)

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
