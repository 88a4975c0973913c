// Package scores is the skillgraph command's scores subcommand: it rates one season of a league file (columns date, season,
// home, away, home_score, away_score) with the score-based models of Guo et
// al. (2012), Poisson-OD, Gaussian-OD and Gaussian-SD, and with TrueSkill,
// holding out its last fixtures. It prints each team's ratings, how the
// models' one-step-ahead predictions of the training matches compare with
// what happened (mean goals per side, draw rate), and every model's
// predicted score and win/draw/loss probabilities for the held-out
// fixtures beside the actual results.
//
//	go run ./examples/scores                 # the paper's settings, 2008-09 Premier League
//	go run ./examples/scores -fit            # hyperparameters fitted by evidence
//	go run ./examples/scores -data FILE -season 2019-20 -next 10
//
// The paper's settings (Table 1: σ₀ = 25/3, β = 25/6) are on the wrong
// scale for goals, which the output says: the Gaussian models' predictions
// are nearly flat and Poisson-OD's goals are off. With -fit each score
// model's σ₀, β, base score and home advantage are chosen by maximising
// the evidence of the training matches (scorebased.Fit), and the output
// shows both settings' evidence.
//
// Errors are one line, "scores: what went wrong", with exit status 2 for a
// usage error and 1 for any other.
package scores
