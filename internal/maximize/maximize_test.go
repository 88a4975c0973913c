package maximize

import (
	"context"
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/optimize"
)

// bowl is −(x−1)² − 2(y+3)², whose maximum 0 is at (1, −3).
func bowl(x []float64) (float64, error) {
	return -(x[0]-1)*(x[0]-1) - 2*(x[1]+3)*(x[1]+3), nil
}

func TestNelderMeadFindsTheMaximum(t *testing.T) {
	opt := simplexOptions{SimplexSize: 0.5, MaxEvaluations: 2000, Absolute: 1e-12, Iterations: 20}
	res, err := nelderMead(context.Background(), bowl, []float64{5, 5}, opt)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(res.X[0]-1) > 1e-4 || math.Abs(res.X[1]+3) > 1e-4 || res.Value < -1e-8 || !res.converged() {
		t.Errorf("%+v, want (1, −3), 0, converged", res)
	}
}

// TestNelderMeadStops: an evaluation's error ends the search with it and
// the best point so far; so does a cancelled context; −Inf marks a point
// to leave; an evaluation cap is a status, not an error.
func TestNelderMeadStops(t *testing.T) {
	opt := simplexOptions{SimplexSize: 0.5, MaxEvaluations: 2000, Absolute: 1e-12, Iterations: 20}
	boom := errors.New("boom")
	n := 0
	res, err := nelderMead(context.Background(), func(x []float64) (float64, error) {
		if n++; n == 30 {
			return 0, boom
		}
		return bowl(x)
	}, []float64{5, 5}, opt)
	if !errors.Is(err, boom) || res.X == nil || res.Value > 0 || n != 30 {
		t.Errorf("an evaluation's error: %+v, %v after %d evaluations", res, err, n)
	}

	ctx, cancel := context.WithCancel(context.Background())
	n = 0
	_, err = nelderMead(ctx, func(x []float64) (float64, error) {
		if n++; n == 10 {
			cancel()
		}
		return bowl(x)
	}, []float64{5, 5}, opt)
	if !errors.Is(err, context.Canceled) || n != 10 {
		t.Errorf("cancelled: %v after %d evaluations", err, n)
	}

	// Only x > 2 is allowed: the maximum there is at the edge, x → 2.
	res, err = nelderMead(context.Background(), func(x []float64) (float64, error) {
		if x[0] <= 2 {
			return math.Inf(-1), nil
		}
		return bowl(x)
	}, []float64{5, 5}, opt)
	if err != nil || !(res.X[0] > 2) || math.Abs(res.X[0]-2) > 1e-3 {
		t.Errorf("with a wall at x = 2: %+v, %v", res, err)
	}

	opt.MaxEvaluations = 5
	res, err = nelderMead(context.Background(), bowl, []float64{5, 5}, opt)
	if err != nil || res.Status != optimize.FunctionEvaluationLimit || res.converged() {
		t.Errorf("capped: %+v, %v", res, err)
	}
}
