package compile

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/schedules"
)

// Emitter is implemented by factors whose message operators can be written
// out as Go. Its signature uses only basic types, so a factor implements it
// without importing this package.
//
// GoMessage returns Go statements that compute the factor's message on edge
// i in natural parameters and assign it to the variables named out[0]
// (precision) and out[1] (precision-adjusted mean), which are declared. The
// statements read the factor's parameters at run time through self, an
// expression of the factor's own type. cavity(k) returns expressions for
// the cavity on edge k (precision, precision-adjusted mean); calling it
// makes the compiled code compute that cavity first, and the cavity is then
// proper with positive, finite precision. fail is a statement that abandons
// the compiled run: the statements must execute it in every case where the
// factor's Message would not take the path the statements compute (an
// invalid parameter, a zero coefficient, a special case of the
// mathematics), so that the interpreter decides those cases. The statements
// may use the packages math and messages; they are placed in a block of
// their own, so their temporaries cannot clash with other updates', and
// names beginning with an underscore are reserved for the compiler.
type Emitter interface {
	GoMessage(i int, self string, cavity func(k int) (pi, tau string), out [2]string, fail string) (string, error)
}

// Errors of compiling, binding and running.
var (
	// ErrFallback is returned by a Program that met a case its compiled
	// code does not cover; RunWithFallback reruns the schedule with the
	// interpreter.
	ErrFallback = errors.New("compiled program: case not compiled, use the interpreter")
	// ErrNotCompiled is returned by a generated lookup function for a
	// graph and schedule that no generated program was compiled from.
	ErrNotCompiled = errors.New("no compiled program for this graph and schedule")
	// ErrMismatch is returned by a generated binder for a graph or schedule
	// other than the one it was compiled from.
	ErrMismatch = errors.New("graph or schedule differs from the one compiled")
	// ErrUnsupported reports a schedule part or a factor that cannot be
	// compiled: a custom Schedule, or a factor that is not an Emitter.
	ErrUnsupported = errors.New("cannot be compiled")
)

// EvidenceEmitter is implemented by Emitters whose evidence term can be
// written out as Go as well. GoLogEvidence returns Go statements that
// compute it from the cavities on the factor's edges (cavity, self and fail
// as for GoMessage) the way Graph.LogEvidence uses the factor: if term is
// true, as the parts of LogAverageFactorTerm's graph.LogTerm, assigned to
// out[0] (Quad), out[1] (Var) and out[2] (Norm); otherwise as the value of
// LogAverageFactor, assigned to out[0].
type EvidenceEmitter interface {
	GoLogEvidence(self string, cavity func(k int) (pi, tau string), out [3]string, fail string) (code string, term bool, err error)
}

// Program is a compiled schedule bound to one graph, made by a generated
// binder. Its Run performs the schedule's updates from the graph's reset
// state (whatever the graph held before), with the arithmetic of each
// factor's Message and each update inside a Loop measured with
// messages.Distance; it leaves the graph as Reset followed by
// schedules.Run would, and returns what schedules.Run would return, up to
// rounding. It differs from the interpreter in three
// ways: it starts from a reset graph; it reports to no observer and uses
// no other metric; it runs every update of every loop pass (a Loop's
// Residual option is ignored, so its results are those of the loop without
// it: equal to the interpreter's to within the loop's tolerance). Loop
// tolerances, iteration caps and damping are read from the schedule's
// LoopSchedule values at every run. If the run meets a case its code does
// not cover it returns ErrFallback, with the graph in an unspecified
// state: use RunWithFallback. Its LogEvidence is Graph.LogEvidence
// compiled, when every factor is an EvidenceEmitter. A Program is not safe
// for concurrent use, as its graph is not.
type Program struct {
	g        *graph.Graph
	run      func(context.Context) (schedules.Result, error)
	evidence func() (float64, error) // nil: not compiled
}

// NewProgram is called by generated binders: run performs the schedule on
// g, evidence (nil if not compiled) computes g's log evidence.
func NewProgram(g *graph.Graph, run func(context.Context) (schedules.Result, error), evidence func() (float64, error)) *Program {
	return &Program{g: g, run: run, evidence: evidence}
}

// Run runs the compiled schedule; see Program.
func (p *Program) Run(ctx context.Context) (schedules.Result, error) { return p.run(ctx) }

// RunWithFallback runs p, and if p returns ErrFallback resets the graph and
// runs s with r, the interpreter (r must run the graph and schedule p was
// bound to). Any other result of p is returned as it is.
func (p *Program) RunWithFallback(ctx context.Context, r *schedules.Runner, s schedules.Schedule) (schedules.Result, error) {
	res, err := p.run(ctx)
	if err != ErrFallback {
		return res, err
	}
	r.Graph().Reset()
	return r.Run(ctx, s)
}

// LogEvidence returns the graph's log evidence at its current messages, as
// Graph.LogEvidence does, or ErrFallback if it was not compiled or meets a
// case its code does not cover.
func (p *Program) LogEvidence() (float64, error) {
	if p.evidence == nil {
		return 0, ErrFallback
	}
	return p.evidence()
}

// LogEvidenceWithFallback returns LogEvidence, or Graph.LogEvidence where
// that returns ErrFallback.
func (p *Program) LogEvidenceWithFallback() (float64, error) {
	lz, err := p.LogEvidence()
	if err != ErrFallback {
		return lz, err
	}
	return p.g.LogEvidence()
}

// Fingerprint identifies the structure of a graph and a schedule: the
// number of variables, each factor's Go type and variables, and the
// schedule's steps and loop nesting. Loop parameters (tolerance, iteration
// cap, damping, residual), factor parameters and observations are not part
// of it: a Program reads them at run time. Schedules other than Step,
// Sequence and Loop give ErrUnsupported.
func Fingerprint(g *graph.Graph, s schedules.Schedule) (string, error) {
	if g == nil {
		return "", fmt.Errorf("compile: nil graph: %w", ErrUnsupported)
	}
	var sb strings.Builder
	sb.WriteString("variables ")
	sb.WriteString(strconv.Itoa(g.NumVariables()))
	for f := 0; f < g.NumFactors(); f++ {
		fid := graph.FactorID(f)
		sb.WriteString("\nfactor ")
		sb.WriteString(reflect.TypeOf(g.Factor(fid)).String())
		for i := 0; i < g.Arity(fid); i++ {
			sb.WriteByte(' ')
			sb.WriteString(strconv.Itoa(int(g.EdgeVariable(fid, i))))
		}
	}
	sb.WriteString("\nschedule ")
	if err := writeSchedule(&sb, g, s); err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(sb.String()))
	return hex.EncodeToString(sum[:16]), nil
}

func writeSchedule(sb *strings.Builder, g *graph.Graph, s schedules.Schedule) error {
	switch s := s.(type) {
	case *schedules.StepSchedule:
		if s == nil || !g.HasEdge(s.Factor, s.Edge) {
			return fmt.Errorf("compile: step %v: %w", s, graph.ErrNoFactor)
		}
		fmt.Fprintf(sb, "%d.%d ", s.Factor, s.Edge)
	case *schedules.SequenceSchedule:
		if s == nil {
			return fmt.Errorf("compile: nil sequence: %w", ErrUnsupported)
		}
		sb.WriteString("( ")
		for _, p := range s.Parts {
			if err := writeSchedule(sb, g, p); err != nil {
				return err
			}
		}
		sb.WriteString(") ")
	case *schedules.LoopSchedule:
		if s == nil {
			return fmt.Errorf("compile: nil loop: %w", ErrUnsupported)
		}
		sb.WriteString("loop[ ")
		if err := writeSchedule(sb, g, s.Body); err != nil {
			return err
		}
		sb.WriteString("] ")
	default:
		return fmt.Errorf("compile: schedule %T: %w (only Step, Sequence and Loop)", s, ErrUnsupported)
	}
	return nil
}

// Bind checks that g and s have the fingerprint fp. Generated binders call
// it (a generated lookup function, which has matched the fingerprint
// already, does not).
func Bind(g *graph.Graph, s schedules.Schedule, fp string) error {
	got, err := Fingerprint(g, s)
	if err != nil {
		return err
	}
	if got != fp {
		return fmt.Errorf("compile: fingerprint %s, compiled for %s: %w", got, fp, ErrMismatch)
	}
	return nil
}

// Loops returns the loops of s in the order their bodies begin. Generated
// code calls it.
func Loops(s schedules.Schedule) []*schedules.LoopSchedule { return loops(s, nil) }

func loops(s schedules.Schedule, out []*schedules.LoopSchedule) []*schedules.LoopSchedule {
	switch s := s.(type) {
	case *schedules.SequenceSchedule:
		for _, p := range s.Parts {
			out = loops(p, out)
		}
	case *schedules.LoopSchedule:
		out = loops(s.Body, append(out, s))
	}
	return out
}

// FactorMismatch is the error of a generated binder whose graph's factor f
// is not of the type it was compiled for.
func FactorMismatch(g *graph.Graph, f graph.FactorID, want string) error {
	return fmt.Errorf("compile: factor %d is %T, compiled for %s: %w", f, g.Factor(f), want, ErrMismatch)
}

// Canceled wraps a context error as the interpreter's Loop does.
func Canceled(loop string, err error) error {
	return fmt.Errorf("schedules: loop %q: %w", loop, err)
}
