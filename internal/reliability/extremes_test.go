package reliability_test

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/internal/repo"
)

// The property of this file: every exported function and method of the
// engine's packages (messages, graph, factors, schedules) and of the
// models scorebased and elo, called on extreme inputs (±0, subnormals,
// ±1e308, the largest float64, NaN, ±Inf, empty and nil slices, nil
// pointers and options, IDs out of range), returns within a second
// without panicking, with a finite answer or an error that matches one
// of its package's sentinels (errors.Is) or error types (errors.As).
// Each package's table of probes is checked against the package's
// exported API, parsed from its sources, so that a new export without a
// probe fails the test.

// extremeFloats are the values every float64 argument is drawn from.
var extremeFloats = []float64{
	0, math.Copysign(0, -1), 5e-324, -5e-324, 2.2250738585072014e-308, 1e-300,
	1, -1, 0.5, 3, -25, 1e10, -1e10, 1e154, 1e300, -1e300, 1e308, -1e308,
	math.MaxFloat64, -math.MaxFloat64, math.NaN(), math.Inf(1), math.Inf(-1),
}

// ordinaryFloats are the values of the ordinary calls (every other call):
// in the domain of every function and far from float64's limits, where an
// answer that is not finite is wrong even for package messages.
var ordinaryFloats = []float64{0, 1, -1, 0.5, 3, -25, 1e-3, 1e3, -1e3, 1e10, -1e10}

// extremeInts are the values every int argument (counts, IDs, indices,
// iteration caps) is drawn from.
var extremeInts = []int{0, 1, 2, 3, -1, 100, math.MaxInt32, math.MinInt32, math.MaxInt, math.MinInt}

// draws is one call's source of arguments: a fixed-seed generator that
// records what it handed out, to name a failing call.
type draws struct {
	rng *rand.Rand
	log []string
	// ordinary restricts the floats to ordinaryFloats and the positive
	// ones to [1e-3, 1e3].
	ordinary bool
	// unbounded is set when a loop's cap was drawn beyond 1000 passes:
	// such a run is bounded by its context only (Ctx gives it a
	// deadline), and direct runs, which have none, set capped to draw
	// no such cap.
	unbounded, capped bool
	cancel            []context.CancelFunc
}

// ordinaryCall marks the draws of an ordinary call, for the log.
func (d *draws) note(format string, a ...any) { d.log = append(d.log, fmt.Sprintf(format, a...)) }

// F returns an extreme float64, sometimes an ordinary one.
func (d *draws) F() float64 {
	x := extremeFloats[d.rng.IntN(len(extremeFloats))]
	if d.ordinary {
		x = ordinaryFloats[d.rng.IntN(len(ordinaryFloats))]
	}
	d.note("%v", x)
	return x
}

// Pos returns a positive float64 of any size, most often an ordinary one:
// a scale parameter whose ordinary values let a call reach its numerics.
func (d *draws) Pos() float64 {
	xs := []float64{1, 0.5, 4, 25, 5e-324, 1e-300, 1e-10, 1e10, 1e154, 1e300, math.MaxFloat64}
	x := xs[d.rng.IntN(len(xs))]
	if d.ordinary || d.rng.IntN(2) == 0 {
		x = xs[d.rng.IntN(4)]
	}
	d.note("%v", x)
	return x
}

// I returns an extreme int (a small one in an ordinary call).
func (d *draws) I() int {
	n := extremeInts[d.rng.IntN(len(extremeInts))]
	if d.ordinary {
		n = d.rng.IntN(4)
	}
	d.note("%d", n)
	return n
}

// Small returns an int in [-1, n]: an ID or index near a small graph's.
func (d *draws) Small(n int) int {
	i := d.rng.IntN(n+2) - 1
	if d.rng.IntN(8) == 0 {
		i = d.I()
	}
	d.note("%d", i)
	return i
}

// Fs returns nil, an empty slice or up to four extreme floats.
func (d *draws) Fs() []float64 {
	switch d.rng.IntN(6) {
	case 0:
		d.note("nil")
		return nil
	case 1:
		d.note("[]")
		return []float64{}
	}
	xs := make([]float64, 1+d.rng.IntN(4))
	for i := range xs {
		xs[i] = d.F()
	}
	return xs
}

// S returns a string: empty, ordinary or odd.
func (d *draws) S() string {
	s := []string{"", "a", "x", "ü\x00\n", strings.Repeat("z", 300)}[d.rng.IntN(5)]
	d.note("%q", s)
	return s
}

// B returns a bool.
func (d *draws) B() bool { b := d.rng.IntN(2) == 0; d.note("%v", b); return b }

// Ctx returns a background, cancelled or nil context; one whose deadline
// is 100 ms away if the call's loops may run unbounded (see unbounded).
func (d *draws) Ctx() context.Context {
	if d.unbounded {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		d.cancel = append(d.cancel, cancel)
		d.note("ctx with a deadline")
		return ctx
	}
	switch d.rng.IntN(4) {
	case 0:
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		d.note("cancelled ctx")
		return ctx
	case 1:
		d.note("nil ctx")
		return nil //nolint:staticcheck // a nil context is an extreme input
	}
	d.note("ctx")
	return context.Background()
}

// probe calls one exported function (name: "F" or "Type.Method", as
// declared) with arguments drawn from d, and returns the floats of its
// answer (to be finite unless err is set) and its error.
type probe struct {
	name string
	call func(d *draws) (out []float64, err error)
	// nonFinite, if set, says which non-finite answers are the function's
	// contract for the arguments drawn (package messages answers as math's
	// functions do: NaN for a NaN input or outside the domain, ±∞ for a
	// value beyond float64's range): those are not failures.
	nonFinite func(d *draws, out []float64) bool
	// pending, if set, names whose fix the probe's failures wait for (the
	// factors of another change): they are logged, with a count, instead
	// of failing the test.
	pending string
}

// api describes one package for the property.
type api struct {
	dir    string // the package's folder in the repository
	probes []probe
	// typed reports whether err is one of the package's typed errors.
	typed func(err error) bool
	// calls is the number of sampled calls per probe.
	calls int
}

// isAny reports whether err matches one of the sentinels.
func isAny(err error, sentinels ...error) bool {
	for _, s := range sentinels {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

// outcome of one call.
type outcome struct {
	out      []float64
	err      error
	panicked any
}

// limit is the time a call should take: calls on these small inputs take
// microseconds to milliseconds. One still running after hang has hung and
// fails the test; one that returns between the two is logged, not failed,
// since a machine shared by many test runs (and the race detector) can
// stretch any call: this is a test of termination, not of speed.
const (
	limit = time.Second
	hang  = 30 * time.Second
)

// runProbe makes the probe's sampled calls and reports every failure.
func runProbe(t *testing.T, a api, p probe, seed uint64) (calls int) {
	errorf, failures := t.Errorf, 0
	if p.pending != "" {
		errorf = func(format string, args ...any) {
			if failures++; failures <= 3 {
				t.Logf("pending (%s): "+format, append([]any{p.pending}, args...)...)
			}
		}
		defer func() {
			if failures > 0 {
				t.Logf("pending (%s): %s fails %d of %d calls", p.pending, p.name, failures, calls)
			}
		}()
	}
	rng := rand.New(rand.NewPCG(seed, 29))
	for i := range a.calls {
		d := &draws{rng: rng, ordinary: i%2 == 0}
		done := make(chan outcome, 1)
		go func() {
			var o outcome
			defer func() {
				if r := recover(); r != nil {
					o.panicked = r
				}
				done <- o
			}()
			o.out, o.err = p.call(d)
			for _, c := range d.cancel {
				c()
			}
		}()
		var o outcome
		start := time.Now()
		select {
		case o = <-done:
		case <-time.After(limit):
			select {
			case o = <-done:
				t.Logf("%s(%s) took %v, over %v", p.name, strings.Join(d.log, ", "), time.Since(start).Round(time.Millisecond), limit)
			case <-time.After(hang - limit):
				errorf("%s(%s) has not returned after %v", p.name, strings.Join(d.log, ", "), hang)
				return calls
			}
		}
		calls++
		args := strings.Join(d.log, ", ")
		switch {
		case o.panicked != nil:
			errorf("%s(%s) panics: %v", p.name, args, o.panicked)
		case o.err != nil:
			if !a.typed(o.err) {
				errorf("%s(%s): untyped error %v", p.name, args, o.err)
			}
		default:
			for _, x := range o.out {
				if math.IsNaN(x) || math.IsInf(x, 0) {
					if p.nonFinite == nil || !p.nonFinite(d, o.out) {
						errorf("%s(%s) = %v with a nil error", p.name, args, o.out)
					}
					break
				}
			}
		}
	}
	return calls
}

// exported returns the exported functions and methods (of exported types)
// declared in the non-test sources of the package in dir, as "F" and
// "Type.Method".
func exported(t *testing.T, dir string) []string {
	root, err := repo.Root()
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(root, dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || !fn.Name.IsExported() {
				continue
			}
			if fn.Recv == nil {
				names = append(names, fn.Name.Name)
				continue
			}
			typ := fn.Recv.List[0].Type
			if star, ok := typ.(*ast.StarExpr); ok {
				typ = star.X
			}
			if idx, ok := typ.(*ast.IndexExpr); ok { // a generic type
				typ = idx.X
			}
			if id, ok := typ.(*ast.Ident); ok && id.IsExported() {
				names = append(names, id.Name+"."+fn.Name.Name)
			}
		}
	}
	slices.Sort(names)
	return names
}

// checkAPI runs every probe of a and checks that they cover the package's
// exported API: every exported function has a probe, and every probe
// names an exported function.
func checkAPI(t *testing.T, a api) {
	want := exported(t, a.dir)
	have := map[string]bool{}
	for _, p := range a.probes {
		have[p.name] = true
	}
	for _, n := range want {
		if !have[n] {
			t.Errorf("%s: exported %s has no probe: add one to the table", a.dir, n)
		}
	}
	for n := range have {
		if !slices.Contains(want, n) {
			t.Errorf("%s: probe %s names no exported function", a.dir, n)
		}
	}
	total := 0
	for i, p := range a.probes {
		total += runProbe(t, a, p, uint64(i)+1)
	}
	t.Logf("%s: %d functions, %d calls", a.dir, len(a.probes), total)
}

// fin collects float64 fields of answers, for the finiteness check: it
// flattens float64s, slices of them and structs of them.
func fin(vs ...any) []float64 {
	var out []float64
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Float64:
			out = append(out, v.Float())
		case reflect.Slice, reflect.Array:
			for i := range v.Len() {
				walk(v.Index(i))
			}
		case reflect.Struct:
			for i := range v.NumField() {
				if v.Type().Field(i).IsExported() {
					walk(v.Field(i))
				}
			}
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Map:
			for it := v.MapRange(); it.Next(); {
				walk(it.Value())
			}
		}
	}
	for _, x := range vs {
		walk(reflect.ValueOf(x))
	}
	return out
}

// extremeCall reports whether the call drew extreme arguments: the
// functions of package messages, like math's, answer some of them with NaN
// or ±∞ (a NaN in, a quantile outside [0, 1], a log-probability beyond
// float64), and have no error to return instead; their ordinary calls must
// answer finite numbers.
func extremeCall(d *draws, _ []float64) bool { return !d.ordinary }
