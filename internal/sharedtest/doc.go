// Package sharedtest holds what several packages' tests share: the
// repository root, the peer vectors shipped in models/trueskill/testdata,
// and benchmarks' ratios to a baseline measured interleaved with them
// (Interleave).
package sharedtest
