// Package fit holds what every evidence fit of skillgraph's models
// shares: the range a parameter is searched in (Bounds), the search's
// stopping rule and progress hook (Options), what is reported after each
// evaluation of the evidence (Progress) and at the end (Report).
//
// scorebased.Fit and throughtime.Fit (and the TrueSkill fit of the
// history command's -evaluate) take and return these types and run the
// same search: gonum's Nelder–Mead simplex over the free parameters
// (a scale parameter on the scale of its logarithm), the log evidence of
// the data as the objective, and the best point any evaluation saw as
// the answer. Each model's Fit says how its search keeps to the bounds:
// throughtime's by the logit of each parameter's place between them,
// scorebased's by a penalty outside them, the TrueSkill fit by leaving a
// point outside them unevaluated.
package fit
