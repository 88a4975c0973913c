package exact

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
)

// Tilted is implemented by a factor f(y) of k edges that can compute its
// tilted moments under a joint Gaussian cavity over its edges, so that EP
// gives it one k-dimensional site in place of k one-dimensional ones.
// mean holds the cavity's k means and cov its k×k covariance Σ, row-major,
// both in the factor's edge order; TiltedMoments returns
//
//	log Z    = log ∫ f(y)·N(y; mean, Σ) dy,
//	postMean = ∫ y·f(y)·N(y; mean, Σ) dy / Z,
//	postCov  = ∫ (y − postMean)(y − postMean)ᵀ·f(y)·N(y; mean, Σ) dy / Z,
//
// postCov k×k row-major, symmetric positive definite; an error if it
// cannot (a cavity it rules out, values beyond float64). The method uses
// only builtin types, so that a factor package implements it without
// importing this one. Factors without it keep per-edge sites.
type Tilted interface {
	TiltedMoments(mean, cov []float64) (logZ float64, postMean, postCov []float64, err error)
}

// jointSite is the site of a factor implementing Tilted, over its k edges'
// variables y, all latent and distinct:
// t(y) = exp(−½yᵀPy + hᵀy), P symmetric (k×k, row-major). Each y_r is
// c_r + Σ_s A_rs·z_free[s] in the free variables z.
type jointSite struct {
	t      Tilted
	latent []int     // the latent number of each edge's variable
	free   []int     // the free variables of the edges' expressions
	a      []float64 // k × len(free)
	c      []float64 // k
	p, h   []float64 // the site: k×k and k
	// mean and cov are the posterior marginal over y, k and k×k, from the
	// last factorisation.
	mean, cov []float64
}

// jointOf returns the factor f as a Tilted and its edges' latent numbers,
// or false if it is not one, or has an observed edge or one variable on
// two edges (whose joint cavity is degenerate): those keep per-edge sites.
func jointOf(g *graph.Graph, f graph.FactorID, index []int) (Tilted, []int, bool) {
	t, ok := g.Factor(f).(Tilted)
	if !ok {
		return nil, nil, false
	}
	latent := make([]int, g.Arity(f))
	for i := range latent {
		l := index[g.EdgeVariable(f, i)]
		if l < 0 || slices.Contains(latent[:i], l) {
			return nil, nil, false
		}
		latent[i] = l
	}
	return t, latent, true
}

// newJointSite lays out the site of t over the latent variables, in the
// system's free variables; the union of their free variables is one of the
// cliques newSystem gave the ordering, so that Σ is known on it.
func newJointSite(s *system, t Tilted, latent []int) *jointSite {
	k := len(latent)
	j := &jointSite{t: t, latent: latent, c: make([]float64, k), p: make([]float64, k*k), h: make([]float64, k)}
	j.free = unionFree(s, latent)
	at := make(map[int]int, len(j.free))
	for q, z := range j.free {
		at[z] = q
	}
	u := len(j.free)
	j.a = make([]float64, k*u)
	for r, l := range latent {
		x := s.vars[l]
		j.c[r] = x.mean
		for p, z := range x.idx {
			j.a[r*u+at[z]] += x.coef[p]
		}
	}
	return j
}

// unionFree returns the free variables of the latent variables'
// expressions, each once.
func unionFree(s *system, latent []int) []int {
	var free []int
	for _, l := range latent {
		for _, z := range s.vars[l].idx {
			if !slices.Contains(free, z) {
				free = append(free, z)
			}
		}
	}
	return free
}

// add adds the site to the system: in z, t is
// exp(−½zᵀ(AᵀPA)z + (Aᵀ(h − Pc))ᵀz + hᵀc − ½cᵀPc); it returns the
// constant hᵀc − ½cᵀPc.
func (j *jointSite) add(s *system) float64 {
	k, u := len(j.latent), len(j.free)
	ap := make([]float64, u*k) // AᵀP
	for q := range u {
		for r := range k {
			for t := range k {
				ap[q*k+r] += j.a[t*u+q] * j.p[t*k+r]
			}
		}
	}
	m := make([]float64, u*u)
	for q := range u {
		for w := range u {
			for r := range k {
				m[q*u+w] += ap[q*k+r] * j.a[r*u+w]
			}
		}
	}
	s.chol.addDense(j.free, m)
	konst := 0.0
	for r := range k {
		pc := 0.0
		for t := range k {
			pc += j.p[r*k+t] * j.c[t]
		}
		konst += j.c[r] * (j.h[r] - 0.5*pc)
		for q := range u {
			s.h[j.free[q]] += j.a[r*u+q] * (j.h[r] - pc)
		}
	}
	return konst
}

// marginal sets the posterior marginal over y from the means z and the
// selected inverse: mean c + Az, covariance AΣ_free Aᵀ.
func (j *jointSite) marginal(s *system, z []float64) {
	k, u := len(j.latent), len(j.free)
	sf := make([]float64, u*u)
	for q, zq := range j.free {
		for w, zw := range j.free[:q+1] {
			sf[q*u+w] = s.chol.covariance(zq, zw)
			sf[w*u+q] = sf[q*u+w]
		}
	}
	j.mean, j.cov = make([]float64, k), make([]float64, k*k)
	as := make([]float64, k*u) // AΣ_free
	for r := range k {
		j.mean[r] = j.c[r]
		for q := range u {
			j.mean[r] += j.a[r*u+q] * z[j.free[q]]
			for w := range u {
				as[r*u+w] += j.a[r*u+q] * sf[q*u+w]
			}
		}
	}
	for r := range k {
		for t := range r + 1 {
			v := 0.0
			for q := range u {
				v += as[r*u+q] * j.a[t*u+q]
			}
			j.cov[r*k+t], j.cov[t*k+r] = v, v
		}
	}
}

// natural returns the natural parameters (Λ = Σ⁻¹, η = Σ⁻¹μ) of the
// Gaussian of mean μ and covariance Σ (k×k), and ½·log det Σ +
// ½·μᵀΣ⁻¹μ, its log normaliser less (k/2)·log 2π; false if Σ is not
// positive definite or a value is not finite.
func natural(mean, cov []float64) (lambda []float64, eta []float64, logNorm float64, ok bool) {
	lambda, eta, q, logDet, ok := flip(cov, mean)
	return lambda, eta, q + 0.5*logDet, ok
}

// moments returns the mean and covariance of exp(−½yᵀΛy + ηᵀy) and its
// log normaliser less (k/2)·log 2π, ½·ηᵀΛ⁻¹η − ½·log det Λ; false if Λ
// is not positive definite (the density is improper).
func moments(lambda, eta []float64) (mean, cov []float64, logNorm float64, ok bool) {
	cov, mean, q, logDet, ok := flip(lambda, eta)
	return mean, cov, q - 0.5*logDet, ok
}

// flip turns one parametrisation of a Gaussian into the other, (Σ, μ)
// into (Λ, η) and back, both being (a, x) ↦ (a⁻¹, a⁻¹x): it returns
// those, ½·xᵀa⁻¹x and log det a; false if a is not positive definite or
// a value is not finite.
func flip(a, x []float64) (inv, y []float64, q, logDet float64, ok bool) {
	inv, logDet, ok = smallInverse(a, len(x))
	if !ok || !finiteAll(x) {
		return nil, nil, 0, 0, false
	}
	y = mulVec(inv, x)
	for r := range x {
		q += 0.5 * x[r] * y[r]
	}
	return inv, y, q, logDet, finiteAll(inv) && finiteAll(y) && messages.IsFinite(q)
}

// mulVec returns the k×k matrix a (row-major) times x.
func mulVec(a, x []float64) []float64 {
	k := len(x)
	y := make([]float64, k)
	for r := range k {
		for t := range k {
			y[r] += a[r*k+t] * x[t]
		}
	}
	return y
}

// smallInverse returns the inverse of the symmetric k×k matrix a
// (row-major) and log det a, by its Cholesky factor a = LLᵀ:
// a⁻¹ = L⁻ᵀL⁻¹, with L⁻¹ by forward substitution and
// log det a = 2·Σ log L_ii; false if a is not positive definite or not
// finite. The sites' blocks are a factor's few variables, where a dense
// factorisation without pivoting or condition estimate is the cheapest.
func smallInverse(a []float64, k int) (inv []float64, logDet float64, ok bool) {
	if !finiteAll(a) {
		return nil, 0, false
	}
	l, positive := messages.CholeskyLower(a, k)
	if !positive {
		return nil, 0, false
	}
	for j := range k {
		logDet += 2 * math.Log(l[j*k+j])
	}
	// m = L⁻¹, lower triangular.
	m := make([]float64, k*k)
	for j := range k {
		m[j*k+j] = 1 / l[j*k+j]
		for i := j + 1; i < k; i++ {
			v := 0.0
			for p := j; p < i; p++ {
				v -= l[i*k+p] * m[p*k+j]
			}
			m[i*k+j] = v / l[i*k+i]
		}
	}
	inv = make([]float64, k*k)
	for r := range k {
		for t := range r + 1 {
			v := 0.0
			for p := r; p < k; p++ {
				v += m[p*k+r] * m[p*k+t]
			}
			inv[r*k+t], inv[t*k+r] = v, v
		}
	}
	return inv, logDet, true
}

func finiteAll(x []float64) bool {
	for _, v := range x {
		if !messages.IsFinite(v) {
			return false
		}
	}
	return true
}

// cavity returns the cavity q/t over y in natural parameters,
// Λ_c = Σ_q⁻¹ − P and η_c = Σ_q⁻¹μ_q − h, its moments and log normaliser
// (see moments), and the marginal's log normaliser (see natural); false
// if either is not a proper Gaussian.
func (j *jointSite) cavity() (c gaussianK, logMarginal float64, ok bool) {
	lq, eq, logMarginal, ok := natural(j.mean, j.cov)
	if !ok {
		return gaussianK{}, 0, false
	}
	for r := range lq {
		lq[r] -= j.p[r]
	}
	for r := range eq {
		eq[r] -= j.h[r]
	}
	c = gaussianK{lambda: lq, eta: eq}
	c.mean, c.cov, c.logNorm, ok = moments(lq, eq)
	return c, logMarginal, ok
}

// tiltedPanic carries the value a factor's TiltedMoments panicked with
// up to the *graph.UpdateError that reports it.
type tiltedPanic struct{ value any }

func (p tiltedPanic) Error() string { return fmt.Sprintf("TiltedMoments panicked: %v", p.value) }

// gaussianK is a k-variate Gaussian in both parametrisations, with its
// log normaliser less (k/2)·log 2π.
type gaussianK struct {
	lambda, eta, mean, cov []float64
	logNorm                float64
}

// tilted calls the factor's TiltedMoments at the cavity, recovering a
// panic, and checks its answer.
func (j *jointSite) tilted(mean, cov []float64) (logZ float64, pm, pc []float64, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = tiltedPanic{r}
		}
	}()
	logZ, pm, pc, err = j.t.TiltedMoments(mean, cov)
	k := len(mean)
	switch {
	case err != nil:
		return 0, nil, nil, err
	case len(pm) != k || len(pc) != k*k:
		return 0, nil, nil, fmt.Errorf("tilted moments of %d means and %d covariances for %d edges: %w", len(pm), len(pc), k, messages.ErrNumerical)
	case !messages.IsFinite(logZ):
		return 0, nil, nil, fmt.Errorf("tilted log Z %v: %w", logZ, messages.ErrNumerical)
	}
	return logZ, pm, pc, nil
}

// refine replaces the site by the moment-matched tilted distribution
// divided by the cavity, damped: it returns false, leaving the site, if
// the cavity is improper.
func (j *jointSite) refine(damping float64) (bool, error) {
	c, _, ok := j.cavity()
	if !ok {
		return false, nil
	}
	_, pm, pc, err := j.tilted(c.mean, c.cov)
	if err != nil {
		return false, err
	}
	lt, et, _, ok := natural(pm, pc)
	if !ok {
		return false, fmt.Errorf("tilted covariance %v is not positive definite: %w", pc, messages.ErrNumerical)
	}
	for r := range lt {
		j.p[r] = (1-damping)*(lt[r]-c.lambda[r]) + damping*j.p[r]
	}
	k := len(j.h)
	for r := range k {
		for t := range r {
			// Symmetric up to rounding; kept exactly so for the factorisation.
			v := 0.5 * (j.p[r*k+t] + j.p[t*k+r])
			j.p[r*k+t], j.p[t*k+r] = v, v
		}
		j.h[r] = (1-damping)*(et[r]-c.eta[r]) + damping*j.h[r]
	}
	if !finiteAll(j.p) || !finiteAll(j.h) {
		return false, fmt.Errorf("site precision %v, shift %v: %w", j.p, j.h, messages.ErrNumerical)
	}
	return true, nil
}

// logScale returns the log of the site's scale s_f in EP's evidence,
// log Z_f − A(q) + A(c) (see EP), at the current marginal; false if the
// cavity is improper.
func (j *jointSite) logScale() (float64, bool, error) {
	c, logMarginal, ok := j.cavity()
	if !ok {
		return 0, false, nil
	}
	logZ, _, _, err := j.tilted(c.mean, c.cov)
	if err != nil {
		return 0, true, err
	}
	return logZ - logMarginal + c.logNorm, true, nil
}

// names lists the site's variables, for errors.
func (j *jointSite) names(s *system) string {
	ns := make([]string, len(j.latent))
	for r, l := range j.latent {
		ns[r] = s.latentName(l)
	}
	return strings.Join(ns, ", ")
}

// addDense adds the symmetric u×u matrix m (row-major) to Λ on the
// variables idx, distinct and in one clique given to analyse.
func (c *cholesky) addDense(idx []int, m []float64) {
	u := len(idx)
	for a, i := range idx {
		for b, j := range idx {
			c.addEntry(c.pos[i], c.pos[j], m[a*u+b])
		}
	}
}
