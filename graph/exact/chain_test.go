package exact_test

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/exact"
)

var big = flag.Bool("big", false, "run the benchmarks at their large sizes (a 300,000-variable chain, leagues of 100 and 500 teams)")

// chain is a random walk x₀ ~ N(m₀, v₀), x_{t+1} ~ N(x_t, q), each x_t
// observed through y_t ~ N(x_t, r): the model of a Kalman filter.
type chain struct {
	m0, v0, q, r float64
	y            []float64
}

func newChain(n int, seed uint64) chain {
	rng := rand.New(rand.NewPCG(seed, 7))
	c := chain{m0: 1, v0: 4, q: 0.01, r: 0.5, y: make([]float64, n)}
	x := c.m0
	for t := range c.y {
		c.y[t] = x + math.Sqrt(c.r)*rng.NormFloat64()
		x += math.Sqrt(c.q) * rng.NormFloat64()
	}
	return c
}

func (c chain) graph(tb testing.TB) (*graph.Graph, []graph.VarID) {
	tb.Helper()
	b := graph.NewBuilder("chain")
	x := make([]graph.VarID, len(c.y))
	for t := range x {
		x[t] = b.AddVariable(fmt.Sprintf("x%d", t))
		if t == 0 {
			b.AddFactor(factors.NewPrior(c.m0, c.v0), "", x[t])
		} else {
			b.AddFactor(factors.NewLikelihood(c.q), "", x[t], x[t-1])
		}
		b.AddFactor(factors.NewGaussianObservation(c.y[t], c.r), "", x[t])
	}
	g, err := b.Build()
	if err != nil {
		tb.Fatal(err)
	}
	return g, x
}

// smooth is the Kalman filter and Rauch-Tung-Striebel smoother (Rauch,
// Tung & Striebel, AIAA J. 3, 1965): the filtered N(m_t, P_t), then
// backwards m_t += G(m_{t+1} − m_t⁻), P_t += G²(P_{t+1} − P_t⁻) with the
// predicted m_t⁻ = m_t, P_t⁻ = P_t + q and G = P_t/P_t⁻. It also returns
// the log evidence Σ log N(y_t; m_t⁻, P_t⁻ + r).
func (c chain) smooth() (mean, variance []float64, logZ float64) {
	n := len(c.y)
	mean, variance = make([]float64, n), make([]float64, n)
	m, p := c.m0, c.v0
	for t, y := range c.y {
		if t > 0 {
			p += c.q
		}
		s := p + c.r
		logZ += -0.5*(y-m)*(y-m)/s - 0.5*math.Log(2*math.Pi*s)
		k := p / s
		m, p = m+k*(y-m), (1-k)*p
		mean[t], variance[t] = m, p
	}
	for t := n - 2; t >= 0; t-- {
		pp := variance[t] + c.q
		gain := variance[t] / pp
		mean[t] += gain * (mean[t+1] - mean[t])
		variance[t] += gain * gain * (variance[t+1] - pp)
	}
	return mean, variance, logZ
}

// A chain of 20,000 variables against the smoother: every marginal and
// the evidence.
func TestChainAgreesWithKalmanSmoother(t *testing.T) {
	c := newChain(20000, 1)
	g, x := c.graph(t)
	sol, err := exact.Solve(g)
	if err != nil {
		t.Fatal(err)
	}
	mean, variance, logZ := c.smooth()
	worst := 0.0
	for i, v := range x {
		m := sol.Marginals[v]
		worst = max(worst, math.Abs(m.Mean()-mean[i])/math.Sqrt(variance[i]), math.Abs(m.Variance()/variance[i]-1))
	}
	if worst > 1e-9 {
		t.Errorf("largest difference from the smoother %.3g (means in σ, variances relative), want ≤ 1e-9", worst)
	}
	if !close(sol.LogEvidence, logZ, 1e-9) {
		t.Errorf("log evidence %v, smoother %v", sol.LogEvidence, logZ)
	}
}

// Solve on chains of 10,000 and 100,000 variables (and 300,000 with
// -big), against the smoother run interleaved: the ratio is Solve's time
// over the smoother's, the same at every length if Solve is linear.
func BenchmarkSolveChain(b *testing.B) {
	sizes := []int{10000, 100000}
	if *big {
		sizes = append(sizes, 300000)
	}
	for _, n := range sizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			pool := make([]chain, 4)
			graphs := make([]*graph.Graph, len(pool))
			for i := range pool {
				pool[i] = newChain(n, uint64(i))
				graphs[i], _ = pool[i].graph(b)
			}
			var solve, smooth time.Duration
			i := 0
			for b.Loop() {
				start := time.Now()
				if _, err := exact.Solve(graphs[i%len(pool)]); err != nil {
					b.Fatal(err)
				}
				mid := time.Now()
				pool[i%len(pool)].smooth()
				solve, smooth = solve+mid.Sub(start), smooth+time.Since(mid)
				i++
			}
			b.ReportMetric(float64(solve.Seconds())/float64(i), "s/solve")
			b.ReportMetric(solve.Seconds()/smooth.Seconds(), "solve/smoother")
		})
	}
}
