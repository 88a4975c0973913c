// Package factors implements the factors of Table 1 of the TrueSkill paper
// (Herbrich, Minka and Graepel 2006) as graph.Factor operators, one message
// formula per edge:
//
//	Prior               N(x; m, v²)        row 1
//	Likelihood          N(x; y, c²)        row 2, both directions
//	WeightedSum         I(x = aᵀy)         rows 3-4, to the sum and to every term
//	GreaterThan         I(x > ε)           row 5, expectation propagation
//	Within              I(|x| ≤ ε)         row 5, expectation propagation
//	GaussianObservation N(y; x, c²), y observed
//
// and, for draw margins that are variables (Dangauthier, Herbrich, Minka
// and Graepel 2007), ExceedsMargin I(x > m), WithinMargin I(|x| ≤ m) and
// BetweenMargins I(−u ≤ x ≤ v), by expectation propagation.
//
// Each factor is a small struct of parameters that may be changed between
// runs of a reused graph. Each implements graph.Evidence, so a graph built
// from them reports its log evidence (for TrueSkill, the probability of the
// observed outcome), the exact ones also graph.GaussianEvidence (the same
// term in parts, so the graph needs one logarithm for all of them), and
// graph.Validator, so invalid parameters are reported by the builder
// rather than surfacing as NaN. The parameters are validated there, once:
// the messages do not check them again, so a caller who changes them
// between runs keeps them valid (their Validate says whether they are).
// A new factor is one file: a
// type with Arity and Message, plus LogAverageFactor for evidence.
package factors
