// Package cli holds what the skillgraph command's subcommands and the
// example programs share on the command line: exit statuses, flag parsing
// that reports a mistake in one line, one-line failure reports, and
// "did you mean" suggestions.
package cli
