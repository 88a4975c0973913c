// Package exact computes the posteriors of factor graphs with Gaussian
// beliefs by sparse linear algebra over all the latent variables at once.
//
// Solve is exact for a linear-Gaussian graph, one whose factors are all
// graph.LinearForm (priors, likelihoods, weighted sums, equalities,
// Gaussian and linear-Gaussian observations): each constraint (a
// zero-variance factor, such as a sum) is solved for one of its variables,
// a sparse Cholesky factorisation of the precision of the variables left
// free gives the means and the log evidence, and its selected inverse
// (the entries of the covariance on the factor's pattern, by Takahashi's
// recursion) every marginal variance, never a dense inverse. The cost
// follows the fill of the factor rather than the number of variables: a
// chain or a tree is linear in its length, a league's match variables
// cost little, and a graph whose variables are all coupled costs the
// cube of their number.
//
// EP is joint-Gaussian expectation propagation for any graph: its
// posterior is one multivariate Gaussian over the latent variables, in
// which the linear factors enter exactly and every other factor (the
// truncations of a win or a draw, a Poisson score, a user's factor) is
// approximated by Gaussian sites refined at cavities taken from the joint
// marginals: one joint site over all its variables for a factor that
// implements Tilted (the margin factors of package factors do), which
// keeps the correlation the factor makes between them, and otherwise a
// site on each edge, refined through the factor's own Message.
//
// Errors wrap the project's vocabulary, messages.ErrInput (a graph Solve
// or EP cannot take: ErrNotLinear for Solve, an improper posterior,
// contradictory constraints, an option out of range) and
// messages.ErrNumerical (both for a precision too ill-conditioned for
// float64, whose elimination cancels all but 1e-12 of a diagonal entry, as
// a variance of 1e-18 beside one of 1e-2 on the same variable does), with
// the variable or factor in their message; a factor's failure is a
// *graph.UpdateError naming it.
//
// Loopy message passing (package schedules) keeps one Gaussian per
// variable. On a tree it reaches the same answers; on a graph with cycles
// it finds the right means, but each cycle lets a piece of evidence arrive
// twice, and its variances come out wrong, as a rule too small, with no
// guaranteed sign, and its log evidence moves with them. Solve is how
// tests check loopy schedules, EP is the inference to use when the
// uncertainty matters on a loopy graph, and both show a user how far a
// model's loopy variances are off.
package exact
