// Package history is the skillgraph command's history subcommand: it
// smooths a whole history of games with TrueSkill Through Time (package
// models/throughtime), fits its parameters, compares its one-step-ahead
// predictions with TrueSkill's, or checks the package against the
// reference vectors of TrueSkillThroughTime.py.
//
//	skillgraph history -matches examples/data/f1_races.csv -out DIR
//	skillgraph history -matches examples/data/epl.csv -fit
//	skillgraph history -matches examples/data/epl.csv -evaluate -k 3
//	skillgraph history -cases models/throughtime/testdata/ttt_cases.json
//
// -matches reads either the long format match_id,time,team,player,rank
// (one row per player) or the scores format time,home,away,home_score,
// away_score (each match a two-team game, equal scores a draw), told
// apart by the header; times are counted in -unit (days, weeks, months,
// years, or a number of days, at most 106,751: γ is a drift per unit).
//
// In a file with home and away teams (the scores format) the home
// advantage is learned as a skill of its own, prior N(0, σ₀²) and drifting
// as skills do, added to the home team's performance in every game not on
// neutral ground (a neutral column), and printed; -home off leaves it out.
//
// The draw probability is the data's share of tied places (for two-team
// games, the share of draws), printed, unless -draw gives one; -draw 0 on
// data with draws is an error, since it makes them impossible.
//
// It runs the forward pass and then sweeps to -tol, and prints whether it
// converged, after how many sweeps and how long, the evidence, and the
// players with the highest final skill; -out DIR (made before any work)
// gets every learning curve as learning_curves.csv (player, date, μ, σ)
// and the top players' curves as learning_curves.svg (or .png with
// -figure png), drawn by internal/plot. -fit first fits σ₀, γ and the
// draw probability to the history's filtered evidence (-fit-evidence
// smoothed for the smoothed one) and prints them. -evaluate predicts
// every game one step ahead by filtering, by smoothing the history so far
// (-k sweeps after each batch) and by plain TrueSkill, and prints their
// log-loss and accuracy (-json FILE writes them too). With -cases the last
// line is "ttt conformance: N passed, M failed", and the exit status is 1
// if any failed.
//
// A step that runs longer than -progress (2 s) prints progress on stderr,
// a line at most every -progress: the fit's latest evaluation with its
// evidence and the best so far, the latest sweep with its largest move,
// and the evaluation's batches. Errors are one line, "skillgraph history:
// what went wrong", with exit status 2 for a usage error and 1 for any
// other.
package history
