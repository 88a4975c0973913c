// Package reliability holds the cross-package table of bad inputs and what
// each returns (reliability_test.go): every public entry point answers bad
// input with a typed error, matchable with errors.Is or errors.As, never a
// panic or a NaN. It has no code of its own.
package reliability
