// Package evaluate is the skillgraph command's evaluate subcommand: it
// reproduces the experiments of both papers, with the
// reusable parts from models/evaluation:
//
//  1. the score-based paper's section 5: Premier League 1995-96 to 2008-09
//     and AFL 2000-2010, each season on its own, test on the last ⌈0.2·N⌉
//     of its N matches, train online on the first ⌊s·N⌋ for s = 10 % …
//     80 %; TrueSkill (τ = 0, as the paper's Table 1), Poisson-OD,
//     Gaussian-OD, Gaussian-SD and Elo; information gain (unclamped, from
//     log-probabilities), AUC and score MAE, mean and 95 % interval over
//     seasons, paired t-tests over seasons between the models the paper
//     compares, and a figure laid out like its Figure 4; -fit adds the
//     three score models with hyperparameters fitted to each training set
//     (σ₀, β, the prior's expected score and a home advantage, by
//     scorebased.Fit), since the paper's settings are on TrueSkill's scale;
//
//  2. the TrueSkill paper's section 4.1: online prediction error, full and
//     challenged, of TrueSkill and Elo on Formula 1 races and on the
//     Premier League as two-team games; a predicted tie is an error (-ties
//     half makes it half of one), Elo's tightness is the match quality with
//     σ = 0, and TrueSkill's draw probability is the data's unless -draw
//     sets it.
//
// Usage:
//
//	skillgraph evaluate                        shipped data only
//	skillgraph evaluate -data ../shared/data -out DIR -json FILE
//	skillgraph evaluate -data ../shared/data -fit  (with fitted models)
//	skillgraph evaluate -matches FILE [-draw p] (experiment 2 on any long-format
//	                                             file: match_id, time, team,
//	                                             player, rank)
//
// Without -data it reads examples/data (found by walking up from the
// working folder to the module root): the Premier League (epl.csv, CC0)
// and Formula 1 (f1_races.csv, CC BY 4.0) are shipped there, the AFL
// (afl.csv) is not redistributable and is left out, which the output says.
// A file absent from the data folder is left out the same way; with -data
// ../shared/data every part runs.
//
// -out DIR (created if absent) gets the figure, drawn by internal/plot as
// figure4.svg, or figure4.png with -figure png. Progress (a line per
// season of experiment 1 and per thousand games of experiment 2) goes to
// stderr once the run has taken longer than -progress.
//
// -json FILE writes every number the program prints (and the per-season
// values behind them) as JSON, NaN as null. It reads every input and makes
// sure it can write the figure and the JSON before it starts. Errors are
// one line, "skillgraph evaluate: what went wrong", with exit status 2 for
// a usage error and 1 for any other.
package evaluate
