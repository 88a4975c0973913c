package testprograms

import (
	"bytes"
	"flag"
	"testing"

	"github.com/skillgraph/skillgraph/internal/sharedtest"
	"github.com/skillgraph/skillgraph/schedules/compile"
)

var update = flag.Bool("update", false, "rewrite programs_gen.go")

// TestGeneratedIsCurrent checks that programs_gen.go is what compile.Generate
// writes for the graphs of this package now (with -update, writes it).
func TestGeneratedIsCurrent(t *testing.T) {
	g1, s1, err := Figure1([4]float64{25, 25, 25, 25}, [4]float64{70, 70, 70, 70})
	if err != nil {
		t.Fatal(err)
	}
	g2, s2, err := Nested([3]float64{0, 1, 2}, [3]float64{1, 2, 3}, 0.5, 2, 0.3)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	err = compile.Generate(&buf, compile.File{
		Package:   "testprograms",
		Generator: "go test ./schedules/compile/internal/testprograms -update",
		Lookup:    "Lookup",
		Programs: []compile.Source{
			{Name: "BindFigure1", Doc: "Figure1", Graph: g1, Schedule: s1},
			{Name: "BindNested", Doc: "Nested", Graph: g2, Schedule: s2},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	sharedtest.Generated(t, "programs_gen.go", buf.Bytes(), *update)
}
