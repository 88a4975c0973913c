// Package history is the skillgraph command's history subcommand: it
// smooths a whole history of games with TrueSkill
// Through Time (package models/throughtime), fits its parameters, compares
// its one-step-ahead predictions with TrueSkill's, or checks the package
// against the reference vectors of TrueSkillThroughTime.py.
//
//	go run ./examples/throughtime -matches examples/data/f1_races.csv -draw 0.1 -out DIR
//	go run ./examples/throughtime -matches examples/data/epl.csv -draw 0.25 -fit
//	go run ./examples/throughtime -matches examples/data/epl.csv -draw 0.25 -evaluate -k 3
//	go run ./examples/throughtime -cases models/throughtime/testdata/ttt_cases.json
//
// -matches reads either the long format match_id,date,team,player,rank
// (one row per player) or the scores format
// date,season,home,away,home_score,away_score (each match a two-team game,
// equal scores a draw), told apart by the header; dates are YYYY-MM-DD,
// counted in -unit (days, weeks, months, years, or a number of days). It
// runs the forward pass and then sweeps to -tol, showing progress on
// stderr, and prints whether it converged, after how many sweeps and how
// long, the evidence, and the players with the highest final skill; -out
// writes every learning curve as CSV and the top players' curves as SVG.
// -fit first fits σ₀, γ and the draw probability to the history's
// filtered evidence (-fit-evidence smoothed for the smoothed one) and
// prints them. -evaluate predicts every game one step ahead by filtering,
// by smoothing the history so far (-k sweeps after each batch) and by
// plain TrueSkill, and prints their log-loss and accuracy (-json FILE
// writes them too). With -cases the last line is "ttt conformance: N
// passed, M failed", and the exit status is 1 if any failed.
package history
