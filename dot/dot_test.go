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
	edges := edgeRE.FindAllStringSubmatch(text, -1)
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
	// Figure 1: 6 messages iterated in the loop, and both other phases present.
	if colours["royalblue3"] != 6 || colours["gray60"] == 0 || colours["black"] == 0 {
		t.Errorf("edge colours %v, want 6 loop edges and some downward and upward ones", colours)
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
	if _, err := exec.LookPath("dot"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("graphviz (dot) is not installed; .ci/run installs it")
		}
		t.Skip("graphviz (dot) not installed")
	}
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
	if !errors.Is(err, dot.ErrSchedule) {
		t.Errorf("error %v, want ErrSchedule", err)
	}
}
