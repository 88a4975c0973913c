package conformance

import (
	"context"
	"fmt"
	"math"

	"github.com/skillgraph/skillgraph/internal/peercases"
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

// Status of a checked case.
type Status int

// Statuses.
const (
	Pass Status = iota
	Fail
)

// Outcome is the result of checking one case.
type Outcome struct {
	Name   string
	Status Status
	// Worst is the largest error relative to its tolerance (≤ 1 passes),
	// with What naming the quantity.
	Worst float64
	What  string
	// Detail explains a failure.
	Detail string
}

// Params turns a case's env into model parameters, honouring applies_tau
// and the draw-margin rule.
func Params(c peercases.Case) trueskill.Params {
	p := trueskill.DefaultParams()
	if c.Env.Mu0 != nil {
		p.Mu = *c.Env.Mu0
	}
	if c.Env.Sigma0 != nil {
		p.Sigma = *c.Env.Sigma0
	}
	p.Beta = c.Env.Beta
	p.Tau = c.Env.Tau
	if !c.AppliesTau {
		p.Tau = 0
	}
	p.DrawProbability = c.Env.DrawProbability
	if c.DrawMargin == "sqrt2_beta" {
		p.DrawMargin = trueskill.DrawMargin(c.Env.DrawProbability, c.Env.Beta, 2)
	}
	p.Tolerance = 1e-10
	p.MaxIterations = 1000
	return p
}

// Match turns a case's teams, ranks and weights into a match.
func Match(c peercases.Case) trueskill.Match {
	m := trueskill.Match{Ranks: c.Ranks, Weights: c.Weights}
	for _, team := range c.Teams {
		var t []trueskill.Rating
		for _, r := range team {
			t = append(t, trueskill.Rating{Mu: deref(r.Mu), Sigma: deref(r.Sigma)})
		}
		m.Teams = append(m.Teams, t)
	}
	return m
}

func deref(x *float64) float64 {
	if x == nil {
		return math.NaN()
	}
	return *x
}

// Check rates c and compares every asserted value.
func Check(c peercases.Case) Outcome {
	out := Outcome{Name: c.Name}
	p := Params(c)
	m := Match(c)
	worst := func(what string, got, want, tol float64) {
		if math.IsNaN(got) || math.IsInf(got, 0) {
			out.Worst, out.What = math.Inf(1), what
			return
		}
		e := math.Abs(got - want)
		r := e / tol
		if tol == 0 {
			r = 0
			if e > 1e-12*math.Max(1, math.Abs(want)) {
				r = math.Inf(1)
			}
		}
		if r > out.Worst || out.What == "" {
			out.Worst, out.What = r, fmt.Sprintf("%s: got %.10g, want %.10g (|err| %.3g, tol %g)", what, got, want, e, tol)
		}
	}
	if c.Kind != "quality_only" {
		res, err := p.Rate(context.Background(), m)
		if err != nil {
			out.Status, out.Detail = Fail, err.Error()
			return out
		}
		for j, team := range c.Expected.Posteriors {
			for i, r := range team {
				got := res.Ratings[j][i]
				if !messages.IsFinite(got.Mu) || !messages.IsFinite(got.Sigma) {
					out.Status, out.Detail = Fail, fmt.Sprintf("team %d player %d: non-finite posterior %v", j, i, got)
					return out
				}
				if r == nil {
					continue
				}
				tol := c.Tolerance.PosteriorAbs
				if c.Tolerance.PosteriorAbsByPlayer != nil {
					tol = c.Tolerance.PosteriorAbsByPlayer[j][i]
				}
				if r.Mu != nil {
					worst(fmt.Sprintf("team %d player %d μ", j, i), got.Mu, *r.Mu, tol)
				}
				if r.Sigma != nil {
					worst(fmt.Sprintf("team %d player %d σ", j, i), got.Sigma, *r.Sigma, tol)
				}
			}
		}
		if c.Expected.Evidence != nil {
			worst("evidence", math.Exp(res.LogEvidence), *c.Expected.Evidence, c.Tolerance.EvidenceAbs)
		}
		if !res.Converged {
			out.Status, out.Detail = Fail, fmt.Sprintf("did not converge in %d iterations", res.Iterations)
			return out
		}
	}
	if c.Expected.MatchQuality != nil {
		q, err := p.Quality(m.Teams, m.Weights)
		if err != nil {
			out.Status, out.Detail = Fail, err.Error()
			return out
		}
		worst("match quality", q, *c.Expected.MatchQuality, c.Tolerance.QualityAbs)
	}
	if out.Worst > 1 {
		out.Status, out.Detail = Fail, out.What
	}
	return out
}
