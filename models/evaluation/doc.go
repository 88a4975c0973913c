// Package evaluation measures how well rating models predict, with the
// protocols of the two papers skillgraph implements, so that users can run
// them on their own data:
//
//   - ScoreExperiment: the score-based paper's section 5 (Guo et al. 2012):
//     each season of N matches separately, test on its last ⌈0.2·N⌉
//     matches (TestSize) after training online on its first 10 %, 20 %, …
//     80 %; information gain, win/no-win AUC and score MAE per model, mean
//     and 95 % interval over seasons. ScoreModels are the paper's five
//     models with its Table 1 settings (TrueSkill without dynamics unless
//     ScoreConfig gives a τ); they forecast in log-probabilities
//     (ScorePrediction), and InformationGain scores those logs as they
//     are, with no clamping.
//   - RankingExperiment: the TrueSkill paper's section 4.1: online
//     prediction error (the share of team pairs predicted in the wrong
//     order before each game) for TrueSkill and Elo, over all games and
//     over the 20 % of games the other system judged most tightly matched.
//     A predicted tie is an error unless WithTies(TiesHalf) is given; Elo's
//     tightness is the match quality with σ = 0 (EloLogQuality, whose
//     comment derives it); the draw probability is the data's unless
//     WithDrawProbability sets it.
//
// Metrics (InformationGain, AUC, PairErrors, EloLogQuality, MeanCI,
// PairedTest) and loaders for the CSV formats of the repository's
// examples/data (LoadScored, LoadRanked) are exported on their own.
//
// Every function checks its input and returns an error wrapping one of the
// package's sentinels (ErrInput, ErrNotFinite, ErrNoData, …) that names
// the offending argument, match or field, rather than panicking, looping
// or returning NaN: a NaN result always comes with an error, except in
// ScoreMetrics, where it marks a metric a model or test set lacks. The
// loaders are strict, and their errors are a *FileError giving the file,
// line and column.
package evaluation
