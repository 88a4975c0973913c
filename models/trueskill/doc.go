// Package trueskill is the TrueSkill rating model (Herbrich, Minka and
// Graepel, NIPS 2006) declared as a graph builder on the skillgraph engine.
//
// A match is Figure 1 of the paper: each player's skill s with prior
// N(μ, σ² + τ²), a performance p ~ N(s, β²), team performances t = Σ wᵢpᵢ
// (w are partial-play weights, 1 by default), the differences of adjacent
// teams in rank order, and a win factor I(d > ε) or a draw factor
// I(|d| ≤ ε) on each difference, with ε set from the draw probability.
// Game builds that graph and its schedule; Params.Rate runs it and returns
// the posterior ratings in the caller's order, the probability of the
// outcome, and how the iteration went. Two-team matches take the exact
// closed form (tested equal to the graph to 1e-12).
//
// Predictions: Quality (the paper's equation 7 and its k-team form),
// Predict and WinProbability. Display: Rating.Conservative,
// Params.Exposure (μ − 3σ at the defaults), and the league page's
// Rating.DisplayRating ((μ − σ)·48) and Params.Stability.
//
// Results agree with the unit tests of moserware/Skills, sublee/trueskill,
// TrueSkillThroughTime and mafredri/go-trueskill (95 of 95 cases of
// testdata/peer_cases.json, transcribed from their tests, at the peers' own
// tolerances; run go run ./examples/conformance).
//
// A Rater keeps one Game per match shape, each with the plan its schedule
// compiles to (package schedules), so a stream of matches is rated without
// allocating. Params.Rate borrows such Raters from a pool.
//
// Range: the two-team closed form takes any finite ratings and parameters
// (σ = 1e155, β = 1e300, ratings ±1e308), repeating its formulas in wide
// arithmetic where float64 would overflow or underflow; the factor graph
// needs every variance normal in float64 and says which input is not. A
// result that is not a finite float64, a posterior that would not be a
// valid input to the next call, and a log evidence that is not finite are
// ErrNumerical naming the input, never NaN or ±Inf with a nil error (see
// numeric.go). The graph path's log evidence is computed from the chain
// of differences, so that it stays ≈ 0 for a near-certain outcome and
// accurate for a near-impossible one (Game.LogEvidence).
//
// Deadlines: Rate and RateGraph (of Params and Rater) return ctx's error
// if ctx is cancelled or past its deadline when they finish, so an
// expired context always fails.
//
// Concurrency: Params, Rating and Match are plain values, safe to share
// between goroutines, and Params.Rate, RateGraph, Rate1v1, Quality and the
// predictions may be called from many goroutines at once. A Game is for one
// goroutine at a time; so is a Rater, which detects a second concurrent
// call and returns ErrConcurrentUse instead of corrupting either.
package trueskill
