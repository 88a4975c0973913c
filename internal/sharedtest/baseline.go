package sharedtest

import (
	"testing"
	"time"
)

// interleaveBlocks is how many blocks of each side Interleave alternates at
// most: enough that a change of load on the machine lasting a small part of
// the run falls on both sides alike, few enough that the timer's stops
// (each reads the memory statistics) cost nothing measurable.
const interleaveBlocks = 64

// Interleave runs a benchmark's operation and its baseline alternately, in
// blocks, until each has run b.N iterations: op(n) and base(n) each run n
// iterations on their own inputs. b's timer runs only during op, so ns/op
// and allocs/op are op's own (op may stop and restart the timer itself,
// but must return with it running). It reports "x-baseline", op's total
// time over base's: both are measured over the same stretch of the run, so
// the ratio holds on a loaded machine. The blocks alternate which side
// runs first, so a trend in the load does not favour either.
//
// Interleave resets b's timer first: callers build their inputs before.
func Interleave(b *testing.B, op, base func(n int)) {
	b.ReportAllocs()
	size := max(1, b.N/interleaveBlocks)
	var baseTime time.Duration
	runBase := func(n int) {
		b.StopTimer()
		t0 := time.Now()
		base(n)
		baseTime += time.Since(t0)
		b.StartTimer()
	}
	b.ResetTimer()
	for done, k := 0, 0; done < b.N; k++ {
		n := min(size, b.N-done)
		if k%2 == 0 {
			op(n)
			runBase(n)
		} else {
			runBase(n)
			op(n)
		}
		done += n
	}
	b.StopTimer()
	if baseTime <= 0 {
		b.Fatal("baseline took no measurable time")
	}
	b.ReportMetric(float64(b.Elapsed())/float64(baseTime), "x-baseline")
}
