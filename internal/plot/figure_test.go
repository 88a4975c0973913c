package plot

import (
	"bytes"
	"encoding/binary"
	"encoding/xml"
	"errors"
	"fmt"
	"image/png"
	"io"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/messages"
	gplot "gonum.org/v1/plot"
)

// wellFormed fails t unless s is well-formed XML.
func wellFormed(t *testing.T, s string) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(s))
	for {
		_, err := d.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
	}
}

// good is a drawable panel of one line over two shares.
func good() Panel {
	return Panel{Title: "t", YLabel: "y", X: []float64{0.1, 0.2},
		Lines: []Line{{Name: "m", Mean: []float64{1, 2}, Half: []float64{0.1, 0.1}}}}
}

func TestGridSVGAndPNG(t *testing.T) {
	panels := []Panel{good(), good(), good(), good()}
	panels[0].Title, panels[0].Lines[0].Name = "a <b>", "M&M"
	var svg bytes.Buffer
	if err := Grid(&svg, "svg", panels, 3); err != nil {
		t.Fatal(err)
	}
	s := svg.String()
	wellFormed(t, s)
	// The text escaped, and the size: 3 columns of 320 points by 2 rows of
	// 230 and the 40-point legend.
	if !strings.Contains(s, "a &lt;b&gt;") || !strings.Contains(s, "M&amp;M") || !strings.Contains(s, `width="960pt"`) || !strings.Contains(s, `height="500pt"`) {
		t.Errorf("SVG lacks the escaped text or the size 960 × 500 pt:\n%.600s", s)
	}
	var pngBuf bytes.Buffer
	if err := Grid(&pngBuf, "png", panels, 3); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&pngBuf)
	if err != nil {
		t.Fatal(err)
	}
	// vgimg draws at 96 dots per inch: 960 pt is 1280 pixels.
	if b := img.Bounds(); b.Dx() != 1280 || b.Dy() != 667 {
		t.Errorf("PNG %v, want 1280 × 667", b)
	}
	var none bytes.Buffer
	if err := Grid(&none, "gif", panels, 3); !errors.Is(err, messages.ErrInput) || none.Len() != 0 || !strings.Contains(err.Error(), `"gif"`) {
		t.Errorf("format gif: %v, %d bytes", err, none.Len())
	}
}

func TestGridRejectsUndrawableFigures(t *testing.T) {
	nan := math.NaN()
	with := func(f func(*Panel)) []Panel {
		p := good()
		f(&p)
		return []Panel{good(), p}
	}
	for _, c := range []struct {
		name   string
		panels []Panel
		cols   int
		text   string
	}{
		{"cols = 0", []Panel{good()}, 0, "cols = 0"},
		{"cols < 0", []Panel{good()}, -3, "cols = -3"},
		{"no panels", nil, 1, "no panels"},
		{"empty panel", []Panel{good(), {}}, 2, "panels[1]: no x values"},
		{"short Mean", with(func(p *Panel) { p.Lines[0].Mean = p.Lines[0].Mean[:1] }), 2, "panels[1]: Lines[0]: 1 means and 2 half-widths for 2 x values"},
		{"short Half", with(func(p *Panel) { p.Lines[0].Half = nil }), 2, "0 half-widths"},
		{"NaN x", with(func(p *Panel) { p.X[0] = nan }), 2, "X[0] = NaN"},
		{"x not increasing", with(func(p *Panel) { p.X[1] = p.X[0] }), 2, "not increasing"},
		{"x span overflows", with(func(p *Panel) { p.X[0], p.X[1] = -math.MaxFloat64, math.MaxFloat64 }), 2, "x values span +Inf"},
		{"infinite mean", with(func(p *Panel) { p.Lines[0].Mean[1] = math.Inf(-1) }), 2, "Mean[1] = -Inf"},
		{"NaN half", with(func(p *Panel) { p.Lines[0].Half[0] = nan }), 2, "Half[0] = NaN"},
		{"negative half", with(func(p *Panel) { p.Lines[0].Half[0] = -1 }), 2, "Half[0] = -1 is negative"},
		{"overflowing band", with(func(p *Panel) { p.Lines[0].Mean[0], p.Lines[0].Half[0] = math.MaxFloat64, math.MaxFloat64 }), 2, "beyond float64"},
		{"NUL in a title", with(func(p *Panel) { p.Title = "a\x00b" }), 2, "title"},
		{"newline in an x label", with(func(p *Panel) { p.XLabel = "a\nb" }), 2, "x label"},
		{"bad UTF-8 in a name", with(func(p *Panel) { p.Lines[0].Name = "\xff" }), 2, "line name"},
	} {
		var buf bytes.Buffer
		var err error
		func() {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("panic: %v", r)
				}
			}()
			err = Grid(&buf, "svg", c.panels, c.cols)
		}()
		if !errors.Is(err, messages.ErrInput) || !strings.Contains(err.Error(), c.text) {
			t.Errorf("%s: %v, want messages.ErrInput saying %q", c.name, err, c.text)
		}
		if buf.Len() != 0 {
			t.Errorf("%s: wrote %d bytes of a figure it rejects", c.name, buf.Len())
		}
	}
}

// TestGridSinglePointAndGaps: a panel of one x value and one of missing
// points only draw without a non-finite coordinate.
func TestGridSinglePointAndGaps(t *testing.T) {
	nan := math.NaN()
	var buf bytes.Buffer
	err := Grid(&buf, "svg", []Panel{
		{Title: "one x", X: []float64{0.5}, Lines: []Line{{Name: "a", Mean: []float64{3}, Half: []float64{0}}}},
		{Title: "all missing", X: []float64{0.1, 0.2}, Lines: []Line{{Name: "a", Mean: []float64{nan, nan}, Half: []float64{nan, nan}}}},
	}, 5)
	if err != nil {
		t.Fatal(err)
	}
	s := buf.String()
	wellFormed(t, s)
	if strings.Contains(s, "NaN") || strings.Contains(s, "Inf") {
		t.Errorf("SVG holds a non-finite coordinate")
	}
}

// TestNiceTicks: round steps (1, 2 or 5 times a power of ten) and ends
// rounded out to them.
func TestNiceTicks(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		want   []float64
		labels []string
	}{
		{-0.588, 0.233, []float64{-0.6, -0.4, -0.2, 0, 0.2, 0.4}, []string{"−0.6", "−0.4", "−0.2", "0.0", "0.2", "0.4"}},
		{17.6, 30.5, []float64{15, 20, 25, 30, 35}, []string{"15", "20", "25", "30", "35"}},
		{0.58, 0.77, []float64{0.55, 0.6, 0.65, 0.7, 0.75, 0.8}, []string{"0.55", "0.60", "0.65", "0.70", "0.75", "0.80"}},
		{-2.9, 0.1, []float64{-3, -2, -1, 0, 1}, []string{"−3", "−2", "−1", "0", "1"}},
		// 3e10 ± 6, as -mu 3e10 draws: steps of 5 are exact at that size.
		{3e10 - 6, 3e10 + 6, []float64{3e10 - 10, 3e10 - 5, 3e10, 3e10 + 5, 3e10 + 10}, []string{"29999999990", "29999999995", "30000000000", "30000000005", "30000000010"}},
		// 1e17 ± 16, as -mu 1e17 draws: float64's spacing there is 16, so
		// steps of 10 do not exist and the ends alone are marked.
		{1e17 - 16, 1e17 + 16, []float64{1e17 - 16, 1e17 + 16}, []string{"9.999999999999998e+16", "1.0000000000000002e+17"}},
		// Past 1e15, the significant digits that tell the steps apart.
		{6e20, 6e20 + 3e9, []float64{6e20, 6e20 + 1e9, 6e20 + 2e9, 6e20 + 3e9}, []string{"6e+20", "6.00000000001e+20", "6.00000000002e+20", "6.00000000003e+20"}},
	} {
		tk := niceTicks(c.lo, c.hi, 5)
		got := tk.values()
		var labels []string
		for _, v := range got {
			labels = append(labels, tk.label(v))
		}
		if !slices.Equal(got, c.want) || !slices.Equal(labels, c.labels) {
			t.Errorf("niceTicks(%v, %v) = %v %q, want %v %q", c.lo, c.hi, got, labels, c.want, c.labels)
		}
	}
	// The training shares, 8 ticks wanted: every share, written 0.1 … 0.8.
	tk := niceTicks(0.1, 0.8, 8)
	if got := tk.values(); !slices.Equal(got, []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8}) || tk.label(0.3) != "0.3" {
		t.Errorf("x ticks %v, label %q", got, tk.label(0.3))
	}
}

// TestRoundTicksBounded: on any range, extreme or empty, RoundTicks makes
// at most 4·want + 5 ticks, all within the range, in increasing order.
func TestRoundTicksBounded(t *testing.T) {
	ext := []float64{0, math.Copysign(0, -1), 5e-324, 1e-300, 1, 6, 6e6, 3e10, 1e17, 1e300, math.MaxFloat64}
	var vals []float64
	for _, x := range ext {
		vals = append(vals, x, -x, x*(1+1e-15))
	}
	for _, lo := range vals {
		for _, hi := range vals {
			if hi < lo {
				continue
			}
			ts := RoundTicks{Want: 5}.Ticks(lo, hi)
			if len(ts) == 0 || len(ts) > 25 {
				t.Errorf("[%v, %v]: %d ticks", lo, hi, len(ts))
			}
			for i, tk := range ts {
				if tk.Value < lo-1e-9*math.Abs(hi-lo) || tk.Value > hi+1e-9*math.Abs(hi-lo) || (i > 0 && tk.Value < ts[i-1].Value) || tk.Label == "" {
					t.Errorf("[%v, %v]: tick %d %+v", lo, hi, i, tk)
				}
			}
		}
	}
}

// FuzzGrid: any panels either draw as well-formed SVG without a
// non-finite coordinate, or are refused with messages.ErrInput and nothing
// written.
func FuzzGrid(f *testing.F) {
	seed := func(shape []byte, xs ...float64) []byte {
		out := slices.Clone(shape)
		for _, x := range xs {
			out = binary.LittleEndian.AppendUint64(out, math.Float64bits(x))
		}
		return out
	}
	f.Add(seed([]byte{1, 2}, 0.1, 0.2), 3, "M&M <b>")
	f.Add(append(seed([]byte{1, 2}, 0.1, 0.2), seed([]byte{1, 4}, 1, 2, 0.1, 0.1)...), 1, "ok")
	f.Add(seed([]byte{1, 1, 1, 4}, 0.5, math.NaN(), 0), 0, "a\x00b")
	f.Add(seed([]byte{2, 2}, -math.MaxFloat64, math.MaxFloat64), 2, "")
	f.Add(append(seed([]byte{1, 2}, 0.1, 0.2), seed([]byte{1, 4}, 1e17, 1e17, 6, 6)...), 1, "huge")
	f.Fuzz(func(t *testing.T, data []byte, cols int, text string) {
		var buf bytes.Buffer
		err := Grid(&buf, "svg", panelsOf(data, text), cols)
		if err != nil {
			if buf.Len() != 0 || !errors.Is(err, messages.ErrInput) {
				t.Fatalf("%v, with %d bytes written", err, buf.Len())
			}
			return
		}
		s := buf.String()
		if (strings.Contains(s, "NaN") || strings.Contains(s, "Inf")) && !strings.Contains(text, "NaN") && !strings.Contains(text, "Inf") {
			t.Fatalf("non-finite coordinate in the SVG")
		}
		wellFormed(t, s)
	})
}

// panelsOf builds up to four panels from the fuzzer's bytes, their shapes
// as well as their numbers.
func panelsOf(data []byte, text string) []Panel {
	next := func() byte {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return b
	}
	float := func() float64 {
		if len(data) < 8 {
			data = nil
			return 0
		}
		x := math.Float64frombits(binary.LittleEndian.Uint64(data))
		data = data[8:]
		return x
	}
	panels := make([]Panel, next()%5)
	for i := range panels {
		p := &panels[i]
		p.Title, p.YLabel = text, text
		p.X = make([]float64, next()%6)
		for k := range p.X {
			p.X[k] = float()
		}
		p.Lines = make([]Line, next()%4)
		for j := range p.Lines {
			l := &p.Lines[j]
			l.Name = text
			shape := int(next())
			extra := 0
			if len(p.X) == 0 {
				extra = 1
			}
			l.Mean = make([]float64, len(p.X)+shape%3-1+extra)
			l.Half = make([]float64, len(p.X)+shape/3%3-1+extra)
			for k := range l.Mean {
				l.Mean[k] = float()
			}
			for k := range l.Half {
				l.Half[k] = float()
			}
		}
	}
	return panels
}

// TestSetRangeLabelsBothEnds: an axis is rounded out to the step of its
// ticks, and both ends are labelled: 19.5 to 65 in steps of 10.
func TestSetRangeLabelsBothEnds(t *testing.T) {
	p := gplot.New()
	setRange(&p.Y, 19.5, 65, 5, true)
	var labels []string
	for _, tk := range p.Y.Tick.Marker.Ticks(p.Y.Min, p.Y.Max) {
		labels = append(labels, tk.Label)
	}
	if p.Y.Min != 10 || p.Y.Max != 70 || strings.Join(labels, " ") != "10 20 30 40 50 60 70" {
		t.Errorf("[%v, %v], ticks %q", p.Y.Min, p.Y.Max, labels)
	}
}
