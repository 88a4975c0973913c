// Package compile writes a schedule on a graph out as Go source: a model
// compiler in the manner of Infer.NET's, which turns a factor graph and its
// schedule into straight-line code.
//
// An interpreted run (schedules.Run) pays for its generality on every
// update: a dynamic call per schedule part and per factor, an Edges view,
// index lookups for every cavity and marginal. The generated code does the
// same arithmetic with all of that resolved when it was generated: each
// update is the factor's own Go statements (Emitter) on local variables
// that hold the messages and marginals (written back to the graph at the
// end), and each Loop is a Go for loop. It computes what the interpreter
// computes, update by update, with three differences, all documented on
// Program: it starts from the graph's reset state, it measures changes with
// messages.Distance and reports to no observer, and it runs every update of
// a loop pass (a Loop's Residual option is an interpreter optimisation and
// is ignored). Where every factor is also an EvidenceEmitter, the graph's
// log evidence (Graph.LogEvidence) is compiled too.
//
// Generated code covers the common path of each update and nothing else.
// Whenever the interpreter would leave its common path (an invalid
// parameter, a uniform or point-mass cavity, an observed variable, a cavity
// that cancels, a non-finite message) the program stops with ErrFallback,
// and Program.RunWithFallback reruns the schedule with the interpreter,
// which handles the case or reports the error. So a compiled program never
// changes a result or an error, only the time it takes.
//
// Use: build the graph and schedule of each shape you want compiled, pass
// them to Generate (from a go:generate program), and at run time look the
// program up with the generated lookup function, which matches graphs and
// schedules by Fingerprint. Factors take part by implementing Emitter (and
// EvidenceEmitter); Prior, Likelihood, WeightedSum, GreaterThan and Within
// in package factors do. Package models/trueskill is a worked example
// (compiled_gen.go and the test that writes it).
package compile
