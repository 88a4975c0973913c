// Package cli holds what the skillgraph command's subcommands and the
// example programs share on the command line: exit statuses, flag parsing
// that reports a mistake in one line, one-line failure reports, "did you
// mean" suggestions, and Fprintf for tables, whose zeros carry no sign.
package cli
