package fit

// Bounds is the closed interval [Lo, Hi] a parameter is fitted in;
// Lo == Hi holds it fixed at that value.
type Bounds struct {
	Lo float64 `json:"lo"`
	Hi float64 `json:"hi"`
}

// Fixed reports whether the bounds hold the parameter fixed.
func (b Bounds) Fixed() bool { return b.Lo == b.Hi }

// Options are a fit's stopping rule and progress hook; P is the model's
// parameter type. The zero value takes the model's defaults.
type Options[P any] struct {
	// Tolerance is the improvement of the log evidence (in nats) below
	// which the search has converged: the best value has gained less
	// than Tolerance over as many simplex iterations as the model's Fit
	// documents. 0 takes the model's default; it must not be negative.
	Tolerance float64
	// MaxEvaluations caps the evaluations of the evidence, the start's
	// included. 0 takes the model's default; it must not be negative.
	MaxEvaluations int
	// Progress, if not nil, is called after each evaluation of the
	// evidence that returned a finite value.
	Progress func(Progress[P])
}

// Progress is what a fit reports after an evaluation of the evidence.
type Progress[P any] struct {
	// Evaluation counts the evaluations so far, from 1 (the start).
	Evaluation int `json:"evaluation"`
	// Params were evaluated, with log evidence LogEvidence; Best is the
	// largest log evidence so far.
	Params      P       `json:"params"`
	LogEvidence float64 `json:"log_evidence"`
	Best        float64 `json:"best"`
}

// Report describes a finished fit.
type Report struct {
	// LogEvidence is the log evidence of the fitted parameters,
	// StartLogEvidence that of the start.
	LogEvidence      float64 `json:"log_evidence"`
	StartLogEvidence float64 `json:"start_log_evidence"`
	// Evaluations counts the evaluations of the evidence, the start's
	// included; Iterations the simplex iterations.
	Evaluations int `json:"evaluations"`
	Iterations  int `json:"iterations"`
	// Converged reports that the search stopped because the evidence no
	// longer improved by Options.Tolerance, not at MaxEvaluations;
	// Status is the optimiser's reason for stopping.
	Converged bool   `json:"converged"`
	Status    string `json:"status"`
	// AtBound names the free parameters that ended on a bound of their
	// search: the optimum may lie beyond it.
	AtBound []string `json:"at_bound,omitempty"`
	// Unconverged counts the evaluations whose evidence came from an
	// inner iteration that stopped at its cap before converging (the
	// smoothing of throughtime's SmoothedEvidence).
	Unconverged int `json:"unconverged,omitempty"`
}
