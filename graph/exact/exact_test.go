package exact_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/exact"
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/schedules"
)

func build(t testing.TB, b *graph.Builder) *graph.Graph {
	t.Helper()
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func close(a, b, tol float64) bool { return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b)) }

// One latent x ~ N(1, 2) observed through y = 3 ~ N(2x + 0.5, 1): the
// posterior precision is 1/2 + 2²/1 = 4.5 and its precision-adjusted mean
// 1/2 + 2·(3 − 0.5)/1 = 5.5; the evidence is N(3; 2·1 + 0.5, 1 + 2²·2).
func TestClosedForm(t *testing.T) {
	b := graph.NewBuilder("one")
	x := b.AddVariable("x")
	b.AddFactor(factors.NewPrior(1, 2), "", x)
	b.AddFactor(factors.NewLinearGaussian([]float64{2}, 0.5, 3, 1), "", x)
	sol, err := exact.Solve(build(t, b))
	if err != nil {
		t.Fatal(err)
	}
	m := sol.Marginals[x]
	if !close(m.Pi, 4.5, 1e-14) || !close(m.Tau, 5.5, 1e-14) {
		t.Errorf("posterior (π, τ) = (%v, %v), want (4.5, 5.5)", m.Pi, m.Tau)
	}
	want := -0.5*0.25/9 - 0.5*math.Log(2*math.Pi*9)
	if !close(sol.LogEvidence, want, 1e-14) {
		t.Errorf("log evidence %v, want %v", sol.LogEvidence, want)
	}
}

// A tree with every linear-Gaussian factor kind, hard constraints and an
// observed variable: the exact answer is what the two-pass tree schedule
// computes, marginals and evidence.
func TestTreeAgreesWithMessagePassing(t *testing.T) {
	b := graph.NewBuilder("tree")
	s1, s2, s3 := b.AddVariable("s1"), b.AddVariable("s2"), b.AddVariable("s3")
	p1, p2, p3 := b.AddVariable("p1"), b.AddVariable("p2"), b.AddVariable("p3")
	t1, t2, d, e := b.AddVariable("t1"), b.AddVariable("t2"), b.AddVariable("d"), b.AddVariable("e")
	o := b.AddObserved("o", 0.7)
	b.AddFactor(factors.NewPrior(25, 69), "", s1)
	b.AddFactor(factors.NewPrior(20, 30), "", s2)
	b.AddFactor(factors.NewPrior(30, 50), "", s3)
	b.AddFactor(factors.NewLikelihood(17), "", p1, s1)
	b.AddFactor(factors.NewLikelihood(17), "", p2, s2)
	b.AddFactor(factors.NewLikelihood(17), "", p3, s3)
	b.AddFactor(factors.NewWeightedSum(1), "", t1, p1)
	b.AddFactor(factors.NewWeightedSum(0.5, 1.5), "", t2, p2, p3)
	b.AddFactor(factors.NewDifference(), "", d, t1, t2)
	b.AddFactor(factors.NewGaussianObservation(4, 2), "", d)
	b.AddFactor(factors.NewEquality(), "", e, s1)
	b.AddFactor(factors.NewLinearGaussian([]float64{1, -2}, 0.1, 1.5, 3), "", e, o)
	g := build(t, b)
	sol, err := exact.Solve(g)
	if err != nil {
		t.Fatal(err)
	}
	s, err := schedules.Tree(g)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := schedules.Run(context.Background(), g, s); err != nil {
		t.Fatal(err)
	}
	for v := range g.NumVariables() {
		got, want := g.Marginal(graph.VarID(v)), sol.Marginals[v]
		if want.IsPointMass() {
			if got != want {
				t.Errorf("%s: %v, want %v", g.VariableName(graph.VarID(v)), got, want)
			}
			continue
		}
		if !close(got.Mean(), want.Mean(), 1e-11) || !close(got.Variance(), want.Variance(), 1e-11) {
			t.Errorf("%s: message passing N(%v, %v), exact N(%v, %v)", g.VariableName(graph.VarID(v)), got.Mean(), got.Variance(), want.Mean(), want.Variance())
		}
	}
	lz, err := g.LogEvidence()
	if err != nil {
		t.Fatal(err)
	}
	if !close(lz, sol.LogEvidence, 1e-11) {
		t.Errorf("log evidence: message passing %v, exact %v", lz, sol.LogEvidence)
	}
}

// A ring of n variables linked by likelihoods, each with a noisy
// observation: loopy, so message passing keeps the exact means but its
// variances come out smaller than the exact ones.
func TestLoopyVariancesAreTooSmall(t *testing.T) {
	const n = 6
	b := graph.NewBuilder("ring")
	x := make([]graph.VarID, n)
	for i := range x {
		x[i] = b.AddVariable(fmt.Sprintf("x%d", i))
		b.AddFactor(factors.NewGaussianObservation(float64(i%3)-1, 4), "", x[i])
	}
	for i := range x {
		b.AddFactor(factors.NewLikelihood(0.5), "", x[i], x[(i+1)%n])
	}
	g := build(t, b)
	sol, err := exact.Solve(g)
	if err != nil {
		t.Fatal(err)
	}
	res, err := schedules.Run(context.Background(), g, schedules.Flooding(g, schedules.Tolerance(1e-13), schedules.MaxIterations(10000)))
	if err != nil || !res.Converged {
		t.Fatalf("flooding: %+v, %v", res, err)
	}
	for _, v := range x {
		got, want := g.Marginal(v), sol.Marginals[v]
		if !close(got.Mean(), want.Mean(), 1e-9) {
			t.Errorf("%s: loopy mean %v, exact %v", g.VariableName(v), got.Mean(), want.Mean())
		}
		if !(got.Variance() < want.Variance()) {
			t.Errorf("%s: loopy variance %v, exact %v; want smaller", g.VariableName(v), got.Variance(), want.Variance())
		}
	}
}

type notLinear struct{}

func (notLinear) Arity() int { return 1 }
func (notLinear) Message(int, graph.Edges) (messages.Gaussian, error) {
	return messages.Gaussian{}, nil
}

func TestErrors(t *testing.T) {
	cases := []struct {
		name  string
		build func(b *graph.Builder)
		want  error
		says  string
	}{
		{"not linear", func(b *graph.Builder) {
			x := b.AddVariable("x")
			b.AddFactor(factors.NewPrior(0, 1), "", x)
			b.AddFactor(factors.NewGreaterThan(0), "", x)
		}, exact.ErrNotLinear, "not linear-Gaussian"},
		{"custom factor", func(b *graph.Builder) {
			x := b.AddVariable("x")
			b.AddFactor(notLinear{}, "", x)
		}, exact.ErrNotLinear, "not linear-Gaussian"},
		{"unanchored", func(b *graph.Builder) {
			x, y := b.AddVariable("x"), b.AddVariable("y")
			b.AddFactor(factors.NewPrior(0, 1), "", x)
			b.AddFactor(factors.NewLikelihood(1), "", x, y)
			b.AddFactor(factors.NewLikelihood(1), "", y, x)
			z, w := b.AddVariable("z"), b.AddVariable("w")
			b.AddFactor(factors.NewLikelihood(1), "", z, w)
		}, messages.ErrInput, "improper"},
		{"redundant constraints", func(b *graph.Builder) {
			x, y := b.AddVariable("x"), b.AddVariable("y")
			b.AddFactor(factors.NewPrior(0, 1), "", x)
			b.AddFactor(factors.NewEquality(), "", x, y)
			b.AddFactor(factors.NewEquality(), "", y, x)
		}, messages.ErrInput, "follows from the others or contradicts them"},
	}
	for _, c := range cases {
		b := graph.NewBuilder(c.name)
		c.build(b)
		_, err := exact.Solve(build(t, b))
		if !errors.Is(err, c.want) || !errors.Is(err, messages.ErrInput) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %v, want %v saying %q", c.name, err, c.want, c.says)
		}
	}
	if _, err := exact.Solve(nil); err == nil {
		t.Error("nil graph: no error")
	}
}

// userForm is a user's linear-Gaussian factor with any linear form.
type userForm struct {
	a              []float64
	mean, variance float64
}

func (f userForm) Arity() int { return len(f.a) }
func (userForm) Message(int, graph.Edges) (messages.Gaussian, error) {
	return messages.Gaussian{}, nil
}
func (f userForm) LinearForm() ([]float64, float64, float64) { return f.a, f.mean, f.variance }

// A coefficient, mean or variance that is not finite in a linear form is
// an error naming the factor, never a term left out.
func TestNonFiniteLinearForm(t *testing.T) {
	for _, bad := range []userForm{
		{a: []float64{1, math.NaN()}, variance: 1},
		{a: []float64{math.Inf(1), 1}, variance: 1},
		{a: []float64{1, -1}, mean: math.Inf(-1), variance: 1},
		{a: []float64{1, -1}, mean: 0, variance: math.Inf(1)},
		{a: []float64{1, 1e308}, mean: 0, variance: 0}, // finite, but the observed value overflows the mean
	} {
		b := graph.NewBuilder("bad")
		x := b.AddVariable("x")
		y := b.AddObserved("y", 1e10)
		b.AddFactor(factors.NewPrior(0, 1), "", x)
		b.AddFactor(bad, "user", x, y)
		_, err := exact.Solve(build(t, b))
		if !errors.Is(err, messages.ErrNumerical) {
			t.Errorf("%+v: %v, want %v", bad, err, messages.ErrNumerical)
		}
	}
}

// TestEvidenceFarFromZero: a chain x₀ → x₁ → … → x₄ of N(xᵢ; xᵢ₋₁, v)
// from the prior N(x₀; μ₀, v), with x₄ observed through N(μ₀ + 1; x₄, v),
// has evidence N(μ₀ + 1; μ₀, 6v): log = −½·log(12πv) − 1/(12v), whatever
// μ₀. At μ₀ = 1e12 and v = 1 the terms m²/v of the factors are 1e24, and
// Solve's evidence must not be their difference; the means themselves
// are float64's to 1e-4 there, which bounds what any answer can keep.
func TestEvidenceFarFromZero(t *testing.T) {
	for _, c := range []struct{ mu, v, tol float64 }{{0, 1, 1e-12}, {1e6, 1, 1e-9}, {1e9, 1, 1e-6}, {1e12, 1, 1e-5}, {1e12, 1e6, 1e-9}, {-1e12, 1e-2, 1e-3}} {
		b := graph.NewBuilder("far")
		x := make([]graph.VarID, 5)
		for i := range x {
			x[i] = b.AddVariable(fmt.Sprint("x", i))
		}
		b.AddFactor(factors.NewPrior(c.mu, c.v), "", x[0])
		for i := 1; i < len(x); i++ {
			b.AddFactor(factors.NewLikelihood(c.v), "", x[i], x[i-1])
		}
		b.AddFactor(factors.NewGaussianObservation(c.mu+1, c.v), "", x[4])
		g, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		sol, err := exact.Solve(g)
		if err != nil {
			t.Fatal(err)
		}
		want := -0.5*math.Log(12*math.Pi*c.v) - 1/(12*c.v)
		if math.Abs(sol.LogEvidence-want) > c.tol*math.Max(1, math.Abs(want)) {
			t.Errorf("μ₀ = %v, v = %v: log evidence %.17g, want %.17g", c.mu, c.v, sol.LogEvidence, want)
		}
	}
}

// TestIllConditioned: a skill s ~ N(23.42, 0.014) whose performance
// p = s + N(0, β²) is compared with q ~ N(25, 1) through an observed
// d = p − q ~ N(0, 1): by Gaussian conditioning the posterior of s is
// N(μ + v(25 − μ)/(v + β² + 2), v(β² + 2)/(v + β² + 2)). As β² falls to
// 1e-16 and 1e-18 the precision of p, 1/β², leaves the 71 of s's prior
// in the rounding of their sum; Solve and EP must then refuse, as
// ErrNumerical, rather than return a posterior (at 1e-18 the factor's
// answer has a mean of 13.2, 84 standard deviations off).
func TestIllConditioned(t *testing.T) {
	for _, b2 := range []float64{1, 1e-6, 1e-12, 1e-16, 1e-18} {
		b := graph.NewBuilder("ill")
		s, p, q, d := b.AddVariable("s"), b.AddVariable("p"), b.AddVariable("q"), b.AddVariable("d")
		b.AddFactor(factors.NewPrior(23.42, 0.014), "", s)
		b.AddFactor(factors.NewLikelihood(b2), "", p, s)
		b.AddFactor(factors.NewPrior(25, 1), "", q)
		b.AddFactor(factors.NewDifference(), "", d, p, q)
		b.AddFactor(factors.NewGaussianObservation(0, 1), "", d)
		g, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		noise := b2 + 2
		wantMean, wantVar := 23.42+0.014*(25-23.42)/(0.014+noise), 0.014*noise/(0.014+noise)
		solve, err := exact.Solve(g)
		ep, epErr := exact.EP(context.Background(), g)
		for _, c := range []struct {
			name string
			sol  *exact.Solution
			err  error
		}{{"Solve", solve, err}, {"EP", ep, epErr}} {
			if b2 < 1e-14 {
				if !errors.Is(c.err, messages.ErrNumerical) {
					t.Errorf("β² = %v: %s: %v, want %v", b2, c.name, c.err, messages.ErrNumerical)
				}
				continue
			}
			if c.err != nil {
				t.Fatalf("β² = %v: %s: %v", b2, c.name, c.err)
			}
			// s's precision, 71 + 1/β² less what eliminating p takes, is
			// computed to 1e-16 of 1/β²: about 1e-4 of 71 at β² = 1e-12,
			// and the mean and variance follow to about 1e-3.
			tol := 1e-9
			if b2 < 1e-9 {
				tol = 1e-3
			}
			m := c.sol.Marginals[s]
			if math.Abs(m.Mean()-wantMean) > tol*math.Sqrt(wantVar) || math.Abs(m.Variance()/wantVar-1) > tol {
				t.Errorf("β² = %v: %s: s %v, want N(%v, %v)", b2, c.name, m, wantMean, wantVar)
			}
		}
	}
}
