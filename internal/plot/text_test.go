package plot

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/messages"
)

// TestNoncharactersRejected: U+FFFE and U+FFFF are valid UTF-8 but not XML
// characters (XML 1.0, production [2] Char), so an SVG holding one does not
// parse; a title, a line name or a curve name holding one is refused
// before anything is written, and the same text without it draws an SVG
// that encoding/xml reads to the end.
func TestNoncharactersRejected(t *testing.T) {
	for _, bad := range []string{"a\uFFFEb", "\uFFFF"} {
		title := good()
		title.Title = bad
		line := good()
		line.Lines[0].Name = bad
		for what, panels := range map[string][]Panel{"title": {title}, "line name": {line}} {
			var buf bytes.Buffer
			if err := Grid(&buf, "svg", panels, 1); !errors.Is(err, messages.ErrInput) || !strings.Contains(err.Error(), what) || buf.Len() != 0 {
				t.Errorf("%s %q: %v, %d bytes written; want messages.ErrInput naming the %s", what, bad, err, buf.Len(), what)
			}
		}
		var buf bytes.Buffer
		curves := []Curve{{Name: bad, Points: []CurvePoint{{Time: day(2000, 1, 1), Mu: 1, Sigma: 1}}}}
		if err := LearningCurves(&buf, "svg", curves); !errors.Is(err, messages.ErrInput) || !strings.Contains(err.Error(), "curves[0]") || buf.Len() != 0 {
			t.Errorf("curve name %q: %v, %d bytes written", bad, err, buf.Len())
		}
	}
	ok := good()
	ok.Title = "a\uFFFDb é"
	var buf bytes.Buffer
	if err := Grid(&buf, "svg", []Panel{ok}, 1); err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(&buf)
	for {
		if _, err := d.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("the SVG of a title with U+FFFD does not parse: %v", err)
		}
	}
}
