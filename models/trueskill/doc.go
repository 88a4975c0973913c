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
// closed form, which is the graph's answer without the graph.
//
// Predictions: Quality (the paper's equation 7 and its k-team form),
// Predict and WinProbability. Display: Rating.Conservative,
// Params.Exposure (μ − 3σ at the defaults), and the league page's
// Rating.DisplayRating ((μ − σ)·48) and Params.Stability.
//
// Results agree with the unit tests of moserware/Skills, sublee/trueskill,
// TrueSkillThroughTime and mafredri/go-trueskill (the cases of
// testdata/peer_cases.json, transcribed from their tests, at the peers' own
// tolerances; run go run ./examples/conformance).
//
// A Rater keeps one Game per match shape, each with the plan its schedule
// compiles to (package schedules), so a stream of matches is rated without
// allocating. Params.Rate borrows such Raters from a pool.
//
// Domain: |μ| ≤ 1e12 for every rating and μ₀; σ, σ₀ and β in
// [1e-9, 1e9]; τ and the draw margin in [0, 1e9]; each weight 0 or in
// [1e-9, 1e9]; the draw probability in [0, 1). Predictions also take
// σ = 0, a skill known exactly. The ranges cover every rating scale in use
// (TrueSkill's 25 ± 8.3, chess's 1500 ± 350, a league scored in [0, 1e6])
// with orders of magnitude to spare, and inside them float64 carries every
// formula without overflow or underflow; anything outside is ErrInput
// naming the argument (an *InputError). A draw with no draw margin is
// ErrImpossible. A result that is not a finite float64 would be
// ErrNumerical naming the input, never NaN or ±Inf with a nil error (see
// domain.go). The graph path's log evidence is computed from the chain of
// differences, so that it stays ≈ 0 for a near-certain outcome and
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
