package factors_test

import (
	"math"
	"testing"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/factors/factortest"
	"github.com/skillgraph/skillgraph/messages"
)

// The factor author's kit run on every factor of the package: the messages
// and evidence against quadrature of each factor's density, and against
// each other.

func gaussDensity(x, mean, variance float64) float64 {
	d := x - mean
	return math.Exp(-0.5*d*d/variance) / math.Sqrt(2*math.Pi*variance)
}

func gaussMsg(mean, variance float64) messages.Gaussian { return messages.NewGaussian(mean, variance) }

func TestKitPrior(t *testing.T) {
	for _, c := range []messages.Gaussian{gaussMsg(3, 4), gaussMsg(-40, 0.01), gaussMsg(1e3, 1e4)} {
		f := factors.NewPrior(2.5, 9)
		// The prior is 33 times narrower than the last cavity, and 30 of its
		// widths away: a finer grid.
		factortest.Check(t, factortest.Case{Name: "prior", Factor: f, Cavities: []messages.Gaussian{c}, Grid: factortest.Grid{Pieces: 200},
			Density: func(x []float64) float64 { return gaussDensity(x[0], f.Mean, f.Variance) }})
	}
}

func TestKitGaussianObservation(t *testing.T) {
	f := factors.NewGaussianObservation(1.5, 0.25)
	factortest.Check(t, factortest.Case{Name: "observation", Factor: f, Cavities: []messages.Gaussian{gaussMsg(0, 2)},
		Density: func(x []float64) float64 { return gaussDensity(f.Value, x[0], f.Variance) }})
}

func TestKitLikelihood(t *testing.T) {
	for _, cs := range [][]messages.Gaussian{
		{gaussMsg(25, 69.4), gaussMsg(27, 30)},
		{gaussMsg(-3, 0.5), gaussMsg(2, 8)},
		{messages.PointMass(1.25), gaussMsg(2, 8)},
		{gaussMsg(-3, 0.5), messages.PointMass(0.5)},
	} {
		f := factors.NewLikelihood(17.4)
		factortest.Check(t, factortest.Case{Name: "likelihood", Factor: f, Cavities: cs,
			Density: func(x []float64) float64 { return gaussDensity(x[0], x[1], f.Variance) }})
	}
}

func TestKitLinearGaussian(t *testing.T) {
	for _, cs := range [][]messages.Gaussian{
		{gaussMsg(1, 2), gaussMsg(-0.5, 0.7), gaussMsg(0.3, 0.1)},
		{gaussMsg(1, 2), messages.PointMass(1), gaussMsg(0.3, 0.1)},
	} {
		f := factors.NewLinearGaussian([]float64{1, -1.5, 2}, 0.4, 2.75, 0.8)
		factortest.Check(t, factortest.Case{Name: "linear Gaussian", Factor: f, Cavities: cs,
			Density: func(x []float64) float64 {
				return gaussDensity(f.Value, f.Coefficient(0)*x[0]+f.Coefficient(1)*x[1]+f.Coefficient(2)*x[2]+f.Offset, f.Variance)
			}})
	}
	// A zero coefficient: that variable is not observed, and its message
	// is uniform.
	f := factors.NewLinearGaussian([]float64{0.5, 0}, 0, 1, 1)
	cs := []messages.Gaussian{gaussMsg(0, 1), gaussMsg(5, 3)}
	factortest.Check(t, factortest.Case{Name: "linear Gaussian, a zero coefficient", Factor: f, Cavities: cs,
		Density: func(x []float64) float64 { return gaussDensity(f.Value, 0.5*x[0], f.Variance) }})
	if m, err := factortest.Message(f, 1, cs...); err != nil || !m.IsUniform() {
		t.Errorf("message to a variable with coefficient 0 = %v, %v; want uniform", m, err)
	}
}

func TestKitLinearGaussianUniformCavities(t *testing.T) {
	f := factors.NewLinearGaussian([]float64{2, -1}, 0, 3, 0.5)
	// One uniform cavity: the other's message is uniform, the uniform one
	// receives the observation solved for it, and the evidence is −log|a|.
	m, err := factortest.Message(f, 0, messages.Gaussian{}, gaussMsg(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	// 2·x₀ ~ N(3 + 1, 0.5 + 2): x₀ ~ N(2, 2.5/4).
	if math.Abs(m.Mean()-2) > 1e-15 || math.Abs(m.Variance()-2.5/4) > 1e-15 {
		t.Errorf("message to the uniform edge = N(%v, %v), want N(2, 0.625)", m.Mean(), m.Variance())
	}
	if m, _ := factortest.Message(f, 1, messages.Gaussian{}, gaussMsg(1, 2)); !m.IsUniform() {
		t.Errorf("message past a uniform cavity = %v, want uniform", m)
	}
	lz, err := factortest.LogAverageFactor(f, messages.Gaussian{}, gaussMsg(1, 2))
	if err != nil || math.Abs(lz+math.Log(2)) > 1e-15 {
		t.Errorf("evidence with one uniform cavity = %v, %v; want −log 2", lz, err)
	}
	if _, err := factortest.LogAverageFactor(f, messages.Gaussian{}, messages.Gaussian{}); err == nil {
		t.Error("evidence with two uniform cavities: no error, want messages.ErrInput (a diverging integral)")
	}
}

func TestKitEquality(t *testing.T) {
	f := factors.NewEquality()
	for _, cs := range [][]messages.Gaussian{
		{gaussMsg(1, 2), gaussMsg(-0.5, 0.7)},
		{gaussMsg(1, 2), messages.PointMass(4)},
	} {
		factortest.Check(t, factortest.Case{Name: "equality", Factor: f, Cavities: cs})
		// The messages pass each cavity through (Table 1's rows 3-4, a = (1)).
		for i := range 2 {
			m, err := factortest.Message(f, i, cs...)
			if err != nil || m != cs[1-i] {
				t.Errorf("equality message %d = %v, %v; want the other cavity %v", i, m, err, cs[1-i])
			}
		}
	}
	// Its evidence is the overlap of the two cavities, ∫ĉ₀ĉ₁ = N(μ₀; μ₁, σ₀² + σ₁²).
	lz, err := factortest.LogAverageFactor(f, gaussMsg(1, 2), gaussMsg(-0.5, 0.7))
	if want := math.Log(gaussDensity(1, -0.5, 2.7)); err != nil || math.Abs(lz-want) > 1e-14 {
		t.Errorf("equality evidence = %v, %v; want %v", lz, err, want)
	}
}

func TestKitWeightedSum(t *testing.T) {
	for _, a := range [][]float64{{1, -1}, {0.5, 2, -1.5}, {1}, {-2}} {
		cs := []messages.Gaussian{gaussMsg(0.5, 3)}
		for j := range a {
			cs = append(cs, gaussMsg(float64(j)-1, 0.5+float64(j)))
		}
		factortest.Check(t, factortest.Case{Name: "weighted sum", Factor: factors.NewWeightedSum(a...), Cavities: cs})
	}
}

func TestKitTruncations(t *testing.T) {
	for _, c := range []messages.Gaussian{gaussMsg(0.3, 1.2), gaussMsg(-2, 0.5), gaussMsg(4, 9)} {
		const eps = 0.7
		factortest.Check(t, factortest.Case{Name: "greater than", Factor: factors.NewGreaterThan(eps),
			Cavities: []messages.Gaussian{c}, Grid: factortest.Grid{Cuts: [][]float64{{eps}}},
			Density: func(x []float64) float64 {
				if x[0] > eps {
					return 1
				}
				return 0
			}})
		factortest.Check(t, factortest.Case{Name: "within", Factor: factors.NewWithin(eps),
			Cavities: []messages.Gaussian{c}, Grid: factortest.Grid{Cuts: [][]float64{{-eps, eps}}},
			Density: func(x []float64) float64 {
				if math.Abs(x[0]) <= eps {
					return 1
				}
				return 0
			}})
	}
}
