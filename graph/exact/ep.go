package exact

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
)

// Defaults of EP's options.
const (
	DefaultTolerance = 1e-6
	DefaultMaxSweeps = 500
)

// EPOption configures EP; a nil EPOption is ignored.
type EPOption func(*epConfig)

type epConfig struct {
	damping, tolerance float64
	maxSweeps          int
}

// Damping sets the weight d in [0, 1) of a site's old natural parameters
// in its update: new = (1 − d)·matched + d·old (default 0).
func Damping(d float64) EPOption { return func(c *epConfig) { c.damping = d } }

// Tolerance sets the change below which the sweeps stop: the largest
// messages.Distance between a variable's marginals in two successive
// sweeps (default DefaultTolerance).
func Tolerance(tol float64) EPOption { return func(c *epConfig) { c.tolerance = tol } }

// MaxSweeps caps the sweeps (default DefaultMaxSweeps); at the cap EP
// returns its last posterior with Converged false.
func MaxSweeps(n int) EPOption { return func(c *epConfig) { c.maxSweeps = n } }

func (c *epConfig) validate() error {
	if err := graph.CheckDamping(c.damping); err != nil {
		return fmt.Errorf("exact: option: %w", err) // err wraps messages.ErrInput
	}
	if !(c.tolerance >= 0) || math.IsInf(c.tolerance, 1) {
		return fmt.Errorf("exact: option: tolerance %v, want a finite number ≥ 0: %w", c.tolerance, messages.ErrInput)
	}
	if c.maxSweeps < 1 {
		return fmt.Errorf("exact: option: %d sweeps, want at least 1: %w", c.maxSweeps, messages.ErrInput)
	}
	return nil
}

// EP returns the joint-Gaussian expectation-propagation posterior of g
// (Minka, "Expectation Propagation for approximate Bayesian inference",
// UAI 2001): one multivariate Gaussian over the latent variables, where
// loopy message passing keeps one Gaussian per variable. Linear-Gaussian
// factors (graph.LinearForm) enter exactly, as in Solve. Every other
// factor f is approximated by Gaussian sites, and the posterior is
// q(x) ∝ (linear factors)·∏ sites, whose precision is Λ plus the sites'.
// A sweep factorises that precision, takes the marginals it needs by
// selected inversion (as Solve does), and then refines every site in
// parallel, damped, as the moment-matched tilted distribution divided by
// the cavity:
//
//   - A factor that implements Tilted, all of whose k edges are distinct
//     latent variables y, has one joint site t_f(y) = exp(−½yᵀPy + hᵀy),
//     P a k×k matrix. Its cavity is the joint marginal q(y) (the symbolic
//     factorisation always holds the factor's variables' clique, so
//     their covariances are known) divided by t_f, in natural parameters
//     Λ_c = Σ_q⁻¹ − P, η_c = Σ_q⁻¹μ_q − h; the factor's TiltedMoments at
//     it give the tilted mean and covariance, and the new site is their
//     natural parameters less the cavity's. The posterior then holds the
//     correlation that the factor makes between its variables, which
//     per-edge sites leave out.
//   - Any other factor (one without TiltedMoments, such as the
//     truncations of one variable, or one with an observed edge or a
//     variable on two edges) has a site on each edge to a latent
//     variable, t_fi(x_i) = exp(−½π·x_i² + τ·x_i): the cavity on edge i is
//     c_fi = q_i/t_fi, and the new site is the factor's own Message at
//     those cavities (equations 3-6 of the TrueSkill paper for the
//     truncations), so any graph.Factor works unchanged. Such a factor of
//     several variables sees their marginal cavities, not their
//     correlation, and its sites give the posterior no correlation
//     between variables that only it joins: on a tree neither matters,
//     and EP reaches the fixed point of message passing, but on a loopy
//     graph such a factor's error is loopy message passing's. So a
//     linear-Gaussian factor should implement graph.LinearForm, and a
//     factor of several variables Tilted, or be written as a weighted sum
//     and a factor on it alone, whose site then lies along the
//     combination and whose cavity EP has exactly.
//
// The sites start uniform; if the linear factors alone leave the
// posterior improper, each starts instead from its factor's messages at
// uniform cavities (a joint site from the diagonal they make). The sweeps
// stop when no marginal moves by more than the tolerance
// (messages.Distance) from one sweep to the next, or at the cap. A
// factor whose cavity is improper (a site of negative precision larger
// than the rest of the posterior's, in some direction) keeps its site
// for that sweep, and the answer is not Converged if that happens in the
// last sweep.
//
// The log evidence is EP's estimate (Minka 2001; Rasmussen & Williams,
// Gaussian Processes for Machine Learning, 2006, eq. 3.65). Each factor
// f is replaced by s_f·t_f, its sites scaled so that against its cavity
// c_f they integrate to what f does: with ĉ_f the normalised cavity and A
// the log-normaliser of a Gaussian in natural parameters,
// A(Λ, η) = (k/2)·log 2π − ½·log det Λ + ½·ηᵀΛ⁻¹η
// (messages.Gaussian.LogNormalizer in one dimension, 0 for a uniform
// cavity), ∫ t_f·ĉ_f = exp(A(q_f) − A(c_f)) since t_f·c_f = q_f, the
// posterior's marginal over f's variables, so
// log s_f = log ∫ f·ĉ_f − A(q_f) + A(c_f), and with the sites
// unnormalised as above
//
//	log Z = log ∫ (linear factors)·∏ t_f dx + Σ_f log s_f.
//
// For per-edge sites q_f and c_f are products over the edges and A(q_f)
// a sum of one-dimensional terms; for a joint site they are the k-variate
// marginal and cavity, and log ∫ f·ĉ_f is the log Z of TiltedMoments.
// It equals Solve's on a linear graph and message passing's on a tree.
// If a per-edge factor does not implement graph.Evidence, or a factor
// fails in it, Solution.EvidenceErr says so and LogEvidence is 0.
//
// The context is checked before each sweep. Errors: an option out of its
// range (messages.ErrInput, naming the option); a latent combination the
// factors leave improper, naming the variable (messages.ErrInput), and
// the other errors of Solve; sites that make the posterior improper
// after the start (messages.ErrNumerical); a factor's failure or panic as
// a *graph.UpdateError naming it (its Panic field set for a
// panic), and for a joint site also its variables (wrapping
// messages.ErrNumerical if its tilted moments are not a Gaussian's); a
// message that is not finite or is a point mass (messages.ErrNumerical),
// since a site must have finite natural parameters. g's messages are not
// used or changed.
func EP(ctx context.Context, g *graph.Graph, opts ...EPOption) (*Solution, error) {
	cfg := epConfig{tolerance: DefaultTolerance, maxSweeps: DefaultMaxSweeps}
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	s, err := newSystem(g, true)
	if err != nil {
		return nil, err
	}
	ep, err := newSites(s)
	if err != nil {
		return nil, err
	}
	var prev []messages.Gaussian
	started := false // whether the sites were started from uniform cavities
	sol := &Solution{}
	for {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("exact: EP on graph %q after %d sweeps: %w", g.Name(), sol.Sweeps, err)
		}
		q, z, err := ep.marginals()
		if errors.Is(err, errImproper) && prev == nil && !started {
			// The linear factors leave a variable free (a user's prior
			// that is not a LinearForm): start every site from its
			// factor's message at uniform cavities, as message passing
			// starts from uniform messages, and try again.
			started = true
			if err := ep.refine(make([]messages.Gaussian, len(ep.latents)), 0, true); err != nil {
				return nil, err
			}
			continue
		}
		if err != nil && prev != nil && errors.Is(err, errImproper) {
			// The model's factors made the posterior proper at the start:
			// the sites have lost it.
			return nil, fmt.Errorf("exact: EP on graph %q after %d sweeps: the sites leave the posterior improper (%v): %w", g.Name(), sol.Sweeps, err, messages.ErrNumerical)
		}
		if err != nil {
			return nil, err
		}
		if prev != nil {
			delta := 0.0
			for i, m := range q {
				delta = max(delta, messages.Distance(m, prev[i]))
			}
			if delta <= cfg.tolerance && ep.skipped == 0 {
				sol.Converged = true
			}
		}
		if len(ep.latents) == 0 {
			sol.Converged = true // no site to refine
		}
		if sol.Converged || sol.Sweeps == cfg.maxSweeps {
			return ep.solution(sol, q, z)
		}
		if err := ep.refine(q, cfg.damping, false); err != nil {
			return nil, err
		}
		sol.Sweeps++
		prev = q
	}
}

// sites is EP's state: the factors without a linear form, each with a
// copy in a scratch graph where its edges are set to the cavities and
// sites of the moment (so that its own Message and LogAverageFactor read
// them), and the sites' natural parameters.
type sites struct {
	s       *system
	scratch *graph.Graph
	factors []siteFactor
	latents []int // the latent variables with a site, each once
	// pi and tau are the sites' natural parameters, by siteEdge.k.
	pi, tau []float64
	skipped int // factors left as they were in the last sweep (improper cavity)
	// konst is the joint sites' constant in z (see jointSite.add), from
	// the last assembly.
	konst float64
}

type siteFactor struct {
	f     graph.FactorID // in the model
	sf    graph.FactorID // in the scratch graph
	edges []siteEdge     // its edges to latent variables
	// joint is the factor's site if it implements Tilted (its per-edge
	// sites then stay 0 but at the start, see refine).
	joint *jointSite
}

type siteEdge struct {
	i      int          // the factor's edge
	latent int          // index in sites.latents
	k      int          // index in sites.pi, sites.tau
	holder graph.EdgeID // the scratch edge whose message is the cavity
	site   graph.EdgeID // the scratch edge of the factor itself
}

// holder is the scratch graph's stand-in for the rest of the model at one
// edge: the message it holds is the cavity. It is never updated.
type holder struct{}

func (holder) Arity() int { return 1 }
func (holder) Message(int, graph.Edges) (messages.Gaussian, error) {
	return messages.Gaussian{}, errors.New("exact: the cavity holder is not updated")
}

// newSites builds the scratch graph: each factor without a linear form
// on variables of its own, an observed one for each observed variable of
// the model and, for each latent one, a holder as its other factor; the
// graph then gives the factor the holder's message as its cavity, exactly
// (graph.Graph.Cavity of a variable with two edges).
func newSites(s *system) (*sites, error) {
	g := s.g
	ep := &sites{s: s}
	b := graph.NewBuilder(g.Name())
	where := make([]int, len(s.index)) // by latent variable: its place in latents, plus one
	holders := make([][]graph.FactorID, len(s.nonlinear))
	for n, f := range s.nonlinear {
		vars := make([]graph.VarID, g.Arity(f))
		sf := siteFactor{f: f}
		for i := range vars {
			w := g.EdgeVariable(f, i)
			l := s.index[w]
			if l < 0 {
				val, _ := g.Observed(w)
				vars[i] = b.AddObserved("", val)
				continue
			}
			vars[i] = b.AddVariable("")
			holders[n] = append(holders[n], b.AddFactor(holder{}, "", vars[i]))
			if where[l] == 0 {
				ep.latents = append(ep.latents, l)
				where[l] = len(ep.latents)
			}
			sf.edges = append(sf.edges, siteEdge{i: i, latent: where[l] - 1, k: len(ep.pi)})
			ep.pi, ep.tau = append(ep.pi, 0), append(ep.tau, 0)
		}
		if t, latent, ok := jointOf(g, f, s.index); ok {
			sf.joint = newJointSite(s, t, latent)
		}
		sf.sf = b.AddFactor(g.Factor(f), g.FactorLabel(f), vars...)
		ep.factors = append(ep.factors, sf)
	}
	scratch, err := b.Build()
	if err != nil {
		return nil, fmt.Errorf("exact: EP on graph %q: %w", g.Name(), err)
	}
	ep.scratch = scratch
	for n := range ep.factors {
		sf := &ep.factors[n]
		for t := range sf.edges {
			e := &sf.edges[t]
			e.holder = scratch.EdgeID(holders[n][t], 0)
			e.site = scratch.EdgeID(sf.sf, e.i)
		}
	}
	return ep, nil
}

// marginals assembles the posterior precision with the sites, factorises
// it and returns the marginal of each variable with a site, and the means
// of the free variables.
func (ep *sites) marginals() ([]messages.Gaussian, []float64, error) {
	s := ep.s
	if s.k == 0 {
		return nil, nil, nil
	}
	s.chol.clear()
	s.addLinear()
	pi, tau := make([]float64, len(ep.latents)), make([]float64, len(ep.latents))
	for _, sf := range ep.factors {
		for _, e := range sf.edges {
			pi[e.latent] += ep.pi[e.k]
			tau[e.latent] += ep.tau[e.k]
		}
	}
	// A site on x = c + aᵀz: exp(−½π·x² + τx) = exp(−½π(aᵀz)² + (τ − πc)aᵀz
	// − ½πc² + τc).
	for l, i := range ep.latents {
		x := s.vars[i]
		if pi[l] != 0 {
			s.chol.add(x.idx, x.coef, pi[l])
		}
		for p, j := range x.idx {
			s.h[j] += (tau[l] - pi[l]*x.mean) * x.coef[p]
		}
	}
	ep.konst = 0
	for _, sf := range ep.factors {
		if sf.joint != nil {
			ep.konst += sf.joint.add(s)
		}
	}
	z, err := s.posterior()
	if err != nil {
		return nil, nil, err
	}
	for _, sf := range ep.factors {
		if sf.joint != nil {
			sf.joint.marginal(s, z)
		}
	}
	q := make([]messages.Gaussian, len(ep.latents))
	for l, i := range ep.latents {
		if q[l], err = s.marginal(i, z); err != nil {
			return nil, nil, err
		}
	}
	return q, z, nil
}

// cavity returns the cavity of edge e, q/t, and whether it is a
// distribution (proper, or uniform).
func (ep *sites) cavity(e siteEdge, q []messages.Gaussian) (messages.Gaussian, bool) {
	m := q[e.latent]
	c := messages.Gaussian{Pi: m.Pi - ep.pi[e.k], Tau: m.Tau - ep.tau[e.k]}
	return c, c.Pi > 0 && messages.IsFinite(c.Pi) && messages.IsFinite(c.Tau) || c.IsUniform()
}

// set gives factor sf's scratch edges the cavities and its sites, and
// reports false if a cavity is not a distribution.
func (ep *sites) set(sf *siteFactor, q []messages.Gaussian) (bool, error) {
	for _, e := range sf.edges {
		if _, ok := ep.cavity(e, q); !ok {
			return false, nil
		}
	}
	for _, e := range sf.edges {
		c, _ := ep.cavity(e, q)
		// The site is taken off first, so that the marginal held in
		// between, the old cavity then the new, stays proper.
		for _, step := range []struct {
			edge graph.EdgeID
			msg  messages.Gaussian
		}{{e.site, messages.Gaussian{}}, {e.holder, c}, {e.site, messages.Gaussian{Pi: ep.pi[e.k], Tau: ep.tau[e.k]}}} {
			if _, _, err := ep.scratch.Send(step.edge, step.msg, 0); err != nil {
				return false, ep.factorError(sf, e.i, err)
			}
		}
	}
	return true, nil
}

// factorError names the model's factor of sf and its edge i.
func (ep *sites) factorError(sf *siteFactor, i int, err error) error {
	return ep.s.g.FactorError(sf.f, methodOf(i), i, err, nil)
}

// panicError is factorError for a method that panicked with r.
func (ep *sites) panicError(sf *siteFactor, i int, r any) error {
	return ep.s.g.FactorError(sf.f, methodOf(i), i, nil, r)
}

// jointError is the *graph.UpdateError of factor sf's joint site: a
// panic of its TiltedMoments, or err naming the site's variables.
func (ep *sites) jointError(sf *siteFactor, err error) error {
	if p, ok := err.(tiltedPanic); ok {
		return ep.s.g.FactorError(sf.f, "TiltedMoments", -1, nil, p.value)
	}
	return ep.s.g.FactorError(sf.f, "TiltedMoments", -1, fmt.Errorf("joint site over %s: %w", sf.joint.names(ep.s), err), nil)
}

// methodOf names the factor method behind a site's update on edge i: its
// Message, or for i = −1 its evidence term (a joint site's failure names
// its variables in the wrapped error).
func methodOf(i int) string {
	if i < 0 {
		return "LogAverageFactor"
	}
	return "Message"
}

// refine replaces every site by its factor's message at the cavities of
// the marginals q, damped, and every joint site by the moment-matched
// tilted distribution divided by its joint cavity. At the start (q
// uniform, no joint marginal yet) a joint site starts diagonal, from its
// factor's messages.
func (ep *sites) refine(q []messages.Gaussian, damping float64, start bool) error {
	ep.skipped = 0
	var next []messages.Gaussian
	for n := range ep.factors {
		sf := &ep.factors[n]
		if len(sf.edges) == 0 {
			continue
		}
		if j := sf.joint; j != nil && !start {
			ok, err := j.refine(damping)
			if err != nil {
				return ep.jointError(sf, err)
			}
			if !ok {
				ep.skipped++
			}
			continue
		}
		ok, err := ep.set(sf, q)
		if err != nil {
			return err
		}
		if !ok {
			ep.skipped++
			continue
		}
		next = next[:0]
		for _, e := range sf.edges {
			m, err := ep.message(sf, e.i)
			if err != nil {
				return err
			}
			next = append(next, m)
		}
		for t, e := range sf.edges {
			ep.pi[e.k] = (1-damping)*next[t].Pi + damping*ep.pi[e.k]
			ep.tau[e.k] = (1-damping)*next[t].Tau + damping*ep.tau[e.k]
		}
		if j := sf.joint; j != nil {
			k := len(j.h)
			for t, e := range sf.edges {
				j.p[t*k+t], j.h[t] = ep.pi[e.k], ep.tau[e.k]
				ep.pi[e.k], ep.tau[e.k] = 0, 0
			}
		}
	}
	return nil
}

// message returns factor sf's message on edge i from the scratch graph,
// an error naming the factor if it fails, panics, or sends a message a
// site cannot be.
func (ep *sites) message(sf *siteFactor, i int) (m messages.Gaussian, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = ep.panicError(sf, i, r)
		}
	}()
	f, e := ep.scratch.FactorEdges(sf.sf)
	m, err = f.Message(i, e)
	if err != nil {
		return m, ep.factorError(sf, i, err)
	}
	if !m.IsFinite() { // a site must be finite: a point mass (IsMessage's +∞) cannot be divided out
		return m, ep.factorError(sf, i, fmt.Errorf("message %v: %w", m, messages.ErrNumerical))
	}
	return m, nil
}

// logAverage returns factor sf's log ∫ f ∏ĉ, its graph.Evidence, from the
// scratch graph.
func (ep *sites) logAverage(sf *siteFactor) (l float64, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = ep.panicError(sf, -1, r)
		}
	}()
	f, e := ep.scratch.FactorEdges(sf.sf)
	ev, ok := f.(graph.Evidence)
	if !ok {
		return 0, ep.factorError(sf, -1, messages.ErrInput)
	}
	if l, err = ev.LogAverageFactor(e); err == nil {
		err = messages.CheckLogMass(l)
	}
	if err != nil {
		return 0, ep.factorError(sf, -1, err)
	}
	return l, nil
}

// solution completes sol with every marginal and the log evidence of EP
// (see EP) at the marginals q of the sites' variables and the means z.
func (ep *sites) solution(sol *Solution, q []messages.Gaussian, z []float64) (*Solution, error) {
	s := ep.s
	full, err := s.solution(z)
	if err != nil {
		return nil, err
	}
	sol.Marginals = full.Marginals
	// size sums the magnitudes of the terms of logZ: where they are far
	// larger than their sum (means 1e8 standard deviations from 0 make
	// each normaliser about μ²/2σ² = 5e15), float64's rounding of them
	// is larger than the evidence's own digits.
	logZ, size := full.LogEvidence+ep.konst, s.size+math.Abs(ep.konst)
	if s.k > 0 {
		l, lsize := s.logGaussian(z)
		logZ += l
		size += lsize
	}
	add := func(x float64) {
		logZ += x
		size += math.Abs(x)
	}
	for _, sf := range ep.factors {
		for _, e := range sf.edges {
			c := s.vars[ep.latents[e.latent]].mean
			add(c * (ep.tau[e.k] - 0.5*ep.pi[e.k]*c))
		}
	}
	for n := range ep.factors {
		sf := &ep.factors[n]
		if j := sf.joint; j != nil {
			l, ok, err := j.logScale()
			if err == nil && !ok {
				err = fmt.Errorf("%w joint cavity", messages.ErrNumerical)
			}
			if err != nil {
				sol.EvidenceErr = ep.jointError(sf, err)
				break
			}
			add(l)
			continue
		}
		ok, err := ep.set(sf, q)
		if err != nil {
			return nil, err
		}
		if !ok {
			sol.EvidenceErr = ep.factorError(sf, -1, fmt.Errorf("%w cavity", messages.ErrNumerical))
			break
		}
		l, err := ep.logAverage(sf)
		if err != nil {
			sol.EvidenceErr = err
			break
		}
		add(l)
		for _, e := range sf.edges {
			c, _ := ep.cavity(e, q)
			add(-q[e.latent].LogNormalizer())
			if !c.IsUniform() {
				add(c.LogNormalizer())
			}
		}
	}
	if sol.EvidenceErr == nil && !messages.IsFinite(logZ) {
		sol.EvidenceErr = fmt.Errorf("exact: EP on graph %q: log evidence %v: %w", s.g.Name(), logZ, messages.ErrNumerical)
	}
	// A rounding of 16 ulps of size, the terms' own and their sum's,
	// against 1e-6 of the answer.
	if sol.EvidenceErr == nil && 0x1p-48*size > 1e-6*math.Max(1, math.Abs(logZ)) {
		sol.EvidenceErr = fmt.Errorf("exact: EP on graph %q: log evidence %v is the sum of terms of total size %v, whose rounding exceeds 1e-6 of it: %w", s.g.Name(), logZ, size, messages.ErrNumerical)
	}
	if sol.EvidenceErr == nil {
		sol.LogEvidence = logZ
	}
	return sol, nil
}
