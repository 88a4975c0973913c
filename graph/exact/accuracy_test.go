package exact_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/exact"
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/schedules"
)

// sampled is a posterior known through weighted draws.
type sampled struct {
	theta [][]float64
	w     []float64 // normalised weights
	logZ  float64
}

// importance samples the density exp(logp(θ)) on R^dim (logp normalised
// as the model's evidence is), from the prior means start: the proposal is
// a Gaussian at its mode with 1.3 times the covariance of Laplace's
// approximation there (the inverse Hessian of −logp), and n draws from a
// fixed seed. The posteriors here are close to Gaussian: 1.3 keeps the
// proposal wider than the posterior in every direction, and the
// effective sample size near 70 % in eleven dimensions, where twice the
// covariance leaves 20 %. It checks that the effective sample size is at
// least 20 % of n.
func importance(t *testing.T, logp func([]float64) float64, start []float64, n int) *sampled {
	t.Helper()
	dim := len(start)
	neg := func(x []float64) float64 { return -logp(x) }
	res, err := optimize.Minimize(optimize.Problem{
		Func: neg,
		Grad: func(g, x []float64) { fd.Gradient(g, neg, x, &fd.Settings{Formula: fd.Central}) },
	}, start, nil, &optimize.BFGS{})
	if err != nil && res == nil {
		t.Fatal(err)
	}
	h := mat.NewSymDense(dim, nil)
	fd.Hessian(h, neg, res.X, nil)
	var hc mat.Cholesky
	if !hc.Factorize(h) {
		t.Fatal("Hessian at the mode not positive definite")
	}
	cov := mat.NewSymDense(dim, nil)
	if err := hc.InverseTo(cov); err != nil {
		t.Fatal(err)
	}
	cov.ScaleSym(1.3, cov)
	var cc mat.Cholesky
	if !cc.Factorize(cov) {
		t.Fatal("proposal covariance not positive definite")
	}
	var l mat.TriDense
	cc.LTo(&l)
	logDet := cc.LogDet()
	rng := rand.New(rand.NewPCG(11, 13))
	s := &sampled{theta: make([][]float64, n), w: make([]float64, n)}
	u := make([]float64, dim)
	top := math.Inf(-1)
	for k := range n {
		x := append([]float64(nil), res.X...)
		q := 0.0
		for i := range u {
			u[i] = rng.NormFloat64()
			q += u[i] * u[i]
		}
		for i := range dim {
			for j := 0; j <= i; j++ {
				x[i] += l.At(i, j) * u[j]
			}
		}
		logq := -0.5*q - 0.5*logDet - 0.5*float64(dim)*math.Log(2*math.Pi)
		s.theta[k], s.w[k] = x, logp(x)-logq
		top = max(top, s.w[k])
	}
	sum, sum2 := 0.0, 0.0
	for k := range s.w {
		s.w[k] = math.Exp(s.w[k] - top)
		sum += s.w[k]
		sum2 += s.w[k] * s.w[k]
	}
	for k := range s.w {
		s.w[k] /= sum
	}
	s.logZ = top + math.Log(sum/float64(n))
	if ess := sum * sum / sum2; ess < 0.2*float64(n) {
		t.Fatalf("importance sampling: effective sample size %.0f of %d", ess, n)
	}
	return s
}

// sigmaError returns the Monte-Carlo standard error of the σ of f(θ):
// the standard deviation of its estimates on the given number of
// contiguous batches of the draws (each batch's weights normalised on
// their own) over √batches.
func (s *sampled) sigmaError(f func([]float64) float64, batches int) float64 {
	n := len(s.w) / batches
	var sum, sum2 float64
	for b := range batches {
		part := &sampled{theta: s.theta[b*n : (b+1)*n], w: make([]float64, n)}
		total := 0.0
		for k := range n {
			total += s.w[b*n+k]
		}
		for k := range n {
			part.w[k] = s.w[b*n+k] / total
		}
		_, sg := part.moments(f)
		sum += sg
		sum2 += sg * sg
	}
	mean := sum / float64(batches)
	return math.Sqrt((sum2/float64(batches) - mean*mean) / float64(batches-1))
}

// moments returns the weighted mean and standard deviation of f(θ).
func (s *sampled) moments(f func([]float64) float64) (mean, sigma float64) {
	m2 := 0.0
	for k, x := range s.theta {
		y := f(x)
		mean += s.w[k] * y
		m2 += s.w[k] * y * y
	}
	return mean, math.Sqrt(m2 - mean*mean)
}

// target is a variable of a model with its exact posterior mean and σ,
// and the relative error of σ allowed joint EP, if not 3 %.
type target struct {
	name        string
	v           graph.VarID
	mean, sigma float64
	tol         float64
}

// errorsOf returns the largest relative error of σ, signed, with the
// variable's name, and the largest error of a mean in units of σ, over
// the targets.
func errorsOf(marginal func(graph.VarID) messages.Gaussian, ts []target) (sigmaErr float64, worst string, meanErr float64) {
	for _, x := range ts {
		m := marginal(x.v)
		if e := m.Sigma()/x.sigma - 1; math.Abs(e) > math.Abs(sigmaErr) {
			sigmaErr, worst = e, x.name
		}
		meanErr = max(meanErr, math.Abs(m.Mean()-x.mean)/x.sigma)
	}
	return sigmaErr, worst, meanErr
}

// compare runs joint EP and loopy EP (schedules.Derive) on g and checks
// joint EP's σ within 3 % of every target's (or its tol) and its mean
// within 5 % of σ,
// and its log evidence within tol nats of logZ; it logs both methods'
// errors and returns joint EP's solution.
func compare(t *testing.T, model string, g *graph.Graph, ts []target, logZ, tol float64) *exact.Solution {
	t.Helper()
	sol, err := exact.EP(context.Background(), g, exact.Tolerance(1e-9))
	if err != nil {
		t.Fatal(err)
	}
	if !sol.Converged || sol.EvidenceErr != nil {
		t.Fatalf("%s: converged %v, evidence error %v", model, sol.Converged, sol.EvidenceErr)
	}
	s, err := schedules.Derive(g, schedules.WithLoop(schedules.Tolerance(1e-9), schedules.MaxIterations(10000)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := schedules.Run(context.Background(), g, s); err != nil {
		t.Fatal(err)
	}
	loopyLogZ, err := g.LogEvidence()
	if err != nil {
		t.Fatal(err)
	}
	jointSigma, jointWorst, jointMean := errorsOf(func(v graph.VarID) messages.Gaussian { return sol.Marginals[v] }, ts)
	loopySigma, loopyWorst, loopyMean := errorsOf(g.Marginal, ts)
	t.Logf("%s | loopy EP: σ error %+.1f %% (%s), mean error %.3f σ, log evidence error %+.3f | joint EP (%d sweeps): σ error %+.1f %% (%s), mean error %.3f σ, log evidence error %+.4f",
		model, 100*loopySigma, loopyWorst, loopyMean, loopyLogZ-logZ, sol.Sweeps, 100*jointSigma, jointWorst, jointMean, sol.LogEvidence-logZ)
	for _, x := range ts {
		m := sol.Marginals[x.v]
		tol := 0.03
		if x.tol > 0 {
			tol = x.tol
		}
		if math.Abs(m.Sigma()/x.sigma-1) > tol || math.Abs(m.Mean()-x.mean) > 0.05*x.sigma {
			t.Errorf("%s: %s: joint EP N(%.4f, %.4f²), exact N(%.4f, %.4f²)", model, x.name, m.Mean(), m.Sigma(), x.mean, x.sigma)
		}
	}
	if math.Abs(sol.LogEvidence-logZ) > tol {
		t.Errorf("%s: log evidence: joint EP %.4f, exact %.4f", model, sol.LogEvidence, logZ)
	}
	return sol
}

// chessGame is a game's players and its outcome: 1 white wins, −1 black
// wins, 0 a draw.
type chessGame struct{ white, black, outcome int }

// chessGames draws n games between random pairs of players of the given
// skills and draw margins: with x = white's performance − black's + 0.3
// (the advantage of white), each performance of variance beta2, white
// wins when x > black's margin, black when −x > white's, and otherwise
// the game is drawn.
func chessGames(rng *rand.Rand, skill, margin []float64, beta2 float64, n int) []chessGame {
	rs := make([]chessGame, n)
	for k := range rs {
		perm := rng.Perm(len(skill))
		x := skill[perm[0]] - skill[perm[1]] + 0.3 + math.Sqrt(2*beta2)*rng.NormFloat64()
		rs[k] = chessGame{white: perm[0], black: perm[1]}
		switch {
		case x > margin[perm[1]]:
			rs[k].outcome = 1
		case -x > margin[perm[0]]:
			rs[k].outcome = -1
		}
	}
	return rs
}

// chessGraph builds the chess model of the games rs: the players' skills
// N(0, 1), white's advantage a ~ N(0, 0.5²), and for each game k the
// players' performances of variance beta2 and x, their difference
// oriented to the winner (white's − black's + a, the negative for a win
// by black), on which outcome adds the factors of the result.
func chessGraph(t testing.TB, players int, beta2 float64, rs []chessGame, outcome func(b *graph.Builder, k int, r chessGame, x graph.VarID)) (g *graph.Graph, skill []graph.VarID, white graph.VarID) {
	b := graph.NewBuilder("chess")
	skill = make([]graph.VarID, players)
	for i := range skill {
		skill[i] = b.AddVariable(fmt.Sprintf("s%d", i))
		b.AddFactor(factors.NewPrior(0, 1), "", skill[i])
	}
	white = b.AddVariable("white")
	b.AddFactor(factors.NewPrior(0, 0.25), "", white)
	for k, r := range rs {
		pw, pb, x := b.AddVariable(fmt.Sprintf("pw%d", k)), b.AddVariable(fmt.Sprintf("pb%d", k)), b.AddVariable(fmt.Sprintf("x%d", k))
		b.AddFactor(factors.NewLikelihood(beta2), "", pw, skill[r.white])
		b.AddFactor(factors.NewLikelihood(beta2), "", pb, skill[r.black])
		if r.outcome == -1 {
			b.AddFactor(factors.NewWeightedSum(1, -1, -1), "", x, pb, pw, white)
		} else {
			b.AddFactor(factors.NewWeightedSum(1, -1, 1), "", x, pw, pb, white)
		}
		outcome(b, k, r, x)
	}
	return build(t, b), skill, white
}

// loser returns the player who lost game r, which was not drawn.
func loser(r chessGame) int {
	if r.outcome == 1 {
		return r.black
	}
	return r.white
}

// Chess (Dangauthier et al. 2007): five players' skills N(0, 1), one
// advantage of playing white N(0, 0.5²), performances of variance
// β² = 0.5, and 30 games of random pairs whose results (white wins,
// black wins, draws within the margin ε) are drawn from the model. With
// the performances integrated out the posterior is over six numbers:
// P(white wins) = Φ((s_w − s_b + a − ε)/√(2β²)), and a draw the mass of
// (−ε, ε). Importance sampling of it is the exact answer.
func TestEPChess(t *testing.T) {
	const players, games, beta2, eps = 5, 30, 0.5, 0.4
	rng := rand.New(rand.NewPCG(3, 4))
	truth, margin := make([]float64, players), make([]float64, players)
	for i := range truth {
		truth[i], margin[i] = rng.NormFloat64(), eps
	}
	rs := chessGames(rng, truth, margin, beta2, games)
	g, skill, white := chessGraph(t, players, beta2, rs, func(b *graph.Builder, k int, r chessGame, x graph.VarID) {
		if r.outcome == 0 {
			b.AddFactor(factors.NewWithin(eps), "", x)
		} else {
			b.AddFactor(factors.NewGreaterThan(eps), "", x)
		}
	})
	sd := math.Sqrt(2 * beta2)
	logp := func(x []float64) float64 {
		l := -0.5*x[players]*x[players]/0.25 - 0.5*math.Log(2*math.Pi*0.25)
		for i := range players {
			l += -0.5*x[i]*x[i] - 0.5*math.Log(2*math.Pi)
		}
		for _, r := range rs {
			mu := x[r.white] - x[r.black] + x[players]
			switch r.outcome {
			case 1:
				l += math.Log(messages.NormCDF((mu - eps) / sd))
			case -1:
				l += math.Log(messages.NormCDF((-mu - eps) / sd))
			default:
				l += math.Log(messages.NormCDF((eps-mu)/sd) - messages.NormCDF((-eps-mu)/sd))
			}
		}
		return l
	}
	s := importance(t, logp, make([]float64, players+1), 50000)
	var ts []target
	for i, v := range append(skill, white) {
		m, sg := s.moments(func(x []float64) float64 { return x[i] })
		ts = append(ts, target{g.VariableName(v), v, m, sg, 0})
	}
	compare(t, "chess, 5 players, 30 games, white advantage, draw margin", g, ts, s.logZ, 0.02)
}

// margin is a user's margin-of-victory factor, as a user writes one: the
// home side's winning margin m ~ N(h − a + home, σ²), edges (h, a, home),
// with its Gaussian message on each edge from the cavities of the other
// two and its evidence. It has no linear form; withForm adds one.
type margin struct{ value, variance float64 }

func (margin) Arity() int { return 3 }

var marginSign = [3]float64{1, -1, 1}

func (f margin) Message(i int, e graph.Edges) (messages.Gaussian, error) {
	mean, variance := f.value, f.variance
	for j := range 3 {
		if j == i {
			continue
		}
		c := e.Cavity(j)
		if !c.IsProper() {
			return messages.Gaussian{}, nil
		}
		mean -= marginSign[j] * c.Mean()
		variance += c.Variance()
	}
	return messages.NewGaussian(marginSign[i]*mean, variance), nil
}

func (f margin) LogAverageFactor(e graph.Edges) (float64, error) {
	mean, variance := 0.0, f.variance
	for j := range 3 {
		c := e.Cavity(j)
		mean += marginSign[j] * c.Mean()
		variance += c.Variance()
	}
	return messages.NewGaussian(mean, variance).LogAverageOf(messages.PointMass(f.value)), nil
}

type withForm struct{ margin }

func (f withForm) LinearForm() ([]float64, float64, float64) {
	return marginSign[:], f.value, f.variance
}

// A user's margin-of-victory factor: four teams N(0, 6²), a home
// advantage N(0, 3²) and twelve matches (each team at home to each
// other), margins drawn from the model. The model is linear-Gaussian: the
// exact posterior is the Gaussian with precision P₀ + Σ aaᵀ/σ², here
// computed densely. With the factor's linear form joint EP is exact; the
// same factor without one is refined through its messages like any other,
// its three variables seeing their marginal cavities.
func TestEPUserMarginOfVictory(t *testing.T) {
	const teams, variance = 4, 16.0
	rng := rand.New(rand.NewPCG(5, 8))
	truth := make([]float64, teams)
	for i := range truth {
		truth[i] = 6 * rng.NormFloat64()
	}
	type match struct {
		home, away int
		margin     float64
	}
	var ms []match
	for h := range teams {
		for a := range teams {
			if h != a {
				ms = append(ms, match{h, a, truth[h] - truth[a] + 2 + 4*rng.NormFloat64()})
			}
		}
	}
	// Exact: precision P and linear term b of the Gaussian over
	// (teams…, home).
	n := teams + 1
	prec := mat.NewSymDense(n, nil)
	lin := mat.NewVecDense(n, nil)
	for i := range teams {
		prec.SetSym(i, i, 1.0/36)
	}
	prec.SetSym(teams, teams, 1.0/9)
	for _, m := range ms {
		idx := []int{m.home, m.away, teams}
		for p, i := range idx {
			lin.SetVec(i, lin.AtVec(i)+marginSign[p]*m.margin/variance)
			for q, j := range idx {
				if i <= j {
					prec.SetSym(i, j, prec.At(i, j)+marginSign[p]*marginSign[q]/variance)
				}
			}
		}
	}
	var ch mat.Cholesky
	if !ch.Factorize(prec) {
		t.Fatal("not positive definite")
	}
	cov := mat.NewSymDense(n, nil)
	if err := ch.InverseTo(cov); err != nil {
		t.Fatal(err)
	}
	var mean mat.VecDense
	mean.MulVec(cov, lin)
	// log Z = log N(y; 0, S) for the margins y = Ax + noise, S = AP₀⁻¹Aᵀ + σ²I.
	a := mat.NewDense(len(ms), n, nil)
	y := mat.NewVecDense(len(ms), nil)
	for r, m := range ms {
		a.Set(r, m.home, 1)
		a.Set(r, m.away, -1)
		a.Set(r, teams, 1)
		y.SetVec(r, m.margin)
	}
	p0 := mat.NewDiagDense(n, nil)
	for i := range teams {
		p0.SetDiag(i, 36)
	}
	p0.SetDiag(teams, 9)
	var ap, sm mat.Dense
	ap.Mul(a, p0)
	sm.Mul(&ap, a.T())
	for r := range ms {
		sm.Set(r, r, sm.At(r, r)+variance)
	}
	var sc mat.Cholesky
	if !sc.Factorize(mat.NewSymDense(len(ms), sm.RawMatrix().Data)) {
		t.Fatal("S not positive definite")
	}
	var sy mat.VecDense
	if err := sc.SolveVecTo(&sy, y); err != nil {
		t.Fatal(err)
	}
	logZ := -0.5*mat.Dot(y, &sy) - 0.5*sc.LogDet() - 0.5*float64(len(ms))*math.Log(2*math.Pi)

	for _, linear := range []bool{true, false} {
		b := graph.NewBuilder("margins")
		vars := make([]graph.VarID, n)
		for i := range teams {
			vars[i] = b.AddVariable(fmt.Sprintf("team%d", i))
			b.AddFactor(factors.NewPrior(0, 36), "", vars[i])
		}
		vars[teams] = b.AddVariable("home")
		b.AddFactor(factors.NewPrior(0, 9), "", vars[teams])
		for _, m := range ms {
			f := margin{m.margin, variance}
			if linear {
				b.AddFactor(withForm{f}, "", vars[m.home], vars[m.away], vars[teams])
			} else {
				b.AddFactor(f, "", vars[m.home], vars[m.away], vars[teams])
			}
		}
		g := build(t, b)
		var ts []target
		for i, v := range vars {
			ts = append(ts, target{g.VariableName(v), v, mean.AtVec(i), math.Sqrt(cov.At(i, i)), 0})
		}
		if linear {
			compare(t, "user margin-of-victory factor, 4 teams, 12 matches (with its linear form)", g, ts, logZ, 1e-9)
			continue
		}
		// Without its linear form the factor is refined through its
		// messages, and the answer is EP's, not exact: its errors are
		// reported, not held to 3 %.
		sol, err := exact.EP(context.Background(), g, exact.Tolerance(1e-9))
		if err != nil {
			t.Fatal(err)
		}
		se, worst, me := errorsOf(func(v graph.VarID) messages.Gaussian { return sol.Marginals[v] }, ts)
		t.Logf("user margin-of-victory factor without its linear form | joint EP (%d sweeps, converged %v): σ error %+.1f %% (%s), mean error %.3f σ, log evidence error %+.3f",
			sol.Sweeps, sol.Converged, 100*se, worst, me, sol.LogEvidence-logZ)
	}
}

// eraLeague is a round robin of six teams in the TrueSkill model (skill
// priors N(25, (25/3)²), performances of β = 25/6, the winner's exceeding
// the loser's by ε) with, if era, a shared offset e ~ N(0, 5²) added to
// every team's skill: s_i = t_i + e. Every game sees a difference of two
// skills, from which e cancels, so its posterior is its prior N(0, 5²),
// independent of the t_i, and the evidence is that of the model without
// it.
func eraLeague(t *testing.T, era bool) (g *graph.Graph, team []graph.VarID, eraVar graph.VarID, skill []graph.VarID, winners [][2]int) {
	const teams, eps = 6, 0.5
	beta2 := math.Pow(25.0/6, 2)
	rng := rand.New(rand.NewPCG(9, 10))
	truth := make([]float64, teams)
	for i := range truth {
		truth[i] = 25 + 25.0/3*rng.NormFloat64()
	}
	for i := range teams {
		for j := i + 1; j < teams; j++ {
			d := truth[i] - truth[j] + math.Sqrt(2*beta2)*rng.NormFloat64()
			if d > 0 {
				winners = append(winners, [2]int{i, j})
			} else {
				winners = append(winners, [2]int{j, i})
			}
		}
	}
	b := graph.NewBuilder("era")
	team, skill = make([]graph.VarID, teams), make([]graph.VarID, teams)
	eraVar = -1
	if era {
		eraVar = b.AddVariable("era")
		b.AddFactor(factors.NewPrior(0, 25), "", eraVar)
	}
	for i := range team {
		team[i] = b.AddVariable(fmt.Sprintf("t%d", i))
		b.AddFactor(factors.NewPrior(25, math.Pow(25.0/3, 2)), "", team[i])
		skill[i] = team[i]
		if era {
			skill[i] = b.AddVariable(fmt.Sprintf("s%d", i))
			b.AddFactor(factors.NewWeightedSum(1, 1), "", skill[i], team[i], eraVar)
		}
	}
	for k, w := range winners {
		pw, pl, d := b.AddVariable(fmt.Sprintf("pw%d", k)), b.AddVariable(fmt.Sprintf("pl%d", k)), b.AddVariable(fmt.Sprintf("d%d", k))
		b.AddFactor(factors.NewLikelihood(beta2), "", pw, skill[w[0]])
		b.AddFactor(factors.NewLikelihood(beta2), "", pl, skill[w[1]])
		b.AddFactor(factors.NewDifference(), "", d, pw, pl)
		b.AddFactor(factors.NewGreaterThan(eps), "", d)
	}
	return build(t, b), team, eraVar, skill, winners
}

// The era model against importance sampling of the teams' posterior (the
// era's is its prior, exactly): σ of every team, skill and the era within
// 3 %, and the evidence that of the model without the era, which cannot
// change it.
func TestEPEraOffset(t *testing.T) {
	const eps = 0.5
	g, team, era, skill, winners := eraLeague(t, true)
	sd := math.Sqrt(2) * 25.0 / 6
	v0 := math.Pow(25.0/3, 2)
	logp := func(x []float64) float64 {
		l := 0.0
		for _, xi := range x {
			l += -0.5*(xi-25)*(xi-25)/v0 - 0.5*math.Log(2*math.Pi*v0)
		}
		for _, w := range winners {
			l += math.Log(messages.NormCDF((x[w[0]] - x[w[1]] - eps) / sd))
		}
		return l
	}
	start := make([]float64, len(team))
	for i := range start {
		start[i] = 25
	}
	s := importance(t, logp, start, 50000)
	ts := []target{{"era", era, 0, 5, 0}}
	for i := range team {
		m, sg := s.moments(func(x []float64) float64 { return x[i] })
		ts = append(ts, target{g.VariableName(team[i]), team[i], m, sg, 0},
			target{g.VariableName(skill[i]), skill[i], m, math.Sqrt(sg*sg + 25), 0})
	}
	sol := compare(t, "six-team round robin with a shared era offset", g, ts, s.logZ, 0.02)
	if e := sol.Marginals[era]; math.Abs(e.Sigma()/5-1) > 0.03 {
		t.Errorf("era σ %v, want 5", e.Sigma())
	}

	plain, _, _, _, _ := eraLeague(t, false)
	without, err := exact.EP(context.Background(), plain, exact.Tolerance(1e-9))
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(sol.LogEvidence-without.LogEvidence) > 1e-6 {
		t.Errorf("log evidence with the era %v, without %v", sol.LogEvidence, without.LogEvidence)
	}
	loopy := func(g *graph.Graph) float64 {
		s, err := schedules.Derive(g, schedules.WithLoop(schedules.Tolerance(1e-9), schedules.MaxIterations(10000)))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := schedules.Run(context.Background(), g, s); err != nil {
			t.Fatal(err)
		}
		l, err := g.LogEvidence()
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	t.Logf("era: loopy EP's era σ %.3f, its log evidence moved by %+.3f by the era; joint EP's era σ %.4f, moved by %+.2g",
		g.Marginal(era).Sigma(), loopy(g)-loopy(plain), sol.Marginals[era].Sigma(), sol.LogEvidence-without.LogEvidence)
}

// Chess with a draw margin per player, as in Dangauthier et al. (2007):
// the model of TestEPChess, but player i has a margin m_i ~ N(0.5, 0.2²)
// and, with x = white's performance − black's + a, white wins when
// x > m_black (factors.ExceedsMargin), black when −x > m_white, and the
// game is drawn when −m_white ≤ x ≤ m_black (factors.BetweenMargins).
// These factors implement exact.Tilted: each gets one joint site over its
// two or three variables, refined at their joint cavity, and every σ,
// the margins' included, is held to 3 %. Written instead as linear
// differences and a truncation at 0 of each (x − m_black > 0;
// −x − m_white > 0; a draw as x + m_white > 0 and m_black − x > 0), every
// site is on one variable whose cavity joint EP has exactly, but a draw
// is then two one-dimensional sites on correlated directions, whose
// product cannot hold the tilted distribution's shape on the wedge: the
// skills and the advantage are held to 3 % and the margins to 5 %.
// Importance sampling is over eleven numbers: skills, margins and the
// advantage, the performances integrated out; its Monte-Carlo standard
// error of each σ, from the spread over batches of draws, must be under
// 0.5 %, so that a 3 % error is the method's.
func TestEPChessPlayerMargins(t *testing.T) {
	const players, games, beta2, m0, vm = 5, 30, 0.5, 0.5, 0.04
	rng := rand.New(rand.NewPCG(3, 5))
	truth, margin := make([]float64, players), make([]float64, players)
	for i := range truth {
		truth[i], margin[i] = rng.NormFloat64(), m0+math.Sqrt(vm)*rng.NormFloat64()
	}
	rs := chessGames(rng, truth, margin, beta2, games)
	sd := math.Sqrt(2 * beta2)
	// θ = (skills, margins, advantage).
	logp := func(th []float64) float64 {
		a := th[2*players]
		l := -0.5*a*a/0.25 - 0.5*math.Log(2*math.Pi*0.25)
		for i := range players {
			s, m := th[i], th[players+i]
			l += -0.5*s*s - 0.5*math.Log(2*math.Pi) - 0.5*(m-m0)*(m-m0)/vm - 0.5*math.Log(2*math.Pi*vm)
		}
		for _, r := range rs {
			mu := th[r.white] - th[r.black] + a
			mw, mb := th[players+r.white], th[players+r.black]
			switch r.outcome {
			case 1:
				l += math.Log(messages.NormCDF((mu - mb) / sd))
			case -1:
				l += math.Log(messages.NormCDF((-mu - mw) / sd))
			default:
				l += math.Log(max(0, messages.NormCDF((mb-mu)/sd)-messages.NormCDF((-mw-mu)/sd)))
			}
		}
		return l
	}
	start := make([]float64, 2*players+1)
	for i := range players {
		start[players+i] = m0
	}
	s := importance(t, logp, start, 200000)
	for i := range start {
		coord := func(x []float64) float64 { return x[i] }
		_, sg := s.moments(coord)
		se := s.sigmaError(coord, 8)
		if se > 0.005*sg {
			t.Errorf("importance sampling: σ of coordinate %d %.4f ± %.4f, more than 0.5 %%", i, sg, se)
		}
	}
	for _, linear := range []bool{false, true} {
		chessPlayerMargins(t, linear, players, beta2, m0, vm, rs, s)
	}
}

func chessPlayerMargins(t *testing.T, linear bool, players int, beta2, m0, vm float64, rs []chessGame, s *sampled) {
	g, skill, marg, white := chessMarginsGraph(t, linear, players, beta2, m0, vm, rs)
	var ts []target
	for i, v := range append(append(skill, marg...), white) {
		m, sg := s.moments(func(x []float64) float64 { return x[i] })
		var tol float64
		if linear && i >= players && i < 2*players {
			tol = 0.05 // a margin, its draws split into two sites
		}
		ts = append(ts, target{g.VariableName(v), v, m, sg, tol})
	}
	model := "chess, 5 players, 30 games, white advantage, a draw margin per player (ExceedsMargin, BetweenMargins: joint sites)"
	logZTol := 0.05
	if linear {
		model = "chess, 5 players, 30 games, white advantage, a draw margin per player (differences and truncations)"
		logZTol = 0.25
	}
	compare(t, model, g, ts, s.logZ, logZTol)
}

// chessMarginsGraph is the chess model with a margin N(m0, vm) per player
// (see TestEPChessPlayerMargins), its results read by ExceedsMargin and
// BetweenMargins or, if linear, by differences and truncations at 0.
func chessMarginsGraph(t testing.TB, linear bool, players int, beta2, m0, vm float64, rs []chessGame) (g *graph.Graph, skill, marg []graph.VarID, white graph.VarID) {
	marg = make([]graph.VarID, players)
	g, skill, white = chessGraph(t, players, beta2, rs, func(b *graph.Builder, k int, r chessGame, x graph.VarID) {
		if k == 0 {
			for i := range marg {
				marg[i] = b.AddVariable(fmt.Sprintf("m%d", i))
				b.AddFactor(factors.NewPrior(m0, vm), "", marg[i])
			}
		}
		// above adds the event y > 0 for y = Σ c·vars.
		above := func(name string, c []float64, vars ...graph.VarID) {
			y := b.AddVariable(fmt.Sprintf("%s%d", name, k))
			b.AddFactor(factors.NewWeightedSum(c...), "", append([]graph.VarID{y}, vars...)...)
			b.AddFactor(factors.NewGreaterThan(0), "", y)
		}
		switch {
		case r.outcome != 0 && linear:
			above("win", []float64{1, -1}, x, marg[loser(r)])
		case r.outcome != 0:
			b.AddFactor(factors.NewExceedsMargin(), "", x, marg[loser(r)])
		case linear:
			above("lo", []float64{1, 1}, x, marg[r.white])
			above("hi", []float64{-1, 1}, x, marg[r.black])
		default:
			b.AddFactor(factors.NewBetweenMargins(), "", x, marg[r.white], marg[r.black])
		}
	})
	return g, skill, marg, white
}
