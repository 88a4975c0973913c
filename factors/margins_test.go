package factors_test

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/factors/factortest"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
)

// The factors whose margin is a variable, checked as Table 1's are: every
// edge's message and the evidence against nested Gauss–Legendre
// quadrature of the tilted density (the factor's indicator times the
// cavities), whose inner rules are cut where the indicator jumps for the
// outer variables' values, on cavities from the bulk to the tails; and
// fixed margins against GreaterThan and Within.

func exceeds(x []float64) float64 {
	if x[0] > x[1] {
		return 1
	}
	return 0
}

func withinM(x []float64) float64 {
	if math.Abs(x[0]) <= x[1] {
		return 1
	}
	return 0
}

func between(x []float64) float64 {
	if -x[1] <= x[0] && x[0] <= x[2] {
		return 1
	}
	return 0
}

// features returns cuts for the outer variable x around a margin's
// cavity c at sign·m (each sign): where the indicator, integrated over
// the margin, changes on the margin's own scale.
func features(c messages.Gaussian, ks []float64, signs ...float64) []float64 {
	var out []float64
	for _, s := range signs {
		for _, k := range ks {
			out = append(out, s*(c.Mean()+k*c.Sigma()))
		}
	}
	return out
}

// The multiples of the margin's σ at which x is cut: a finer set for the
// two-variable factors, a coarser one (fewer nodes) for the three.
var (
	fine   = []float64{-8, -4, -2, -1, 0, 1, 2, 4, 8}
	coarse = []float64{-8, -3, -1, 0, 1, 3, 8}
)

// grids return the nested grid of each factor: x outer, cut around the
// margins (and at a fixed margin), the margins inner, cut where the
// indicator jumps for the outer x.
func exceedsGrid(cs []messages.Gaussian) factortest.Grid {
	return factortest.Grid{Width: 20, Pieces: 4, Nodes: 20, Cuts: [][]float64{features(cs[1], fine, 1)},
		CutsAt: func(i int, x []float64) []float64 { return []float64{x[0]} }}
}

func withinGrid(cs []messages.Gaussian) factortest.Grid {
	return factortest.Grid{Width: 16, Pieces: 4, Nodes: 20, Cuts: [][]float64{append(features(cs[1], fine, 1, -1), 0)},
		CutsAt: func(i int, x []float64) []float64 { return []float64{math.Abs(x[0])} }}
}

func betweenGrid(cs []messages.Gaussian) factortest.Grid {
	return factortest.Grid{Width: 13, Pieces: 2, Nodes: 16, Cuts: [][]float64{append(features(cs[1], coarse, -1), features(cs[2], coarse, 1)...)},
		CutsAt: func(i int, x []float64) []float64 {
			if i == 2 {
				return []float64{x[0]}
			}
			return []float64{-x[0]}
		}}
}

func TestKitExceedsMargin(t *testing.T) {
	xs := []messages.Gaussian{gaussMsg(0, 1), gaussMsg(2.5, 0.3), gaussMsg(-4, 2), gaussMsg(-12, 1), gaussMsg(30, 4)}
	ms := []messages.Gaussian{gaussMsg(0.5, 0.2), gaussMsg(1, 4), gaussMsg(3, 0.01), messages.PointMass(0.7)}
	for _, x := range xs {
		for _, m := range ms {
			factortest.Check(t, factortest.Case{
				Name: fmt.Sprintf("I(x > m), x %v, m %v", x, m), Factor: factors.NewExceedsMargin(),
				Cavities: []messages.Gaussian{x, m}, Density: exceeds,
				Grid: exceedsGrid([]messages.Gaussian{x, m}),
			})
		}
	}
}

func TestKitWithinMargin(t *testing.T) {
	xs := []messages.Gaussian{gaussMsg(0, 1), gaussMsg(0.8, 0.3), gaussMsg(-4, 2), gaussMsg(9, 1), gaussMsg(-2, 25)}
	ms := []messages.Gaussian{gaussMsg(0.5, 0.2), gaussMsg(1, 4), gaussMsg(2, 0.01), gaussMsg(-1, 0.5), messages.PointMass(0.7)}
	for _, x := range xs {
		for _, m := range ms {
			factortest.Check(t, factortest.Case{
				Name: fmt.Sprintf("I(|x| ≤ m), x %v, m %v", x, m), Factor: factors.NewWithinMargin(),
				Cavities: []messages.Gaussian{x, m}, Density: withinM,
				Grid: withinGrid([]messages.Gaussian{x, m}),
			})
		}
	}
}

func TestKitBetweenMargins(t *testing.T) {
	cases := [][3]messages.Gaussian{
		{gaussMsg(0, 1), gaussMsg(0.5, 0.2), gaussMsg(0.7, 0.3)},
		{gaussMsg(0.4, 2), gaussMsg(1, 1), gaussMsg(0.2, 0.5)},
		{gaussMsg(-1.5, 0.5), gaussMsg(0.3, 0.05), gaussMsg(1.2, 0.8)},
		{gaussMsg(0, 9), gaussMsg(0.6, 0.1), gaussMsg(0.6, 0.1)},
		// Tails: x far beyond either margin, and margins below 0.
		{gaussMsg(6, 1), gaussMsg(0.5, 0.2), gaussMsg(0.7, 0.3)},
		{gaussMsg(-5, 0.5), gaussMsg(0.5, 0.4), gaussMsg(0.7, 0.3)},
		{gaussMsg(0, 1), gaussMsg(-1, 0.3), gaussMsg(-0.5, 0.3)},
		// One fixed margin.
		{gaussMsg(0.3, 1), messages.PointMass(0.6), gaussMsg(0.7, 0.3)},
		{gaussMsg(0.3, 1), gaussMsg(0.6, 0.2), messages.PointMass(0.4)},
	}
	for _, cs := range cases {
		factortest.Check(t, factortest.Case{
			Name: fmt.Sprintf("I(−u ≤ x ≤ v), %v", cs), Factor: factors.NewBetweenMargins(),
			Cavities: cs[:], Density: between,
			Grid: betweenGrid(cs[:]),
		})
	}
}

// msgAt is factortest.Message that fails the test on an error.
func msgAt(t *testing.T, f graph.Factor, i int, cs ...messages.Gaussian) messages.Gaussian {
	t.Helper()
	m, err := factortest.Message(f, i, cs...)
	if err != nil {
		t.Fatalf("%T message %d at %v: %v", f, i, cs, err)
	}
	return m
}

// sameMessage compares two messages by the marginals they give the cavity
// c: means relative to the cavity's σ, variances relative.
func sameMessage(t *testing.T, what string, c, got, want messages.Gaussian, tol float64) {
	t.Helper()
	g, w := c.Mul(got), c.Mul(want)
	if !(math.Abs(g.Mean()-w.Mean()) <= tol*c.Sigma()) || !(math.Abs(g.Variance()-w.Variance()) <= tol*w.Variance()) {
		t.Errorf("%s: marginal %v (message %v), want %v (message %v)", what, g, got, w, want)
	}
}

func TestMarginsFixedReproduceTable1(t *testing.T) {
	xs := []messages.Gaussian{gaussMsg(0, 1), gaussMsg(1.2, 0.4), gaussMsg(-3, 4), gaussMsg(-9, 1), gaussMsg(40, 1)}
	const eps = 0.7
	for _, x := range xs {
		gt := msgAt(t, factors.NewGreaterThan(eps), 0, x)
		wi := msgAt(t, factors.NewWithin(eps), 0, x)
		lgt, _ := factortest.LogAverageFactor(factors.NewGreaterThan(eps), x)
		lwi, _ := factortest.LogAverageFactor(factors.NewWithin(eps), x)
		for _, m := range []struct {
			c   messages.Gaussian
			tol float64
		}{{messages.PointMass(eps), 1e-12}, {gaussMsg(eps, 1e-18), 1e-8}} {
			name := fmt.Sprintf("x %v, m %v", x, m.c)
			sameMessage(t, "I(x > m) "+name, x, msgAt(t, factors.NewExceedsMargin(), 0, x, m.c), gt, m.tol)
			sameMessage(t, "I(|x| ≤ m) "+name, x, msgAt(t, factors.NewWithinMargin(), 0, x, m.c), wi, m.tol)
			sameMessage(t, "I(−u ≤ x ≤ v) "+name, x, msgAt(t, factors.NewBetweenMargins(), 0, x, m.c, m.c), wi, m.tol)
			for _, e := range []struct {
				f    graph.Factor
				cs   []messages.Gaussian
				want float64
			}{
				{factors.NewExceedsMargin(), []messages.Gaussian{x, m.c}, lgt},
				{factors.NewWithinMargin(), []messages.Gaussian{x, m.c}, lwi},
				{factors.NewBetweenMargins(), []messages.Gaussian{x, m.c, m.c}, lwi},
			} {
				got, err := factortest.LogAverageFactor(e.f, e.cs...)
				if err != nil || !(math.Abs(got-e.want) <= m.tol*math.Max(1, math.Abs(e.want))) {
					t.Errorf("%T %s: evidence %v, %v; want %v", e.f, name, got, err, e.want)
				}
			}
		}
	}
	// Unequal fixed margins: the interval [−u₀, v₀] by quadrature.
	x := gaussMsg(0.3, 1.7)
	u0, v0 := 0.4, 1.1
	got := msgAt(t, factors.NewBetweenMargins(), 0, x, messages.PointMass(u0), messages.PointMass(v0))
	want, err := factortest.Tilted(func(z []float64) float64 {
		if -u0 <= z[0] && z[0] <= v0 {
			return 1
		}
		return 0
	}, []messages.Gaussian{x}, factortest.Grid{Cuts: [][]float64{{-u0, v0}}})
	if err != nil {
		t.Fatal(err)
	}
	if m := x.Mul(got); math.Abs(m.Mean()-want.Mean[0]) > 1e-10 || math.Abs(m.Variance()/want.Variance[0]-1) > 1e-10 {
		t.Errorf("I(−%v ≤ x ≤ %v): marginal %v, quadrature N(%v, %v)", u0, v0, m, want.Mean[0], want.Variance[0])
	}
}

// A point-mass x leaves independent truncations of the margins.
func TestMarginsFixedDifference(t *testing.T) {
	x := messages.PointMass(0.3)
	u, v := gaussMsg(0.5, 0.2), gaussMsg(0.1, 0.4)
	sameMessage(t, "u", u, msgAt(t, factors.NewBetweenMargins(), 1, x, u, v), msgAt(t, factors.NewGreaterThan(0), 0, u.Shift(0.3)).Shift(-0.3), 1e-12)
	sameMessage(t, "v", v, msgAt(t, factors.NewBetweenMargins(), 2, x, u, v), msgAt(t, factors.NewGreaterThan(0.3), 0, v), 1e-12)
	sameMessage(t, "m", u, msgAt(t, factors.NewWithinMargin(), 1, messages.PointMass(-0.3), u), msgAt(t, factors.NewGreaterThan(0.3), 0, u), 1e-12)
}

// Edge cases: improper cavities are errors, uniform ones give uniform
// messages and a divergent evidence, impossible point masses are errors,
// and nothing is NaN in the far tails.
func TestMarginsEdgeCases(t *testing.T) {
	fs := []graph.Factor{factors.NewExceedsMargin(), factors.NewWithinMargin(), factors.NewBetweenMargins()}
	for _, f := range fs {
		n := f.Arity()
		proper := make([]messages.Gaussian, n)
		for i := range proper {
			proper[i] = gaussMsg(0.5, 1)
		}
		// factortest rejects improper cavities itself, so the factor is
		// shown one through a graph edge directly.
		for i := range n {
			cs := append([]messages.Gaussian(nil), proper...)
			cs[i] = messages.Gaussian{}
			for j := range n {
				m, err := factortest.Message(f, j, cs...)
				if err != nil || !m.IsUniform() {
					t.Errorf("%T: uniform cavity %d, message %d = %v, %v; want uniform", f, i, j, m, err)
				}
			}
			if _, err := factortest.LogAverageFactor(f, cs...); !errors.Is(err, messages.ErrInput) {
				t.Errorf("%T: uniform cavity %d: evidence error %v, want messages.ErrInput (a diverging integral)", f, i, err)
			}
		}
		pm := make([]messages.Gaussian, n)
		for i := range pm {
			pm[i] = messages.PointMass(-1)
		}
		pm[0] = messages.PointMass(5) // 5 > −1 holds; |5| ≤ −1 and −(−1) ≤ 5 ≤ −1 do not
		_, err := factortest.Message(f, 0, pm...)
		if _, ok := f.(*factors.ExceedsMargin); ok {
			if err != nil {
				t.Errorf("%T: a possible point mass: %v", f, err)
			}
		} else if !errors.Is(err, messages.ErrImpossible) {
			t.Errorf("%T: an impossible point mass: %v, want messages.ErrImpossible", f, err)
		}
		// Far tails: finite messages and evidence.
		for _, mu := range []float64{-1e4, -200, -40, 40, 200, 1e4} {
			cs := append([]messages.Gaussian(nil), proper...)
			cs[0] = gaussMsg(mu, 1)
			for j := range n {
				m, err := factortest.Message(f, j, cs...)
				if err != nil || !m.IsFinite() || m.Pi < 0 {
					t.Errorf("%T: x at %v: message %d = %v, %v", f, mu, j, m, err)
				}
			}
			lz, err := factortest.LogAverageFactor(f, cs...)
			if err != nil || !messages.IsFinite(lz) || lz > 0 {
				t.Errorf("%T: x at %v: evidence %v, %v", f, mu, lz, err)
			}
		}
	}
}
