// Package scores is the skillgraph command's scores subcommand: it rates
// one season of any scores file (time, home, away, home_score, away_score
// and optionally season) with the score-based models of Guo et al. (2012),
// Poisson-OD, Gaussian-OD and Gaussian-SD, and with TrueSkill, holding out
// its last fixtures. It prints each team's ratings, how the models'
// one-step-ahead predictions of the training matches compare with what
// happened (mean goals per side, draw rate), and every model's predicted
// score and win/draw/loss probabilities for the held-out fixtures beside
// the actual results.
//
//	skillgraph scores                              the shipped Premier League, its last season
//	skillgraph scores -matches FILE -season 2019-20 -next 10
//	skillgraph scores -season 2008-09 -fit=false   the paper's settings
//
// A file with a season column is rated a season at a time: the last by
// default, or -season's. A file without one is rated whole.
//
// Each score model's σ₀, β, base score and home advantage are chosen by
// maximising the evidence of the training matches (scorebased.Fit), and
// the output shows the paper's settings' evidence beside them; the draw
// probability TrueSkill uses is the training matches' share of draws,
// printed. With -fit=false the models keep the paper's settings (Table 1:
// σ₀ = 25/3, β = 25/6), which are on the wrong scale for goals, as the
// output says: the Gaussian models' predictions are nearly flat and
// Poisson-OD's goals are off. Each fitted model is reported on stderr
// once the fits have run longer than -progress.
//
// Errors are one line, "skillgraph scores: what went wrong", with exit
// status 2 for a usage error and 1 for any other.
package scores
