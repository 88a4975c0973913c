package trueskill

import (
	"context"
	"encoding/binary"
	"sync/atomic"
)

// Rater rates matches like Params.Rate, but keeps every graph it builds,
// one per match shape (the team sizes in finishing order, the draws between
// adjacent teams, whether weights are given; not which of the caller's
// teams finished where), each with its compiled plan, and its result
// buffers, so that a stream of matches is rated without allocating once
// each shape has been seen. The Ratings of a Result from a Rater belong to
// it and are overwritten by the next call: copy what you keep.
//
// The zero value rates with DefaultParams. A Rater is not safe for
// concurrent use: use one per goroutine (Params.Rate is safe to call from
// many). A call made while another is running on the same Rater is
// detected and returns ErrConcurrentUse, without touching either's result.
type Rater struct {
	// NoEvidence, if set, skips computing Result.LogEvidence (left 0) on
	// the graph path, whose evidence is a second walk over the chain of
	// differences after the messages; the two-team closed form computes it
	// with the update either way.
	NoEvidence bool

	busy  atomic.Bool // a call is running
	ready bool        // p and pErr are set (the zero value sets them on first use)
	p     Params
	pErr  error // p.Validate(), once: p cannot change
	games map[string]*Game
	key   []byte
	// The game of the previous graph-path match, and that match's team
	// sizes, ranks (empty without) and whether it had weights.
	last                 *Game
	lastSizes, lastRanks []int
	lastWeighted         bool
	order                []int // scratch: a match's teams in rank order
	two                  [2][]Rating
}

// NewRater returns a Rater with parameters p.
func (p Params) NewRater() *Rater {
	r := &Rater{}
	r.init(p)
	return r
}

func (r *Rater) init(p Params) {
	r.p, r.pErr, r.ready = p, p.Validate(), true
	r.games = map[string]*Game{}
}

// Params returns the parameters the Rater rates with.
func (r *Rater) Params() Params {
	if !r.ready {
		return DefaultParams()
	}
	return r.p
}

// enter claims r for one call, setting up a zero Rater; it reports false if
// another call holds it.
func (r *Rater) enter() bool {
	if !r.busy.CompareAndSwap(false, true) {
		return false
	}
	if !r.ready {
		r.init(DefaultParams())
	}
	return true
}

// check is Params.check with the parameters validated once.
func (r *Rater) check(m *Match) error {
	if r.pErr != nil {
		return r.pErr
	}
	return checkMatch(&r.p, m)
}

// Rate rates m: the two-team closed form, or the Figure 1 graph. ctx is
// honoured as by Params.Rate.
func (r *Rater) Rate(ctx context.Context, m Match) (Result, error) {
	return r.rate(ctx, &m, len(m.Teams) != 2)
}

// RateGraph rates m through the factor graph, whatever its size, reusing
// the graph of an earlier match of the same shape.
func (r *Rater) RateGraph(ctx context.Context, m Match) (Result, error) {
	return r.rate(ctx, &m, true)
}

// rate claims r, checks m and rates it through the graph or, for two
// teams, the closed form.
func (r *Rater) rate(ctx context.Context, m *Match, graph bool) (Result, error) {
	if !r.enter() {
		return Result{}, ErrConcurrentUse
	}
	defer r.busy.Store(false)
	if err := r.check(m); err != nil {
		return Result{}, err
	}
	if graph {
		return r.rateGraph(ctx, m) // its run checks ctx as it ends (see finish)
	}
	out := r.two[:]
	for j := range out {
		if cap(out[j]) < len(m.Teams[j]) {
			out[j] = make([]Rating, len(m.Teams[j]))
		}
		out[j] = out[j][:len(m.Teams[j])]
	}
	res, err := r.p.rateTwoTeams(*m, out)
	return finish(ctx, res, err)
}

func (r *Rater) rateGraph(ctx context.Context, m *Match) (Result, error) {
	gm, order := r.last, []int(nil) // the same order as last time, unless set
	if gm == nil || !r.sameAsLast(m) {
		r.order = m.orderInto(r.order)
		order = r.order
		r.key = m.appendShape(r.key[:0], r.order)
		var ok bool
		if gm, ok = r.games[string(r.key)]; !ok {
			var err error
			if gm, err = r.p.newGame(*m, true); err != nil {
				return Result{}, err
			}
			r.games[string(r.key)] = gm
		}
		r.last = gm
		r.lastSizes = r.lastSizes[:0]
		for _, t := range m.Teams {
			r.lastSizes = append(r.lastSizes, len(t))
		}
		r.lastRanks = append(r.lastRanks[:0], m.Ranks...) // empty if m has none
		r.lastWeighted = m.Weights != nil
	}
	// A new game has m already; setting it again is harmless.
	if err := gm.set(m, order); err != nil {
		return Result{}, err
	}
	return gm.result(ctx, m, !r.NoEvidence)
}

// sameAsLast reports whether m has the team sizes, the ranks and the
// presence of weights of the previous graph-path match, and so its shape
// (a stream often repeats one), without building the key.
func (r *Rater) sameAsLast(m *Match) bool {
	if len(m.Teams) != len(r.lastSizes) || len(m.Ranks) != len(r.lastRanks) || (m.Weights != nil) != r.lastWeighted {
		return false
	}
	for j, t := range m.Teams {
		if len(t) != r.lastSizes[j] {
			return false
		}
	}
	for j, k := range m.Ranks {
		if k != r.lastRanks[j] {
			return false
		}
	}
	return true
}

// appendShape appends a key identifying the graph m needs, given its teams
// in rank order: the team sizes in that order, the draws between adjacent
// teams, and whether weights are given. Matches that differ only in which
// of the caller's teams finished where share a key (and a game).
func (m *Match) appendShape(key []byte, order []int) []byte {
	key = binary.AppendUvarint(key, uint64(len(order)))
	for k, j := range order {
		key = binary.AppendUvarint(key, uint64(len(m.Teams[j])))
		if k+1 < len(order) && m.drawn(order, k) {
			key = append(key, '=')
		} else {
			key = append(key, '>')
		}
	}
	if m.Weights != nil {
		key = append(key, 'w')
	}
	return key
}
