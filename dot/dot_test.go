package dot_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/dot"
	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/models/trueskill"
	"github.com/skillgraph/skillgraph/schedules"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// figure1 is the paper's Figure 1 game: teams {1}, {2,3}, {4}; team 1 wins,
// teams 2 and 3 draw.
func figure1(t *testing.T) *trueskill.Game {
	t.Helper()
	p := trueskill.DefaultParams()
	n := p.NewRating()
	gm, err := p.NewGame(trueskill.Match{Teams: [][]trueskill.Rating{{n}, {n, n}, {n}}, Ranks: []int{1, 2, 2}})
	if err != nil {
		t.Fatal(err)
	}
	return gm
}

var (
	nodeRE = regexp.MustCompile(`(?m)^\t([vf]\d+) \[(.*)\];$`)
	edgeRE = regexp.MustCompile(`(?m)^\t([vf]\d+) -- ([vf]\d+)(?: \[(.*)\])?;$`)
	rankRE = regexp.MustCompile(`rank=same;\n\t\t([^\n]*);`)
)

// TestFigure1Structure reads the DOT text back and checks it against the
// graph: every node once with the right shape, every edge once between a
// factor and its variable, one row per layer, and every scheduled message
// numbered exactly once.
func TestFigure1Structure(t *testing.T) {
	gm := figure1(t)
	g := gm.Graph()
	out, err := dot.Marshal(g, dot.Options{Schedule: gm.Schedule()})
	if err != nil {
		t.Fatal(err)
	}
	text := string(out)
	nodes := map[string]string{}
	for _, m := range nodeRE.FindAllStringSubmatch(text, -1) {
		if _, dup := nodes[m[1]]; dup {
			t.Errorf("node %s declared twice", m[1])
		}
		nodes[m[1]] = m[2]
	}
	if len(nodes) != g.NumVariables()+g.NumFactors() {
		t.Errorf("%d nodes, graph has %d variables and %d factors", len(nodes), g.NumVariables(), g.NumFactors())
	}
	for v := 0; v < g.NumVariables(); v++ {
		a := nodes["v"+strconv.Itoa(v)]
		if !strings.Contains(a, "shape=circle") || !strings.Contains(a, `label="`+g.VariableName(graph.VarID(v))+`"`) {
			t.Errorf("variable %d: %s", v, a)
		}
	}
	for f := 0; f < g.NumFactors(); f++ {
		a := nodes["f"+strconv.Itoa(f)]
		if !strings.Contains(a, "shape=box") || !strings.Contains(a, "fillcolor=black") || !strings.Contains(a, `xlabel="`+g.FactorLabel(graph.FactorID(f))+`"`) {
			t.Errorf("factor %d: %s", f, a)
		}
	}
	var edges [][]string
	for _, e := range edgeRE.FindAllStringSubmatch(text, -1) {
		if e[3] != "style=invis" { // the edges that hold rows in order
			edges = append(edges, e)
		}
	}
	if len(edges) != g.NumEdges() {
		t.Errorf("%d edges, graph has %d", len(edges), g.NumEdges())
	}
	var numbers []int
	colours := map[string]int{}
	for _, e := range edges {
		if (e[1][0] == 'f') == (e[2][0] == 'f') {
			t.Errorf("edge %s -- %s does not join a factor and a variable", e[1], e[2])
		}
		if m := regexp.MustCompile(`label="([0-9,]+)"`).FindStringSubmatch(e[3]); m != nil {
			for _, s := range strings.Split(m[1], ",") {
				n, _ := strconv.Atoi(s)
				numbers = append(numbers, n)
			}
		}
		if m := regexp.MustCompile(`color=(\w+)`).FindStringSubmatch(e[3]); m != nil {
			colours[m[1]]++
		}
	}
	sort.Ints(numbers)
	steps := 0
	schedules.Walk(gm.Schedule(), func(*schedules.StepSchedule, *schedules.LoopSchedule) { steps++ })
	if len(numbers) != steps {
		t.Errorf("%d numbered messages, schedule has %d steps", len(numbers), steps)
	}
	for k, n := range numbers {
		if n != k+1 {
			t.Fatalf("message numbers %v are not 1…%d", numbers, steps)
		}
	}
	// Figure 1: 6 messages iterated in the loop, 2 down (to the
	// differences) and 4 up (to the team performances and from the
	// comparisons), and both other phases present.
	if colours["royalblue1"] != 2 || colours["navy"] != 4 || colours["gray60"] == 0 || colours["black"] == 0 {
		t.Errorf("edge colours %v, want 2 loop edges down, 4 up, and some downward and upward ones outside", colours)
	}
	rows := rankRE.FindAllStringSubmatch(text, -1)
	if len(rows) != 9 {
		t.Errorf("%d rows, Figure 1 has 9 (5 of factors, 4 of variables)", len(rows))
	}
}

func TestDeterministic(t *testing.T) {
	a, err := dot.Marshal(figure1(t).Graph(), dot.Options{Schedule: figure1(t).Schedule()})
	if err != nil {
		t.Fatal(err)
	}
	gm := figure1(t)
	b, err := dot.Marshal(gm.Graph(), dot.Options{Schedule: gm.Schedule()})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Error("two builds of the same game give different DOT")
	}
}

// TestGolden compares the Figure 1 drawing with testdata/figure1.dot; run
// with -update after an intended change and inspect the rendered picture.
func TestGolden(t *testing.T) {
	gm := figure1(t)
	if _, err := gm.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	got, err := dot.Marshal(gm.Graph(), dot.Options{Schedule: gm.Schedule(), Values: true})
	if err != nil {
		t.Fatal(err)
	}
	const path = "testdata/figure1.dot"
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("Figure 1 DOT differs from %s (run go test ./dot -update to accept)", path)
	}
}

// TestGraphvizAccepts pipes drawings through dot -Tsvg: Figure 1 with values,
// and a graph whose names need escaping. Graphviz is installed by CI; without
// it the test is skipped (or failed, when CI is set).
func TestGraphvizAccepts(t *testing.T) {
	needGraphviz(t)
	gm := figure1(t)
	if _, err := gm.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	fig, err := dot.Marshal(gm.Graph(), dot.Options{Schedule: gm.Schedule(), Values: true})
	if err != nil {
		t.Fatal(err)
	}
	b := graph.NewBuilder(`tricky "graph" \ name`)
	b.Layer(`row "one"`)
	x := b.AddVariable("x \"quoted\"\nsecond line \\ slash")
	b.AddFactor(factors.NewPrior(0, 1), `N(x; "0", 1) \ {}`, x)
	y := b.AddObserved("y;{}", 2)
	b.AddFactor(factors.NewLikelihood(1), "", y, x)
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	tricky, err := dot.Marshal(g, dot.Options{Values: true})
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string][]byte{"figure1": fig, "tricky": tricky} {
		cmd := exec.Command("dot", "-Tsvg")
		cmd.Stdin = bytes.NewReader(text)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		svg, err := cmd.Output()
		if err != nil || !bytes.Contains(svg, []byte("<svg")) || stderr.Len() > 0 {
			t.Errorf("%s: dot -Tsvg: %v: %s", name, err, stderr.String())
		}
	}
}

func TestScheduleMustFitGraph(t *testing.T) {
	gm := figure1(t)
	_, err := dot.Marshal(gm.Graph(), dot.Options{Schedule: schedules.Step(999, 0)})
	if !errors.Is(err, messages.ErrInput) || !strings.Contains(err.Error(), "factor 999") {
		t.Errorf("error %v, want messages.ErrInput naming factor 999", err)
	}
}

// needGraphviz skips the test without Graphviz, or fails it when CI is set.
func needGraphviz(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("dot"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("graphviz (dot) is not installed; .ci/run installs it")
		}
		t.Skip("graphviz (dot) not installed")
	}
}

// layout runs Graphviz on text and returns the height of every node (dot
// -Tplain: "node name x y …", y up the page), failing on any warning.
func layout(t *testing.T, text []byte) map[string]float64 {
	t.Helper()
	cmd := exec.Command("dot", "-Tplain")
	cmd.Stdin = bytes.NewReader(text)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil || stderr.Len() > 0 {
		t.Fatalf("dot -Tplain: %v: %s", err, stderr.String())
	}
	ys := map[string]float64{}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) > 3 && f[0] == "node" {
			y, err := strconv.ParseFloat(f[3], 64)
			if err != nil {
				t.Fatal(err)
			}
			ys[f[1]] = y
		}
	}
	return ys
}

// TestRowsKeepLayerOrder draws two unconnected pieces whose edges alone
// would put layers 0 and 1 on one row and layers 2 and 3 on the next; the
// rows must still follow the layers, and each group must be one cluster.
func TestRowsKeepLayerOrder(t *testing.T) {
	needGraphviz(t)
	b := graph.NewBuilder("rows")
	b.DeclareLayers("L0", "L1", "L2", "L3")
	b.Group("far")
	b.Layer("L3")
	x := b.AddVariable("x")
	b.Layer("L0")
	b.AddFactor(factors.NewPrior(0, 1), "", x)
	b.Group("near")
	b.Layer("L2")
	y := b.AddVariable("y")
	b.Layer("L1")
	b.AddFactor(factors.NewPrior(0, 1), "", y)
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	text, err := dot.Marshal(g, dot.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ys := layout(t, text)
	// f0 (L0) above f1 (L1) above y (L2) above x (L3).
	if !(ys["f0"] > ys["f1"] && ys["f1"] > ys["v1"] && ys["v1"] > ys["v0"]) {
		t.Errorf("rows out of layer order: heights %v", ys)
	}
	for _, want := range []string{
		"subgraph \"cluster1\" {\n\t\tlabel=\"far\";", "\t\tv0; f0;\n",
		"subgraph \"cluster2\" {\n\t\tlabel=\"near\";", "\t\tv1; f1;\n",
	} {
		if !strings.Contains(string(text), want) {
			t.Errorf("DOT lacks %q:\n%s", want, text)
		}
	}
}

// TestHideNumbers keeps the arrows and colours of a schedule and drops its
// numbers.
func TestHideNumbers(t *testing.T) {
	gm := figure1(t)
	text, err := dot.Marshal(gm.Graph(), dot.Options{Schedule: gm.Schedule(), HideNumbers: true})
	if err != nil {
		t.Fatal(err)
	}
	arrows := 0
	for _, e := range edgeRE.FindAllStringSubmatch(string(text), -1) {
		if strings.Contains(e[3], "label=") {
			t.Errorf("numbered edge %s", e[0])
		}
		if strings.Contains(e[3], "dir=") && strings.Contains(e[3], "color=") {
			arrows++
		}
	}
	if arrows != gm.Graph().NumEdges() {
		t.Errorf("%d arrows, want one per edge (%d)", arrows, gm.Graph().NumEdges())
	}
}
