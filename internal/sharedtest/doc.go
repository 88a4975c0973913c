// Package sharedtest holds what several packages' tests share: the
// repository root, the peer vectors shipped in models/trueskill/testdata,
// and the one-baseline benchmark reporting (Baseline).
package sharedtest
