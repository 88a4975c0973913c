// Package conformance rates the cases of a TrueSkill reference-vector file
// (schema trueskill-peer-vectors/1) with models/trueskill and compares the
// results with each case's own tolerance. The conformance program and the
// package's tests share it.
package conformance
