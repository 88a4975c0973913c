//go:build !race

package serve_test

// matchesTotal is how many matches the nothing-lost tests post.
const matchesTotal = 1000
