// Package evaluation measures how well rating models predict, with the
// protocols of the two papers skillgraph implements, on matches read by
// package record:
//
//   - ScoreExperiment: the score-based paper's section 5 (Guo et al.
//     2012): each season tested on its last ⌈0.2·N⌉ matches after online
//     training on its first 10 %, 20 %, … 80 %; information gain,
//     win/no-win AUC and score MAE per model, mean and 95 % interval over
//     seasons. ScoreModels are the paper's five models with its Table 1
//     settings, each a Predictor the protocol drives (Observe each
//     training match, then Predict each test match), forecasting in
//     log-probabilities that InformationGain scores unclamped.
//   - RankingExperiment: the TrueSkill paper's section 4.1: online
//     prediction error of TrueSkill and Elo (the share of team pairs
//     predicted in the wrong order), over all games and over the 20 % the
//     other system judged most tightly matched.
//
// The metrics (InformationGain, AUC, PairErrors, EloLogQuality, MeanCI,
// PairedTest) are exported on their own. Every function checks its input,
// returning an error rather than panicking, looping or returning NaN: a
// NaN result comes with an error, except in ScoreMetrics, where it marks a
// metric a model or test set lacks.
package evaluation
