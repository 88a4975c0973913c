package trueskill

import (
	"context"
	"sync"
	"sync/atomic"
)

// pools lends Params.Rate and Params.RateGraph a Rater for their Params, so
// that a call reuses the graph (and plan) of an earlier match of the same
// shape instead of building one: a cache, invisible in results, safe for
// concurrent use (each Rater is lent to one call at a time). It keeps at
// most maxPooledParams distinct Params; calls with others build their game
// afresh, as a parameter search would otherwise fill memory.
var pools struct {
	m sync.Map // Params → *sync.Pool of *Rater
	n atomic.Int32
}

const maxPooledParams = 32

// borrow returns a Rater for p (validated) and the pool to return it to
// (nil if p is not pooled).
func (p Params) borrow() (*Rater, *sync.Pool) {
	v, ok := pools.m.Load(p)
	if !ok {
		if pools.n.Load() >= maxPooledParams {
			return p.NewRater(), nil
		}
		var loaded bool
		if v, loaded = pools.m.LoadOrStore(p, &sync.Pool{}); !loaded {
			pools.n.Add(1)
		}
	}
	pool := v.(*sync.Pool)
	if r, ok := pool.Get().(*Rater); ok {
		return r, pool
	}
	return p.NewRater(), pool
}

// rateGraphPooled rates m, already checked, through the graph of a
// borrowed Rater and returns ratings of its own.
func (p Params) rateGraphPooled(ctx context.Context, m *Match) (Result, error) {
	r, pool := p.borrow()
	res, err := r.rateGraph(ctx, m)
	if err == nil {
		res.Ratings = copyRatings(res.Ratings)
	}
	if pool != nil {
		pool.Put(r)
	}
	return res, err
}

// newRatings returns ratings shaped like teams, in one allocation for the
// ratings and one for the teams.
func newRatings(teams [][]Rating) [][]Rating {
	n := 0
	for _, t := range teams {
		n += len(t)
	}
	flat := make([]Rating, n)
	out := make([][]Rating, len(teams))
	for j, t := range teams {
		out[j], flat = flat[:len(t):len(t)], flat[len(t):]
	}
	return out
}

// copyRatings returns a copy of teams that the caller owns.
func copyRatings(teams [][]Rating) [][]Rating {
	out := newRatings(teams)
	for j, t := range teams {
		copy(out[j], t)
	}
	return out
}
