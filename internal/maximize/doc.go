// Package maximize finds the maximum of a function of a few parameters
// with gonum's Nelder-Mead simplex: Maximize keeps the best point seen,
// stops at the first error an evaluation returns, and stops when the
// context is done. Fit is the one bounded, transformed search that every
// evidence fit of the models runs (scorebased.Fit, throughtime.Fit), with
// the types of package models/fit.
package maximize
