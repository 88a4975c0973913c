// Package messages provides the typed messages of skillgraph and the special
// functions their updates need.
//
// Gaussian holds a univariate Gaussian in natural parameters (precision π and
// precision-adjusted mean τ, as in Table 1 of Herbrich, Minka and Graepel,
// "TrueSkill™: A Bayesian Skill Rating System", NIPS 2006), with the uniform
// message and point masses as ordinary values. Products, quotients and
// shifts are parameter arithmetic; Distance, MaxDiff and AbsDiff measure
// change for convergence tests; LogNormalizer, LogAverageOf and
// LogAverageOfRatio are the integrals evidence is assembled from.
//
// The special functions keep full relative accuracy where the textbook forms
// fail: NormCDF, LogNormCDF, InvMillsRatio, and the truncation corrections
// GreaterThan and Within (the paper's V and W functions for the win and draw
// factors, with 1 − W computed directly). They are checked against a table of
// values computed with mpmath at 200 digits (testdata/gen_special.py) over
// t ∈ [−1e4, 1e4] and ε ∈ [1e-12, 50] to a relative error of 1e-9.
// InvMillsRatio, which the win corrections are built on, is also checked
// across its polynomial table (testdata/inv_mills_ratio.csv, from
// testdata/gen_mills.py) to 1.25 ulp.
//
// This package imports nothing else from skillgraph.
package messages
