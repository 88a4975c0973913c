package trueskill_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

// closedForm1v1 is the baseline: the rating page's two-player update
// written out by hand (../shared/seeds/002), with τ, no draws.
func closedForm1v1(w, l trueskill.Rating, beta, tau float64) (trueskill.Rating, trueskill.Rating) {
	vw, vl := w.Sigma*w.Sigma+tau*tau, l.Sigma*l.Sigma+tau*tau
	c2 := vw + vl + 2*beta*beta
	c := math.Sqrt(c2)
	t := (w.Mu - l.Mu) / c
	v := math.Exp(-t*t/2) / math.Sqrt(2*math.Pi) / (0.5 * math.Erfc(-t/math.Sqrt2))
	ww := v * (v + t)
	return trueskill.Rating{Mu: w.Mu + vw/c*v, Sigma: math.Sqrt(vw * (1 - ww*vw/c2))},
		trueskill.Rating{Mu: l.Mu - vl/c*v, Sigma: math.Sqrt(vl * (1 - ww*vl/c2))}
}

var sinkRating trueskill.Rating

// update1v1 is a two-player update written out by hand: closedForm1v1 or
// fusedGraph1v1.
type update1v1 func(w, l trueskill.Rating, beta, tau float64) (trueskill.Rating, trueskill.Rating)

// benchIndependent runs u on the same two ratings every iteration, so the
// CPU overlaps one update with the next.
func benchIndependent(b *testing.B, u update1v1) {
	p := trueskill.DefaultParams()
	w, l := trueskill.Rating{Mu: 26, Sigma: 5}, trueskill.Rating{Mu: 24, Sigma: 6}
	for i := 0; i < b.N; i++ {
		x, y := u(w, l, p.Beta, p.Tau)
		sinkRating = x
		sinkRating = y
	}
}

// benchSequential feeds each update's posteriors to the next as priors,
// the winner alternating, so nothing overlaps.
func benchSequential(b *testing.B, u update1v1) {
	p := trueskill.DefaultParams()
	w, l := trueskill.Rating{Mu: 26, Sigma: 5}, trueskill.Rating{Mu: 24, Sigma: 6}
	for i := 0; i < b.N; i++ {
		w, l = u(l, w, p.Beta, p.Tau)
	}
	sinkRating = w
}

func BenchmarkBaselineClosedForm1v1(b *testing.B) { benchIndependent(b, closedForm1v1) }

// BenchmarkRate1v1 is the library's own closed form through the public API
// (Params.Rate1v1: input validation, the draw margin, the cancellation-free
// update) on the baseline's inputs.
func BenchmarkRate1v1(b *testing.B) {
	p := trueskill.DefaultParams()
	w, l := trueskill.Rating{Mu: 26, Sigma: 5}, trueskill.Rating{Mu: 24, Sigma: 6}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		x, y, err := p.Rate1v1(w, l, false)
		if err != nil {
			b.Fatal(err)
		}
		sinkRating = x
		sinkRating = y
	}
}

// BenchmarkBaselineClosedForm1v1Sequential is the baseline as a rating loop
// runs it: each match's posteriors are the next match's priors (the winner
// alternating), so the CPU cannot overlap one update with the next. The
// graph path is latency-bound in the same way within one match.
func BenchmarkBaselineClosedForm1v1Sequential(b *testing.B) { benchSequential(b, closedForm1v1) }

// fusedGraph1v1 sends the fourteen messages of the 1v1 Figure 1 graph (two
// priors, two performance likelihoods, two one-player team sums, the
// difference, the win factor, and back) written out by hand in natural
// parameters, with no graph, schedule or checks: the floor that any
// generic engine running that graph adds its bookkeeping to.
func fusedGraph1v1(w, l trueskill.Rating, beta, tau float64) (trueskill.Rating, trueskill.Rating) {
	p1 := 1 / (w.Sigma*w.Sigma + tau*tau) // priors
	t1 := p1 * w.Mu
	p2 := 1 / (l.Sigma*l.Sigma + tau*tau)
	t2 := p2 * l.Mu
	b2 := beta * beta
	a1, a2 := 1/(1+p1*b2), 1/(1+p2*b2) // performances: N(p; s, β²)
	q1, u1, q2, u2 := p1*a1, t1*a1, p2*a2, t2*a2
	s := 1 / (q1 + q2) // d = t1 − t2 (team sums are identities)
	dp, dt := q1*q2*s, (u1*q2-u2*q1)*s
	sc := math.Sqrt(dp)
	tr := messages.GreaterThan(dt/sc, 0) // I(d > 0)
	mp, mt := dp*tr.W/tr.OneMinusW, (dt*tr.W+sc*tr.V)/tr.OneMinusW
	r1, r2 := 1/(mp+q2), 1/(mp+q1) // back to t1 = d + t2 and t2 = t1 − d
	e1p, e1t := mp*q2*r1, (mt*q2+u2*mp)*r1
	e2p, e2t := mp*q1*r2, (u1*mp-mt*q1)*r2
	c1, c2 := 1/(1+e1p*b2), 1/(1+e2p*b2) // and up to the skills
	f1p, f1t := p1+e1p*c1, t1+e1t*c1
	f2p, f2t := p2+e2p*c2, t2+e2t*c2
	return trueskill.Rating{Mu: f1t / f1p, Sigma: math.Sqrt(1 / f1p)},
		trueskill.Rating{Mu: f2t / f2p, Sigma: math.Sqrt(1 / f2p)}
}

// TestFusedGraphIsTheClosedForm checks the floor benchmark computes the
// update it claims to: the graph's messages give the closed form.
func TestFusedGraphIsTheClosedForm(t *testing.T) {
	p := trueskill.DefaultParams()
	for _, c := range [][2]trueskill.Rating{{{Mu: 26, Sigma: 5}, {Mu: 24, Sigma: 6}}, {{Mu: 10, Sigma: 8}, {Mu: 40, Sigma: 1}}} {
		a, b := fusedGraph1v1(c[0], c[1], p.Beta, p.Tau)
		x, y := closedForm1v1(c[0], c[1], p.Beta, p.Tau)
		for _, d := range []float64{a.Mu - x.Mu, a.Sigma - x.Sigma, b.Mu - y.Mu, b.Sigma - y.Sigma} {
			if math.Abs(d) > 1e-12 {
				t.Errorf("fused %v %v, closed form %v %v", a, b, x, y)
			}
		}
	}
}

// BenchmarkFloorFusedGraph1v1 measures fusedGraph1v1 like the baseline.
func BenchmarkFloorFusedGraph1v1(b *testing.B) { benchIndependent(b, fusedGraph1v1) }

// BenchmarkFloorFusedGraph1v1Sequential measures it like the sequential
// baseline.
func BenchmarkFloorFusedGraph1v1Sequential(b *testing.B) { benchSequential(b, fusedGraph1v1) }

func teams(sizes ...int) [][]trueskill.Rating {
	var out [][]trueskill.Rating
	for j, n := range sizes {
		var t []trueskill.Rating
		for i := 0; i < n; i++ {
			t = append(t, trueskill.Rating{Mu: 25 + float64(j) - float64(i)/3, Sigma: 5 + float64(i)/4})
		}
		out = append(out, t)
	}
	return out
}

func ffa(n int) [][]trueskill.Rating {
	sizes := make([]int, n)
	for i := range sizes {
		sizes[i] = 1
	}
	return teams(sizes...)
}

// benchGraph rates m through the factor graph, reusing one Rater, with the
// evidence (Result.LogEvidence) computed.
func benchGraph(b *testing.B, m trueskill.Match) { benchRater(b, m, false) }

func benchRater(b *testing.B, m trueskill.Match, noEvidence bool) {
	p := trueskill.DefaultParams()
	r := p.NewRater()
	r.NoEvidence = noEvidence
	ctx := context.Background()
	if _, err := r.RateGraph(ctx, m); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := r.RateGraph(ctx, m)
		if err != nil {
			b.Fatal(err)
		}
		sinkRating = res.Ratings[0][0]
	}
}

func BenchmarkGraph1v1(b *testing.B) {
	benchGraph(b, trueskill.Match{Teams: teams(1, 1)})
}

// BenchmarkGraph1v1NoEvidence is the graph path for the posteriors alone.
func BenchmarkGraph1v1NoEvidence(b *testing.B) {
	benchRater(b, trueskill.Match{Teams: teams(1, 1)}, true)
}

// BenchmarkGraph1v1NoEvidenceSequential is the graph path run like the
// sequential baseline: each match's posteriors are the next match's
// priors, the winner alternating, so one match cannot overlap the next.
func BenchmarkGraph1v1NoEvidenceSequential(b *testing.B) {
	p := trueskill.DefaultParams()
	r := p.NewRater()
	r.NoEvidence = true
	ctx := context.Background()
	w, l := trueskill.Rating{Mu: 26, Sigma: 5}, trueskill.Rating{Mu: 24, Sigma: 6}
	m := trueskill.Match{Teams: [][]trueskill.Rating{{w}, {l}}}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		res, err := r.RateGraph(ctx, m)
		if err != nil {
			b.Fatal(err)
		}
		// The loser of this match wins the next.
		m.Teams[0][0], m.Teams[1][0] = res.Ratings[1][0], res.Ratings[0][0]
	}
	sinkRating = m.Teams[0][0]
}

func BenchmarkGraphFFA8NoEvidence(b *testing.B) { benchRater(b, trueskill.Match{Teams: ffa(8)}, true) }

func BenchmarkGraph1v1Draw(b *testing.B) {
	benchGraph(b, trueskill.Match{Teams: teams(1, 1), Ranks: []int{0, 0}})
}

func BenchmarkGraph2v2(b *testing.B) { benchGraph(b, trueskill.Match{Teams: teams(2, 2)}) }

func BenchmarkGraph4v4(b *testing.B) { benchGraph(b, trueskill.Match{Teams: teams(4, 4)}) }

func BenchmarkGraphThreeTeamsDraw(b *testing.B) {
	benchGraph(b, trueskill.Match{Teams: teams(1, 2, 1), Ranks: []int{0, 1, 1}})
}

func BenchmarkGraphFFA8(b *testing.B) { benchGraph(b, trueskill.Match{Teams: ffa(8)}) }

func BenchmarkGraphFFA16(b *testing.B) { benchGraph(b, trueskill.Match{Teams: ffa(16)}) }

// BenchmarkGraphFFA8Upset is an 8-player free-for-all won by the weakest
// player and lost by the strongest (μ 25 … 60, σ = 2): every comparison is
// in the truncation's far tail.
func BenchmarkGraphFFA8Upset(b *testing.B) {
	t := ffa(8)
	for j := range t {
		t[j][0] = trueskill.Rating{Mu: 25 + 5*float64(j), Sigma: 2}
	}
	benchRater(b, trueskill.Match{Teams: t}, true)
}

// BenchmarkGraphFFA8Random rates 500 random 8-player free-for-alls in turn
// (μ uniform in [0, 50], σ in [1, 8.34], players listed in finishing order),
// without evidence: a realistic mix of expected results and upsets.
func BenchmarkGraphFFA8Random(b *testing.B) {
	rng := rand.New(rand.NewPCG(99, 1))
	games := make([]trueskill.Match, 500)
	for i := range games {
		t := ffa(8)
		for j := range t {
			t[j][0] = trueskill.Rating{Mu: 50 * rng.Float64(), Sigma: 1 + 7.34*rng.Float64()}
		}
		games[i] = trueskill.Match{Teams: t}
	}
	r := trueskill.DefaultParams().NewRater()
	r.NoEvidence = true
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := r.RateGraph(ctx, games[i%len(games)])
		if err != nil {
			b.Fatal(err)
		}
		sinkRating = res.Ratings[0][0]
	}
}

var sinkFloat float64

// benchQuality measures the match quality of teams.
func benchQuality(b *testing.B, t [][]trueskill.Rating) {
	p := trueskill.DefaultParams()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		q, err := p.Quality(t, nil)
		if err != nil {
			b.Fatal(err)
		}
		sinkFloat = q
	}
}

func BenchmarkQuality1v1(b *testing.B) { benchQuality(b, teams(1, 1)) }

func BenchmarkQuality4v4(b *testing.B) { benchQuality(b, teams(4, 4)) }

// BenchmarkStream rates a stream of one million generated 1v1 matches over
// 100,000 players through the public API (Rate1v1); ns/op is per match.
func BenchmarkStream(b *testing.B) {
	const players, matches = 100_000, 1_000_000
	p := trueskill.DefaultParams()
	rng := rand.New(rand.NewPCG(7, 11))
	pairs := make([][2]int32, matches)
	for i := range pairs {
		a := rng.Int32N(players)
		c := rng.Int32N(players - 1)
		if c >= a {
			c++
		}
		pairs[i] = [2]int32{a, c}
	}
	ratings := make([]trueskill.Rating, players)
	for i := range ratings {
		ratings[i] = p.NewRating()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m := pairs[i%matches]
		w, l, err := p.Rate1v1(ratings[m[0]], ratings[m[1]], false)
		if err != nil {
			b.Fatal(err)
		}
		ratings[m[0]], ratings[m[1]] = w, l
	}
}
