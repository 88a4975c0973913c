package schedules_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/schedules"
)

// The tests in this file check the compiled plans a Runner executes against
// refRun, the tree-walking reference interpreter of reference_test.go, on
// random factor graphs of every factor kind and random schedules: the same
// Result, marginals, messages and log evidence to 1e-12, and the same errors.

// scaledLikelihood is N(x; s·y, c²) between x (edge 0) and y (edge 1): a
// factor of the test's own that implements graph.Factor only (no evidence, no
// labels), so that plans run it through the interface.
type scaledLikelihood struct{ scale, variance float64 }

func (*scaledLikelihood) Arity() int { return 2 }

func (f *scaledLikelihood) Message(i int, e graph.Edges) (messages.Gaussian, error) {
	s, v := f.scale, f.variance
	c := e.Cavity(1 - i)
	switch {
	case c.IsUniform():
		return messages.Gaussian{}, nil
	case c.IsPointMass():
		if i == 0 {
			return messages.NewGaussian(s*c.Mean(), v), nil
		}
		return messages.NewGaussian(c.Mean()/s, v/(s*s)), nil
	case c.Pi < 0:
		return messages.Gaussian{}, fmt.Errorf("scaled likelihood: %w (precision %v)", messages.ErrNumerical, c.Pi)
	}
	if i == 0 { // s·y + noise: mean s·μ, variance s²/π + c²
		d := s*s + v*c.Pi
		return messages.Gaussian{Pi: c.Pi / d, Tau: s * c.Tau / d}, nil
	}
	// (x − noise)/s: mean μ/s, variance (1/π + c²)/s²
	d := 1 + v*c.Pi
	return messages.Gaussian{Pi: s * s * c.Pi / d, Tau: s * c.Tau / d}, nil
}

// nanAfter sends N(1, 4) n times, then a message that is not a number.
type nanAfter struct{ n, calls int }

func (*nanAfter) Arity() int { return 1 }

func (f *nanAfter) Message(int, graph.Edges) (messages.Gaussian, error) {
	f.calls++
	if f.calls > f.n {
		return messages.Gaussian{Pi: math.NaN(), Tau: 1}, nil
	}
	return messages.NewGaussian(1, 4), nil
}

// customSchedule is a Schedule of the test's own: it sends the pre steps
// through Runner.Update, then runs inner (a built-in Sequence or Loop)
// through the runner. It does what Sequence(pre..., inner) does.
type customSchedule struct {
	pre   []*schedules.StepSchedule
	inner schedules.Schedule
}

func (c *customSchedule) Run(r *schedules.Runner) (schedules.Convergence, error) {
	if err := r.Err(); err != nil {
		return schedules.Convergence{}, err
	}
	res := schedules.Convergence{Converged: true}
	for _, s := range c.pre {
		if _, err := r.Update(s.Factor, s.Edge); err != nil {
			return res, err
		}
	}
	ir, err := c.inner.Run(r)
	return res.Merge(ir), err
}

// customize returns a schedule equivalent to s in which every Sequence that
// begins with steps followed by something else is a customSchedule (the
// bodies of residual loops, which must be steps, are kept).
func customize(s schedules.Schedule) (schedules.Schedule, int) {
	switch s := s.(type) {
	case *schedules.SequenceSchedule:
		k := 0
		for k < len(s.Parts) {
			if _, ok := s.Parts[k].(*schedules.StepSchedule); !ok {
				break
			}
			k++
		}
		if k == len(s.Parts) {
			return s, 0
		}
		n := 0
		parts := slices.Clone(s.Parts[:k])
		for _, p := range s.Parts[k:] {
			c, m := customize(p)
			parts = append(parts, c)
			n += m
		}
		if k == 0 {
			return schedules.Sequence(parts...), n
		}
		c := &customSchedule{inner: schedules.Sequence(parts[k:]...)}
		for _, p := range parts[:k] {
			c.pre = append(c.pre, p.(*schedules.StepSchedule))
		}
		return c, n + 1
	case *schedules.LoopSchedule:
		if s.Residual > 0 {
			return s, 0
		}
		l := *s
		var n int
		l.Body, n = customize(s.Body)
		return &l, n
	}
	return s, 0
}

// describe writes s compactly, for failure messages.
func describe(s schedules.Schedule) string {
	var b strings.Builder
	var rec func(s schedules.Schedule)
	rec = func(s schedules.Schedule) {
		switch s := s.(type) {
		case nil:
			b.WriteString("nil")
		case *schedules.StepSchedule:
			fmt.Fprintf(&b, "(%d,%d)", s.Factor, s.Edge)
		case *schedules.SequenceSchedule:
			b.WriteString("[")
			for i, p := range s.Parts {
				if i > 0 {
					b.WriteString(" ")
				}
				rec(p)
			}
			b.WriteString("]")
		case *schedules.LoopSchedule:
			fmt.Fprintf(&b, "Loop %s{tol %g, max %d, damping %g, residual %g}", s.Name, s.Tolerance, s.MaxIterations, s.Damping, s.Residual)
			rec(s.Body)
		case *customSchedule:
			b.WriteString("Custom{")
			for _, p := range s.pre {
				rec(p)
				b.WriteString(" ")
			}
			rec(s.inner)
			b.WriteString("}")
		default:
			fmt.Fprintf(&b, "%T", s)
		}
	}
	rec(s)
	return b.String()
}

// countOps is the length of s's plan: one op per step, two per loop, one per
// schedule of another type.
func countOps(s schedules.Schedule) int {
	switch s := s.(type) {
	case *schedules.StepSchedule:
		return 1
	case *schedules.SequenceSchedule:
		n := 0
		for _, p := range s.Parts {
			n += countOps(p)
		}
		return n
	case *schedules.LoopSchedule:
		return 2 + countOps(s.Body)
	}
	return 1
}

// graphSpec describes a graph so that it can be built any number of times,
// each time with new factors.
type graphSpec struct {
	name    string
	vars    []specVar
	factors []specFactor
}

type specVar struct {
	observed bool
	value    float64
}

type specFactor struct {
	kind string
	tags []string // coefficient kinds of a weighted sum
	mk   func() graph.Factor
	vars []graph.VarID
}

func (s *graphSpec) variable() graph.VarID {
	s.vars = append(s.vars, specVar{})
	return graph.VarID(len(s.vars) - 1)
}

func (s *graphSpec) observed(value float64) graph.VarID {
	s.vars = append(s.vars, specVar{observed: true, value: value})
	return graph.VarID(len(s.vars) - 1)
}

func (s *graphSpec) add(kind string, mk func() graph.Factor, vars ...graph.VarID) graph.FactorID {
	s.factors = append(s.factors, specFactor{kind: kind, mk: mk, vars: vars})
	return graph.FactorID(len(s.factors) - 1)
}

func (s *graphSpec) build(t testing.TB) *graph.Graph {
	t.Helper()
	b := graph.NewBuilder(s.name)
	for i, v := range s.vars {
		if v.observed {
			b.AddObserved(fmt.Sprintf("o%d", i), v.value)
		} else {
			b.AddVariable(fmt.Sprintf("v%d", i))
		}
	}
	for _, f := range s.factors {
		b.AddFactor(f.mk(), "", f.vars...)
	}
	g, err := b.Build()
	if err != nil {
		t.Fatalf("building %s: %v", s.name, err)
	}
	return g
}

// kinds lists the factor kinds, coefficient kinds and observed variables of s.
func (s *graphSpec) kinds() []string {
	var out []string
	for _, f := range s.factors {
		out = append(out, f.kind)
		out = append(out, f.tags...)
	}
	for _, v := range s.vars {
		if v.observed {
			out = append(out, "Observed")
		}
	}
	return out
}

func pick[T any](rng *rand.Rand, xs ...T) T { return xs[rng.IntN(len(xs))] }

// planGen generates a random graph and schedule.
type planGen struct {
	t     testing.TB
	rng   *rand.Rand
	spec  *graphSpec
	loops int
	// custom allows the test's own factor, which reports no evidence (so
	// LogEvidence fails): in some graphs only.
	custom bool
	// ranges of prior means and variances
	meanLo, meanHi, varLo, varHi float64
}

func (c *planGen) uniform(lo, hi float64) float64 { return lo + (hi-lo)*c.rng.Float64() }
func (c *planGen) chance(p float64) bool          { return c.rng.Float64() < p }

func (c *planGen) prior(v graph.VarID) graph.FactorID {
	m, s2 := c.uniform(c.meanLo, c.meanHi), c.uniform(c.varLo, c.varHi)
	return c.spec.add("Prior", func() graph.Factor { return factors.NewPrior(m, s2) }, v)
}

func (c *planGen) observation(v graph.VarID) graph.FactorID {
	y, s2 := c.uniform(c.meanLo, c.meanHi), c.uniform(0.5, 10)
	return c.spec.add("GaussianObservation", func() graph.Factor { return factors.NewGaussianObservation(y, s2) }, v)
}

// likelihood connects x (edge 0) and y (edge 1), now and then by the test's
// own factor.
func (c *planGen) likelihood(x, y graph.VarID) graph.FactorID {
	if c.custom && c.chance(0.3) {
		s, v := pick(c.rng, 1.0, -1.0)*c.uniform(0.5, 2), c.uniform(0.5, 10)
		return c.spec.add("ScaledLikelihood (custom)", func() graph.Factor { return &scaledLikelihood{scale: s, variance: v} }, x, y)
	}
	v := c.uniform(0.5, 20)
	return c.spec.add("Likelihood", func() graph.Factor { return factors.NewLikelihood(v) }, x, y)
}

func (c *planGen) coefficients(n int) []float64 {
	a := make([]float64, n)
	for j := range a {
		switch r := c.rng.Float64(); {
		case r < 0.45:
			a[j] = 1
		case r < 0.6:
			a[j] = -1
		case r < 0.95:
			a[j] = pick(c.rng, 1.0, -1.0) * c.uniform(0.2, 3)
		default:
			a[j] = 0
		}
	}
	return a
}

// sum adds x = Σ aⱼ·termsⱼ.
func (c *planGen) sum(x graph.VarID, a []float64, terms ...graph.VarID) graph.FactorID {
	kind := "WeightedSum3+"
	if len(a) < 3 {
		kind = fmt.Sprintf("WeightedSum%d", len(a))
	}
	f := c.spec.add(kind, func() graph.Factor { return factors.NewWeightedSum(slices.Clone(a)...) }, append([]graph.VarID{x}, terms...)...)
	for _, aj := range a {
		switch {
		case aj == 0:
			c.spec.factors[f].tags = append(c.spec.factors[f].tags, "ZeroCoefficient")
		case aj < 0:
			c.spec.factors[f].tags = append(c.spec.factors[f].tags, "NegativeCoefficient")
		}
		if aj != 0 && math.Abs(aj) != 1 {
			c.spec.factors[f].tags = append(c.spec.factors[f].tags, "NonUnitCoefficient")
		}
	}
	return f
}

func (c *planGen) greaterThan(d graph.VarID) graph.FactorID {
	eps := c.uniform(0, 1)
	return c.spec.add("GreaterThan", func() graph.Factor { return factors.NewGreaterThan(eps) }, d)
}

func (c *planGen) within(d graph.VarID) graph.FactorID {
	eps := c.uniform(0.1, 2)
	return c.spec.add("Within", func() graph.Factor { return factors.NewWithin(eps) }, d)
}

func (c *planGen) poisson(d graph.VarID) graph.FactorID {
	k := c.rng.IntN(11)
	return c.spec.add("Poisson", func() graph.Factor { return factors.NewPoisson(k) }, d)
}

// compare adds a win or draw factor on d.
func (c *planGen) compare(d graph.VarID) graph.FactorID {
	if c.chance(0.25) {
		return c.within(d)
	}
	return c.greaterThan(d)
}

func (c *planGen) name() string {
	c.loops++
	return fmt.Sprintf("inner%d", c.loops)
}

// loopOpts draws a loop's options; residual skipping only if the body will
// be steps.
func (c *planGen) loopOpts(name string, steps bool) []schedules.LoopOption {
	tol := pick(c.rng, 0, 1e-9, 1e-6, 1e-6, 1e-3)
	opts := []schedules.LoopOption{
		schedules.Name(name),
		schedules.Tolerance(tol),
		schedules.MaxIterations(pick(c.rng, 1, 2, 3, 5, 10, 40)),
		schedules.Damping(pick(c.rng, 0, 0, 0.3, 0.7)),
	}
	if steps && tol > 0 && c.chance(0.35) { // a residual must be below the tolerance
		opts = append(opts, schedules.Residual(tol*pick(c.rng, 1e-3, 0.1, 0.9)))
	}
	return opts
}

// planCase is a random graph with a schedule Sequence(prefix..., outer,
// suffix...) (outer may be nil).
type planCase struct {
	seed   uint64
	shape  string
	spec   *graphSpec
	prefix []schedules.Schedule
	outer  *schedules.LoopSchedule
	suffix []schedules.Schedule
	s      schedules.Schedule
}

func newPlanCase(t testing.TB, seed uint64) *planCase {
	c := &planGen{t: t, rng: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)), spec: &graphSpec{name: fmt.Sprintf("case%d", seed)}}
	pc := &planCase{seed: seed, spec: c.spec}
	c.custom = c.chance(0.3)
	switch seed % 3 {
	case 0:
		c.chain(pc)
	case 1:
		c.tree(pc)
	case 2:
		c.loopy(pc)
	}
	parts := slices.Clone(pc.prefix)
	if pc.outer != nil {
		parts = append(parts, pc.outer)
	}
	pc.s = schedules.Sequence(append(parts, pc.suffix...)...)
	return pc
}

// chain is a TrueSkill free-for-all: teams of one to three players ranked
// in order, a chain of differences of adjacent teams' performances, each
// with a win or draw factor (and now and then a Poisson factor too).
func (c *planGen) chain(pc *planCase) {
	c.meanLo, c.meanHi, c.varLo, c.varHi = 0, 40, 4, 80
	step := schedules.Step
	nt := 2 + c.rng.IntN(5)
	var priors, down, upSum, upLik []schedules.Schedule
	teams := make([]graph.VarID, nt)
	for k := range teams {
		size := 1 + c.rng.IntN(3)
		perfs := make([]graph.VarID, size)
		for j := range perfs {
			s := c.spec.variable()
			priors = append(priors, step(c.prior(s), 0))
			perfs[j] = c.spec.variable()
			lik := c.likelihood(perfs[j], s)
			down = append(down, step(lik, 0))
			upLik = append(upLik, step(lik, 1))
		}
		if size == 1 && c.chance(0.6) {
			teams[k] = perfs[0]
			continue
		}
		teams[k] = c.spec.variable()
		sum := c.sum(teams[k], c.coefficients(size), perfs...)
		down = append(down, step(sum, 0))
		for j := range perfs {
			upSum = append(upSum, step(sum, j+1))
		}
	}
	nd := nt - 1
	diff := make([]graph.FactorID, nd)
	cmpF := make([]graph.FactorID, nd)
	pois := make([]graph.FactorID, nd)
	for k := range diff {
		var d graph.VarID
		if c.chance(0.05) {
			d = c.spec.observed(c.uniform(-1, 3))
		} else {
			d = c.spec.variable()
		}
		a := []float64{1, -1}
		if c.chance(0.2) {
			a = []float64{c.uniform(0.5, 2), -c.uniform(0.5, 2)}
		}
		diff[k] = c.sum(d, a, teams[k], teams[k+1])
		cmpF[k] = c.compare(d)
		pois[k] = -1
		if c.chance(0.1) {
			pois[k] = c.poisson(d)
		}
	}
	switch r := c.rng.Float64(); {
	case r < 0.45:
		pc.shape = "chain/trueskill"
		var body []schedules.Schedule
		link := func(k, out int) {
			body = append(body, step(diff[k], 0), step(cmpF[k], 0))
			if pois[k] >= 0 {
				body = append(body, step(pois[k], 0))
			}
			if out > 0 {
				body = append(body, step(diff[k], out))
			}
		}
		if nd == 1 {
			link(0, 0)
		} else {
			for k := 0; k < nd-1; k++ {
				link(k, 2)
			}
			for k := nd - 1; k > 0; k-- {
				link(k, 1)
			}
		}
		pc.prefix = append(priors, down...)
		pc.outer = schedules.Loop(schedules.Sequence(body...), c.loopOpts("outer", true)...)
		pc.suffix = append([]schedules.Schedule{step(diff[0], 1), step(diff[nd-1], 2)}, append(upSum, upLik...)...)
	case r < 0.65:
		pc.shape = "chain/tree"
		c.treeSchedule(pc)
	case r < 0.8:
		pc.shape = "chain/flooding"
		pc.outer = schedules.Flooding(c.spec.build(c.t), c.loopOpts("outer", true)...)
	default:
		pc.shape = "chain/nest"
		c.nest(pc)
	}
}

// tree grows a random tree: every factor added connects one variable of the
// tree to new ones, or is unary.
func (c *planGen) tree(pc *planCase) {
	c.meanLo, c.meanHi, c.varLo, c.varHi = -3, 8, 0.5, 20
	root := c.spec.variable()
	c.prior(root)
	vars := []graph.VarID{root}
	newVar := func() graph.VarID {
		var v graph.VarID
		if c.chance(0.1) {
			v = c.spec.observed(c.uniform(-3, 8))
		} else {
			v = c.spec.variable()
			if c.chance(0.5) {
				c.prior(v)
			}
		}
		vars = append(vars, v)
		return v
	}
	for range 3 + c.rng.IntN(10) {
		v := vars[c.rng.IntN(len(vars))]
		switch r := c.rng.Float64(); {
		case r < 0.3:
			switch c.rng.IntN(5) {
			case 0:
				c.prior(v)
			case 1:
				c.observation(v)
			case 2:
				c.greaterThan(v)
			case 3:
				c.within(v)
			case 4:
				c.poisson(v)
			}
		case r < 0.6:
			w := newVar()
			if c.chance(0.5) {
				c.likelihood(v, w)
			} else {
				c.likelihood(w, v)
			}
		default:
			n := 1 + c.rng.IntN(4)
			pos := c.rng.IntN(n + 1)
			all := make([]graph.VarID, n+1)
			for j := range all {
				if j == pos {
					all[j] = v
				} else {
					all[j] = newVar()
				}
			}
			c.sum(all[0], c.coefficients(n), all[1:]...)
		}
	}
	switch r := c.rng.Float64(); {
	case r < 0.5:
		pc.shape = "tree/tree"
		c.treeSchedule(pc)
	case r < 0.75:
		pc.shape = "tree/flooding"
		pc.outer = schedules.Flooding(c.spec.build(c.t), c.loopOpts("outer", true)...)
	default:
		pc.shape = "tree/nest"
		c.nest(pc)
	}
}

// loopy has players whose performances are shared by several sums (the first
// two sums share two of them, closing a cycle), differences of adjacent sums
// with win, draw and Poisson factors, and observations of sums.
func (c *planGen) loopy(pc *planCase) {
	c.meanLo, c.meanHi, c.varLo, c.varHi = -2, 3, 0.5, 4
	np := 3 + c.rng.IntN(4)
	perfs := make([]graph.VarID, np)
	for j := range perfs {
		s := c.spec.variable()
		if c.chance(0.8) {
			c.prior(s)
		} else {
			c.observation(s)
		}
		if c.chance(0.7) {
			perfs[j] = c.spec.variable()
			c.likelihood(perfs[j], s)
		} else {
			perfs[j] = s
		}
	}
	ns := 2 + c.rng.IntN(4)
	outs := make([]graph.VarID, ns)
	for j := range outs {
		var terms []graph.VarID
		if j < 2 {
			terms = []graph.VarID{perfs[0], perfs[1]}
			for _, k := range c.rng.Perm(np - 2)[:c.rng.IntN(2)] {
				terms = append(terms, perfs[2+k])
			}
		} else {
			for _, k := range c.rng.Perm(np)[:1+c.rng.IntN(3)] {
				terms = append(terms, perfs[k])
			}
		}
		if c.chance(0.05) {
			outs[j] = c.spec.observed(c.uniform(-2, 3))
		} else {
			outs[j] = c.spec.variable()
		}
		a := c.coefficients(len(terms))
		if j < 2 && a[0]*a[1] == 0 {
			a[0], a[1] = 1, -0.5 // keep the cycle
		}
		c.sum(outs[j], a, terms...)
		if c.chance(0.3) {
			c.observation(outs[j])
		}
	}
	for j := 0; j+1 < ns; j++ {
		d := c.spec.variable()
		c.sum(d, []float64{1, -1}, outs[j], outs[j+1])
		switch c.rng.IntN(3) {
		case 0:
			c.greaterThan(d)
		case 1:
			c.within(d)
		case 2:
			c.poisson(d)
		}
	}
	if c.chance(0.5) {
		pc.shape = "loopy/flooding"
		pc.outer = schedules.Flooding(c.spec.build(c.t), c.loopOpts("outer", true)...)
	} else {
		pc.shape = "loopy/nest"
		c.nest(pc)
	}
}

// treeSchedule uses schedules.Tree, in a Loop if the graph has several
// approximate factors (or now and then anyway).
func (c *planGen) treeSchedule(pc *planCase) {
	tr, err := schedules.Tree(c.spec.build(c.t))
	if err != nil {
		c.t.Fatalf("seed %d: %v", pc.seed, err)
	}
	approx := 0
	for _, f := range c.spec.factors {
		switch f.kind {
		case "GreaterThan", "Within", "Poisson":
			approx++
		}
	}
	if approx >= 2 || c.chance(0.2) {
		pc.outer = schedules.Loop(tr, c.loopOpts("outer", true)...)
	} else {
		pc.prefix = []schedules.Schedule{tr}
	}
}

// nest builds a random nest of loops: the constant factors' steps first,
// then a loop over every other edge, cut in chunks of which some are loops
// (and loops of loops), then now and then a second loop and a few steps.
func (c *planGen) nest(pc *planCase) {
	var steps []schedules.Schedule
	for f, fs := range c.spec.factors {
		if fs.kind == "Prior" || fs.kind == "GaussianObservation" {
			pc.prefix = append(pc.prefix, schedules.Step(graph.FactorID(f), 0))
			continue
		}
		for i := range fs.vars {
			steps = append(steps, schedules.Step(graph.FactorID(f), i))
		}
	}
	if c.chance(0.3) {
		c.rng.Shuffle(len(steps), func(i, j int) { steps[i], steps[j] = steps[j], steps[i] })
	}
	var cuts []int
	for range c.rng.IntN(4) {
		if len(steps) > 1 {
			cuts = append(cuts, 1+c.rng.IntN(len(steps)-1))
		}
	}
	cuts = append(cuts, 0, len(steps))
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	var body []schedules.Schedule
	nested := false
	for j := 0; j+1 < len(cuts); j++ {
		ch := steps[cuts[j]:cuts[j+1]]
		switch r := c.rng.Float64(); {
		case r < 0.3:
			body = append(body, schedules.Loop(schedules.Sequence(ch...), c.loopOpts(c.name(), true)...))
			nested = true
		case r < 0.45:
			h := len(ch) / 2
			inner := schedules.Loop(schedules.Sequence(ch[:h]...), c.loopOpts(c.name(), true)...)
			body = append(body, schedules.Loop(schedules.Sequence(append([]schedules.Schedule{inner}, ch[h:]...)...), c.loopOpts(c.name(), false)...))
			nested = true
		default:
			body = append(body, schedules.Sequence(ch...))
		}
	}
	pc.outer = schedules.Loop(schedules.Sequence(body...), c.loopOpts("outer", !nested)...)
	if c.chance(0.3) && len(steps) > 0 {
		var sub []schedules.Schedule
		for _, s := range steps {
			if c.chance(0.5) {
				sub = append(sub, s)
			}
		}
		pc.suffix = append(pc.suffix, schedules.Loop(schedules.Sequence(sub...), c.loopOpts(c.name(), true)...))
	}
	if c.chance(0.5) && len(steps) > 0 {
		for range 1 + c.rng.IntN(4) {
			pc.suffix = append(pc.suffix, steps[c.rng.IntN(len(steps))])
		}
	}
}

// outcome is the state a run leaves.
type outcome struct {
	err     error
	logZErr error
	state   runState
}

type runState struct {
	Result    schedules.Convergence
	Marginals []messages.Gaussian
	Messages  []messages.Gaussian
	LogZ      float64
}

func snapshot(g *graph.Graph, res schedules.Convergence, err error) outcome {
	o := outcome{err: err, state: runState{Result: res}}
	for v := range g.NumVariables() {
		o.state.Marginals = append(o.state.Marginals, g.Marginal(graph.VarID(v)))
	}
	for f := range g.NumFactors() {
		for i := range g.Arity(graph.FactorID(f)) {
			o.state.Messages = append(o.state.Messages, g.Message(graph.FactorID(f), i))
		}
	}
	o.state.LogZ, o.logZErr = g.LogEvidence()
	return o
}

var approx = cmp.Options{cmpopts.EquateApprox(1e-12, 1e-300), cmpopts.EquateNaNs()}

// planSentinels are the errors a run or LogEvidence may wrap.
var planSentinels = []error{
	messages.ErrInput, messages.ErrNumerical, messages.ErrImpossible,
	context.Canceled, context.DeadlineExceeded,
}

// sameError reports how got differs from want: nil against non-nil, a
// sentinel one wraps and the other does not, or the factor and edge of an
// update error.
func sameError(want, got error) string {
	if (want == nil) != (got == nil) {
		return fmt.Sprintf("error %v, want %v", got, want)
	}
	if want == nil {
		return ""
	}
	for _, s := range planSentinels {
		if errors.Is(want, s) != errors.Is(got, s) {
			return fmt.Sprintf("error %v, want %v (wrapping %v: %v, want %v)", got, want, s, errors.Is(got, s), errors.Is(want, s))
		}
	}
	var we, ge *graph.UpdateError
	wok, gok := errors.As(want, &we), errors.As(got, &ge)
	if wok != gok || wok && (we.Factor != ge.Factor || we.Edge != ge.Edge || (we.Panic == nil) != (ge.Panic == nil)) {
		return fmt.Sprintf("error %v, want %v", got, want)
	}
	return ""
}

// compareOutcomes reports every difference of got from want.
func compareOutcomes(t *testing.T, what string, want, got outcome) bool {
	t.Helper()
	ok := true
	if d := sameError(want.err, got.err); d != "" {
		t.Errorf("%s: run: %s", what, d)
		ok = false
	}
	if d := sameError(want.logZErr, got.logZErr); d != "" {
		t.Errorf("%s: LogEvidence: %s", what, d)
		ok = false
	}
	if d := cmp.Diff(want.state, got.state, approx); d != "" {
		t.Errorf("%s: state differs (-want +got):\n%s", what, d)
		ok = false
	}
	return ok
}

// cancelOnPass cancels the run when the loop named loop ends its pass k
// without stopping (its change above its tolerance, below its cap), so that
// the next pass fails to begin. If g is set, it checks that every update
// reports the change of its variable's marginal: it follows the marginals
// from prev, the state before the run (every change of a marginal is an
// update, and every update is reported to an observer).
type cancelOnPass struct {
	loop      string
	k         int
	tol       float64
	max       int
	cancel    context.CancelFunc
	cancelled bool
	g         *graph.Graph
	prev      []messages.Gaussian
	updates   int
	wrong     []string // updates reported with a wrong change
}

func (o *cancelOnPass) Updated(f graph.FactorID, i int, d float64) {
	o.updates++
	if o.g == nil {
		return
	}
	v := o.g.EdgeVariable(f, i)
	after := o.g.Marginal(v)
	want := messages.Distance(o.prev[v], after)
	o.prev[v] = after
	if !cmp.Equal(d, want, approx) && len(o.wrong) < 5 {
		o.wrong = append(o.wrong, fmt.Sprintf("update %d, factor %d edge %d: change %v, want %v", o.updates, f, i, d, want))
	}
}

func (o *cancelOnPass) Iterated(loop string, it int, delta float64) {
	if loop == o.loop && it == o.k && !(delta <= o.tol) && it < o.max {
		o.cancel()
		o.cancelled = true
	}
}

// TestPlanMatchesReference runs 300 random graphs and schedules through the
// Runner's compiled plans and through the reference interpreter.
func TestPlanMatchesReference(t *testing.T) {
	const cases = 300
	kinds := map[string]int{}
	shapes := map[string]int{}
	outcomes := map[string]int{}
	customs, cancels, observed := 0, 0, 0
	ctx := context.Background()
	for seed := range uint64(cases) {
		pc := newPlanCase(t, seed)
		for _, k := range pc.spec.kinds() {
			kinds[k]++
		}
		shapes[pc.shape]++
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			what := func(run string) string {
				return fmt.Sprintf("seed %d, %s, %s: %s", seed, pc.shape, run, describe(pc.s))
			}
			g1, g2 := pc.spec.build(t), pc.spec.build(t)
			want0 := snapshot(g1, schedules.Convergence{}, nil) // the state before any update
			res, err := refRun(ctx, g1, pc.s)
			want := snapshot(g1, res, err)
			switch {
			case err != nil:
				for _, s := range planSentinels {
					if errors.Is(err, s) {
						outcomes["error: "+s.Error()]++
					}
				}
			case res.Converged:
				outcomes["converged"]++
			default:
				outcomes["not converged"]++
			}
			if want.logZErr == nil {
				outcomes["log evidence"]++
			} else {
				for _, s := range planSentinels {
					if errors.Is(want.logZErr, s) {
						outcomes["log evidence error: "+s.Error()]++
					}
				}
			}

			if p, err := schedules.Compile(g2, pc.s); err != nil || p.Len() != countOps(pc.s) {
				t.Errorf("%s: Compile: %v; want a plan of %d ops", what("compile"), err, countOps(pc.s))
			}

			r := schedules.NewRunner(g2)
			res, err = r.Run(ctx, pc.s)
			got := snapshot(g2, res, err)
			if !compareOutcomes(t, what("plan"), want, got) {
				return
			}

			// The same runner: a custom schedule equivalent to the case's,
			// then the case's schedule again from its cached plan.
			cs, n := customize(pc.s)
			if n > 0 {
				customs++
				g2.Reset()
				res, err = r.Run(ctx, cs)
				compareOutcomes(t, what("custom schedule "+describe(cs)), want, snapshot(g2, res, err))
			}
			g2.Reset()
			res, err = r.Run(ctx, pc.s)
			compareOutcomes(t, what("cached plan"), got, snapshot(g2, res, err))

			// A context cancelled (or past its deadline) before the run.
			var cctx context.Context
			var cancel context.CancelFunc
			if seed%2 == 0 {
				cctx, cancel = context.WithCancel(ctx)
			} else {
				cctx, cancel = context.WithDeadline(ctx, time.Unix(0, 0))
			}
			cancel()
			g1.Reset()
			g2.Reset()
			res, err = refRun(cctx, g1, pc.s)
			wantC := snapshot(g1, res, err)
			res, err = schedules.NewRunner(g2).Run(cctx, pc.s)
			compareOutcomes(t, what("cancelled before the run"), wantC, snapshot(g2, res, err))

			// An observer that cancels after k passes of the outer loop.
			g1.Reset()
			g2.Reset()
			octx, cancel := context.WithCancel(ctx)
			defer cancel()
			obs := &cancelOnPass{loop: "outer", k: 1 + int(seed/3)%3, cancel: cancel, g: g2, prev: slices.Clone(want0.state.Marginals)}
			if pc.outer != nil {
				obs.tol, obs.max = pc.outer.Tolerance, pc.outer.MaxIterations
			}
			res, err = schedules.NewRunner(g2, schedules.WithObserver(obs)).Run(octx, pc.s)
			gotO := snapshot(g2, res, err)
			if len(obs.wrong) > 0 {
				t.Errorf("%s: the observer was told wrong changes: %s", what("observed"), strings.Join(obs.wrong, "; "))
			}
			observed += obs.updates
			if !obs.cancelled {
				compareOutcomes(t, what("observed"), want, gotO)
				return
			}
			cancels++
			outerK := *pc.outer
			outerK.MaxIterations = obs.k
			sk := schedules.Sequence(append(slices.Clone(pc.prefix), &outerK)...)
			res, err = refRun(ctx, g1, sk)
			wantO := snapshot(g1, res, err)
			if wantO.err != nil { // the pass that ended the loop failed
				compareOutcomes(t, what(fmt.Sprintf("cancelled after %d passes, against %s", obs.k, describe(sk))), wantO, gotO)
				return
			}
			if !errors.Is(gotO.err, context.Canceled) || gotO.state.Result.Converged {
				t.Errorf("%s: cancelled after %d passes: result %+v, error %v; want not converged and context.Canceled",
					what("observed"), obs.k, gotO.state.Result, gotO.err)
			}
			gotO.err = nil
			compareOutcomes(t, what(fmt.Sprintf("cancelled after %d passes, against %s", obs.k, describe(sk))), wantO, gotO)
		})
	}
	t.Logf("shapes: %v", shapes)
	t.Logf("factor kinds: %v", kinds)
	t.Logf("reference outcomes: %v", outcomes)
	t.Logf("%d runs of custom schedules, %d cancelled by an observer, %d updates' changes checked", customs, cancels, observed)
	for _, k := range []string{
		"Prior", "Likelihood", "ScaledLikelihood (custom)", "WeightedSum1", "WeightedSum2", "WeightedSum3+",
		"GreaterThan", "Within", "GaussianObservation", "Poisson", "Observed",
		"ZeroCoefficient", "NegativeCoefficient", "NonUnitCoefficient",
	} {
		if kinds[k] == 0 {
			t.Errorf("no case has %s", k)
		}
	}
	if outcomes["converged"] < cases/6 || outcomes["not converged"] < cases/10 {
		t.Errorf("outcomes %v: want at least %d converged and %d unconverged runs", outcomes, cases/4, cases/10)
	}
	if customs < cases/4 || cancels < cases/10 {
		t.Errorf("%d custom schedules, %d observer cancellations: too few", customs, cancels)
	}
}

// chainSpec is a TrueSkill-like free-for-all of n players in rank order: a
// prior and a performance per player, a difference per adjacent pair with a
// win factor (a draw for the last). Its schedule's parts: the priors, the
// messages down to the performances, the loop body over the differences,
// and the messages out of the chain and up to the skills.
type chainParts struct {
	spec                   *graphSpec
	prior, down, body, out []schedules.Schedule
	perf                   []graph.VarID
	diff                   []graph.FactorID
}

func chainSpec(n int) *chainParts {
	c := &chainParts{spec: &graphSpec{name: fmt.Sprintf("chain%d", n)}}
	step := schedules.Step
	var upLik []schedules.Schedule
	for i := range n {
		s := c.spec.variable()
		m, v := 20+1.5*float64(i), 30+10*float64(i%3)
		c.prior = append(c.prior, step(c.spec.add("Prior", func() graph.Factor { return factors.NewPrior(m, v) }, s), 0))
		p := c.spec.variable()
		lik := c.spec.add("Likelihood", func() graph.Factor { return factors.NewLikelihood(17) }, p, s)
		c.perf = append(c.perf, p)
		c.down = append(c.down, step(lik, 0))
		upLik = append(upLik, step(lik, 1))
	}
	cmpF := make([]graph.FactorID, n-1)
	for k := range n - 1 {
		d := c.spec.variable()
		c.diff = append(c.diff, c.spec.add("WeightedSum2", func() graph.Factor { return factors.NewDifference() }, d, c.perf[k], c.perf[k+1]))
		if k == n-2 {
			cmpF[k] = c.spec.add("Within", func() graph.Factor { return factors.NewWithin(0.7) }, d)
		} else {
			cmpF[k] = c.spec.add("GreaterThan", func() graph.Factor { return factors.NewGreaterThan(0.7) }, d)
		}
	}
	for k := 0; k < n-2; k++ {
		c.body = append(c.body, step(c.diff[k], 0), step(cmpF[k], 0), step(c.diff[k], 2))
	}
	for k := n - 2; k > 0; k-- {
		c.body = append(c.body, step(c.diff[k], 0), step(cmpF[k], 0), step(c.diff[k], 1))
	}
	c.out = append([]schedules.Schedule{step(c.diff[0], 1), step(c.diff[n-2], 2)}, upLik...)
	return c
}

func (c *chainParts) schedule(loop ...schedules.LoopOption) schedules.Schedule {
	return schedules.Sequence(schedules.Sequence(c.prior...), schedules.Sequence(c.down...),
		schedules.Loop(schedules.Sequence(c.body...), loop...), schedules.Sequence(c.out...))
}

// runBoth runs s by the reference on one build of spec and by a Runner on
// another, compares them and returns both outcomes.
func runBoth(t *testing.T, what string, spec *graphSpec, s schedules.Schedule) (want, got outcome) {
	t.Helper()
	ctx := context.Background()
	g1, g2 := spec.build(t), spec.build(t)
	res, err := refRun(ctx, g1, s)
	want = snapshot(g1, res, err)
	res, err = schedules.NewRunner(g2).Run(ctx, s)
	got = snapshot(g2, res, err)
	compareOutcomes(t, what+": "+describe(s), want, got)
	return want, got
}

// TestPlanCachedAcrossParameterChanges changes a loop's parameters between
// runs of its cached plan: the plan reads them when the loop starts.
func TestPlanCachedAcrossParameterChanges(t *testing.T) {
	c := chainSpec(6)
	loop := schedules.Loop(schedules.Sequence(c.body...), schedules.Tolerance(1e-12))
	s := schedules.Sequence(schedules.Sequence(c.prior...), schedules.Sequence(c.down...), loop, schedules.Sequence(c.out...))
	g := c.spec.build(t)
	r := schedules.NewRunner(g)
	ctx := context.Background()
	for i, set := range []func(){
		func() {},
		func() { loop.MaxIterations = 2 },
		func() { loop.MaxIterations, loop.Damping = 50, 0.7 },
		func() { loop.Damping, loop.Residual = 0, 1e-4 },
		func() { loop.Residual, loop.Tolerance = 0, 1e-3 },
		func() { loop.MaxIterations = 0 },
	} {
		set()
		g.Reset()
		res, err := r.Run(ctx, s)
		got := snapshot(g, res, err)
		g1 := c.spec.build(t)
		res, err = refRun(ctx, g1, s)
		compareOutcomes(t, fmt.Sprintf("change %d: %s", i, describe(s)), snapshot(g1, res, err), got)
	}
}

// TestPlanCustomScheduleAtTop runs a custom schedule as the whole schedule
// and inside a loop, with nested loops inside it.
func TestPlanCustomScheduleAtTop(t *testing.T) {
	c := chainSpec(5)
	inner := schedules.Loop(schedules.Sequence(c.body...), schedules.MaxIterations(4), schedules.Tolerance(1e-9), schedules.Name("chain"))
	pre := make([]*schedules.StepSchedule, 0, len(c.prior)+len(c.down))
	for _, s := range append(slices.Clone(c.prior), c.down...) {
		pre = append(pre, s.(*schedules.StepSchedule))
	}
	custom := &customSchedule{pre: pre, inner: inner}
	ref := schedules.Sequence(append(append(slices.Clone(c.prior), c.down...), inner)...)
	ctx := context.Background()
	g1, g2 := c.spec.build(t), c.spec.build(t)
	res, err := refRun(ctx, g1, ref)
	want := snapshot(g1, res, err)
	res, err = schedules.Run(ctx, g2, custom)
	compareOutcomes(t, "custom at the top", want, snapshot(g2, res, err))
	if want.state.Result.Iterations != 4 || want.state.Result.Converged {
		t.Errorf("reference result %+v, want 4 iterations, not converged", want.state.Result)
	}

	// A custom schedule (steps and a loop) in the body of a damped loop.
	innerBody := &customSchedule{pre: []*schedules.StepSchedule{c.body[0].(*schedules.StepSchedule), c.body[1].(*schedules.StepSchedule)},
		inner: schedules.Loop(schedules.Sequence(c.body[2:]...), schedules.MaxIterations(3), schedules.Damping(0.3), schedules.Name("in"))}
	equiv := schedules.Sequence(c.body[0], c.body[1], innerBody.inner)
	outer := func(body schedules.Schedule) schedules.Schedule {
		return schedules.Sequence(schedules.Sequence(c.prior...), schedules.Sequence(c.down...),
			schedules.Loop(body, schedules.MaxIterations(6), schedules.Damping(0.7), schedules.Tolerance(1e-10), schedules.Name("out")),
			schedules.Sequence(c.out...))
	}
	g1, g2 = c.spec.build(t), c.spec.build(t)
	res, err = refRun(ctx, g1, outer(equiv))
	want = snapshot(g1, res, err)
	res, err = schedules.Run(ctx, g2, outer(innerBody))
	compareOutcomes(t, "custom in a loop", want, snapshot(g2, res, err))
}

// TestPlanCancelledContexts runs nested loops under contexts cancelled
// before the run and by an observer.
func TestPlanCancelledContexts(t *testing.T) {
	c := chainSpec(7)
	s := schedules.Sequence(schedules.Sequence(c.prior...), schedules.Sequence(c.down...),
		schedules.Loop(schedules.Sequence(schedules.Loop(schedules.Sequence(c.body[:4]...), schedules.MaxIterations(3), schedules.Tolerance(0), schedules.Name("inner")),
			schedules.Sequence(c.body[4:]...)), schedules.Tolerance(0), schedules.MaxIterations(20), schedules.Name("outer")),
		schedules.Sequence(c.out...))
	bg := context.Background()
	cancelled, cancel := context.WithCancel(bg)
	cancel()
	expired, cancel := context.WithTimeout(bg, -time.Second)
	defer cancel()
	for _, ctx := range []context.Context{cancelled, expired} {
		g1, g2 := c.spec.build(t), c.spec.build(t)
		res, err := refRun(ctx, g1, s)
		want := snapshot(g1, res, err)
		res, err = schedules.NewRunner(g2).Run(ctx, s)
		got := snapshot(g2, res, err)
		compareOutcomes(t, fmt.Sprintf("context %v", ctx.Err()), want, got)
		if !errors.Is(got.err, ctx.Err()) || got.state.Result.Converged {
			t.Errorf("context %v: %+v, %v", ctx.Err(), got.state.Result, got.err)
		}
	}
	for k := 1; k <= 4; k++ {
		g1, g2 := c.spec.build(t), c.spec.build(t)
		ctx, cancel := context.WithCancel(bg)
		obs := &cancelOnPass{loop: "outer", k: k, tol: 0, max: 20, cancel: cancel}
		res, err := schedules.NewRunner(g2, schedules.WithObserver(obs)).Run(ctx, s)
		cancel()
		got := snapshot(g2, res, err)
		if !obs.cancelled || !errors.Is(err, context.Canceled) || res.Converged {
			t.Errorf("cancelled after %d passes: %+v, %v", k, res, err)
			continue
		}
		sk := s.Parts[2].(*schedules.LoopSchedule)
		lk := *sk
		lk.MaxIterations = k
		res, err = refRun(bg, g1, schedules.Sequence(s.Parts[0], s.Parts[1], &lk))
		want := snapshot(g1, res, err)
		if err != nil || want.state.Result.Iterations < k {
			t.Errorf("reference of %d passes: %+v, %v", k, want.state.Result, err)
		}
		got.err = nil
		compareOutcomes(t, fmt.Sprintf("cancelled after %d passes", k), want, got)
	}
}

// TestPlanMissingStep names a missing factor or edge in the middle of a
// sequence and of loops: the updates before it are made, then the run fails
// with messages.ErrInput, as the reference's.
func TestPlanMissingStep(t *testing.T) {
	c := chainSpec(5)
	step := schedules.Step
	prior, down := schedules.Sequence(c.prior...), schedules.Sequence(c.down...)
	for _, bad := range []*schedules.StepSchedule{step(999, 0), step(c.diff[0], 7), step(c.diff[1], -1), step(-1, 0)} {
		body := append(append(slices.Clone(c.body[:4]), bad), c.body[4:]...)
		for _, s := range []schedules.Schedule{
			schedules.Sequence(prior, down, bad, schedules.Sequence(c.out...)),
			schedules.Sequence(prior, down, schedules.Loop(schedules.Sequence(body...), schedules.MaxIterations(5)), schedules.Sequence(c.out...)),
			schedules.Sequence(prior, schedules.Loop(schedules.Sequence(down, schedules.Loop(schedules.Sequence(body...), schedules.Damping(0.3))),
				schedules.MaxIterations(3)), schedules.Sequence(c.out...)),
			// After the loop.
			schedules.Sequence(prior, down, schedules.Loop(schedules.Sequence(c.body...), schedules.MaxIterations(2)), bad),
			// First in a loop's body: the failed pass changed nothing, and
			// the loop has not converged.
			schedules.Sequence(prior, down, schedules.Loop(schedules.Sequence(append([]schedules.Schedule{bad}, c.body...)...)), schedules.Sequence(c.out...)),
		} {
			_, got := runBoth(t, "missing step", c.spec, s)
			if !errors.Is(got.err, messages.ErrInput) {
				t.Errorf("%s: error %v, want messages.ErrInput", describe(s), got.err)
			}
			if got.state.Marginals[0].IsUniform() {
				t.Errorf("%s: the updates before the missing step were not made", describe(s))
			}
		}
		// A residual loop checks its body before its first pass, so nothing
		// of it runs.
		s := schedules.Sequence(prior, down, schedules.Loop(schedules.Sequence(body...), schedules.Residual(1e-7)))
		g1, g2 := c.spec.build(t), c.spec.build(t)
		res, err := refRun(context.Background(), g1, schedules.Sequence(prior, down))
		want := snapshot(g1, res, err)
		res, err = schedules.Run(context.Background(), g2, s)
		got := snapshot(g2, res, err)
		if !errors.Is(err, messages.ErrInput) {
			t.Errorf("%s: error %v, want messages.ErrInput", describe(s), err)
		}
		if d := cmp.Diff(want.state.Marginals, got.state.Marginals, approx); d != "" {
			t.Errorf("%s: marginals (-want +got):\n%s", describe(s), d)
		}
	}
}

// TestPlanInvalidLoop runs loops that can never run or stop, at the top and
// nested, after some updates.
func TestPlanInvalidLoop(t *testing.T) {
	c := chainSpec(5)
	prior, down, out := schedules.Sequence(c.prior...), schedules.Sequence(c.down...), schedules.Sequence(c.out...)
	for _, opt := range []schedules.LoopOption{
		schedules.MaxIterations(0), schedules.MaxIterations(-3), schedules.Damping(1), schedules.Damping(-0.1), schedules.Damping(math.NaN()),
		schedules.Tolerance(math.NaN()), schedules.Tolerance(-1), schedules.Residual(-1), schedules.Residual(math.NaN()),
	} {
		for _, s := range []schedules.Schedule{
			schedules.Sequence(prior, down, schedules.Loop(schedules.Sequence(c.body...), opt), out),
			schedules.Sequence(prior, schedules.Loop(schedules.Sequence(down, schedules.Loop(schedules.Sequence(c.body...), opt)),
				schedules.MaxIterations(3), schedules.Damping(0.3)), out),
			schedules.Sequence(prior, down, schedules.Loop(schedules.Sequence(c.body...), schedules.MaxIterations(3)),
				schedules.Loop(schedules.Sequence(c.body...), opt), out),
		} {
			_, got := runBoth(t, "invalid loop", c.spec, s)
			if !errors.Is(got.err, messages.ErrInput) || got.state.Result.Converged {
				t.Errorf("%s: %+v, %v; want not converged, messages.ErrInput", describe(s), got.state.Result, got.err)
			}
		}
	}
}

// TestPlanNaNMessage has a factor send a message that is not a number, at
// once in a sequence and on the third pass of loops: the run fails with
// messages.ErrNumerical and the graph is left as the update found it.
func TestPlanNaNMessage(t *testing.T) {
	for _, n := range []int{0, 2} {
		c := chainSpec(5)
		nan := c.spec.add("NaN", func() graph.Factor { return &nanAfter{n: n} }, c.perf[2])
		step := schedules.Step
		prior, down, out := schedules.Sequence(c.prior...), schedules.Sequence(c.down...), schedules.Sequence(c.out...)
		body := append(append(slices.Clone(c.body[:3]), step(nan, 0)), c.body[3:]...)
		var ss []schedules.Schedule
		if n == 0 {
			ss = []schedules.Schedule{
				schedules.Sequence(prior, down, step(nan, 0), out),
				// First in a loop's body: the failed pass changed nothing.
				schedules.Sequence(prior, down, schedules.Loop(schedules.Sequence(append([]schedules.Schedule{step(nan, 0)}, c.body...)...)), out),
			}
		} else {
			ss = []schedules.Schedule{
				schedules.Sequence(prior, down, schedules.Loop(schedules.Sequence(body...), schedules.Tolerance(0)), out),
				schedules.Sequence(prior, down, schedules.Loop(schedules.Sequence(body...), schedules.Tolerance(0), schedules.Damping(0.3)), out),
				schedules.Sequence(prior, down, schedules.Loop(schedules.Sequence(body...), schedules.Tolerance(1e-12), schedules.Residual(1e-13)), out),
				schedules.Sequence(prior, schedules.Loop(schedules.Sequence(down, schedules.Loop(schedules.Sequence(body...), schedules.Tolerance(0),
					schedules.MaxIterations(2))), schedules.Tolerance(0)), out),
			}
		}
		for _, s := range ss {
			_, got := runBoth(t, "NaN message", c.spec, s)
			var ue *graph.UpdateError
			loop := false
			schedules.Walk(s, func(_ *schedules.StepSchedule, l *schedules.LoopSchedule) { loop = loop || l != nil })
			if !errors.Is(got.err, messages.ErrNumerical) || !errors.As(got.err, &ue) || ue.Factor != nan || got.state.Result.Converged == loop {
				t.Errorf("%s: %+v, %v; want messages.ErrNumerical from factor %d", describe(s), got.state.Result, got.err, nan)
			}
			if n > 0 && got.state.Result.Iterations < 3 {
				t.Errorf("%s: %+v, want 3 passes or more", describe(s), got.state.Result)
			}
		}
		if n > 0 {
			continue
		}
		// The graph is as the steps before the failed one left it, and the
		// NaN factor's message is still uniform.
		g1 := c.spec.build(t)
		res, err := refRun(context.Background(), g1, schedules.Sequence(prior, down))
		want := snapshot(g1, res, err)
		for _, s := range ss {
			g2 := c.spec.build(t)
			res, err = schedules.Run(context.Background(), g2, s)
			got := snapshot(g2, res, err)
			got.err, got.state.Result = nil, want.state.Result
			compareOutcomes(t, "graph after a NaN message: "+describe(s), want, got)
			if m := g2.Message(nan, 0); !m.IsUniform() {
				t.Errorf("%s: NaN factor's message %v, want uniform", describe(s), m)
			}
		}
	}
}

// TestCompileRejectsNil compiles and runs nil graphs, schedules and parts:
// errors wrapping messages.ErrInput, no panic, no update.
func TestCompileRejectsNil(t *testing.T) {
	c := chainSpec(3)
	g := c.spec.build(t)
	valid := c.schedule()
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		g    *graph.Graph
		s    schedules.Schedule
		// custom: the nil part is inside a custom schedule, found when
		// it runs, after the steps before it.
		custom bool
	}{
		{"nil graph", nil, valid, false},
		{"nil schedule", g, nil, false},
		{"nil step", g, (*schedules.StepSchedule)(nil), false},
		{"nil sequence", g, (*schedules.SequenceSchedule)(nil), false},
		{"nil loop", g, (*schedules.LoopSchedule)(nil), false},
		{"sequence holding nil", g, schedules.Sequence(c.prior[0], nil, c.prior[1]), false},
		{"sequence holding a nil step", g, schedules.Sequence(c.prior[0], (*schedules.StepSchedule)(nil)), false},
		{"Loop(nil)", g, schedules.Loop(nil), false},
		{"nested nil", g, schedules.Sequence(c.prior[0], schedules.Loop(schedules.Sequence(c.body[0], schedules.Loop(schedules.Sequence(nil))))), false},
		{"custom holding nil", g, schedules.Sequence(c.prior[0], &customSchedule{inner: schedules.Sequence(c.prior[1], nil)}), true},
	} {
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Errorf("%s: panic %v", tc.name, p)
				}
			}()
			if !tc.custom {
				if p, err := schedules.Compile(tc.g, tc.s); !errors.Is(err, messages.ErrInput) || p != nil {
					t.Errorf("%s: Compile: %v, %v; want messages.ErrInput", tc.name, p, err)
				}
			}
			if g != nil {
				g.Reset()
			}
			res, err := schedules.Run(ctx, tc.g, tc.s)
			if !errors.Is(err, messages.ErrInput) || res.Iterations != 0 {
				t.Errorf("%s: Run: %+v, %v; want messages.ErrInput", tc.name, res, err)
			}
			if tc.g != nil && !tc.custom {
				for v := range g.NumVariables() {
					if m := g.Marginal(graph.VarID(v)); !m.IsUniform() {
						t.Errorf("%s: variable %d updated to %v", tc.name, v, m)
					}
				}
			}
			if tc.g != nil {
				if _, err := schedules.NewRunner(tc.g).Run(ctx, tc.s); !errors.Is(err, messages.ErrInput) {
					t.Errorf("%s: Runner.Run: %v; want messages.ErrInput", tc.name, err)
				}
			}
		}()
	}
}

// TestPlanRerunDoesNotAllocate reruns compiled plans of an 8-player chain:
// Reset and Run allocate nothing.
func TestPlanRerunDoesNotAllocate(t *testing.T) {
	c := chainSpec(8)
	ctx := context.Background()
	for _, opts := range [][]schedules.LoopOption{
		{schedules.Tolerance(1e-9)},
		{schedules.Damping(0.3)},
		{schedules.Residual(1e-7)},
	} {
		s := c.schedule(opts...)
		g := c.spec.build(t)
		r := schedules.NewRunner(g)
		res, err := r.Run(ctx, s)
		if err != nil || !res.Converged || res.Iterations < 2 {
			t.Fatalf("%s: %+v, %v", describe(s), res, err)
		}
		allocs := testing.AllocsPerRun(100, func() {
			g.Reset()
			if _, err = r.Run(ctx, s); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per rerun, want 0", describe(s), allocs)
		}
	}
}

// TestPlanRunsAsSchedule runs a compiled plan itself, with its schedule's
// tree dropped: the same outcome as the tree through the reference
// interpreter; on another graph, and as a nil plan, an messages.ErrInput.
func TestPlanRunsAsSchedule(t *testing.T) {
	c := chainSpec(6)
	s := schedules.Sequence(schedules.Sequence(c.prior...), schedules.Sequence(c.down...), schedules.Loop(schedules.Sequence(c.body...), schedules.Tolerance(1e-12)), schedules.Sequence(c.out...))
	ctx := context.Background()
	g := c.spec.build(t)
	p, err := schedules.Compile(g, s)
	if err != nil {
		t.Fatal(err)
	}
	res, err := schedules.NewRunner(g).Run(ctx, p)
	got := snapshot(g, res, err)
	g1 := c.spec.build(t)
	res, err = refRun(ctx, g1, s)
	compareOutcomes(t, "a plan run as a schedule", snapshot(g1, res, err), got)

	other := c.spec.build(t)
	if _, err := schedules.NewRunner(other).Run(ctx, p); !errors.Is(err, messages.ErrInput) {
		t.Errorf("a plan run on another graph: %v, want messages.ErrInput", err)
	}
	if _, err := schedules.NewRunner(g).Run(ctx, (*schedules.Plan)(nil)); !errors.Is(err, messages.ErrInput) {
		t.Errorf("a nil plan: %v, want messages.ErrInput", err)
	}
}
