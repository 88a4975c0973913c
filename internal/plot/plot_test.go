package plot

import (
	"bytes"
	"errors"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/messages"
)

func TestWrite(t *testing.T) {
	day := float64(24 * 3600)
	t0 := float64(time.Date(2025, 1, 6, 0, 0, 0, 0, time.UTC).Unix())
	f := Figure{Title: "Kai", XLabel: "date", YLabel: "μ", Dates: true, Series: []Series{
		{Name: "μ ± σ", X: []float64{t0, t0 + day, t0 + 9*day}, Y: []float64{25, 27, 30}, Lo: []float64{17, 20, 26}, Hi: []float64{33, 34, 34}},
		{Name: "other", X: []float64{t0}, Y: []float64{20}},
	}}
	var svg bytes.Buffer
	if err := f.Write(&svg, "svg"); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"<svg", "Kai", "μ ± σ", "other", "2025-01-"} {
		if !bytes.Contains(svg.Bytes(), []byte(s)) {
			t.Errorf("the SVG does not hold %q", s)
		}
	}
	var img bytes.Buffer
	if err := f.Write(&img, "png"); err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(&img); err != nil {
		t.Errorf("not a PNG: %v", err)
	}
	if err := f.Write(&img, "pdf"); !errors.Is(err, messages.ErrInput) || !strings.Contains(err.Error(), `"pdf"`) {
		t.Errorf("pdf: err %v, want messages.ErrInput naming the format", err)
	}
}

// TestBadData: values a figure cannot hold are errors, and the file is
// left as it was; extreme but finite values draw a file of bounded size.
func TestBadData(t *testing.T) {
	one := func(x, y float64) Figure { return Figure{Series: []Series{{X: []float64{0, x}, Y: []float64{0, y}}}} }
	for name, f := range map[string]Figure{
		"no series":   {},
		"no points":   {Series: []Series{{}}},
		"unequal":     {Series: []Series{{X: []float64{1, 2}, Y: []float64{1}}}},
		"half a band": {Series: []Series{{X: []float64{1}, Y: []float64{1}, Lo: []float64{0}}}},
		"NaN":         one(1, math.NaN()),
		"Inf":         one(math.Inf(1), 1),
		"range":       {Series: []Series{{X: []float64{-1e308, 1e308}, Y: []float64{0, 1}}}},
		"dates":       {Dates: true, Series: []Series{{X: []float64{1e300}, Y: []float64{0}}}},
	} {
		path := filepath.Join(t.TempDir(), "f.svg")
		os.WriteFile(path, []byte("old"), 0o644)
		if err := f.Save(path); !errors.Is(err, messages.ErrInput) {
			t.Errorf("%s: err %v, want messages.ErrInput", name, err)
		}
		if b, _ := os.ReadFile(path); string(b) != "old" {
			t.Errorf("%s: the file was changed", name)
		}
	}
	for name, f := range map[string]Figure{
		"huge":  one(3e10, 1e17),
		"flat":  one(0, 0),
		"small": one(1e-300, 5e-324),
	} {
		var buf bytes.Buffer
		if err := f.Write(&buf, "svg"); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if buf.Len() > 200_000 {
			t.Errorf("%s: an SVG of %d bytes for two points", name, buf.Len())
		}
	}
}
