package factors_test

import (
	"errors"
	"math"
	"testing"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/factors/factortest"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
)

// TestCoefficientsChangeOnlyValidly: after Build, a weighted sum's and a
// linear-Gaussian observation's coefficients change only through
// SetCoefficients, which refuses another number of them (nil included) or
// one that is not finite, leaving the factor as it was; the slice given to
// the constructor and the copies the accessors return are the caller's.
// The messages are checked against the closed form of Table 1's rows 3-4:
// for d = a₀y₀ + a₁y₁ with cavities N(μⱼ, σⱼ²), N(a₀μ₀ + a₁μ₁, a₀²σ₀² +
// a₁²σ₁²).
func TestCoefficientsChangeOnlyValidly(t *testing.T) {
	a := []float64{1, -1}
	w := factors.NewWeightedSum(a...)
	l := factors.NewLinearGaussian(a, 0, 1, 2)
	b := graph.NewBuilder("coefficients")
	d, y0, y1 := b.AddVariable("d"), b.AddVariable("y0"), b.AddVariable("y1")
	b.AddFactor(factors.NewPrior(3, 4), "", y0)
	b.AddFactor(factors.NewPrior(1, 9), "", y1)
	sum := b.AddFactor(w, "", d, y0, y1)
	b.AddFactor(l, "", y0, y1)
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	for f := range 2 {
		if _, _, err := g.Update(graph.FactorID(f), 0, 0); err != nil {
			t.Fatal(err)
		}
	}
	check := func(what string, a0, a1 float64) {
		t.Helper()
		m, err := w.Message(0, g.Edges(sum))
		mean, variance := a0*3+a1*1, a0*a0*4+a1*a1*9
		if err != nil || math.Abs(m.Mean()-mean) > 1e-12 || math.Abs(m.Variance()-variance) > 1e-12 {
			t.Errorf("%s: message to d %v (mean %v, variance %v), %v; want N(%v, %v)", what, m, m.Mean(), m.Variance(), err, mean, variance)
		}
	}
	check("as built", 1, -1)

	a[0] = math.NaN() // the caller's slice
	w.Coefficients()[1] = math.NaN()
	l.Coefficients()[0] = math.Inf(1)
	check("after changing the caller's slice and a copy", 1, -1)

	for _, bad := range [][]float64{nil, {}, {1}, {1, 2, 3}, {math.NaN(), 1}, {1, math.Inf(-1)}} {
		if err := w.SetCoefficients(bad...); !errors.Is(err, messages.ErrInput) {
			t.Errorf("WeightedSum.SetCoefficients(%v): %v, want messages.ErrInput", bad, err)
		}
		if err := l.SetCoefficients(bad...); !errors.Is(err, messages.ErrInput) {
			t.Errorf("LinearGaussian.SetCoefficients(%v): %v, want messages.ErrInput", bad, err)
		}
		check("after a refused change", 1, -1)
	}
	if err := w.SetCoefficients(2, 0.5); err != nil {
		t.Fatal(err)
	}
	check("after a valid change", 2, 0.5)
	if c := w.Coefficients(); len(c) != 2 || c[0] != 2 || c[1] != 0.5 || w.Coefficient(1) != 0.5 || w.Coefficient(2) != 0 || w.Coefficient(-1) != 0 {
		t.Errorf("Coefficients %v, Coefficient(1) %v", c, w.Coefficient(1))
	}
	if err := l.SetCoefficients(0.5, 2); err != nil || l.Coefficient(0) != 0.5 || l.Arity() != 2 {
		t.Errorf("LinearGaussian.SetCoefficients(0.5, 2): %v, coefficients %v", err, l.Coefficients())
	}
}

// TestLabelsWithoutNames: a label asked with too few variable names (nil)
// names them "?", and never panics.
func TestLabelsWithoutNames(t *testing.T) {
	for _, tc := range []struct {
		l    graph.Labeler
		want string
	}{
		{factors.NewPrior(0, 1), "N(?; 0, 1)"},
		{factors.NewLikelihood(2), "N(?; ?, 2)"},
		{factors.NewGaussianObservation(1, 2), "N(1; ?, 2)"},
		{factors.NewPoisson(3), "Poisson(3; exp(?))"},
		{factors.NewGreaterThan(0.5), "I(? > 0.5)"},
		{factors.NewWithin(0.5), "I(|?| ≤ 0.5)"},
		{factors.NewDifference(), "? = ? − ?"},
		{factors.NewLinearGaussian([]float64{2, 1}, 1, 3, 1), "N(3; 2·? + ? +1, 1)"},
		{factors.NewExceedsMargin(), "I(? > ?)"},
		{factors.NewWithinMargin(), "I(|?| ≤ ?)"},
		{factors.NewBetweenMargins(), "I(−? ≤ ? ≤ ?)"},
	} {
		if got := tc.l.Label(nil); got != tc.want {
			t.Errorf("%T.Label(nil) = %q, want %q", tc.l, got, tc.want)
		}
	}
}

// TestWeightedSumZeroCoefficient: a sum with a zero coefficient sends the
// message of the term that remains, x = a·y, even where the two-term
// form's products would overflow: N(a·μ, a²σ²) for a = 1e-150, and, to a
// term, the scaled cavity of the sum beside a precision of 1e-200; and a
// term with a zero coefficient is sent the uniform message.
func TestWeightedSumZeroCoefficient(t *testing.T) {
	w := factors.NewWeightedSum(0, 1e-150)
	m, err := factortest.Message(w, 0, messages.NewGaussian(0, 1), messages.NewGaussian(0, 1e8), messages.NewGaussian(1, 0.25))
	wantPi, wantTau := 1/(1e-300*0.25), 1e-150/(1e-300*0.25)
	if err != nil || math.Abs(m.Pi/wantPi-1) > 1e-12 || math.Abs(m.Tau/wantTau-1) > 1e-12 {
		t.Errorf("x = 0·y₀ + 1e-150·y₁: %v, %v; want π %v, τ %v", m, err, wantPi, wantTau)
	}
	w = factors.NewWeightedSum(0, 1)
	m, err = factortest.Message(w, 2, messages.Gaussian{Pi: 1e200, Tau: 1e200}, messages.Gaussian{Pi: 1e-200}, messages.NewGaussian(0, 1))
	if err != nil || math.Abs(m.Pi/1e200-1) > 1e-12 || math.Abs(m.Tau/1e200-1) > 1e-12 {
		t.Errorf("y₁ from x = 0·y₀ + y₁ with x ~ N(1, 1e-200): %v, %v; want π = τ = 1e200", m, err)
	}
	// A term whose own coefficient is 0 gets the uniform message, however
	// large the others' terms (here s₂τ₂π₁/D overflows).
	w = factors.NewWeightedSum(1e-10, 0)
	m, err = factortest.Message(w, 2, messages.Gaussian{Pi: 1, Tau: 0}, messages.Gaussian{Pi: 1e-30, Tau: 1e300}, messages.NewGaussian(0, 1))
	if err != nil || !m.IsUniform() {
		t.Errorf("y₁ of x = 1e-10·y₀ + 0·y₁: %v, %v; want the uniform message", m, err)
	}
}
