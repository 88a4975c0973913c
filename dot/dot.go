package dot

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/schedules"
)

// Options control what Write draws.
type Options struct {
	// Schedule, if set, numbers every message in the order one pass of the
	// schedule sends it, draws it as an arrow from the factor to the
	// variable, and colours it as the TrueSkill paper's Figure 1 does: light
	// grey for messages sent down the page, black for messages sent up, and
	// inside a loop light blue down and dark blue up.
	Schedule schedules.Schedule
	// HideNumbers leaves the message numbers out (the arrows and colours
	// stay): a large graph's numbers crowd its picture.
	HideNumbers bool
	// Values adds each variable's current marginal (μ, σ) to its label.
	Values bool
	// RankDir is Graphviz's rankdir; "TB" (top to bottom) if empty.
	RankDir string
	// Structural draws rows derived from the graph's structure (see
	// StructuralLayers) instead of the graph's named layers. A graph whose
	// nodes are in fewer than two layers (a builder that never called
	// Layer, or called it once) is always drawn so.
	Structural bool
}

// phase is where a message is sent: down or up the page, outside or inside
// a loop.
type phase int

const (
	down phase = iota
	loopDown
	loopUp
	up
)

// colours of the phases, and the legend that explains them.
var colours = [...]string{down: "gray60", loopDown: "royalblue1", loopUp: "navy", up: "black"}

const legend = "messages in schedule order: grey = down, black = up; in an iterated loop light blue = down, dark blue = up"

type annotation struct {
	numbers []int
	phase   phase
}

// Marshal returns the DOT text of g.
func Marshal(g *graph.Graph, opt Options) ([]byte, error) {
	var buf bytes.Buffer
	if err := Write(&buf, g, opt); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Write writes g as an undirected Graphviz graph: variables as circles
// (observed ones shaded), factors as small black squares with their label
// beside them, one row per named layer (rank=same), the rows in the order
// of the graph's layers (held by invisible edges where no edge of the graph
// holds them), each group of the graph (graph.Builder.Group) boxed as a
// cluster, and edges from the upper layer to the lower. The output depends
// only on g and opt: the same graph gives the same bytes. Every name and
// label is written so that Graphviz reads it (see quote); a nil graph, a
// nil writer and a schedule that does not fit the graph or has a nil
// part are errors (messages.ErrInput), and nothing is written.
func Write(w io.Writer, g *graph.Graph, opt Options) error {
	if g == nil {
		return fmt.Errorf("dot: nil graph: %w", messages.ErrInput)
	}
	if w == nil {
		return fmt.Errorf("dot: graph %q: nil writer: %w", g.Name(), messages.ErrInput)
	}
	var rs rows
	if opt.Structural || usedLayers(g) < 2 {
		rs = derivedRows(g)
	} else {
		rs = namedRows(g)
	}
	notes, err := annotate(g, opt.Schedule, rs)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	writeHeader(bw, g, opt)
	members, clusters := writeNodes(bw, g, opt, rs)
	writeClusters(bw, g, clusters)
	writeRows(bw, rs.names, members)
	writeEdges(bw, g, opt, rs, notes)
	fmt.Fprintln(bw, "}")
	return bw.Flush()
}

// writeHeader opens the graph and writes its attributes.
func writeHeader(bw *bufio.Writer, g *graph.Graph, opt Options) {
	rankdir := opt.RankDir
	if rankdir == "" {
		rankdir = "TB"
	}
	fmt.Fprintf(bw, "graph %s {\n", quote(g.Name()))
	// newrank ranks the whole graph at once, so that a row may cross
	// clusters.
	fmt.Fprintf(bw, "\trankdir=%s;\n\tnewrank=true;\n\tordering=out;\n\tforcelabels=true;\n\tnodesep=0.9;\n\tranksep=0.5;\n", quote(rankdir))
	fmt.Fprintf(bw, "\tnode [fontname=\"Helvetica\", fontsize=11];\n\tedge [fontname=\"Helvetica\", fontsize=9];\n")
	if opt.Schedule != nil {
		fmt.Fprintf(bw, "\tlabel=%s;\n\tlabelloc=b;\n\tfontname=\"Helvetica\";\n\tfontsize=10;\n", quote(legend))
	}
}

// writeNodes writes the variables and factors, and returns the node IDs
// of each row and of each group.
func writeNodes(bw *bufio.Writer, g *graph.Graph, opt Options, rs rows) (members, clusters [][]string) {
	members = make([][]string, len(rs.names))
	clusters = make([][]string, len(g.Groups()))
	for v := 0; v < g.NumVariables(); v++ {
		id := graph.VarID(v)
		fmt.Fprintf(bw, "\tv%d [%s];\n", v, variableAttrs(g, id, opt.Values))
		members[rs.varRow[v]] = append(members[rs.varRow[v]], fmt.Sprintf("v%d", v))
		clusters[g.VariableGroup(id)] = append(clusters[g.VariableGroup(id)], fmt.Sprintf("v%d", v))
	}
	for f := 0; f < g.NumFactors(); f++ {
		id := graph.FactorID(f)
		fmt.Fprintf(bw, "\tf%d [shape=box, style=filled, fillcolor=black, fixedsize=true, width=0.15, height=0.15, label=\"\", xlabel=%s, tooltip=%s];\n",
			f, quote(g.FactorLabel(id)), quote(g.FactorLabel(id)))
		members[rs.facRow[f]] = append(members[rs.facRow[f]], fmt.Sprintf("f%d", f))
		clusters[g.FactorGroup(id)] = append(clusters[g.FactorGroup(id)], fmt.Sprintf("f%d", f))
	}
	return members, clusters
}

// variableAttrs returns the attributes of variable id's node: its name,
// with values its marginal, and its fill, dark if it is observed.
func variableAttrs(g *graph.Graph, id graph.VarID, values bool) string {
	label := g.VariableName(id)
	shape := "circle"
	if values {
		m := g.Marginal(id)
		switch {
		case m.IsUniform():
			label += "\nuniform"
		case m.IsPointMass():
			label += "\n= " + num(m.Mean())
		default:
			label += fmt.Sprintf("\nμ=%s σ=%s", num(m.Mean()), num(m.Sigma()))
		}
		shape = "ellipse" // a circle around two lines of numbers is huge
	}
	attrs := fmt.Sprintf("shape=%s, label=%s, style=filled", shape, quote(label))
	if _, observed := g.Observed(id); observed {
		return attrs + ", fillcolor=gray60"
	}
	return attrs + ", fillcolor=gray92"
}

// writeClusters boxes each group of the graph but the first (the graph
// outside any group) that has nodes.
func writeClusters(bw *bufio.Writer, g *graph.Graph, clusters [][]string) {
	for c, name := range g.Groups() {
		if c == 0 || len(clusters[c]) == 0 {
			continue
		}
		fmt.Fprintf(bw, "\tsubgraph %s {\n\t\tlabel=%s;\n\t\tstyle=rounded;\n\t\tcolor=gray70;\n\t\tfontname=\"Helvetica\";\n\t\tfontsize=10;\n\t\t%s;\n\t}\n",
			quote(fmt.Sprintf("cluster%d", c)), quote(name), strings.Join(clusters[c], "; "))
	}
}

// writeRows writes one row per layer, and an invisible edge from each row
// to the next, so that rows keep their order where no edge of the graph
// says it (an isolated group, or a layer that only the next one's factors
// reach).
func writeRows(bw *bufio.Writer, layers []string, members [][]string) {
	prev := ""
	for l, ids := range members {
		if layers[l] == "" || len(ids) == 0 {
			continue
		}
		// The row's name only has to differ from the others': a layer whose
		// name quote cannot keep apart from another's is named by its index,
		// in a form no kept name takes.
		row := "layer " + layers[l]
		if !keeps(layers[l]) {
			row = fmt.Sprintf("layer:%d", l)
		}
		fmt.Fprintf(bw, "\tsubgraph %s {\n\t\trank=same;\n\t\t%s;\n\t}\n", quote(row), strings.Join(ids, "; "))
		if prev != "" {
			fmt.Fprintf(bw, "\t%s -- %s [style=invis];\n", prev, ids[0])
		}
		prev = ids[0]
	}
}

// writeEdges writes every edge from the upper row to the lower, with the
// schedule's numbers and colours where notes has them.
func writeEdges(bw *bufio.Writer, g *graph.Graph, opt Options, rs rows, notes map[[2]int]*annotation) {
	for f := 0; f < g.NumFactors(); f++ {
		id := graph.FactorID(f)
		for i := 0; i < g.Arity(id); i++ {
			v := g.EdgeVariable(id, i)
			a, b, dir := fmt.Sprintf("f%d", f), fmt.Sprintf("v%d", v), "forward"
			if rs.varRow[v] < rs.facRow[f] {
				a, b, dir = b, a, "back"
			}
			note, ok := notes[[2]int{f, i}]
			if !ok {
				fmt.Fprintf(bw, "\t%s -- %s;\n", a, b)
				continue
			}
			colour := colours[note.phase]
			if opt.HideNumbers {
				fmt.Fprintf(bw, "\t%s -- %s [dir=%s, color=%s];\n", a, b, dir, colour)
				continue
			}
			nums := make([]string, len(note.numbers))
			for k, n := range note.numbers {
				nums[k] = strconv.Itoa(n)
			}
			fmt.Fprintf(bw, "\t%s -- %s [dir=%s, color=%s, fontcolor=%s, label=%s];\n",
				a, b, dir, colour, colour, quote(strings.Join(nums, ",")))
		}
	}
}

// annotate numbers the steps of one pass of s by (factor, edge).
// Up and down are by the drawing's rows rs.
func annotate(g *graph.Graph, s schedules.Schedule, rs rows) (map[[2]int]*annotation, error) {
	notes := map[[2]int]*annotation{}
	if s == nil {
		return notes, nil
	}
	// Compile checks the schedule's structure (a nil part) by the rule a
	// run applies; Walk then visits its steps.
	if _, err := schedules.Compile(g, s); err != nil {
		if !errors.Is(err, messages.ErrInput) { // Compile's own errors say it already
			err = fmt.Errorf("%w: %w", err, messages.ErrInput)
		}
		return nil, fmt.Errorf("dot: graph %q: schedule does not fit the graph: %w", g.Name(), err)
	}
	n := 0
	var err error
	schedules.Walk(s, func(st *schedules.StepSchedule, loop *schedules.LoopSchedule) {
		n++
		if st.Factor < 0 || int(st.Factor) >= g.NumFactors() || st.Edge < 0 || st.Edge >= g.Arity(st.Factor) {
			if err == nil {
				err = fmt.Errorf("dot: step %d (factor %d, edge %d) of graph %q: schedule does not fit the graph: %w", n, st.Factor, st.Edge, g.Name(), messages.ErrInput)
			}
			return
		}
		ph := down
		if rs.varRow[g.EdgeVariable(st.Factor, st.Edge)] < rs.facRow[st.Factor] {
			ph = up
		}
		if loop != nil {
			ph = [...]phase{down: loopDown, up: loopUp}[ph]
		}
		key := [2]int{int(st.Factor), st.Edge}
		a := notes[key]
		if a == nil {
			a = &annotation{phase: ph}
			notes[key] = a
		}
		a.numbers = append(a.numbers, n)
	})
	return notes, err
}

// quote returns s as a DOT double-quoted string: backslashes and quotes
// escaped, newlines as \n (a centred line break), carriage returns left
// out (\r would right-justify the line), NUL, which no Graphviz string can
// hold, as the visible U+2400 (␀), and each invalid UTF-8 byte as U+FFFD.
// Only the last three lose information: see keeps.
func quote(s string) string {
	var sb strings.Builder
	sb.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			sb.WriteString(`\"`)
		case '\\':
			sb.WriteString(`\\`)
		case '\n':
			sb.WriteString(`\n`)
		case '\r':
		case 0:
			sb.WriteRune('␀')
		default:
			sb.WriteRune(r)
		}
	}
	sb.WriteByte('"')
	return sb.String()
}

// keeps reports whether quote writes s without loss, so that no other
// string gives the same text.
func keeps(s string) bool { return utf8.ValidString(s) && !strings.ContainsAny(s, "\x00\r") }

func num(x float64) string { return strconv.FormatFloat(x, 'g', 4, 64) }
