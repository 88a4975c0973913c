// Package graph is the factor graph of skillgraph: variables with Gaussian
// beliefs, factors that compute messages, and the edges between them.
//
// A Builder assembles a graph and validates it; the resulting Graph stores
// the current factor→variable message on every edge and caches every
// variable's marginal (the product of its incoming messages), so that a
// cavity, the variable→factor message, is one division (equation 6 of the
// TrueSkill paper). Graph.Update recomputes one message and folds it into
// the marginal; schedules (package schedules) decide the order.
//
// A Factor is one small interface: Arity, and Message(i, edges) returning the
// new message on edge i. Expectation-propagation factors moment-match against
// their cavities; variational factors read marginals and their previous
// message; both use the same method, so a non-Gaussian likelihood such as a
// Poisson score (a variational fixed point, Guo et al. 2012, Lemma 1) plugs
// in like any other. Optional interfaces add evidence (Evidence, and
// GaussianEvidence for terms of Gaussian form, whose logarithms LogEvidence
// gathers into one), parameter validation (Validator), readable labels
// (Labeler) and the approximation's name (Approximate).
//
// Storage is flat (slices indexed by dense IDs, adjacency in one array), so a
// graph of hundreds of thousands of variables costs memory linear in its
// edges, and a small per-match graph can be Reset and rerun without
// allocating. Layers put nodes into rows for drawing (package dot), and
// groups (Builder.Group) box nodes together: a player over time, a game.
package graph
