package sharedtest

import (
	"flag"
	"math"
	"testing"
)

var sink []byte

// work burns a little time without allocating.
func work() float64 {
	s := 0.0
	for i := range 200 {
		s += math.Sqrt(float64(i))
	}
	return s
}

// TestInterleave checks what Interleave promises without timing anything:
// the operation runs exactly b.N iterations, the baseline at least once,
// allocations count for the operation alone, and the ratio is reported.
// It runs a fixed 1,000 iterations, more than Interleave's blocks.
func TestInterleave(t *testing.T) {
	bt := flag.Lookup("test.benchtime")
	old := bt.Value.String()
	if err := bt.Value.Set("1000x"); err != nil {
		t.Fatal(err)
	}
	defer bt.Value.Set(old)
	for _, c := range []struct {
		name               string
		opAlloc, baseAlloc bool
		want               int64
	}{
		{"baseline allocates", false, true, 0},
		{"operation allocates", true, false, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			var ops, bases int
			var acc float64
			side := func(count *int, alloc bool) func(int) {
				return func(n int) {
					*count += n
					for range n {
						acc += work()
						if alloc {
							sink = make([]byte, 64)
						}
					}
				}
			}
			var n int
			r := testing.Benchmark(func(b *testing.B) {
				ops, bases, n = 0, 0, b.N
				Interleave(b, side(&ops, c.opAlloc), side(&bases, c.baseAlloc))
			})
			if n != 1000 || ops != n || bases < 1 || r.N != n {
				t.Errorf("b.N %d (result %d): operation ran %d, baseline %d", n, r.N, ops, bases)
			}
			if got := r.AllocsPerOp(); got != c.want {
				t.Errorf("allocs/op %d, want %d", got, c.want)
			}
			if x, ok := r.Extra["x-baseline"]; !ok || !(x > 0) || math.IsInf(x, 0) {
				t.Errorf("x-baseline %v (reported %v)", x, ok)
			}
			_ = acc
		})
	}
}
