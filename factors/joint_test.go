package factors

import (
	"errors"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/mat"

	"github.com/skillgraph/skillgraph/messages"
)

// quadTilted returns log Z, the mean and the covariance (row-major) of
// N(y; mean, cov)·∏ I(cᵀy ≥ 0) on R² by nested Gauss–Legendre
// quadrature: y₀ over its cavity's ±14σ, y₁ given y₀ over its conditional
// ±14σ cut by the constraints, both split into pieces at every point
// where the inner interval's ends change form (the constraints' corner at
// the origin, and where a constraint's line crosses the inner window's
// edges), so that each piece's integrand is smooth. It evaluates the
// joint density directly, and so serves any mass above about 1e-300.
func quadTilted(mean, cov []float64, cons [][2]float64) (logZ float64, m, c []float64) {
	const width, pieces, nodes = 14.0, 16, 16
	xs, ws := make([]float64, nodes), make([]float64, nodes)
	quad.Legendre{}.FixedLocations(xs, ws, 0, 1)
	s0 := math.Sqrt(cov[0])
	beta := cov[1] / cov[0]
	s1 := math.Sqrt(cov[3] - cov[1]*cov[1]/cov[0])
	cond := func(y0 float64) float64 { return mean[1] + beta*(y0-mean[0]) }
	lo0, hi0 := mean[0]-width*s0, mean[0]+width*s0
	breaks := []float64{lo0, hi0, 0}
	for _, a := range cons {
		if a[1] == 0 {
			continue
		}
		for _, side := range []float64{-1, 1} {
			// −a₀y₀/a₁ = cond(y₀) + side·width·s1
			if den := -a[0]/a[1] - beta; den != 0 {
				breaks = append(breaks, (mean[1]-beta*mean[0]+side*width*s1)/den)
			}
		}
	}
	slices.Sort(breaks)
	var ch mat.Cholesky
	ch.Factorize(mat.NewSymDense(2, slices.Clone(cov)))
	inv := mat.NewSymDense(2, nil)
	_ = ch.InverseTo(inv)
	logNorm := -math.Log(2*math.Pi) - 0.5*ch.LogDet()
	var sum [6]float64 // ∫ N·(1, d₀, d₁, d₀², d₀d₁, d₁²), d = y − mean
	for b := 1; b < len(breaks); b++ {
		p, q := math.Max(breaks[b-1], lo0), math.Min(breaks[b], hi0)
		if !(p < q) {
			continue
		}
		h0 := (q - p) / pieces
		for i := range pieces * nodes {
			y0 := p + h0*(float64(i/nodes)+xs[i%nodes])
			w0 := h0 * ws[i%nodes]
			lo, hi := cond(y0)-width*s1, cond(y0)+width*s1
			empty := false
			for _, a := range cons {
				switch {
				case a[1] > 0:
					lo = math.Max(lo, -a[0]*y0/a[1])
				case a[1] < 0:
					hi = math.Min(hi, -a[0]*y0/a[1])
				default:
					empty = empty || a[0]*y0 < 0
				}
			}
			if empty || !(lo < hi) {
				continue
			}
			h1 := (hi - lo) / pieces
			d0 := y0 - mean[0]
			for j := range pieces * nodes {
				y1 := lo + h1*(float64(j/nodes)+xs[j%nodes])
				d1 := y1 - mean[1]
				quadForm := inv.At(0, 0)*d0*d0 + 2*inv.At(0, 1)*d0*d1 + inv.At(1, 1)*d1*d1
				w := w0 * h1 * ws[j%nodes] * math.Exp(logNorm-0.5*quadForm)
				sum[0] += w
				sum[1] += w * d0
				sum[2] += w * d1
				sum[3] += w * d0 * d0
				sum[4] += w * d0 * d1
				sum[5] += w * d1 * d1
			}
		}
	}
	e0, e1 := sum[1]/sum[0], sum[2]/sum[0]
	m = []float64{mean[0] + e0, mean[1] + e1}
	c01 := sum[4]/sum[0] - e0*e1
	c = []float64{sum[3]/sum[0] - e0*e0, c01, c01, sum[5]/sum[0] - e1*e1}
	return math.Log(sum[0]), m, c
}

// quadWedge3 is quadTilted for the wedge a₁ᵀy ≥ 0, a₂ᵀy ≥ 0 in three
// dimensions: the projection d = (a₁ᵀy, a₂ᵀy), N(Aᵀμ, AᵀΣA), is
// integrated on the quadrant by quadTilted, and y, Gaussian given d with
// mean μ + ΣA(AᵀΣA)⁻¹(d − Aᵀμ) and a covariance free of d, takes the
// moments E[y] = μ + ΣAS⁻¹(E[d] − Aᵀμ), Cov[y] = Σ − ΣAS⁻¹(S − Cov[d])S⁻¹AᵀΣ.
func quadWedge3(mean, cov, a1, a2 []float64) (logZ float64, m, c []float64) {
	sig := mat.NewDense(3, 3, slices.Clone(cov))
	a := mat.NewDense(3, 2, []float64{a1[0], a2[0], a1[1], a2[1], a1[2], a2[2]})
	var g, s, md mat.Dense
	g.Mul(sig, a)
	s.Mul(a.T(), &g)
	md.Mul(a.T(), mat.NewDense(3, 1, slices.Clone(mean)))
	lz, dm, dc := quadTilted([]float64{md.At(0, 0), md.At(1, 0)}, []float64{s.At(0, 0), s.At(0, 1), s.At(1, 0), s.At(1, 1)}, [][2]float64{{1, 0}, {0, 1}})
	var sinv, gs mat.Dense
	if err := sinv.Inverse(&s); err != nil {
		panic(err)
	}
	gs.Mul(&g, &sinv)
	var dmean, ym mat.Dense
	dmean.Sub(mat.NewDense(2, 1, dm), &md)
	ym.Mul(&gs, &dmean)
	var shrink, t1, yc mat.Dense
	shrink.Sub(&s, mat.NewDense(2, 2, dc))
	t1.Mul(&gs, &shrink)
	yc.Mul(&t1, gs.T())
	m, c = make([]float64, 3), make([]float64, 9)
	for i := range 3 {
		m[i] = mean[i] + ym.At(i, 0)
		for j := range 3 {
			c[i*3+j] = cov[i*3+j] - yc.At(i, j)
		}
	}
	return lz, m, c
}

// cov2 is the 2×2 covariance of σ₀, σ₁ and correlation ρ.
func cov2(s0, s1, rho float64) []float64 {
	return []float64{s0 * s0, rho * s0 * s1, rho * s0 * s1, s1 * s1}
}

// sameTilted compares tilted moments: log Z to tol absolute, each mean to
// tol of its σ and each covariance to tol of σᵢσⱼ.
func sameTilted(t *testing.T, what string, lz float64, m, c []float64, wlz float64, wm, wc []float64, tol float64) {
	t.Helper()
	k := len(m)
	bad := !(math.Abs(lz-wlz) <= tol)
	for i := range k {
		si := math.Sqrt(wc[i*k+i])
		bad = bad || !(math.Abs(m[i]-wm[i]) <= tol*si)
		for j := range k {
			bad = bad || !(math.Abs(c[i*k+j]-wc[i*k+j]) <= tol*si*math.Sqrt(wc[j*k+j]))
		}
	}
	if bad {
		t.Errorf("%s: log Z %.12g, mean %v, cov %v; quadrature log Z %.12g, mean %v, cov %v", what, lz, m, c, wlz, wm, wc)
	}
}

// Each factor's TiltedMoments against quadrature of the tilted density,
// on cavities typical of a chess model, strongly correlated ones
// (|ρ| ≥ 0.95), ones whose two constraints are nearly collinear, and far
// tails where the factor's region holds about 1e-12 of the cavity's mass
// (log Z near −27.6).
func TestTiltedMomentsAgainstQuadrature(t *testing.T) {
	type tcase struct {
		name      string
		mean, cov []float64
	}
	two := []tcase{
		{"typical", []float64{0.3, 0.5}, cov2(1, 0.2, 0)},
		{"ρ = 0.97", []float64{1, 0.2}, cov2(1, 0.5, 0.97)},
		{"ρ = −0.96", []float64{-0.4, 0.6}, cov2(1.3, 0.4, -0.96)},
		{"ρ = 0.95, narrow margin", []float64{0.2, 0.5}, cov2(2, 0.05, 0.95)},
		{"tail", []float64{-3, 4.034}, cov2(1, 1, 0.5)},
		{"tail, ρ = −0.95", []float64{-4, 1.6}, cov2(1, 0.2, -0.95)},
	}
	exceeds := &ExceedsMargin{}
	for _, c := range two {
		lz, m, cv, err := exceeds.TiltedMoments(c.mean, c.cov)
		if err != nil {
			t.Fatalf("I(x > m), %s: %v", c.name, err)
		}
		wlz, wm, wc := quadTilted(c.mean, c.cov, [][2]float64{{1, -1}})
		sameTilted(t, "I(x > m), "+c.name, lz, m, cv, wlz, wm, wc, 1e-8)
	}
	within := []tcase{
		{"typical", []float64{0.2, 0.5}, cov2(1, 0.2, 0)},
		{"ρ = 0.95", []float64{0.3, 0.6}, cov2(1, 0.2, 0.95)},
		{"ρ = −0.97", []float64{-0.3, 0.5}, cov2(0.8, 0.3, -0.97)},
		{"nearly collinear projections", []float64{0.1, 1}, cov2(10, 0.01, 0)},
		{"tail", []float64{0, -2.7}, cov2(0.3, 0.4, 0.2)},
		{"tail, ρ = 0.96", []float64{0.5, -0.26}, cov2(0.5, 0.3, 0.96)},
	}
	for _, c := range within {
		lz, m, cv, err := (&WithinMargin{}).TiltedMoments(c.mean, c.cov)
		if err != nil {
			t.Fatalf("I(|x| ≤ m), %s: %v", c.name, err)
		}
		wlz, wm, wc := quadTilted(c.mean, c.cov, [][2]float64{{1, 1}, {-1, 1}})
		sameTilted(t, "I(|x| ≤ m), "+c.name, lz, m, cv, wlz, wm, wc, 1e-8)
		if c.name == "tail" && !(wlz < -25) {
			t.Errorf("the tail case holds mass e^%.1f, want about 1e-12", wlz)
		}
	}
	// (x, u, v): correlation built from independent parts so that the
	// covariances are valid, with |ρ| ≥ 0.95 between x and a margin.
	cov3 := func(s []float64, r01, r02, r12 float64) []float64 {
		return []float64{
			s[0] * s[0], r01 * s[0] * s[1], r02 * s[0] * s[2],
			r01 * s[0] * s[1], s[1] * s[1], r12 * s[1] * s[2],
			r02 * s[0] * s[2], r12 * s[1] * s[2], s[2] * s[2]}
	}
	three := []tcase{
		{"typical", []float64{0.1, 0.5, 0.4}, cov3([]float64{1, 0.2, 0.2}, 0, 0, 0)},
		{"ρ(x, u) = −0.95", []float64{0.2, 0.5, 0.6}, cov3([]float64{1, 0.3, 0.2}, -0.95, 0.1, -0.1)},
		{"ρ(x, v) = 0.96", []float64{-0.2, 0.4, 0.5}, cov3([]float64{1, 0.2, 0.3}, 0.1, 0.96, 0.05)},
		{"nearly collinear projections", []float64{0, 1, 1}, cov3([]float64{10, 0.01, 0.01}, 0, 0, 0)},
		{"tail", []float64{0, -2, -2}, cov3([]float64{0.5, 0.3, 0.3}, 0.1, -0.1, 0.2)},
	}
	for _, c := range three {
		lz, m, cv, err := (&BetweenMargins{}).TiltedMoments(c.mean, c.cov)
		if err != nil {
			t.Fatalf("I(−u ≤ x ≤ v), %s: %v", c.name, err)
		}
		wlz, wm, wc := quadWedge3(c.mean, c.cov, []float64{1, 1, 0}, []float64{-1, 0, 1})
		sameTilted(t, "I(−u ≤ x ≤ v), "+c.name, lz, m, cv, wlz, wm, wc, 1e-8)
		if c.name == "tail" && !(wlz < -25) {
			t.Errorf("the tail case holds mass e^%.1f, want about 1e-12", wlz)
		}
	}
}

// Far beyond quadrature's reach, where Z underflows float64: uncorrelated
// projections make the wedge's Z a product of two one-sided truncations,
// Φ(α)Φ(β) (messages.LogNormCDF), and I(x > m)'s is Φ(t); log Z stays
// finite and accurate, the moments finite, and the covariance positive
// definite.
func TestTiltedMomentsFarTails(t *testing.T) {
	// I(|x| ≤ m) with Σ = diag(v, v): the projections m + x and m − x are
	// uncorrelated, each N(μₘ ± μₓ, 2v).
	for _, mu := range [][]float64{{0, -40}, {3, -25}, {-1, -60}} {
		lz, m, c, err := (&WithinMargin{}).TiltedMoments(mu, []float64{1, 0, 0, 1})
		if err != nil {
			t.Fatalf("I(|x| ≤ m) at %v: %v", mu, err)
		}
		want := messages.LogNormCDF((mu[1]+mu[0])/math.Sqrt2) + messages.LogNormCDF((mu[1]-mu[0])/math.Sqrt2)
		if math.Abs(lz-want) > 1e-9*math.Abs(want) || !positiveDefinite(c) || !finiteAll(m) {
			t.Errorf("I(|x| ≤ m) at %v: log Z %v (want %v), mean %v, cov %v", mu, lz, want, m, c)
		}
	}
	for _, mu := range [][]float64{{-30, 10}, {-1e3, 0}} {
		lz, m, c, err := (&ExceedsMargin{}).TiltedMoments(mu, cov2(1, 0.5, 0.6))
		v := 1 + 0.25 - 2*0.6*0.5
		want := messages.LogNormCDF((mu[0] - mu[1]) / math.Sqrt(v))
		if err != nil || math.Abs(lz-want) > 1e-12*math.Abs(want) || !finiteAll(m) || !finiteAll(c) {
			t.Errorf("I(x > m) at %v: log Z %v (want %v), mean %v, cov %v, %v", mu, lz, want, m, c, err)
		}
	}
}

// A margin whose variance is 1e-18 of x's: the wedge's two combinations
// m ± x have a correlation that rounds to −1, and the tilted x is the
// two-sided truncation of N(0.2, 1) to [−0.7, 0.7], in closed form: with
// a = −0.9, b = 0.5, Z = Φ(b) − Φ(a), E[x] = 0.2 + (φ(a) − φ(b))/Z,
// Var[x] = 1 + (aφ(a) − bφ(b))/Z − ((φ(a) − φ(b))/Z)².
func TestTiltedMomentsCollinearInFloat64(t *testing.T) {
	phi := func(z float64) float64 { return math.Exp(-z*z/2) / math.Sqrt(2*math.Pi) }
	cdf := func(z float64) float64 { return 0.5 * math.Erfc(-z/math.Sqrt2) }
	a, b := -0.9, 0.5
	z := cdf(b) - cdf(a)
	d := (phi(a) - phi(b)) / z
	wantMean, wantVar := 0.2+d, 1+(a*phi(a)-b*phi(b))/z-d*d
	lz, m, c, err := (&WithinMargin{}).TiltedMoments([]float64{0.2, 0.7}, cov2(1, 1e-9, 0))
	if err != nil || math.Abs(lz-math.Log(z)) > 1e-12 || math.Abs(m[0]-wantMean) > 1e-12 || math.Abs(c[0]/wantVar-1) > 1e-9 || math.Abs(m[1]-0.7) > 1e-9 {
		t.Errorf("log Z %v (want %v), mean %v (want x %v), cov %v (want Var x %v), %v", lz, math.Log(z), m, wantMean, c, wantVar, err)
	}
}

func finiteAll(x []float64) bool {
	return !slices.ContainsFunc(x, func(v float64) bool { return !messages.IsFinite(v) })
}

func positiveDefinite(c []float64) bool {
	var ch mat.Cholesky
	k := int(math.Sqrt(float64(len(c))))
	return ch.Factorize(mat.NewSymDense(k, slices.Clone(c)))
}

// With a diagonal cavity the joint tilted distribution's marginals are the
// per-edge ones of Message (a check of the two forms against each other;
// both are checked against quadrature on their own).
func TestTiltedMomentsDiagonalMatchPerEdge(t *testing.T) {
	x, u, v := messages.NewGaussian(0.3, 1.2), messages.NewGaussian(0.5, 0.05), messages.NewGaussian(0.4, 0.03)
	r, err := (&BetweenMargins{}).tilted(x, u, v)
	if err != nil {
		t.Fatal(err)
	}
	lz, m, c, err := (&BetweenMargins{}).TiltedMoments([]float64{0.3, 0.5, 0.4}, []float64{1.2, 0, 0, 0, 0.05, 0, 0, 0, 0.03})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if math.Abs(m[i]-r.mean[i]) > 1e-9 || math.Abs(c[i*4]/r.variance[i]-1) > 1e-9 {
			t.Errorf("edge %d: joint N(%v, %v), per edge N(%v, %v)", i, m[i], c[i*4], r.mean[i], r.variance[i])
		}
	}
	if math.Abs(lz-r.logZ) > 1e-9 {
		t.Errorf("log Z: joint %v, per edge %v", lz, r.logZ)
	}
}

// Invalid and degenerate joint cavities are errors, never NaN.
func TestTiltedMomentsErrors(t *testing.T) {
	nan := math.NaN()
	type tilted interface {
		TiltedMoments(mean, cov []float64) (float64, []float64, []float64, error)
	}
	cases := []struct {
		name      string
		f         tilted
		mean, cov []float64
		want      error
	}{
		{"short mean", &ExceedsMargin{}, []float64{0}, cov2(1, 1, 0), ErrParameter},
		{"short covariance", &WithinMargin{}, []float64{0, 0}, []float64{1, 0, 1}, ErrParameter},
		{"NaN mean", &ExceedsMargin{}, []float64{nan, 0}, cov2(1, 1, 0), ErrParameter},
		{"negative variance", &WithinMargin{}, []float64{0, 1}, []float64{-1, 0, 0, 1}, ErrParameter},
		{"asymmetric", &WithinMargin{}, []float64{0, 1}, []float64{1, 0.5, 0.2, 1}, ErrParameter},
		{"|ρ| > 1", &ExceedsMargin{}, []float64{0, 1}, []float64{1, 2, 2, 1}, ErrParameter},
		{"infinite covariance", &BetweenMargins{}, []float64{0, 1, 1}, []float64{1, 0, 0, 0, math.Inf(1), 0, 0, 0, 1}, ErrParameter},
		{"x − m fixed below 0", &ExceedsMargin{}, []float64{0, 1}, []float64{1, 1, 1, 1}, ErrImpossible},
		{"m ± x collinear", &WithinMargin{}, []float64{0, 1}, []float64{1, 0, 0, 0}, ErrParameter},
		{"beyond float64", &ExceedsMargin{}, []float64{-1e300, 1e300}, cov2(1, 1, 0), ErrImpossible},
	}
	for _, c := range cases {
		lz, m, cv, err := c.f.TiltedMoments(c.mean, c.cov)
		if !errors.Is(err, c.want) || lz != 0 || m != nil || cv != nil {
			t.Errorf("%s: %v, %v, %v, %v; want %v", c.name, lz, m, cv, err, c.want)
		}
	}
	// A cavity that fixes x − m above 0 leaves it unchanged.
	lz, m, c, err := (&ExceedsMargin{}).TiltedMoments([]float64{2, 1}, []float64{1, 1, 1, 1})
	if err != nil || lz != 0 || !slices.Equal(m, []float64{2, 1}) || !slices.Equal(c, []float64{1, 1, 1, 1}) {
		t.Errorf("fixed x − m = 1: %v, %v, %v, %v", lz, m, c, err)
	}
}

// FuzzTiltedMoments draws a joint cavity over (x, u, v) (means, log σ and
// correlations in (−1, 1) made valid through a Cholesky factor) and
// checks every factor's TiltedMoments: an error or finite moments whose
// covariance is positive definite and, the regions being convex, no
// wider than the cavity's in any edge, and a mean inside the region, up
// to a rounding that grows with the distance the mean moves.
func FuzzTiltedMoments(f *testing.F) {
	f.Add(0.0, 0.5, 0.5, 0.0, -1.0, -1.0, 0.0, 0.0, 0.0)
	f.Add(-20.0, 1.0, 1.0, 2.0, -3.0, -3.0, 0.9, -0.9, 0.5)
	f.Add(3.0, -30.0, 0.0, 0.0, 0.0, 0.0, -0.99, 0.99, 0.0)
	f.Fuzz(func(t *testing.T, mx, mu, mv, lx, lu, lv, c01, c02, c12 float64) {
		in := []float64{mx, mu, mv, lx, lu, lv, c01, c02, c12}
		if slices.ContainsFunc(in, func(x float64) bool { return !messages.IsFinite(x) }) ||
			math.Abs(mx)+math.Abs(mu)+math.Abs(mv) > 1e4 || math.Abs(lx)+math.Abs(lu)+math.Abs(lv) > 20 {
			return
		}
		// L lower triangular with positive diagonal: Σ = LLᵀ.
		s := []float64{math.Exp(lx), math.Exp(lu), math.Exp(lv)}
		l := []float64{s[0], 0, 0, math.Tanh(c01) * s[1], s[1], 0, math.Tanh(c02) * s[2], math.Tanh(c12) * s[2], s[2]}
		cov := make([]float64, 9)
		for i := range 3 {
			for j := range 3 {
				for p := range 3 {
					cov[i*3+j] += l[i*3+p] * l[j*3+p]
				}
			}
		}
		sub := func(n int) []float64 {
			c := make([]float64, n*n)
			for i := range n {
				for j := range n {
					c[i*n+j] = cov[i*3+j]
				}
			}
			return c
		}
		mean := []float64{mx, mu, mv}
		type tilted interface {
			TiltedMoments(mean, cov []float64) (float64, []float64, []float64, error)
		}
		for _, c := range []struct {
			f      tilted
			k      int
			inside func(y []float64) bool
		}{
			{&ExceedsMargin{}, 2, func(y []float64) bool { return y[0]-y[1] >= 0 }},
			{&WithinMargin{}, 2, func(y []float64) bool { return y[1]-math.Abs(y[0]) >= 0 }},
			{&BetweenMargins{}, 3, func(y []float64) bool { return y[0]+y[1] >= 0 && y[2]-y[0] >= 0 }},
		} {
			cv := sub(c.k)
			lz, m, pc, err := c.f.TiltedMoments(mean[:c.k], cv)
			if err != nil {
				if lz != 0 || m != nil || pc != nil {
					t.Fatalf("%T at %v, %v: error %v with values", c.f, mean[:c.k], cv, err)
				}
				continue
			}
			ok := messages.IsFinite(lz) && lz <= 0 && finiteAll(m) && positiveDefinite(pc)
			// Rounding grows with how far the truncation moves the mean,
			// in the cavity's σ.
			move := 0.0
			for i := range c.k {
				move = math.Max(move, math.Abs(m[i]-mean[i])/math.Sqrt(cv[i*c.k+i]))
			}
			tol := 1e-9 * (1 + move)
			for i := range c.k {
				ok = ok && pc[i*c.k+i] <= cv[i*c.k+i]*(1+tol)
			}
			// The mean of a convex region's distribution lies in it, up to
			// that rounding.
			if !c.inside(m) {
				near := false
				for i := range c.k {
					for _, d := range []float64{-1, 1} {
						y := slices.Clone(m)
						y[i] += d * tol * (math.Abs(m[i]) + math.Sqrt(cv[i*c.k+i]))
						near = near || c.inside(y)
					}
				}
				ok = ok && near
			}
			if !ok {
				t.Fatalf("%T at %v, %v: log Z %v, mean %v, cov %v", c.f, mean[:c.k], cv, lz, m, pc)
			}
		}
	})
}
