package factors_test

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/schedules"
)

// FuzzTruncation updates the win or draw factor against a random cavity
// N(μ, σ²) and margin ε, and checks the moment-matched marginal: finite,
// no wider than the cavity, and inside the truncation (mean above ε for a
// win, within [−ε, ε] for a draw).
func FuzzTruncation(f *testing.F) {
	f.Add(0.0, 0.0, 0.5, false)
	f.Add(-40.0, 0.0, 0.0, false)
	f.Add(3.0, 5.0, 1e-12, true)
	f.Add(-1e4, -6.0, 50.0, true)
	f.Fuzz(func(t *testing.T, mu, logVar, eps float64, draw bool) {
		if math.IsNaN(mu) || math.IsInf(mu, 0) || math.Abs(mu) > 1e6 || !(math.Abs(logVar) < 30) || !(eps >= 0 && eps < 1e3) {
			return // outside the domain the target checks
		}
		variance := math.Exp(logVar)
		b := graph.NewBuilder("truncation")
		x := b.AddVariable("x")
		prior := b.AddFactor(factors.NewPrior(mu, variance), "", x)
		var fac graph.Factor = factors.NewGreaterThan(eps)
		if draw {
			fac = factors.NewWithin(eps)
		}
		tf := b.AddFactor(fac, "", x)
		g, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := g.Update(prior, 0, 0); err != nil {
			t.Fatal(err)
		}
		if _, _, err := g.Update(tf, 0, 0); err != nil {
			if errors.Is(err, messages.ErrNumerical) {
				t.Fatalf("N(%v, %v), ε=%v, draw=%v: %v", mu, variance, eps, draw, err)
			}
			return
		}
		m := g.Marginal(x)
		mean, v := m.Mean(), m.Variance()
		if math.IsNaN(mean) || math.IsInf(mean, 0) || math.IsNaN(v) || v < 0 || v > variance*(1+1e-9) {
			t.Fatalf("N(%v, %v), ε=%v, draw=%v: marginal %v", mu, variance, eps, draw, m)
		}
		slack := 1e-9 * (math.Abs(mu) + eps + math.Sqrt(variance))
		if !draw && mean < eps-slack {
			t.Fatalf("N(%v, %v): win marginal mean %v below ε = %v", mu, variance, mean, eps)
		}
		if draw && math.Abs(mean) > eps+slack {
			t.Fatalf("N(%v, %v): draw marginal mean %v outside ±%v", mu, variance, mean, eps)
		}
		if lz, err := g.LogEvidence(); err == nil && (math.IsNaN(lz) || lz > 1e-12) {
			t.Fatalf("N(%v, %v), ε=%v, draw=%v: log evidence %v", mu, variance, eps, draw, lz)
		}
	})
}

// FuzzPoisson projects random cavities with random counts (Lemma 1) and
// checks that the result is finite, narrower than the cavity, found in a
// handful of Halley steps, and stationary: μ' = μ + σ²(k − e^κ) and
// σ'² = σ²/(1 + σ²e^κ) with κ = μ' + σ'²/2.
func FuzzPoisson(f *testing.F) {
	f.Add(0.0, 0.0, 0)
	f.Add(25.0, 4.24, 300)
	f.Add(-3.0, -6.9, 250)
	f.Fuzz(func(t *testing.T, mu, logVar float64, k int) {
		if math.IsNaN(mu) || math.Abs(mu) > 50 || !(math.Abs(logVar) < 9.3) || k < 0 || k > 1000 {
			return // outside the domain the target checks
		}
		s2 := math.Exp(logVar)
		q, steps, err := factors.PoissonProject(mu, s2, k)
		if err != nil {
			t.Fatalf("N(%v, %v), k=%d: %v", mu, s2, k, err)
		}
		m, v := q.Mean(), q.Variance()
		if math.IsNaN(m) || math.IsInf(m, 0) || !(v > 0) || v > s2*(1+1e-12) {
			t.Fatalf("N(%v, %v), k=%d: projection %v", mu, s2, k, q)
		}
		if steps > 3 {
			t.Fatalf("N(%v, %v), k=%d: %d Halley steps", mu, s2, k, steps)
		}
		ek := math.Exp(m + v/2)
		if r := math.Abs(m - (mu + s2*(float64(k)-ek))); r > 1e-8*(1+math.Abs(m)+s2*ek) {
			t.Fatalf("N(%v, %v), k=%d: mean residual %v", mu, s2, k, r)
		}
		if r := math.Abs(v*(1+s2*ek)/s2 - 1); r > 1e-8 {
			t.Fatalf("N(%v, %v), k=%d: variance residual %v", mu, s2, k, r)
		}
	})
}

// FuzzLinearFactors runs the exact factors (Prior, Likelihood, WeightedSum,
// GaussianObservation) on a small tree with random parameters, to its exact
// posterior in two passes, and checks every marginal against the same
// posterior computed by linear algebra: y₁, y₂ ~ priors, x = a₁y₁ + a₂y₂,
// z ~ N(x, c²) observed through N(obs; z, r²).
func FuzzLinearFactors(f *testing.F) {
	f.Add(0.0, 1.0, 2.0, 3.0, 1.0, -1.0, 0.5, 4.0, 0.25)
	f.Add(25.0, 69.4, 30.0, 12.0, 1.0, 1.0, 17.4, 50.0, 1e-6)
	f.Add(-1e3, 1e-4, 1e3, 1e4, 0.0, 2.5, 1e-3, 0.0, 1e3)
	f.Fuzz(func(t *testing.T, m1, v1, m2, v2, a1, a2, c2, obs, r2 float64) {
		for _, x := range []float64{m1, m2, a1, a2, obs} {
			if math.IsNaN(x) || math.Abs(x) > 1e4 {
				return // outside the domain the target checks
			}
		}
		for _, v := range []float64{v1, v2, c2, r2} {
			if !(v >= 1e-6 && v <= 1e6) {
				return // outside the domain the target checks
			}
		}
		b := graph.NewBuilder("linear")
		y1, y2, x, z := b.AddVariable("y1"), b.AddVariable("y2"), b.AddVariable("x"), b.AddVariable("z")
		b.AddFactor(factors.NewPrior(m1, v1), "", y1)
		b.AddFactor(factors.NewPrior(m2, v2), "", y2)
		b.AddFactor(factors.NewWeightedSum(a1, a2), "", x, y1, y2)
		b.AddFactor(factors.NewLikelihood(c2), "", z, x)
		b.AddFactor(factors.NewGaussianObservation(obs, r2), "", z)
		g, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		s, err := schedules.Tree(g)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := schedules.Run(context.Background(), g, s); err != nil {
			t.Fatalf("%v", err)
		}
		// Exact: obs = a₁y₁ + a₂y₂ + e, Var e = c² + r²; condition y on obs.
		n := c2 + r2
		s2 := a1*a1*v1 + a2*a2*v2 + n // Var obs
		pred := a1*m1 + a2*m2
		for _, k := range []struct {
			v          graph.VarID
			mean, vari float64
			cov        float64 // Cov(var, obs)
		}{
			{y1, m1, v1, a1 * v1},
			{y2, m2, v2, a2 * v2},
			{x, pred, a1*a1*v1 + a2*a2*v2, a1*a1*v1 + a2*a2*v2},
		} {
			wantMean := k.mean + k.cov/s2*(obs-pred)
			wantVar := k.vari - k.cov*k.cov/s2
			got := g.Marginal(k.v)
			if k.vari == 0 { // x with both coefficients 0 is a point mass
				continue
			}
			scale := math.Sqrt(k.vari)
			if math.IsNaN(got.Mean()) || math.Abs(got.Mean()-wantMean) > 1e-6*(scale+math.Abs(wantMean)) ||
				math.Abs(got.Variance()-wantVar) > 1e-6*k.vari {
				t.Fatalf("%s = %v, want N(%v, %v)", g.VariableName(k.v), got, wantMean, wantVar)
			}
		}
	})
}
