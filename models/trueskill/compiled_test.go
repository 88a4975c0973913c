package trueskill_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"testing"

	"github.com/skillgraph/skillgraph/models/trueskill"
	"github.com/skillgraph/skillgraph/schedules/compile"
)

var update = flag.Bool("update", false, "rewrite compiled_gen.go")

// compiledShape is a match shape the package carries a compiled program
// for.
type compiledShape struct {
	name, doc string
	m         trueskill.Match
}

// compiledShapes lists them: two teams of 1 to 5 players, winning or
// drawing; free-for-alls of 3 to 8 and 16 players without draws; Figure 1.
func compiledShapes() []compiledShape {
	var out []compiledShape
	for n := 1; n <= 5; n++ {
		out = append(out,
			compiledShape{fmt.Sprintf("program%dv%d", n, n), fmt.Sprintf("two teams of %d, one winning", n), trueskill.Match{Teams: teams(n, n), Ranks: []int{0, 1}}},
			compiledShape{fmt.Sprintf("program%dv%dDraw", n, n), fmt.Sprintf("two teams of %d drawing", n), trueskill.Match{Teams: teams(n, n), Ranks: []int{0, 0}}})
	}
	for _, n := range []int{3, 4, 5, 6, 7, 8, 16} {
		ranks := make([]int, n)
		for i := range ranks {
			ranks[i] = i
		}
		out = append(out, compiledShape{fmt.Sprintf("programFFA%d", n), fmt.Sprintf("a free-for-all of %d without draws", n), trueskill.Match{Teams: ffa(n), Ranks: ranks}})
	}
	out = append(out, compiledShape{"programFigure1", "Figure 1's three teams {1}, {2, 3}, {4}, the last two drawing",
		trueskill.Match{Teams: teams(1, 2, 1), Ranks: []int{0, 1, 1}}})
	return out
}

// TestCompiledIsCurrent checks that compiled_gen.go is what
// compile.Generate writes for compiledShapes now (with -update, or go
// generate, writes it).
func TestCompiledIsCurrent(t *testing.T) {
	p := trueskill.DefaultParams()
	f := compile.File{
		Package:   "trueskill",
		Generator: "go test ./models/trueskill -run TestCompiledIsCurrent -update",
		Lookup:    "compiledProgram",
	}
	for _, s := range compiledShapes() {
		gm, err := p.NewGame(s.m)
		if err != nil {
			t.Fatal(err)
		}
		f.Programs = append(f.Programs, compile.Source{Name: s.name, Doc: s.doc, Graph: gm.Graph(), Schedule: gm.Schedule()})
	}
	var buf bytes.Buffer
	if err := compile.Generate(&buf, f); err != nil {
		t.Fatal(err)
	}
	const file = "compiled_gen.go"
	if *update {
		if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	have, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, buf.Bytes()) {
		t.Errorf("%s is stale: run go generate ./models/trueskill", file)
	}
}
