// Package exact solves a linear-Gaussian factor graph exactly: the true
// posterior marginals and the log evidence of a graph whose factors are all
// graph.LinearForm (priors, likelihoods, weighted sums, equalities, Gaussian
// and linear-Gaussian observations), by dense linear algebra (gonum/mat).
//
// On a tree, message passing reaches the same answer. On a loopy graph,
// Gaussian belief propagation and expectation propagation, when they
// converge, give the exact means but variances that are too small: each
// loop lets a piece of evidence arrive twice, and the messages count it
// twice. Solve is how tests check loopy schedules, and how a user can see
// how far a model's variances are off. The cost is cubic in the number of
// latent variables (about a second at 2,000), so it suits models of up to a
// few thousand variables.
package exact
