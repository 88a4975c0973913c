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
// OutcomeProbabilities and WinProbability. Display: Rating.Conservative,
// Params.Exposure (μ − 3σ at the defaults), and the league page's
// Rating.DisplayRating ((μ − σ)·48) and Params.Stability.
//
// Results agree with the unit tests of moserware/Skills, sublee/trueskill,
// TrueSkillThroughTime and mafredri/go-trueskill (95 of 95 cases of
// ../shared/vectors/peer_cases.json at the peers' own tolerances; run
// go run ./examples/conformance -cases ../shared/vectors/peer_cases.json).
//
// A Rater keeps one Game per match shape; for common shapes (two teams of
// 1-4 players, free-for-alls of 3-8 without draws) a Game runs a program
// compiled from its graph and schedule by package schedules/compile
// (compiled_gen.go) instead of interpreting them, with the same results.
//
// Params, Rating and Match are plain values, safe to share between
// goroutines; a Game or a Rater is not.
package trueskill
