// Package factortest is the factor author's kit: it runs a factor alone at
// chosen cavities, outside any model, and checks its messages and evidence
// against numerical quadrature of the factor's definition and against each
// other. The engine's own factors are tested with it, and a new factor
// needs only its density to be tested the same way.
//
// Message and LogAverageFactor evaluate a factor at cavities (proper
// Gaussians, point masses or uniform messages), as a graph would show them
// to it. Tilted integrates a density against proper or point-mass cavities
// by Gauss–Legendre quadrature: the normaliser and the moments of the
// tilted distribution, which is what an exact or expectation-propagation
// message must reproduce (Minka 2001). Check runs every test that applies
// to a Case:
//
//   - each edge's message: the cavity times the message has the tilted
//     distribution's mean and variance;
//   - the evidence: LogAverageFactor is the log of the tilted normaliser,
//     and a graph.GaussianEvidence term agrees with it;
//   - messages and evidence agree with each other: the derivatives of the
//     log evidence with respect to a cavity's mean and variance give the
//     tilted moments (Minka's identities), which holds without a density,
//     so deterministic factors (weighted sums) are checked too;
//   - a graph.LinearForm describes the density it claims to.
//
// Variational factors (graph.Approximate reporting "VMP") do not send the
// projection of the tilted distribution: Check checks their evidence as
// any factor's, and the message of a unary one against the stationarity of
// KL(q ‖ p) in q's mean and variance (the conditions of Guo et al. 2012's
// Lemma 1), by quadrature of log f (Case.LogDensity).
package factortest
