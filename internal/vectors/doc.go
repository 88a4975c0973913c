// Package vectors reads a JSON file of reference vectors into the type
// that describes it (peercases.File, tttcases.File), so that every
// conformance check loads its cases the same way.
package vectors
