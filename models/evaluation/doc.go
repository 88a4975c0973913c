// Package evaluation measures how well rating models predict, with the
// protocols of the two papers skillgraph implements, so that users can run
// them on their own data:
//
//   - ScoreExperiment: the score-based paper's section 5 (Guo et al. 2012):
//     each season separately, test on its last 20 % of matches after
//     training online on its first 10 %, 20 %, … 80 %; information gain,
//     win/no-win AUC and score MAE per model, mean and 95 % interval over
//     seasons.
//   - RankingExperiment: the TrueSkill paper's section 4.1: online
//     prediction error (the share of team pairs predicted in the wrong order
//     before each game) for TrueSkill and Elo, over all games and over the
//     20 % of games the other system judged most tightly matched.
//
// Metrics (InformationGain, AUC, PairErrors, MeanCI) and loaders for the
// CSV formats of ../shared/data (LoadScored, LoadRanked) are exported on
// their own.
//
// Every function checks its input and returns an error wrapping one of the
// package's sentinels (ErrInput, ErrNotFinite, ErrNoData, …) that names
// the offending argument, match or field, rather than panicking, looping
// or returning NaN: a NaN result always comes with an error, except in
// ScoreMetrics, where it marks a metric a model or test set lacks. The
// loaders are strict, and their errors are a *FileError giving the file,
// line and column.
package evaluation
