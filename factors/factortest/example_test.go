package factortest_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/factors/factortest"
	"github.com/skillgraph/skillgraph/messages"
)

// A factor's message at chosen cavities, outside any model: a likelihood
// N(x; y, 4) sends y's cavity N(1, 2) to x widened by 4.
func ExampleMessage() {
	m, err := factortest.Message(factors.NewLikelihood(4), 0, messages.Gaussian{}, messages.NewGaussian(1, 2))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("N(%.4g, %.4g)\n", m.Mean(), m.Variance())
	// Output: N(1, 6)
}

// A factor's evidence at chosen cavities: a win factor I(d > 0.5) under
// the cavity N(1, 4) has log P(d > 0.5) = log Φ((1 − 0.5)/2).
func ExampleLogAverageFactor() {
	lz, err := factortest.LogAverageFactor(factors.NewGreaterThan(0.5), messages.NewGaussian(1, 4))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("P(d > 0.5) = %.4f\n", math.Exp(lz))
	// Output: P(d > 0.5) = 0.5987
}

// The tilted distribution of a win factor I(d > 0.5) and a cavity N(1, 4),
// by quadrature: what its message must reproduce.
func ExampleTilted() {
	m, err := factortest.Tilted(func(x []float64) float64 {
		if x[0] > 0.5 {
			return 1
		}
		return 0
	}, []messages.Gaussian{messages.NewGaussian(1, 4)}, factortest.Grid{Cuts: [][]float64{{0.5}}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("P(d > 0.5) = %.4f, mean %.4f, variance %.4f\n", math.Exp(m.LogZ), m.Mean[0], m.Variance[0])
	// Output: P(d > 0.5) = 0.5987, mean 2.2917, variance 1.6857
}

// Check runs every test that applies to a factor: here a linear-Gaussian
// observation y = 2.75 ~ N(x₀ − 1.5·x₁ + 0.4, 0.8), against quadrature of
// its density and against its own evidence. In a test file, pass the test's
// *testing.T; here a reporter prints what would fail.
func ExampleCheck() {
	f := factors.NewLinearGaussian([]float64{1, -1.5}, 0.4, 2.75, 0.8)
	t := &printer{}
	factortest.Check(t, factortest.Case{
		Factor:   f,
		Cavities: []messages.Gaussian{messages.NewGaussian(1, 2), messages.NewGaussian(-0.5, 0.7)},
		Density: func(x []float64) float64 {
			d := f.Value - (x[0] - 1.5*x[1] + f.Offset)
			return math.Exp(-0.5*d*d/f.Variance) / math.Sqrt(2*math.Pi*f.Variance)
		},
	})
	fmt.Println("failures:", t.failures)
	// Output: failures: 0
}

// printer reports a check's failures on standard output.
type printer struct {
	testing.TB
	failures int
}

func (p *printer) Helper()                   {}
func (p *printer) Logf(string, ...any)       {}
func (p *printer) Errorf(f string, a ...any) { p.failures++; fmt.Printf(f+"\n", a...) }

// A jump along a line, x > m for two variables: Grid.CutsAt places the
// inner rule's cut at m = x for each outer x, so the nested quadrature
// resolves it. With cavities N(1, 1) and N(0.5, 0.25), x − m is
// N(0.5, 1.25) and P(x > m) = Φ(0.5/√1.25).
func ExampleGrid_cutsAt() {
	m, err := factortest.Tilted(func(x []float64) float64 {
		if x[0] > x[1] {
			return 1
		}
		return 0
	}, []messages.Gaussian{messages.NewGaussian(1, 1), messages.NewGaussian(0.5, 0.25)},
		factortest.Grid{CutsAt: func(i int, x []float64) []float64 {
			if i == 1 {
				return []float64{x[0]}
			}
			return nil
		}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("P(x > m) = %.10f, Φ(0.5/√1.25) = %.10f\n", math.Exp(m.LogZ), messages.NormCDF(0.5/math.Sqrt(1.25)))
	// Output: P(x > m) = 0.6726395770, Φ(0.5/√1.25) = 0.6726395770
}
