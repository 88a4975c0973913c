package sharedtest

import (
	"flag"
	"os"
	"sync"
	"testing"
)

// Baseline is the benchmark every other benchmark of a package is reported
// against, as a ratio measured in the same run ("x-baseline"), so that the
// ratios hold on a machine of any speed.
type Baseline struct {
	bench func(*testing.B)
	once  sync.Once
	ns    float64
}

// NewBaseline returns the baseline that bench measures.
func NewBaseline(bench func(*testing.B)) *Baseline { return &Baseline{bench: bench} }

// Measure runs the baseline once per test binary with testing.Benchmark.
// testing.Benchmark cannot run inside a benchmark, so Main calls it first.
func (bl *Baseline) Measure() float64 {
	bl.once.Do(func() {
		r := testing.Benchmark(bl.bench)
		bl.ns = float64(r.T.Nanoseconds()) / float64(r.N)
	})
	return bl.ns
}

// Report stops b's timer and reports its ns/op as a ratio to the baseline.
func (bl *Baseline) Report(b *testing.B) {
	b.StopTimer()
	if bl.ns <= 0 {
		b.Fatal("baseline not measured")
	}
	ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	b.ReportMetric(ns/bl.ns, "x-baseline")
}

// Main is a TestMain: it measures bl before the benchmarks run, if any are
// requested, then runs the tests.
func (bl *Baseline) Main(m *testing.M) {
	flag.Parse()
	if f := flag.Lookup("test.bench"); f != nil && f.Value.String() != "" {
		bl.Measure()
	}
	os.Exit(m.Run())
}
