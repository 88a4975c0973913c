package maximize_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/internal/maximize"
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/models/fit"
)

// point is a parameter set of three: a scale S, a location L and one
// held fixed, F.
type point struct{ S, L, F float64 }

// peak is −(log S − log 2)² − (L − 0.3)²: its maximum 0 is at S = 2,
// L = 0.3, whatever F.
func peak(p point) (float64, error) {
	return -(math.Log(p.S)-math.Log(2))*(math.Log(p.S)-math.Log(2)) - (p.L-0.3)*(p.L-0.3), nil
}

func params(s, l, f fit.Bounds) []maximize.Param[point] {
	return []maximize.Param[point]{
		{Name: "S", At: func(p *point) *float64 { return &p.S }, Bounds: s, Log: true, Step: 0.5},
		{Name: "L", At: func(p *point) *float64 { return &p.L }, Bounds: l, Step: 0.5},
		{Name: "F", At: func(p *point) *float64 { return &p.F }, Bounds: f, Step: 0.5},
	}
}

// TestFitLogit: a probability searched on its logit scale with Reject
// finds the maximum of −(logit q − logit 0.2)², 0 at q = 0.2, and a
// bound below it leaves it there without evaluating a point beyond it.
func TestFitLogit(t *testing.T) {
	logit := func(q float64) float64 { return math.Log(q / (1 - q)) }
	for _, c := range []struct{ hi, want float64 }{{0.9, 0.2}, {0.1, 0.1}} {
		beyond := 0
		evidence := func(p point) (float64, error) {
			if p.L > c.hi {
				beyond++
			}
			return -(logit(p.L) - logit(0.2)) * (logit(p.L) - logit(0.2)), nil
		}
		q := []maximize.Param[point]{{Name: "L", At: func(p *point) *float64 { return &p.L }, Bounds: fit.Bounds{Lo: 1e-3, Hi: c.hi}, Logit: true, Step: 1}}
		p, _, err := maximize.Fit(context.Background(), point{L: 0.05}, q, evidence, search(maximize.Reject), fit.Options[point]{})
		if err != nil || math.Abs(p.L-c.want) > 1e-3*c.want || beyond != 0 {
			t.Errorf("q in [1e-3, %v]: %+v, %v, %d evaluations beyond; want q %v", c.hi, p, err, beyond, c.want)
		}
	}
	q := []maximize.Param[point]{{Name: "L", At: func(p *point) *float64 { return &p.L }, Bounds: fit.Bounds{Lo: 0, Hi: 0.5}, Logit: true, Step: 1}}
	if _, _, err := maximize.Fit(context.Background(), point{L: 0.05}, q, peak, search(maximize.Reject), fit.Options[point]{}); !errors.Is(err, messages.ErrInput) || !strings.Contains(err.Error(), "logit") {
		t.Errorf("logit bounds [0, 0.5]: %v, want ErrInput", err)
	}
}

func search(m maximize.Map) maximize.Search {
	s := maximize.Search{Map: m, SimplexSize: 0.3, Tolerance: 1e-12, Iterations: 20, MaxEvaluations: 2000}
	if m == maximize.Walls {
		s.SimplexSize, s.Restarts = 1, 1
	}
	return s
}

// TestFitFindsTheMaximum: with each map, the fit finds the peak inside
// wide bounds (F held at its fixed value), and a bound that cuts the peak
// off leaves the parameter on it, named in AtBound. Progress follows
// every evaluation, its Best the running maximum.
func TestFitFindsTheMaximum(t *testing.T) {
	ctx := context.Background()
	for _, m := range []maximize.Map{maximize.Logistic, maximize.Walls, maximize.Reject} {
		var seen []fit.Progress[point]
		progress := func(p fit.Progress[point]) { seen = append(seen, p) }
		p, rep, err := maximize.Fit(ctx, point{S: 0.5, L: -1, F: 9}, params(fit.Bounds{Lo: 0.01, Hi: 100}, fit.Bounds{Lo: -5, Hi: 5}, fit.Bounds{Lo: 7, Hi: 7}), peak, search(m), fit.Options[point]{Progress: progress})
		if err != nil || math.Abs(p.S-2) > 1e-4 || math.Abs(p.L-0.3) > 1e-4 || p.F != 7 || !rep.Converged || len(rep.AtBound) != 0 {
			t.Errorf("map %d: %+v, %+v, %v; want S 2, L 0.3, F 7, converged", m, p, rep, err)
		}
		want, _ := peak(point{S: 0.5, L: -1})
		if rep.StartLogEvidence != want || rep.LogEvidence != seen[len(seen)-1].Best || len(seen) != rep.Evaluations {
			t.Errorf("map %d: report %+v after %d progress calls; start's value %v", m, rep, len(seen), want)
		}
		best := math.Inf(-1)
		for i, s := range seen {
			best = math.Max(best, s.LogEvidence)
			if s.Evaluation != i+1 || s.Best != best || s.Params.S < 0.01 || s.Params.S > 100 {
				t.Fatalf("map %d: progress %d: %+v", m, i, s)
			}
		}

		p, rep, err = maximize.Fit(ctx, point{S: 0.5, L: 0, F: 7}, params(fit.Bounds{Lo: 0.1, Hi: 1}, fit.Bounds{Lo: -5, Hi: 5}, fit.Bounds{Lo: 7, Hi: 7}), peak, search(m), fit.Options[point]{})
		if err != nil || math.Abs(p.S-1) > 1e-6 || p.S > 1 || len(rep.AtBound) != 1 || rep.AtBound[0] != "S" {
			t.Errorf("map %d, S in [0.1, 1]: %+v, %+v, %v; want S at 1", m, p, rep, err)
		}
	}
}

// TestFitStarts: Walls clamps a start outside its bounds into them,
// Logistic refuses it; bad bounds are ErrInput; a start whose value is
// not finite is ErrNumerical; an evaluation cap too small for a simplex
// returns the start, not converged.
func TestFitStarts(t *testing.T) {
	ctx := context.Background()
	wide, fixed := fit.Bounds{Lo: -5, Hi: 5}, fit.Bounds{Lo: 7, Hi: 7}
	p, _, err := maximize.Fit(ctx, point{S: 50, L: 0}, params(fit.Bounds{Lo: 0.1, Hi: 10}, wide, fixed), peak, search(maximize.Walls), fit.Options[point]{})
	if err != nil || math.Abs(p.S-2) > 1e-4 {
		t.Errorf("Walls from outside: %+v, %v", p, err)
	}
	for _, c := range []struct {
		name  string
		start point
		s, l  fit.Bounds
		want  string
	}{
		{"outside", point{S: 50}, fit.Bounds{Lo: 0.1, Hi: 10}, wide, "strictly inside"},
		{"Lo above Hi", point{S: 1}, fit.Bounds{Lo: 10, Hi: 0.1}, wide, "Lo above Hi"},
		{"NaN", point{S: 1}, fit.Bounds{Lo: 0.1, Hi: 10}, fit.Bounds{Lo: math.NaN(), Hi: 1}, "not finite"},
		{"log of 0", point{S: 1}, fit.Bounds{Lo: 0, Hi: 10}, wide, "Lo > 0"},
	} {
		if _, _, err := maximize.Fit(ctx, c.start, params(c.s, c.l, fixed), peak, search(maximize.Logistic), fit.Options[point]{}); !errors.Is(err, messages.ErrInput) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ErrInput naming %q", c.name, err, c.want)
		}
	}
	inf := func(point) (float64, error) { return math.Inf(-1), nil }
	if _, _, err := maximize.Fit(ctx, point{S: 1}, params(fit.Bounds{Lo: 0.1, Hi: 10}, wide, fixed), inf, search(maximize.Walls), fit.Options[point]{}); !errors.Is(err, messages.ErrNumerical) {
		t.Errorf("−Inf at the start: %v", err)
	}
	s := search(maximize.Logistic)
	s.MaxEvaluations = 2
	p, rep, err := maximize.Fit(ctx, point{S: 1, L: 0}, params(fit.Bounds{Lo: 0.1, Hi: 10}, wide, fixed), peak, s, fit.Options[point]{})
	if err != nil || p != (point{S: 1, L: 0, F: 7}) || rep.Converged || rep.Evaluations != 1 || rep.Status != "FunctionEvaluationLimit" {
		t.Errorf("two evaluations for two parameters: %+v, %+v, %v", p, rep, err)
	}
}

// TestFitFailures: an evaluation's error ends a Logistic fit with it, and
// marks a point for Walls to leave; a cancelled context ends either.
func TestFitFailures(t *testing.T) {
	ctx := context.Background()
	boom := errors.New("boom")
	// L above 1 fails: the peak at 0.3 is inside what works.
	fragile := func(p point) (float64, error) {
		if p.L > 1 {
			return 0, boom
		}
		return peak(p)
	}
	b := params(fit.Bounds{Lo: 0.1, Hi: 10}, fit.Bounds{Lo: -5, Hi: 5}, fit.Bounds{Lo: 7, Hi: 7})
	if _, _, err := maximize.Fit(ctx, point{S: 1, L: 0.9}, b, fragile, search(maximize.Logistic), fit.Options[point]{}); !errors.Is(err, boom) || !strings.Contains(err.Error(), "evaluation") {
		t.Errorf("Logistic: %v, want boom", err)
	}
	p, _, err := maximize.Fit(ctx, point{S: 1, L: 0.9}, b, fragile, search(maximize.Walls), fit.Options[point]{})
	if err != nil || math.Abs(p.L-0.3) > 1e-4 {
		t.Errorf("Walls: %+v, %v; want L 0.3", p, err)
	}
	for _, m := range []maximize.Map{maximize.Logistic, maximize.Walls} {
		c, cancel := context.WithCancel(ctx)
		n := 0
		slow := func(p point) (float64, error) {
			if n++; n == 10 {
				cancel()
			}
			return peak(p)
		}
		if _, _, err := maximize.Fit(c, point{S: 1}, b, slow, search(m), fit.Options[point]{}); !errors.Is(err, context.Canceled) {
			t.Errorf("map %d, cancelled: %v", m, err)
		}
	}
}

// TestFitLogisticWideBounds: with Logistic every point the simplex visits
// lies inside the bounds, also bounds as wide as float64 (±MaxFloat64),
// whose difference overflows: the evidence, −|L − 3|/1e300, finite there,
// is never asked about a NaN or an infinite L.
func TestFitLogisticWideBounds(t *testing.T) {
	bad := 0
	evidence := func(p point) (float64, error) {
		if !(p.L >= -math.MaxFloat64 && p.L <= math.MaxFloat64) {
			bad++
		}
		return -math.Abs(p.L-3) / 1e300, nil
	}
	ps := params(fit.Bounds{Lo: 1, Hi: 1}, fit.Bounds{Lo: -math.MaxFloat64, Hi: math.MaxFloat64}, fit.Bounds{})
	s := maximize.Search{Map: maximize.Logistic, SimplexSize: 1, Tolerance: 1e-9, Iterations: 20, MaxEvaluations: 200}
	if _, _, err := maximize.Fit(context.Background(), point{S: 1, L: 0}, ps, evidence, s, fit.Options[point]{}); err != nil {
		t.Errorf("Fit within ±MaxFloat64: %v", err)
	}
	if bad > 0 {
		t.Errorf("%d evaluations at an L outside ±MaxFloat64", bad)
	}
}
