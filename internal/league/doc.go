// Package league is an office league rated with TrueSkill: games rated in
// the order they were played, each player's rating and history, the
// standings, the fairest next games, and the state file that keeps a
// league between runs.
//
// A League is built with New and grown with Rate, which rates the games it
// has not seen (known by key) and refuses a game dated before the last one
// rated, since ratings cannot be taken back. Its JSON form is the state
// file; OpenState locks and loads one (package safefile), so that two runs
// adding games at once never lose each other's games, and State.Save
// writes it back atomically. Every rating read from a state, and every
// rating a game returns, must lie in TrueSkill's domain
// (trueskill.Rating.Validate).
//
// Standings ranks players by the rating page's display rating (μ − σ)·48
// or by the conservative μ − 3σ; FairestPairs finds the k 1v1 games of
// highest match quality without computing every pair.
//
// The skillgraph command's rate subcommand and its server are built on it.
package league
