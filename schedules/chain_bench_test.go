package schedules_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/internal/sharedtest"
	"github.com/skillgraph/skillgraph/schedules"
)

// The through-time shape: a skill x_0 … x_{n−1} tracked through a long
// history, with a prior on x_0, a random-walk likelihood N(x_{t+1}; x_t, γ²)
// between consecutive variables and a noisy observation of every one.
const (
	chainLen       = 100_000
	chainStep      = 0.1 // γ²
	chainNoise     = 4.0 // the observations' variance
	chainPriorMean = 0.0
	chainPriorVar  = 100.0
)

// chainObservations returns the fixed-seed observed values: a random walk
// of step variance γ² seen with noise of variance 4.
func chainObservations() []float64 {
	rng := rand.New(rand.NewPCG(42, 7))
	y := make([]float64, chainLen)
	x := 10 * rng.NormFloat64()
	for t := range y {
		if t > 0 {
			x += math.Sqrt(chainStep) * rng.NormFloat64()
		}
		y[t] = x + math.Sqrt(chainNoise)*rng.NormFloat64()
	}
	return y
}

// chain is the graph of the chain and its sweep: the prior and every
// observation once, then each likelihood's message toward x_{t+1}
// (forward), then each one's message toward x_t (backward).
type chain struct {
	g     *graph.Graph
	vars  []graph.VarID
	sweep schedules.Schedule
}

func newChain(tb testing.TB, y []float64) *chain {
	tb.Helper()
	b := graph.NewBuilder("chain")
	c := &chain{vars: make([]graph.VarID, len(y))}
	for t := range y {
		c.vars[t] = b.AddVariable(fmt.Sprintf("x%d", t))
	}
	prior := b.AddFactor(factors.NewPrior(chainPriorMean, chainPriorVar), "", c.vars[0])
	obs := make([]graph.FactorID, len(y))
	for t, v := range y {
		obs[t] = b.AddFactor(factors.NewGaussianObservation(v, chainNoise), "", c.vars[t])
	}
	// Likelihood t: edge 0 is x_{t+1}, edge 1 is x_t.
	lik := make([]graph.FactorID, len(y)-1)
	for t := range lik {
		lik[t] = b.AddFactor(factors.NewLikelihood(chainStep), "", c.vars[t+1], c.vars[t])
	}
	g, err := b.Build()
	if err != nil {
		tb.Fatal(err)
	}
	c.g = g
	steps := make([]schedules.Schedule, 0, 1+len(obs)+2*len(lik))
	steps = append(steps, schedules.Step(prior, 0))
	for _, f := range obs {
		steps = append(steps, schedules.Step(f, 0))
	}
	for _, f := range lik {
		steps = append(steps, schedules.Step(f, 0))
	}
	for t := len(lik) - 1; t >= 0; t-- {
		steps = append(steps, schedules.Step(lik[t], 1))
	}
	c.sweep = schedules.Sequence(steps...)
	return c
}

// handChain is the same chain written out by hand over plain arrays of
// natural parameters (precision π, precision-adjusted mean τ): the
// marginals, and the messages of the prior, of each observation, and of
// each likelihood toward x_{t+1} (fwd) and toward x_t (bwd). Every message
// starts uniform, as in a new graph.
type handChain struct {
	y                   []float64
	margPi, margTau     []float64
	priorPi, priorTau   float64
	obsPi, obsTau       []float64
	fwdPi, fwdTau       []float64
	bwdPi, bwdTau       []float64
	stepVar, noiseVar   float64
	priorMean, priorVar float64
}

func newHandChain(y []float64) *handChain {
	n := len(y)
	return &handChain{
		y:      y,
		margPi: make([]float64, n), margTau: make([]float64, n),
		obsPi: make([]float64, n), obsTau: make([]float64, n),
		fwdPi: make([]float64, n-1), fwdTau: make([]float64, n-1),
		bwdPi: make([]float64, n-1), bwdTau: make([]float64, n-1),
		stepVar: chainStep, noiseVar: chainNoise,
		priorMean: chainPriorMean, priorVar: chainPriorVar,
	}
}

// sweep sends the messages of chain.sweep in the same order, each folded
// into its marginal as the graph does (marginal − old message + new).
func (h *handChain) sweep() {
	mp, mt := h.margPi, h.margTau
	p, t := 1/h.priorVar, h.priorMean/h.priorVar
	mp[0], mt[0] = mp[0]-h.priorPi+p, mt[0]-h.priorTau+t
	h.priorPi, h.priorTau = p, t
	op, ot := h.obsPi[:len(mp)], h.obsTau[:len(mp)]
	for i, v := range h.y[:len(mp)] {
		p, t := 1/h.noiseVar, v/h.noiseVar
		mp[i], mt[i] = mp[i]-op[i]+p, mt[i]-ot[i]+t
		op[i], ot[i] = p, t
	}
	fp, ft, bp, bt := h.fwdPi, h.fwdTau[:len(h.fwdPi)], h.bwdPi[:len(h.fwdPi)], h.bwdTau[:len(h.fwdPi)]
	v := h.stepVar
	for i := range fp { // forward: x_i's cavity, widened, to x_{i+1}
		cp, ct := mp[i]-bp[i], mt[i]-bt[i]
		a := 1 / (1 + v*cp)
		p, t := a*cp, a*ct
		mp[i+1], mt[i+1] = mp[i+1]-fp[i]+p, mt[i+1]-ft[i]+t
		fp[i], ft[i] = p, t
	}
	for i := len(fp) - 1; i >= 0; i-- { // backward: x_{i+1}'s cavity to x_i
		cp, ct := mp[i+1]-fp[i], mt[i+1]-ft[i]
		a := 1 / (1 + v*cp)
		p, t := a*cp, a*ct
		mp[i], mt[i] = mp[i]-bp[i]+p, mt[i]-bt[i]+t
		bp[i], bt[i] = p, t
	}
}

var chainY = sync.OnceValue(chainObservations)

// TestChainHandWrittenIsTheEngine checks that the hand-written baseline
// computes what the engine does: the same marginals to 1e-9 after three
// sweeps.
func TestChainHandWrittenIsTheEngine(t *testing.T) {
	y := chainY()
	c := newChain(t, y)
	h := newHandChain(y)
	r := schedules.NewRunner(c.g)
	for range 3 {
		if _, err := r.Run(context.Background(), c.sweep); err != nil {
			t.Fatal(err)
		}
		h.sweep()
	}
	bad, worst := 0, 0.0
	for i, v := range c.vars {
		m := c.g.Marginal(v)
		hm, hv := h.margTau[i]/h.margPi[i], 1/h.margPi[i]
		d := math.Max(math.Abs(m.Mean()-hm), math.Abs(m.Variance()-hv))
		worst = math.Max(worst, d)
		if !(d <= 1e-9) {
			if bad++; bad <= 5 {
				t.Errorf("x_%d: engine N(%v, %v), hand-written N(%v, %v)", i, m.Mean(), m.Variance(), hm, hv)
			}
		}
	}
	if bad > 5 {
		t.Errorf("%d marginals differ", bad)
	}
	t.Logf("largest difference %.3g", worst)
}

// handSweeps returns the baseline's loop for sharedtest.Interleave: n
// sweeps of the hand-written chain, after a first one as the engine's
// benchmark does.
func handSweeps() func(n int) {
	h := newHandChain(chainY())
	h.sweep()
	return func(n int) {
		for range n {
			h.sweep()
		}
	}
}

// BenchmarkChainHandWritten is the baseline against itself: one sweep of
// the chain over plain arrays.
func BenchmarkChainHandWritten(b *testing.B) { sharedtest.Interleave(b, handSweeps(), handSweeps()) }

// BenchmarkChainSweep is one sweep of the chain (about 300,000 updates)
// through a Runner, against the hand-written sweep run alternately with it
// (x-baseline). The graph is not reset between sweeps: later sweeps
// recompute the same messages. The first sweep, which compiles the plan,
// runs before the timer starts.
func BenchmarkChainSweep(b *testing.B) {
	c := newChain(b, chainY())
	r := schedules.NewRunner(c.g)
	ctx := context.Background()
	if _, err := r.Run(ctx, c.sweep); err != nil {
		b.Fatal(err)
	}
	sharedtest.Interleave(b, func(n int) {
		for range n {
			if _, err := r.Run(ctx, c.sweep); err != nil {
				b.Fatal(err)
			}
		}
	}, handSweeps())
}
