// Package repo finds files shipped in this repository (the data in
// examples/data, the reference vectors in testdata) from wherever a
// program or test runs inside it: go run from the root, go test from a
// package's folder.
package repo
