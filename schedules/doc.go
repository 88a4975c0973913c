// Package schedules decides the order of message updates on a graph.Graph and
// checks convergence.
//
// Schedules are small trees of data: Step (one message), Sequence (parts in
// order) and Loop (a body repeated until the largest change of a marginal is
// at most a tolerance, with an iteration cap, optional damping and a name).
// Run executes a schedule under a context and reports a Result: the final
// change, the number of loop passes and whether every loop converged.
// Nothing loops forever and non-convergence is never hidden. Every Result
// also says whether the graph has a cycle (Result.Cyclic): loopy message
// passing counts evidence more than once around a cycle, so its marginals
// are approximate even when it converges; Converged means that a pass of
// this run changed nothing by more than the tolerance (graph.Graph.Reset
// starts a run from the priors again). A factor's panic fails its update
// with an error naming it (a *graph.UpdateError), and nil options are
// ignored. The context
// is checked when a run starts, before every loop pass and when the run
// ends, so a run whose deadline has passed never reports success.
//
// The default change metric is messages.Distance, which is scale-free: the
// mean shift in standard deviations and the relative change of precision.
// One tolerance (default 1e-6) therefore means the same thing whatever the
// rating scale. WithMetric substitutes another (messages.MaxDiff, or
// messages.AbsDiff to reproduce the stopping points of other TrueSkill
// implementations).
//
// A Loop with the Residual option skips, after its first pass, the updates
// whose inputs have not moved by more than a threshold since they last ran
// (residual scheduling): late passes over a long chain then cost a fraction
// of the early ones, at the same stopping rule.
//
// Tree builds the exact two-pass schedule of a tree-shaped graph, Flooding a
// loop over every edge for any graph, and the TrueSkill paper's Figure 1
// schedule is written with Step, Sequence and Loop (see the package example).
// Schedules name factors by ID, so one schedule serves every graph built with
// the same structure.
//
// One engine runs every graph: a Runner compiles each schedule, the first
// time it runs it, into a Plan, a flat program with one op per message
// update and each loop a pair of jumps, every factor and edge resolved to
// an index; running it again allocates nothing. Every factor, the
// library's and a user's alike, is called through graph.Factor, so a
// user's factor runs on the same engine at the same cost per call; the
// package knows no factor type. Schedule types of a user's own run
// inside a plan through their Run method, which drives the Runner.
//
// Concurrency: Schedule values (Step, Sequence, Loop) are not modified by
// running them and may be shared between goroutines; a Runner, like the
// Graph it runs, is for one goroutine at a time.
package schedules
