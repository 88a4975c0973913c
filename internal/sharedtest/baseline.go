package sharedtest

import (
	"testing"
	"time"
)

// interleaveBlocks is how many blocks of the operation Interleave
// alternates with the baseline at most: enough that a change of load on
// the machine lasting a small part of the run falls on both sides alike,
// few enough that the timer's stops (each reads the memory statistics)
// cost little.
const interleaveBlocks = 1024

// Interleave runs a benchmark's operation and its baseline alternately, in
// blocks: op(n) and base(n) each run n iterations on their own inputs. op
// runs b.N iterations in all; after or before each of its blocks the
// baseline runs as many iterations as take about as long, at its cost
// measured so far, so that both sides sample the machine's load over the
// same stretch of the run and for as long. b's timer runs only during op,
// so ns/op and allocs/op are op's own (op may stop and restart the timer
// itself, but must return with it running). It reports "x-baseline", op's
// time per iteration over base's, which holds on a loaded machine.
//
// Interleave resets b's timer first: callers build their inputs before.
func Interleave(b *testing.B, op, base func(n int)) {
	b.ReportAllocs()
	size := max(1, b.N/interleaveBlocks)
	var baseTime time.Duration
	baseIters := 0
	runBase := func(want time.Duration) {
		n := 1
		if baseTime > 0 {
			n = max(1, int(float64(want)*float64(baseIters)/float64(baseTime)))
		}
		b.StopTimer()
		t0 := time.Now()
		base(n)
		baseTime += time.Since(t0)
		baseIters += n
		b.StartTimer()
	}
	b.ResetTimer()
	var last time.Duration // op's latest block
	for done, k := 0, 0; done < b.N; k++ {
		n := min(size, b.N-done)
		if k%2 == 1 { // every other block, the baseline first
			runBase(last)
		}
		t0 := b.Elapsed()
		op(n)
		last = b.Elapsed() - t0
		if k%2 == 0 {
			runBase(last)
		}
		done += n
	}
	b.StopTimer()
	if baseTime <= 0 {
		b.Fatal("baseline took no measurable time")
	}
	perOp := float64(b.Elapsed()) / float64(b.N)
	perBase := float64(baseTime) / float64(baseIters)
	b.ReportMetric(perOp/perBase, "x-baseline")
}
