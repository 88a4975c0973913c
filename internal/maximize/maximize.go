package maximize

import (
	"context"
	"math"
	"slices"

	"gonum.org/v1/gonum/optimize"
)

// simplexOptions set the search.
type simplexOptions struct {
	// SimplexSize is the initial simplex's size, in the units of x.
	SimplexSize float64
	// MaxEvaluations caps the evaluations (0: no cap).
	MaxEvaluations int
	// The search has converged when the best value has improved by less
	// than Absolute over Iterations iterations.
	Absolute   float64
	Iterations int
	// Start, if not nil, is f at x0, known already, which saves an
	// evaluation.
	Start *float64
}

// optimum is the best point an evaluation saw, its value, and the search's
// counts and final status.
type optimum struct {
	X           []float64
	Value       float64
	Evaluations int
	Iterations  int
	Status      optimize.Status
}

// converged reports whether the search stopped because it converged.
func (r optimum) converged() bool {
	return r.Status == optimize.FunctionConvergence || r.Status == optimize.MethodConverge
}

// nelderMead searches for the x that maximises f from x0. A value of −Inf
// (or NaN) marks a point the search should leave, and an error from f
// ends the search with that error; so does ctx's end, checked before each
// evaluation. Reaching MaxEvaluations is not an error: the optimum's
// Status says so. The optimum holds the best point seen, even with an
// error.
func nelderMead(ctx context.Context, f func(x []float64) (float64, error), x0 []float64, opt simplexOptions) (optimum, error) {
	res := optimum{Value: math.Inf(-1)}
	if opt.Start != nil {
		res.X, res.Value = slices.Clone(x0), *opt.Start
	}
	var failed error
	problem := optimize.Problem{
		Func: func(x []float64) float64 {
			if failed != nil {
				return math.Inf(1)
			}
			v, err := f(x)
			if err != nil {
				failed = err
				return math.Inf(1)
			}
			if v > res.Value {
				res.X, res.Value = append(res.X[:0], x...), v
			}
			if v != v {
				return math.Inf(1)
			}
			return -v
		},
		Status: func() (optimize.Status, error) {
			if failed == nil {
				failed = ctx.Err()
			}
			if failed != nil {
				return optimize.Failure, failed
			}
			return optimize.NotTerminated, nil
		},
	}
	settings := &optimize.Settings{
		FuncEvaluations: opt.MaxEvaluations,
		Converger:       &optimize.FunctionConverge{Absolute: opt.Absolute, Iterations: opt.Iterations},
	}
	if opt.Start != nil {
		settings.InitValues = &optimize.Location{F: -*opt.Start}
	}
	out, err := optimize.Minimize(problem, x0, settings, &optimize.NelderMead{SimplexSize: opt.SimplexSize})
	if out != nil {
		res.Evaluations, res.Iterations, res.Status = out.FuncEvaluations, out.MajorIterations, out.Status
	}
	if failed != nil {
		return res, failed
	}
	if err != nil && res.Status != optimize.FunctionEvaluationLimit {
		return res, err
	}
	return res, nil
}
