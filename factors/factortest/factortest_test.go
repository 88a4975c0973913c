package factortest_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/factors/factortest"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
)

// narrowLikelihood is a likelihood N(x; y, c²) that forgets to widen the
// cavity it passes on, and reports the evidence of the right one: the kit
// must catch both the message and the inconsistency.
type narrowLikelihood struct{ factors.Likelihood }

func (l *narrowLikelihood) Message(i int, e graph.Edges) (messages.Gaussian, error) {
	return e.Cavity(1 - i), nil
}

// wrongEvidence is a prior whose evidence is off by a constant: messages
// right, evidence wrong.
type wrongEvidence struct{ factors.Prior }

func (p *wrongEvidence) LogAverageFactor(e graph.Edges) (float64, error) {
	lz, err := p.Prior.LogAverageFactor(e)
	return lz + 1e-6, err
}

func (p *wrongEvidence) LogAverageFactorTerm(graph.Edges) (graph.LogTerm, bool, error) {
	return graph.LogTerm{}, false, nil
}

func gauss(x, mean, variance float64) float64 {
	d := x - mean
	return math.Exp(-0.5*d*d/variance) / math.Sqrt(2*math.Pi*variance)
}

func TestCheckCatchesWrongFactors(t *testing.T) {
	cav := []messages.Gaussian{messages.NewGaussian(1, 2), messages.NewGaussian(-1, 3)}
	p := &printer{}
	factortest.Check(p, factortest.Case{Factor: &narrowLikelihood{factors.Likelihood{Variance: 4}}, Cavities: cav,
		Density: func(x []float64) float64 { return gauss(x[0], x[1], 4) }})
	// Two edges, each wrong against quadrature (mean and variance) and
	// against the evidence's derivatives (variance).
	if p.failures < 4 {
		t.Errorf("a message that forgets the noise: %d failures, want ≥ 4", p.failures)
	}
	p = &printer{}
	factortest.Check(p, factortest.Case{Factor: &wrongEvidence{factors.Prior{Mean: 0, Variance: 1}}, Cavities: cav[:1],
		Density: func(x []float64) float64 { return gauss(x[0], 0, 1) }})
	if p.failures != 1 {
		t.Errorf("evidence off by 1e-6: %d failures, want 1", p.failures)
	}
	p = &printer{}
	factortest.Check(p, factortest.Case{Factor: factors.NewPrior(0, 1), Cavities: cav[:1],
		Density: func(x []float64) float64 { return gauss(x[0], 0, 1) }})
	if p.failures != 0 {
		t.Errorf("a right prior: %d failures", p.failures)
	}
}

func TestMessageAndEvidenceErrors(t *testing.T) {
	l := factors.NewLikelihood(1)
	// Every argument error wraps messages.ErrInput and says what is wrong.
	check := func(what string, err error, fragment string) {
		t.Helper()
		if !errors.Is(err, messages.ErrInput) || !strings.Contains(fmt.Sprint(err), fragment) {
			t.Errorf("%s: %v, want messages.ErrInput naming %q", what, err, fragment)
		}
	}
	_, err := factortest.Message(l, 0, messages.NewGaussian(0, 1))
	check("one cavity for two edges", err, "1 cavities for a factor of arity 2")
	_, err = factortest.Message(l, 2, messages.NewGaussian(0, 1), messages.NewGaussian(0, 1))
	check("edge 2 of two", err, "edge 2")
	_, err = factortest.Message(l, 0, messages.Gaussian{Pi: -1}, messages.NewGaussian(0, 1))
	check("improper cavity", err, "unusable cavity")
	if !errors.Is(err, factortest.ErrCavity) {
		t.Errorf("improper cavity: %v, want factortest.ErrCavity", err)
	}
	_, err = factortest.Message(nil, 0)
	check("nil factor", err, "nil factor")
	_, err = factortest.Tilted(func([]float64) float64 { return 1 }, []messages.Gaussian{{}}, factortest.Grid{})
	check("Tilted with a uniform cavity", err, "unusable cavity")
	_, err = factortest.Tilted(func([]float64) float64 { return 0 }, []messages.Gaussian{messages.NewGaussian(0, 1)}, factortest.Grid{})
	if !errors.Is(err, messages.ErrNumerical) {
		t.Errorf("Tilted of a density that vanishes: %v, want messages.ErrNumerical", err)
	}
}

// poissonLogDensity is log Poisson(k; eˣ), the definition of
// factors.Poisson.
func poissonLogDensity(k int) func(x []float64) float64 {
	return func(x []float64) float64 {
		lg, _ := math.Lgamma(float64(k) + 1)
		return float64(k)*x[0] - math.Exp(x[0]) - lg
	}
}

// shiftedPoisson is a Poisson factor whose message is off by a little in
// τ (a wrong variational fixed point) and whose evidence is right.
type shiftedPoisson struct{ factors.Poisson }

func (p *shiftedPoisson) Message(i int, e graph.Edges) (messages.Gaussian, error) {
	m, err := p.Poisson.Message(i, e)
	m.Tau += 1e-4 * m.Pi
	return m, err
}

// poissonWrongEvidence is a Poisson factor whose evidence is off by 1e-6.
type poissonWrongEvidence struct{ factors.Poisson }

func (p *poissonWrongEvidence) LogAverageFactor(e graph.Edges) (float64, error) {
	lz, err := p.Poisson.LogAverageFactor(e)
	return lz + 1e-6, err
}

// TestCheckVariationalFactors: a variational factor's message is checked
// against the stationarity of KL(q ‖ p) and its evidence against
// quadrature, so a right Poisson factor passes and one with a shifted
// message or a wrong evidence fails.
func TestCheckVariationalFactors(t *testing.T) {
	for _, cav := range []messages.Gaussian{messages.NewGaussian(0.3, 0.5), messages.NewGaussian(2, 4), messages.NewGaussian(-1, 0.01)} {
		for _, k := range []int{0, 1, 6} {
			logf := poissonLogDensity(k)
			c := factortest.Case{Cavities: []messages.Gaussian{cav}, LogDensity: logf,
				Density: func(x []float64) float64 { return math.Exp(logf(x)) }}
			p := &printer{}
			c.Factor = factors.NewPoisson(k)
			factortest.Check(p, c)
			if p.failures != 0 {
				t.Errorf("Poisson(%d) at %v: %d failures", k, cav, p.failures)
			}
			p = &printer{}
			c.Factor = &shiftedPoisson{factors.Poisson{Count: k}}
			factortest.Check(p, c)
			if p.failures == 0 {
				t.Errorf("Poisson(%d) at %v with its message's mean shifted: no failure", k, cav)
			}
			p = &printer{}
			c.Factor = &poissonWrongEvidence{factors.Poisson{Count: k}}
			factortest.Check(p, c)
			if p.failures != 1 {
				t.Errorf("Poisson(%d) at %v with its evidence off by 1e-6: %d failures, want 1", k, cav, p.failures)
			}
		}
	}
}
