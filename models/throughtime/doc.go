// Package throughtime is TrueSkill Through Time (Dangauthier, Herbrich,
// Minka and Graepel, NIPS 2008) on the skillgraph engine: a whole history
// of games as one factor graph, smoothed so that every game informs every
// skill, before and after it.
//
// Each player has one skill per batch (the games sharing a time), with the
// prior N(μ, σ²) at their first appearance and drift N(s_t; s_t', γ²·(t −
// t')) from their previous one; each game is TrueSkill's Figure 1 on the
// skills of its batch (trueskill.Params.Declare), with per-player β,
// partial-play weights and draws. New runs the forward pass (online
// TrueSkill with drift) and keeps each game's one-step-ahead evidence;
// Converge sweeps the history backward and forward, each game's inside run
// as one unit (trueskill.Params.Schedule), mixing the last sweeps'
// messages (Anderson acceleration), until no skill moves by more than a
// tolerance. LearningCurve reads a player's skills over time and Posterior
// a skill at any time; Add appends later games to a smoothed history (the
// online mode: add a batch, then Converge for a few sweeps). Predict and
// LogProbability forecast a game from the skills at its time (Predictive:
// a player's posterior there, or their prior if new), and Fit chooses σ₀,
// β, γ and the draw probability by maximising the filtered (or smoothed)
// log evidence with gonum's Nelder-Mead, within bounds.
//
// The conventions (batches, drift counted from a player's previous batch,
// the draw margin from the players' β) are those of the authors' package
// TrueSkillThroughTime.py, and its reference vectors pass: learning curves
// and evidence, filtered and converged (testdata/ttt_cases.json).
//
// A History is for one goroutine at a time.
package throughtime
