package factors_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/internal/sharedtest"
	"github.com/skillgraph/skillgraph/messages"
)

// The variable-margin factors' cost per update (every edge's message),
// against Table 1's draw factor with a fixed margin, Within, on the same
// differences: a pool of fixed-seed cavities at TrueSkill's scale (a
// difference N(0–8, 25–70), margins N(0.5–1.5, 0.01–0.3)), a different
// one each iteration.

const poolSize = 256

// cavityPool returns poolSize graphs each holding f with cavities drawn
// for its edges, ready for f.Message.
func cavityPool(f graph.Factor) []graph.Edges {
	rng := rand.New(rand.NewPCG(24, 7))
	out := make([]graph.Edges, poolSize)
	for k := range out {
		b := graph.NewBuilder("pool")
		vars := make([]graph.VarID, f.Arity())
		var sources []graph.FactorID
		for i := range vars {
			vars[i] = b.AddVariable(fmt.Sprint("v", i))
			c := messages.NewGaussian(8*rng.Float64(), 25+45*rng.Float64())
			if i > 0 {
				c = messages.NewGaussian(0.5+rng.Float64(), 0.01+0.29*rng.Float64())
			}
			sources = append(sources, b.AddFactor(factors.NewPrior(c.Mean(), c.Variance()), "", vars[i]))
		}
		id := b.AddFactor(f, "", vars...)
		g, err := b.Build()
		if err != nil {
			panic(err)
		}
		for _, s := range sources {
			if _, _, err := g.Update(s, 0, 0); err != nil {
				panic(err)
			}
		}
		out[k] = g.Edges(id)
	}
	return out
}

// updates returns a loop for sharedtest.Interleave: n updates of every
// edge's message of f, at a different pool entry each iteration.
func updates(b *testing.B, f graph.Factor) func(n int) {
	pool := cavityPool(f)
	next := 0
	return func(n int) {
		for range n {
			e := pool[next]
			next = (next + 1) % poolSize
			for j := range f.Arity() {
				if _, err := f.Message(j, e); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}

// benchMargin reports f's updates against the baseline, Within(0.74) on
// the pool's differences, the two run alternately.
func benchMargin(b *testing.B, f graph.Factor) {
	sharedtest.Interleave(b, updates(b, f), updates(b, factors.NewWithin(0.74)))
}

func BenchmarkMarginBaselineWithin(b *testing.B) { benchMargin(b, factors.NewWithin(0.74)) }

func BenchmarkExceedsMargin(b *testing.B) { benchMargin(b, factors.NewExceedsMargin()) }

func BenchmarkWithinMargin(b *testing.B) { benchMargin(b, factors.NewWithinMargin()) }

func BenchmarkBetweenMargins(b *testing.B) { benchMargin(b, factors.NewBetweenMargins()) }
