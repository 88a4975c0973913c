//go:build !race

package trueskill_test

const raceEnabled = false
