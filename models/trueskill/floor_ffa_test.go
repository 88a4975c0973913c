package trueskill_test

import (
	"math"
	"testing"

	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

// fusedFFA is expectation propagation for a free-for-all of single players
// listed in finishing order, without draws, written out by hand in natural
// parameters over fixed arrays (at most 16 players), with small closures
// for the repeated parts: the allocation-free hand-written EP that the
// performance issue compares the graph path with. It
// sends Figure 1's messages in the library's order (performances down;
// sweeps over the difference chain, forward then back, until no marginal
// of a difference or team performance moves by more than tol in
// messages.Distance; back up) and returns the number of sweeps.
func fusedFFA(in []trueskill.Rating, beta, tau, eps, tol float64, out []trueskill.Rating) int {
	n := len(in)
	var prior, perfP, perfT [16]float64 // skill prior precision; performance message to t_j
	b2 := beta * beta
	for j, r := range in {
		prior[j] = 1 / (r.Sigma*r.Sigma + tau*tau)
		a := 1 / (1 + prior[j]*b2)
		perfP[j], perfT[j] = prior[j]*a, prior[j]*r.Mu*a
	}
	// Messages of difference factor k (d_k = t_k − t_{k+1}) to t_k (up),
	// to t_{k+1} (down) and of comparison k to d_k (cmp), all uniform.
	var upP, upT, dnP, dnT, cmpP, cmpT, dP, dT [16]float64
	tMarg := func(j int) (float64, float64) {
		p, t := perfP[j], perfT[j]
		if j > 0 {
			p, t = p+dnP[j-1], t+dnT[j-1]
		}
		if j < n-1 {
			p, t = p+upP[j], t+upT[j]
		}
		return p, t
	}
	var pass float64
	measure := func(p0, t0, p1, t1 float64) {
		if d := messages.Distance(messages.Gaussian{Pi: p0, Tau: t0}, messages.Gaussian{Pi: p1, Tau: t1}); d > pass {
			pass = d
		}
	}
	// link updates d_k from its team cavities, truncates it, and sends to
	// t_{k+1} (forward) or t_k (backward).
	link := func(k int, forward bool) {
		p1, t1 := tMarg(k)
		p1, t1 = p1-upP[k], t1-upT[k] // cavity of t_k
		p2, t2 := tMarg(k + 1)
		p2, t2 = p2-dnP[k], t2-dnT[k] // cavity of t_{k+1}
		s := 1 / (p1 + p2)            // d = t_k − t_{k+1}
		mp, mt := p1*p2*s, (t1*p2-t2*p1)*s
		od, ot := dP[k], dT[k]
		dP[k], dT[k] = mp+cmpP[k], mt+cmpT[k]
		measure(od, ot, dP[k], dT[k])
		sc := math.Sqrt(mp) // cavity of d_k is the difference message
		tr := messages.GreaterThan(mt/sc, eps*sc)
		r := 1 / tr.OneMinusW
		cmpP[k], cmpT[k] = mp*tr.W*r, (mt*tr.W+sc*tr.V)*r
		od, ot = dP[k], dT[k]
		dP[k], dT[k] = mp+cmpP[k], mt+cmpT[k]
		measure(od, ot, dP[k], dT[k])
		cp, ct := cmpP[k], cmpT[k]
		if forward { // t_{k+1} = t_k − d_k
			j := k + 1
			op, ot := tMarg(j)
			s := 1 / (p1 + cp)
			dnP[k], dnT[k] = p1*cp*s, (t1*cp-ct*p1)*s
			np, nt := tMarg(j)
			measure(op, ot, np, nt)
		} else { // t_k = t_{k+1} + d_k
			op, ot := tMarg(k)
			s := 1 / (p2 + cp)
			upP[k], upT[k] = p2*cp*s, (t2*cp+ct*p2)*s
			np, nt := tMarg(k)
			measure(op, ot, np, nt)
		}
	}
	last, sweeps := n-2, 0
	for sweeps < 100 {
		sweeps++
		pass = 0
		for k := 0; k < last; k++ {
			link(k, true)
		}
		for k := last; k > 0; k-- {
			link(k, false)
		}
		if pass <= tol {
			break
		}
	}
	link(0, false) // the ends of the chain, then up to the skills
	link(last, true)
	for j, r := range in {
		p, t := tMarg(j)
		p, t = p-perfP[j], t-perfT[j] // the team's message from above
		a := 1 / (1 + p*b2)
		fp, ft := prior[j]+p*a, prior[j]*r.Mu+t*a
		out[j] = trueskill.Rating{Mu: ft / fp, Sigma: math.Sqrt(1 / fp)}
	}
	return sweeps
}

// TestFusedFFAIsTheGraph checks that fusedFFA computes what the library does:
// the same posteriors to 1e-6 and the same number of sweeps.
func TestFusedFFAIsTheGraph(t *testing.T) {
	p := trueskill.DefaultParams()
	for _, n := range []int{3, 8, 16} {
		m := trueskill.Match{Teams: ffa(n)}
		want, err := p.RateGraph(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		in := make([]trueskill.Rating, n)
		for j := range in {
			in[j] = m.Teams[j][0]
		}
		out := make([]trueskill.Rating, n)
		sweeps := fusedFFA(in, p.Beta, p.Tau, p.Margin(1, 1), 1e-6, out)
		if sweeps != want.Iterations {
			t.Errorf("FFA%d: %d sweeps, the graph %d", n, sweeps, want.Iterations)
		}
		for j := range out {
			w := want.Ratings[j][0]
			if math.Abs(out[j].Mu-w.Mu) > 1e-6*w.Sigma || math.Abs(out[j].Sigma-w.Sigma) > 1e-6*w.Sigma {
				t.Errorf("FFA%d player %d: fused %v, graph %v", n, j, out[j], w)
			}
		}
	}
}

// BenchmarkHandWrittenEPFFA8 measures fusedFFA on BenchmarkGraphFFA8's
// inputs against the closed-form baseline.
func BenchmarkHandWrittenEPFFA8(b *testing.B) { interleave(b, handWrittenFFA(8)) }

// BenchmarkGraphFFA8VsHandWritten is BenchmarkGraphFFA8 with the
// hand-written EP as its baseline, the two run alternately: its
// x-baseline is the graph path's cost relative to that floor.
func BenchmarkGraphFFA8VsHandWritten(b *testing.B) { benchVsHandWritten(b, false) }

// BenchmarkGraphFFA8NoEvidenceVsHandWritten is the same for the posteriors
// alone, all that fusedFFA computes.
func BenchmarkGraphFFA8NoEvidenceVsHandWritten(b *testing.B) { benchVsHandWritten(b, true) }

func benchVsHandWritten(b *testing.B, noEvidence bool) {
	r := trueskill.DefaultParams().NewRater()
	r.NoEvidence = noEvidence
	rate := func(m trueskill.Match) (trueskill.Result, error) { return r.RateGraph(ctx, m) }
	benchMatchesAgainst(b, ones(8), nil, rate, handWrittenFFA(8))
}

// handWrittenFFA returns the loop of fusedFFA on n pool players per match,
// listed in finishing order, their posteriors written back: BenchmarkGraphFFA8's
// inputs, from its own copy of the pool.
func handWrittenFFA(players int) func(n int) {
	p := trueskill.DefaultParams()
	s := newPlayers(players)
	in := make([]trueskill.Rating, players)
	out := make([]trueskill.Rating, players)
	eps := p.Margin(1, 1)
	return func(n int) {
		for range n {
			idx := s.match()
			for j, k := range idx {
				in[j] = s.pool[k]
			}
			fusedFFA(in, p.Beta, p.Tau, eps, 1e-6, out)
			for j, k := range idx {
				s.pool[k] = out[j]
			}
		}
	}
}
