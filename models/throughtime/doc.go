// Package throughtime is TrueSkill Through Time (Dangauthier, Herbrich,
// Minka and Graepel, NIPS 2008): a whole history of games as one factor
// graph, smoothed so that every game informs every skill, before and
// after it.
//
// Each player has one skill per batch (the games sharing a time), with the
// prior N(μ, σ²) at their first appearance and drift N(s_t; s_t', γ²·(t −
// t')) from their previous one; each game is TrueSkill's Figure 1 on the
// skills of its batch, with per-player β, partial-play weights and draws.
// The graph's messages are held in flat arrays (History): a game of two
// players is updated by trueskill's two-team closed form
// (trueskill.Params.Rate1v1), the graph's own update exactly, and any
// other game by running a graph of its own (trueskill.Params.Declare), so
// that a 1v1 game costs only its entries in those arrays, no graph. With
// learned draw margins every game is a 1v1 graph, a tree that one pass
// solves, which games of the same outcome and players' β share.
//
// New runs the forward pass (online TrueSkill with drift) and keeps each
// game's one-step-ahead evidence; Converge sweeps the history backward and
// forward, mixing the last sweeps' messages (Anderson acceleration), until
// no skill moves by more than a tolerance, reporting each sweep to
// WithProgress's callback. LearningCurve reads a player's skills over time
// and Posterior a skill at any time; Add appends later games to a smoothed
// history at the cost of those games (the online mode: add a batch, then
// Converge for a few sweeps). Predict and LogProbability forecast a game
// from the skills at its time (Predictive: a player's posterior there, or
// their prior if new), and Fit chooses σ₀, β, γ and the draw probability
// by maximising the filtered (or smoothed) log evidence within bounds,
// with the search and the types of package models/fit that scorebased.Fit
// shares, reporting each evaluation to fit.Options.Progress. WithDrawMargins replaces the one draw margin with
// one per player, learned with its own drift (Dangauthier et al. 2007).
//
// The conventions (batches, drift counted from a player's previous batch,
// the draw margin from the players' β) are those of the authors' package
// TrueSkillThroughTime.py, and its reference vectors pass: learning curves
// and evidence, filtered and converged (testdata/ttt_cases.json).
//
// Errors wrap ErrInput (errors.Is) for an input the caller can correct,
// among them a drift or a mean beyond the range float64 carries through
// the model and ErrPlayer for a player the history has not seen, or
// ErrNumerical for an answer float64 cannot carry (an outcome whose
// probability underflows); no method returns NaN or ±Inf. An error about
// one game of the history is a *GameError (errors.As) giving the game's
// index in the input, so that a caller can name the game in its own terms.
//
// A History is for one goroutine at a time, its reading methods too (they
// run factor graphs it keeps).
package throughtime
