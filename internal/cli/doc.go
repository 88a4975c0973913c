// Package cli holds what the skillgraph command's subcommands and the
// example programs share on the command line: exit statuses, flag parsing
// that reports a mistake in one line, the flags of probabilities
// (ProbabilityFlag, the one reader of them), one-line failure reports,
// "did you mean" suggestions, Fprintf for tables, whose zeros carry no
// sign, and an Output that remembers a failed write.
package cli
