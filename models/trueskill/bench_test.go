package trueskill_test

import (
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/skillgraph/skillgraph/internal/sharedtest"
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

// Every benchmark here rates players drawn from one fixed pool of varied
// ratings, different players every iteration, and reports its ns/op as a
// ratio ("x-baseline") to the hand-written closed-form 1v1 update on the
// same pool, the two run alternately (sharedtest.Interleave).

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

// teams returns fixed ratings of teams of the given sizes (for tests).
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

// ffa returns fixed ratings of n one-player teams (for tests).
func ffa(n int) [][]trueskill.Rating {
	sizes := make([]int, n)
	for i := range sizes {
		sizes[i] = 1
	}
	return teams(sizes...)
}

var sinkFloat float64

// The varied inputs.
const (
	poolSize = 10_000  // players in the pool
	slots    = 1 << 16 // player slots in each index stream, whatever the match size
)

var (
	poolOnce sync.Once
	pool0    []trueskill.Rating // the pool as drawn

	streamsMu sync.Mutex
	streams   = map[int][]int32{} // by players per match
)

// initialPool returns the fixed-seed pool: μ uniform in [0, 50], σ in
// [1, 8.34].
func initialPool() []trueskill.Rating {
	poolOnce.Do(func() {
		rng := rand.New(rand.NewPCG(2026, 1))
		pool0 = make([]trueskill.Rating, poolSize)
		for i := range pool0 {
			pool0[i] = trueskill.Rating{Mu: 50 * rng.Float64(), Sigma: 1 + 7.34*rng.Float64()}
		}
	})
	return pool0
}

// indexStream returns the fixed-seed stream of pool indices for matches of
// n players: slots/n matches, each of n distinct players, back to back.
func indexStream(n int) []int32 {
	streamsMu.Lock()
	defer streamsMu.Unlock()
	if s, ok := streams[n]; ok {
		return s
	}
	rng := rand.New(rand.NewPCG(2026, uint64(n)))
	s := make([]int32, 0, slots/n*n)
	for len(s) < cap(s) {
		m := len(s)
	draw:
		for len(s) < m+n {
			k := rng.Int32N(poolSize)
			for _, o := range s[m:] {
				if o == k {
					continue draw
				}
			}
			s = append(s, k)
		}
	}
	streams[n] = s
	return s
}

// players is a benchmark's own copy of the pool and its position in the
// index stream of its match size. Posteriors are written back into the
// pool, like a rating stream does; the pool is restored whenever the
// stream starts over (every player has then played about 6.5 matches), so
// the inputs stay near the pool's distribution however long a benchmark
// runs, and do not depend on b.N.
type players struct {
	pool []trueskill.Rating
	idx  []int32
	n    int
	next int
}

func newPlayers(n int) *players {
	p0 := initialPool()
	return &players{pool: append([]trueskill.Rating(nil), p0...), idx: indexStream(n), n: n}
}

// match returns the pool indices of the next match's players.
func (s *players) match() []int32 {
	if s.next == len(s.idx) {
		s.next = 0
		copy(s.pool, pool0)
	}
	m := s.idx[s.next : s.next+s.n : s.next+s.n]
	s.next += s.n
	return m
}

// baseline returns the baseline's loop for sharedtest.Interleave: n
// closed-form 1v1 updates of two distinct players from its own copy of the
// pool, the first listed winning, the posteriors written back.
func baseline() func(n int) {
	p := trueskill.DefaultParams()
	s := newPlayers(2)
	return func(n int) {
		for range n {
			m := s.match()
			s.pool[m[0]], s.pool[m[1]] = closedForm1v1(s.pool[m[0]], s.pool[m[1]], p.Beta, p.Tau)
		}
	}
}

// interleave reports op against the baseline, the two run alternately.
func interleave(b *testing.B, op func(n int)) { sharedtest.Interleave(b, op, baseline()) }

// BenchmarkBaseline is the baseline against itself (its ratio is 1 up to
// noise).
func BenchmarkBaseline(b *testing.B) { interleave(b, baseline()) }

// BenchmarkRate1v1 is the library's closed form through the public API
// (Params.Rate1v1: input validation, the draw margin, the
// cancellation-free update) on the baseline's inputs.
func BenchmarkRate1v1(b *testing.B) {
	p := trueskill.DefaultParams()
	s := newPlayers(2)
	interleave(b, func(n int) {
		for range n {
			m := s.match()
			w, l, err := p.Rate1v1(s.pool[m[0]], s.pool[m[1]], false)
			if err != nil {
				b.Fatal(err)
			}
			s.pool[m[0]], s.pool[m[1]] = w, l
		}
	})
}

// BenchmarkFused1v1 is fusedGraph1v1, the floor of the graph path for
// 1v1, on the baseline's inputs.
func BenchmarkFused1v1(b *testing.B) {
	p := trueskill.DefaultParams()
	s := newPlayers(2)
	interleave(b, func(n int) {
		for range n {
			m := s.match()
			s.pool[m[0]], s.pool[m[1]] = fusedGraph1v1(s.pool[m[0]], s.pool[m[1]], p.Beta, p.Tau)
		}
	})
}

// BenchmarkStream rates a stream of one million generated 1v1 matches over
// 100,000 players, all starting as new players, through the public API
// (Rate1v1); ns/op is per match.
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
	next := 0
	interleave(b, func(n int) {
		for range n {
			m := pairs[next]
			if next++; next == matches {
				next = 0
			}
			w, l, err := p.Rate1v1(ratings[m[0]], ratings[m[1]], false)
			if err != nil {
				b.Fatal(err)
			}
			ratings[m[0]], ratings[m[1]] = w, l
		}
	})
}

// rateFunc rates one match.
type rateFunc func(trueskill.Match) (trueskill.Result, error)

// benchMatches rates matches of teams of the given sizes (ranks nil: the
// teams in finishing order) with rate, the players drawn from the pool in
// stream order and their posteriors written back. One match is rated
// before the timer starts, so a Rater has built its graph.
func benchMatches(b *testing.B, sizes, ranks []int, rate rateFunc) {
	benchMatchesAgainst(b, sizes, ranks, rate, baseline())
}

// benchMatchesAgainst is benchMatches with the ratio taken to base.
func benchMatchesAgainst(b *testing.B, sizes, ranks []int, rate rateFunc, base func(n int)) {
	n := 0
	for _, k := range sizes {
		n += k
	}
	s := newPlayers(n)
	m := trueskill.Match{Teams: make([][]trueskill.Rating, len(sizes)), Ranks: ranks}
	for j, k := range sizes {
		m.Teams[j] = make([]trueskill.Rating, k)
	}
	load := func(idx []int32) {
		k := 0
		for _, t := range m.Teams {
			for i := range t {
				t[i] = s.pool[idx[k]]
				k++
			}
		}
	}
	load(s.idx[:n])
	if _, err := rate(m); err != nil {
		b.Fatal(err)
	}
	sharedtest.Interleave(b, func(iters int) {
		for range iters {
			idx := s.match()
			load(idx)
			res, err := rate(m)
			if err != nil {
				b.Fatal(err)
			}
			k := 0
			for _, t := range res.Ratings {
				for _, r := range t {
					s.pool[idx[k]] = r
					k++
				}
			}
		}
	}, base)
}

// benchRater rates through one reused Rater's RateGraph.
func benchRater(b *testing.B, sizes, ranks []int, noEvidence bool) {
	r := trueskill.DefaultParams().NewRater()
	r.NoEvidence = noEvidence
	benchMatches(b, sizes, ranks, func(m trueskill.Match) (trueskill.Result, error) { return r.RateGraph(ctx, m) })
}

func ones(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = 1
	}
	return s
}

func BenchmarkGraph1v1(b *testing.B) { benchRater(b, []int{1, 1}, nil, false) }

// BenchmarkGraph1v1NoEvidence is the graph path for the posteriors alone.
func BenchmarkGraph1v1NoEvidence(b *testing.B) { benchRater(b, []int{1, 1}, nil, true) }

func BenchmarkGraph2v2(b *testing.B) { benchRater(b, []int{2, 2}, nil, false) }

func BenchmarkGraph4v4(b *testing.B) { benchRater(b, []int{4, 4}, nil, false) }

// BenchmarkGraphThreeTeamsDraw: a player wins, a pair and a player draw.
func BenchmarkGraphThreeTeamsDraw(b *testing.B) {
	benchRater(b, []int{1, 2, 1}, []int{0, 1, 1}, false)
}

func BenchmarkGraphFFA8(b *testing.B) { benchRater(b, ones(8), nil, false) }

func BenchmarkGraphFFA8NoEvidence(b *testing.B) { benchRater(b, ones(8), nil, true) }

func BenchmarkGraphFFA16(b *testing.B) { benchRater(b, ones(16), nil, false) }

// BenchmarkRateFFA8 makes a fresh Params.Rate call for every match, with no
// Rater: the path users call first.
func BenchmarkRateFFA8(b *testing.B) {
	p := trueskill.DefaultParams()
	benchMatches(b, ones(8), nil, func(m trueskill.Match) (trueskill.Result, error) { return p.Rate(ctx, m) })
}

// benchQuality measures the match quality of two teams of size players
// drawn from the pool (nothing is written back).
func benchQuality(b *testing.B, size int) {
	p := trueskill.DefaultParams()
	s := newPlayers(2 * size)
	t := [][]trueskill.Rating{make([]trueskill.Rating, size), make([]trueskill.Rating, size)}
	interleave(b, func(n int) {
		for range n {
			idx := s.match()
			for k, j := range idx {
				t[k/size][k%size] = s.pool[j]
			}
			q, err := p.Quality(t, nil)
			if err != nil {
				b.Fatal(err)
			}
			sinkFloat = q
		}
	})
}

func BenchmarkQuality1v1(b *testing.B) { benchQuality(b, 1) }

func BenchmarkQuality4v4(b *testing.B) { benchQuality(b, 4) }
