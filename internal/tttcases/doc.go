// Package tttcases reads the TrueSkill Through Time reference vectors
// (shared/vectors/ttt_cases.json, copied into models/throughtime/testdata)
// and checks package throughtime against them, for its test and for
// examples/throughtime.
package tttcases
