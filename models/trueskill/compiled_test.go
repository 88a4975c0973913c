package trueskill_test

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/skillgraph/skillgraph/internal/sharedtest"
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

// compiledShapes lists them: two teams of 1 to 4 players, winning or
// drawing; free-for-alls of 3 to 8 players without draws; Figure 1. Each
// program is a few thousand lines of Go; these are the common shapes.
func compiledShapes() []compiledShape {
	var out []compiledShape
	for n := 1; n <= 4; n++ {
		out = append(out,
			compiledShape{fmt.Sprintf("program%dv%d", n, n), fmt.Sprintf("two teams of %d, one winning", n), trueskill.Match{Teams: teams(n, n), Ranks: []int{0, 1}}},
			compiledShape{fmt.Sprintf("program%dv%dDraw", n, n), fmt.Sprintf("two teams of %d drawing", n), trueskill.Match{Teams: teams(n, n), Ranks: []int{0, 0}}})
	}
	for n := 3; n <= 8; n++ {
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
	sharedtest.Generated(t, "compiled_gen.go", buf.Bytes(), *update)
}

// TestCompiledShapesMatchTheInterpreter rates random matches of every
// compiled shape (and of free-for-alls listed in another order) with the
// compiled program and with the interpreter (Params.RateGraph, which binds
// none): the same ratings to 1e-12, evidence and passes.
func TestCompiledShapesMatchTheInterpreter(t *testing.T) {
	p := trueskill.DefaultParams()
	rng := rand.New(rand.NewPCG(5, 8))
	for _, s := range compiledShapes() {
		for trial := 0; trial < 20; trial++ {
			m := withRatings(s.m, func() trueskill.Rating {
				return trueskill.Rating{Mu: 50 * rng.Float64(), Sigma: 0.5 + 8*rng.Float64()}
			})
			if trial%2 == 1 && len(m.Teams) > 3 { // finishing order ≠ listing order
				m.Ranks = rng.Perm(len(m.Teams))
			}
			gm, err := p.NewGame(m)
			if err != nil {
				t.Fatal(err)
			}
			if !gm.Compiled() {
				t.Fatalf("%s trial %d: not compiled", s.name, trial)
			}
			if _, err := gm.Run(ctx); err != nil {
				t.Fatal(err)
			}
			got := gm.Ratings()
			lz, err := gm.LogEvidence()
			if err != nil {
				t.Fatal(err)
			}
			want, err := p.RateGraph(ctx, m)
			if err != nil {
				t.Fatal(err)
			}
			if relErr(lz, want.LogEvidence) > 1e-12 {
				t.Errorf("%s trial %d: evidence %v, interpreted %v", s.name, trial, lz, want.LogEvidence)
			}
			checkSameRatings(t, fmt.Sprintf("%s trial %d, compiled against interpreted", s.name, trial), got, want.Ratings)
		}
	}
	// A shape without a program runs on the interpreter.
	if gm, err := p.NewGame(trueskill.Match{Teams: ffa(9)}); err != nil || gm.Compiled() {
		t.Errorf("FFA9: compiled %v, %v", gm != nil && gm.Compiled(), err)
	}
}

// TestCompiledExtremes rates compiled shapes with ratings far apart (μ over
// ±1e4, σ from 1e-3 to 1e3, upsets deep in the truncations' tails) with the
// compiled programs and with the interpreter: the same ratings to 1e-12 or
// the same error, whether the program ran its own code or handed the case
// back.
func TestCompiledExtremes(t *testing.T) {
	p := trueskill.DefaultParams()
	rng := rand.New(rand.NewPCG(17, 19))
	for _, s := range compiledShapes() {
		for trial := 0; trial < 40; trial++ {
			m := withRatings(s.m, func() trueskill.Rating {
				mu := (2*rng.Float64() - 1) * math.Pow(10, 4*rng.Float64())
				return trueskill.Rating{Mu: mu, Sigma: math.Pow(10, 6*rng.Float64()-3)}
			})
			gm, err := p.NewGame(m)
			if err != nil {
				t.Fatal(err)
			}
			_, errc := gm.Run(ctx)
			want, erri := p.RateGraph(ctx, m)
			if (errc == nil) != (erri == nil) {
				t.Fatalf("%s trial %d: compiled %v, interpreted %v", s.name, trial, errc, erri)
			}
			if errc != nil {
				continue
			}
			checkSameRatings(t, fmt.Sprintf("%s trial %d, compiled against interpreted", s.name, trial), gm.Ratings(), want.Ratings)
		}
	}
}
