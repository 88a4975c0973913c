//go:build race

package serve_test

// matchesTotal is how many matches the nothing-lost tests post: fewer
// under the race detector, which slows the servers down tenfold.
const matchesTotal = 160
