// Package input reads the subcommands' data files through the record
// package, the one reader of skillgraph's CSV formats (dates or
// timestamps, rows out of time order sorted, unknown columns named), says
// on stderr what the reader did, and turns its matches into the shapes the
// evaluation and history code take.
package input
