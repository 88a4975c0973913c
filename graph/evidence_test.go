package graph_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
)

// userEvidence is a user's factor reporting a fixed log average, or a
// fixed LogTerm when term is set.
type userEvidence struct {
	l    float64
	term *graph.LogTerm
}

func (userEvidence) Arity() int { return 1 }
func (userEvidence) Message(int, graph.Edges) (messages.Gaussian, error) {
	return messages.NewGaussian(0, 1), nil
}
func (u userEvidence) LogAverageFactor(graph.Edges) (float64, error) { return u.l, nil }
func (u userEvidence) LogAverageFactorTerm(graph.Edges) (graph.LogTerm, bool, error) {
	if u.term == nil {
		return graph.LogTerm{}, false, nil
	}
	return *u.term, true, nil
}

// TestLogEvidenceRejectsNonFiniteTerms: a factor's NaN or +∞ log average
// (or a LogTerm that is not one), or its −∞ (probability zero), is an
// *graph.UpdateError naming the factor, never a NaN or infinite log
// evidence with a nil error; a finite term is added as it is.
func TestLogEvidenceRejectsNonFiniteTerms(t *testing.T) {
	build := func(f graph.Factor) *graph.Graph {
		b := graph.NewBuilder("user")
		x := b.AddVariable("x")
		b.AddFactor(factors.NewPrior(0, 1), "", x)
		b.AddFactor(f, "mine", x)
		g, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		for f := range g.NumFactors() {
			if _, _, err := g.Update(graph.FactorID(f), 0, 0); err != nil {
				t.Fatal(err)
			}
		}
		return g
	}
	inf := math.Inf(1)
	for _, tc := range []struct {
		name string
		f    userEvidence
		want error
	}{
		{"NaN", userEvidence{l: math.NaN()}, messages.ErrNumerical},
		{"+Inf", userEvidence{l: inf}, messages.ErrNumerical},
		{"-Inf", userEvidence{l: -inf}, messages.ErrImpossible},
		{"term with a zero variance", userEvidence{term: &graph.LogTerm{Var: 0}}, messages.ErrNumerical},
		{"term with a NaN quadratic", userEvidence{term: &graph.LogTerm{Quad: math.NaN(), Var: 1}}, messages.ErrNumerical},
		{"term with an infinite variance", userEvidence{term: &graph.LogTerm{Var: inf}}, messages.ErrNumerical},
	} {
		lz, err := build(tc.f).LogEvidence()
		var ee *graph.UpdateError
		if !errors.Is(err, tc.want) || !errors.As(err, &ee) || ee.Factor != 1 || ee.Label != "mine" || ee.Method != "LogAverageFactor" || lz != 0 {
			t.Errorf("%s: %v, %v; want an *UpdateError of factor 1 \"mine\" wrapping %v", tc.name, lz, err, tc.want)
		}
	}
	// A finite term: the prior N(0, 1) and the factor's message N(0, 1) on
	// x. The prior's term is log ∫N(x; 0, 1)·ĉ with ĉ = N(0, 1), log N(0; 0,
	// 2) = −½·log 4π; the factor adds its own 0.25; the variable's bracket,
	// with cavities N(0, 1) twice and marginal N(0, ½), is 2·A(N(0, 1)) −
	// A(N(0, ½)) = log 2π − ½·log π (A(N(0, v)) = ½·log 2πv).
	lz, err := build(userEvidence{l: 0.25}).LogEvidence()
	want := -0.5*math.Log(4*math.Pi) + 0.25 + math.Log(2*math.Pi) - 0.5*math.Log(math.Pi)
	if err != nil || math.Abs(lz-want) > 1e-14 {
		t.Errorf("finite term: %v, %v; want %v", lz, err, want)
	}
}

// faulty is a user's factor whose methods panic as set.
type faulty struct{ arity, validate, label bool }

func (f faulty) Arity() int {
	if f.arity {
		panic("arity")
	}
	return 1
}
func (faulty) Message(int, graph.Edges) (messages.Gaussian, error) { return messages.Gaussian{}, nil }
func (f faulty) Validate() error {
	if f.validate {
		panic("validate")
	}
	return nil
}
func (f faulty) Label([]string) string {
	if f.label {
		panic("label")
	}
	return "faulty"
}

// TestBuildRecoversPanics: a user's factor whose Arity or Validate panics
// is reported by Build (an *graph.UpdateError holding the panic, with the
// factor's label), and
// one whose Label panics is named by its type, in Build's errors and in
// FactorLabel.
func TestBuildRecoversPanics(t *testing.T) {
	for _, f := range []faulty{{arity: true}, {validate: true}, {validate: true, label: true}} {
		b := graph.NewBuilder("faulty")
		b.AddFactor(f, "mine", b.AddVariable("x"))
		var ue *graph.UpdateError
		if _, err := b.Build(); !errors.As(err, &ue) || ue.Panic == nil || !strings.Contains(err.Error(), "mine") {
			t.Errorf("%+v: Build: %v, want an *graph.UpdateError holding the panic, naming \"mine\"", f, err)
		}
	}
	b := graph.NewBuilder("faulty")
	b.AddFactor(faulty{label: true}, "", b.AddVariable("x"))
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if l := g.FactorLabel(0); l != "faulty" {
		t.Errorf("FactorLabel of a factor whose Label panics: %q, want its type, \"faulty\"", l)
	}
}

// TestLogTermIsFinite: a term with finite Quad and Norm and a Var in
// (0, MaxFloat64] is one LogEvidence can gather; any other is not.
func TestLogTermIsFinite(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	for _, c := range []struct {
		t    graph.LogTerm
		want bool
	}{
		{graph.LogTerm{Var: 1}, true},
		{graph.LogTerm{Quad: -1e300, Var: 5e-324, Norm: 2}, true},
		{graph.LogTerm{Var: math.MaxFloat64}, true},
		{graph.LogTerm{Var: 0}, false}, {graph.LogTerm{Var: -1}, false}, {graph.LogTerm{Var: inf}, false},
		{graph.LogTerm{Var: nan}, false}, {graph.LogTerm{Quad: -inf, Var: 1}, false},
		{graph.LogTerm{Quad: nan, Var: 1}, false}, {graph.LogTerm{Var: 1, Norm: inf}, false},
	} {
		if got := c.t.IsFinite(); got != c.want {
			t.Errorf("%+v.IsFinite() = %v, want %v", c.t, got, c.want)
		}
	}
}
