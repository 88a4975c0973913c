// Package maximize finds the maximum of a function of a few parameters
// with gonum's Nelder-Mead simplex, as every evidence fit of the models
// does (scorebased.Fit, throughtime.Fit, the TrueSkill fit of
// examples/throughtime): it keeps the best point seen, stops at the first
// error an evaluation returns, and stops when the context is done.
package maximize
