// Package input reads the subcommands' data files through the record
// package, the one reader of skillgraph's CSV formats (dates or
// timestamps, rows out of time order sorted, unknown columns named), says
// on stderr what the reader did, and checks that matches have the shape
// the score-based protocols take.
package input
