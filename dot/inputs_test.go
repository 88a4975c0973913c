package dot_test

import (
	"bytes"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/dot"
	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/schedules"
)

// TestNilInputs draws a nil graph, to a nil writer, and with schedules
// holding nil parts: errors, nothing written, no panic.
func TestNilInputs(t *testing.T) {
	if _, err := dot.Marshal(nil, dot.Options{}); !errors.Is(err, messages.ErrInput) || !strings.Contains(err.Error(), "nil graph") {
		t.Errorf("Marshal(nil): %v, want messages.ErrInput saying nil graph", err)
	}
	var buf bytes.Buffer
	if err := dot.Write(&buf, nil, dot.Options{}); !errors.Is(err, messages.ErrInput) || !strings.Contains(err.Error(), "nil graph") || buf.Len() > 0 {
		t.Errorf("Write of a nil graph: %v, %q written; want messages.ErrInput saying nil graph", err, buf.String())
	}
	gm := figure1(t)
	g := gm.Graph()
	if err := dot.Write(nil, g, dot.Options{}); !errors.Is(err, messages.ErrInput) || !strings.Contains(err.Error(), "nil writer") {
		t.Errorf("Write to a nil writer: %v, want messages.ErrInput saying so", err)
	}
	for _, s := range []schedules.Schedule{
		(*schedules.LoopSchedule)(nil),
		schedules.Loop(nil),
		schedules.Sequence(schedules.Step(0, 0), nil),
		schedules.Sequence((*schedules.StepSchedule)(nil)),
		schedules.Sequence(gm.Schedule(), (*schedules.SequenceSchedule)(nil)),
	} {
		buf.Reset()
		err := dot.Write(&buf, g, dot.Options{Schedule: s})
		if !errors.Is(err, messages.ErrInput) || !strings.Contains(err.Error(), "schedules: nil") || buf.Len() > 0 || strings.Count(err.Error(), messages.ErrInput.Error()) != 1 {
			t.Errorf("schedule with a nil part: %v, %d bytes written; want messages.ErrInput (said once) from schedules naming the nil part", err, buf.Len())
		}
	}
}

// TestUnreadableNames draws a graph whose names, labels, layers and groups
// hold NUL bytes (which no Graphviz string can hold), carriage returns and
// invalid UTF-8: Graphviz reads the text without a warning, a NUL shows as
// ␀, and layers whose names print alike stay separate rows.
func TestUnreadableNames(t *testing.T) {
	needGraphviz(t)
	b := graph.NewBuilder("g\x00raph")
	// Three pairs of layers whose names quote writes alike.
	layers := []string{"row\x00", "row␀", "row\r", "row", "row\xff", "row\uFFFD"}
	b.DeclareLayers(layers...)
	b.Group("gr\x00oup")
	var prev graph.VarID
	for i, l := range layers {
		b.Layer(l)
		v := b.AddVariable(string(rune('a'+i)) + "\x00" + l)
		if i == 0 {
			b.AddFactor(factors.NewPrior(0, 1), "N(\x00)", v)
		} else {
			b.AddFactor(factors.NewLikelihood(1), "lik\x00", prev, v)
		}
		prev = v
	}
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	text, err := dot.Marshal(g, dot.Options{Values: true})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.IndexByte(text, 0) >= 0 || !bytes.Contains(text, []byte(`"g␀raph"`)) || !bytes.Contains(text, []byte(`xlabel="N(␀)"`)) {
		t.Errorf("NUL not drawn as ␀:\n%s", text)
	}
	ys := layout(t, text)
	for v := 1; v < len(layers); v++ {
		if upper, lower := fmt.Sprintf("v%d", v-1), fmt.Sprintf("v%d", v); !(ys[upper] > ys[lower]) {
			t.Errorf("%s (layer %q) not above %s (layer %q): heights %v", upper, layers[v-1], lower, layers[v], ys)
		}
	}
	cmd := exec.Command("dot", "-Tsvg")
	cmd.Stdin = bytes.NewReader(text)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if svg, err := cmd.Output(); err != nil || !strings.Contains(string(svg), "<svg") || stderr.Len() > 0 {
		t.Errorf("dot -Tsvg: %v: %s", err, stderr.String())
	}
}

// TestZeroBuilderGraph draws a graph built with a zero graph.Builder.
func TestZeroBuilderGraph(t *testing.T) {
	var b graph.Builder
	b.Group("g")
	x := b.AddVariable("x")
	b.AddFactor(factors.NewPrior(0, 1), "", x)
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	text, err := dot.Marshal(g, dot.Options{})
	if err != nil || !strings.Contains(string(text), `label="g"`) {
		t.Errorf("Marshal: %v:\n%s", err, text)
	}
}
