package reliability_test

import (
	"testing"

	"github.com/skillgraph/skillgraph/messages"
)

// gauss draws a Gaussian in natural parameters, any of them extreme:
// proper, improper, point masses, uniform, NaN; an ordinary call's is
// proper.
func gauss(d *draws) messages.Gaussian {
	if d.ordinary {
		return messages.Gaussian{Pi: d.Pos(), Tau: d.F()}
	}
	return messages.Gaussian{Pi: d.F(), Tau: d.F()}
}

// prob draws an argument of a quantile: in (0, 1) in an ordinary call, from
// the smallest positive float64 to the largest below 1.
func prob(d *draws) float64 {
	if d.ordinary {
		ps := []float64{5e-324, 1e-300, 1e-20, 1e-10, 0.1, 0.5, 0.9, 1 - 1e-10, 1 - 0x1p-53}
		p := ps[d.rng.IntN(len(ps))]
		d.note("%v", p)
		return p
	}
	return d.F()
}

// b2f answers a predicate's call: a bool has nothing to be finite.
func b2f(bool) []float64 { return nil }

// gfin returns the numbers of g to be finite: its natural parameters, or
// for a point mass (π = +∞, the package's encoding of one) its location.
func gfin(g messages.Gaussian) []float64 {
	if g.IsPointMass() {
		return []float64{g.Tau}
	}
	return []float64{g.Pi, g.Tau}
}

// TestMessagesExtremes: package messages, whose functions return no
// errors, never panics or hangs on any input, and answers every ordinary
// call (finite arguments in the domain, proper Gaussians) with finite
// numbers; a point mass is π = +∞ with the location in τ, its documented
// encoding.
func TestMessagesExtremes(t *testing.T) {
	one := func(name string, f func(float64) float64) probe {
		return probe{name: name, call: func(d *draws) ([]float64, error) { return []float64{f(d.F())}, nil }, nonFinite: extremeCall}
	}
	two := func(name string, f func(a, b messages.Gaussian) float64) probe {
		return probe{name: name, call: func(d *draws) ([]float64, error) { return []float64{f(gauss(d), gauss(d))}, nil }, nonFinite: extremeCall}
	}
	g1 := func(name string, f func(g messages.Gaussian) float64) probe {
		return probe{name: name, call: func(d *draws) ([]float64, error) { return []float64{f(gauss(d))}, nil }, nonFinite: extremeCall}
	}
	g2 := func(name string, f func(a, b messages.Gaussian) messages.Gaussian) probe {
		return probe{name: name, call: func(d *draws) ([]float64, error) { return gfin(f(gauss(d), gauss(d))), nil }, nonFinite: extremeCall}
	}
	checkAPI(t, api{dir: "messages", calls: 300, typed: func(err error) bool { return isAny(err, graphErrors...) }, probes: []probe{
		two("AbsDiff", messages.AbsDiff),
		{name: "CholeskyLower", call: func(d *draws) ([]float64, error) {
			k := d.Small(5) // at times extreme: a need not hold k×k numbers
			a := make([]float64, d.rng.IntN(26))
			for i := range a {
				a[i] = d.F()
			}
			l, _ := messages.CholeskyLower(a, k)
			return l, nil
		}, nonFinite: extremeCall},
		two("Distance", messages.Distance),
		{name: "DistanceBelow", call: func(d *draws) ([]float64, error) {
			return b2f(messages.DistanceBelow(gauss(d), gauss(d), d.F())), nil
		}},
		one("InvMillsRatio", messages.InvMillsRatio),
		{name: "IsFinite", call: func(d *draws) ([]float64, error) { return b2f(messages.IsFinite(d.F())), nil }},
		{name: "CheckLogMass", call: func(d *draws) ([]float64, error) { return nil, messages.CheckLogMass(d.F()) }},
		{name: "ClampLogProbability", call: func(d *draws) ([]float64, error) {
			x := d.F()
			return []float64{messages.ClampLogProbability(x)}, nil
		}, nonFinite: func(d *draws, out []float64) bool { return !d.ordinary || !(out[0] <= 0) }}, // NaN says "no probability's log"
		{name: "IsPositiveFinite", call: func(d *draws) ([]float64, error) { return b2f(messages.IsPositiveFinite(d.F())), nil }},
		{name: "IsNormalVariance", call: func(d *draws) ([]float64, error) { return b2f(messages.IsNormalVariance(d.F())), nil }},
		{name: "Log", call: func(d *draws) ([]float64, error) { return []float64{messages.Log(prob(d))}, nil }, nonFinite: extremeCall},
		one("LogNormCDF", messages.LogNormCDF),
		{name: "LogPoissonLogNormal", call: func(d *draws) ([]float64, error) {
			return []float64{messages.LogPoissonLogNormal(d.rng.IntN(400), d.F(), d.Pos())}, nil
		}, nonFinite: extremeCall},
		{name: "LogWithinMass", call: func(d *draws) ([]float64, error) { return []float64{messages.LogWithinMass(d.F(), d.Pos())}, nil }, nonFinite: extremeCall},
		two("MaxDiff", messages.MaxDiff),
		one("NormCDF", messages.NormCDF),
		one("NormPDF", messages.NormPDF),
		{name: "NormQuantile", call: func(d *draws) ([]float64, error) { return []float64{messages.NormQuantile(prob(d))}, nil }, nonFinite: extremeCall},
		{name: "NewGaussian", call: func(d *draws) ([]float64, error) { return gfin(messages.NewGaussian(d.F(), d.F())), nil }, nonFinite: extremeCall},
		{name: "PointMass", call: func(d *draws) ([]float64, error) { return gfin(messages.PointMass(d.F())), nil }, nonFinite: extremeCall},
		{name: "Uniform", call: func(d *draws) ([]float64, error) { return gfin(messages.Uniform()), nil }},
		g2("Gaussian.Div", messages.Gaussian.Div),
		{name: "Gaussian.IsFinite", call: func(d *draws) ([]float64, error) { return b2f(gauss(d).IsFinite()), nil }},
		{name: "Gaussian.IsPointMass", call: func(d *draws) ([]float64, error) { return b2f(gauss(d).IsPointMass()), nil }},
		{name: "Gaussian.IsMessage", call: func(d *draws) ([]float64, error) { return b2f(gauss(d).IsMessage()), nil }},
		{name: "Gaussian.IsProper", call: func(d *draws) ([]float64, error) { return b2f(gauss(d).IsProper()), nil }},
		{name: "Gaussian.IsUniform", call: func(d *draws) ([]float64, error) { return b2f(gauss(d).IsUniform()), nil }},
		two("Gaussian.LogAverageOf", messages.Gaussian.LogAverageOf),
		{name: "Gaussian.LogAverageOfRatio", call: func(d *draws) ([]float64, error) {
			g, h := gauss(d), gauss(d)
			if d.ordinary { // the integral converges: σ_h² > σ_g²
				h.Pi = g.Pi / 2
			}
			return []float64{g.LogAverageOfRatio(h)}, nil
		}, nonFinite: extremeCall},
		g1("Gaussian.LogNormalizer", messages.Gaussian.LogNormalizer),
		g1("Gaussian.Mean", messages.Gaussian.Mean),
		g2("Gaussian.Mul", messages.Gaussian.Mul),
		{name: "Gaussian.Shift", call: func(d *draws) ([]float64, error) { return gfin(gauss(d).Shift(d.F())), nil }, nonFinite: extremeCall},
		g1("Gaussian.Sigma", messages.Gaussian.Sigma),
		{name: "Gaussian.String", call: func(d *draws) ([]float64, error) { _ = gauss(d).String(); return nil, nil }},
		g1("Gaussian.Variance", messages.Gaussian.Variance),
		{name: "GreaterThan", call: func(d *draws) ([]float64, error) { return fin(messages.GreaterThan(d.F(), d.F())), nil }, nonFinite: extremeCall},
		{name: "Within", call: func(d *draws) ([]float64, error) { return fin(messages.Within(d.F(), d.F())), nil }, nonFinite: extremeCall},
	}})
}
