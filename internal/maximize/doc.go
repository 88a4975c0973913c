// Package maximize is the one search every evidence fit of the models
// runs (scorebased.Fit, throughtime.Fit and the TrueSkill fit of the
// history command): Fit maximises a log evidence over a few parameters
// of a model's parameter type, each bounded and searched on its own
// scale, with gonum's Nelder-Mead simplex, keeping the best point seen.
// It stops at the first error an evaluation returns and when the context
// is done, and takes and returns the types of package models/fit.
package maximize
