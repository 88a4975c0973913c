package tttcases

import (
	"context"
	"fmt"
	"math"

	"github.com/skillgraph/skillgraph/internal/vectors"
	"github.com/skillgraph/skillgraph/models/throughtime"
)

// File is the reference file.
type File struct {
	Tolerances struct {
		Mu          float64 `json:"mu_abs"`
		Sigma       float64 `json:"sigma_abs"`
		LogEvidence float64 `json:"log_evidence_rel"`
	} `json:"tolerances"`
	Cases []Case `json:"cases"`
}

// Case is one history with its expected results.
type Case struct {
	Name   string `json:"name"`
	Inputs struct {
		Composition [][][]string  `json:"composition"`
		Ranks       [][]int       `json:"ranks"`
		Times       []float64     `json:"times"`
		Weights     [][][]float64 `json:"weights"`
		Params      struct {
			Mu, Sigma, Beta, Gamma float64
			PDraw                  float64 `json:"p_draw"`
		} `json:"params"`
		Priors map[string]throughtime.Player `json:"priors"`
	} `json:"inputs"`
	Expected struct {
		Convergence struct {
			Epsilon       float64 `json:"epsilon"`
			MaxIterations int     `json:"max_iterations"`
			Iterations    int     `json:"iterations"`
		} `json:"convergence"`
		Filtering State `json:"filtering"`
		Converged State `json:"converged"`
	} `json:"expected"`
}

// State is the expected state after the forward pass or after convergence.
type State struct {
	LogEvidence       float64                 `json:"log_evidence"`
	LearningCurves    map[string][][3]float64 `json:"learning_curves"`
	LogEvidenceByGame []float64               `json:"log_evidence_by_game"`
}

// Load reads a reference file.
func Load(path string) (*File, error) {
	f, err := vectors.Load[File](path)
	if err != nil {
		return nil, fmt.Errorf("tttcases: %w", err)
	}
	if len(f.Cases) == 0 {
		return nil, fmt.Errorf("tttcases: %s: no cases", path)
	}
	return f, nil
}

// Outcome is the check of one case: every failure, each game's evidence
// where the reference's is an approximation (three or more teams) beside
// ours, and the sweeps each took to converge.
type Outcome struct {
	Name            string
	Failures        []string
	Notes           []string
	Sweeps          int
	ReferenceSweeps int
}

// Check runs one case: the history, its forward pass and its convergence
// to the reference's epsilon, comparing learning curves and, for games of
// two teams, evidence (the reference's is exact there).
func (f *File) Check(c Case) Outcome {
	out := Outcome{Name: c.Name}
	in := &c.Inputs
	games := make([]throughtime.Match, len(in.Composition))
	for k := range games {
		games[k] = throughtime.Match{Teams: in.Composition[k], Ranks: in.Ranks[k]}
		if in.Times != nil {
			games[k].Time = in.Times[k]
		}
		if in.Weights != nil {
			games[k].Weights = in.Weights[k]
		}
	}
	opts := []throughtime.Option{throughtime.WithPriors(in.Priors)}
	if in.Times == nil {
		opts = append(opts, throughtime.Untimed())
	}
	p := throughtime.Params{Mu: in.Params.Mu, Sigma: in.Params.Sigma, Beta: in.Params.Beta, Gamma: in.Params.Gamma, DrawProbability: in.Params.PDraw}
	h, err := throughtime.New(p, games, opts...)
	if err != nil {
		out.Failures = append(out.Failures, err.Error())
		return out
	}
	f.compare(&out, "filtering", h, c, c.Expected.Filtering, h.Filtered())
	res, err := h.Converge(context.Background(), c.Expected.Convergence.Epsilon, c.Expected.Convergence.MaxIterations)
	out.Sweeps, out.ReferenceSweeps = res.Iterations, c.Expected.Convergence.Iterations
	if err != nil || !res.Converged {
		out.Failures = append(out.Failures, fmt.Sprintf("converge: %+v, %v", res, err))
		return out
	}
	byGame, _, err := h.LogEvidence()
	if err != nil {
		out.Failures = append(out.Failures, err.Error())
		return out
	}
	f.compare(&out, "converged", h, c, c.Expected.Converged, byGame)
	return out
}

func (f *File) compare(out *Outcome, stage string, h *throughtime.History, c Case, want State, byGame []float64) {
	fail := func(format string, a ...any) {
		out.Failures = append(out.Failures, stage+": "+fmt.Sprintf(format, a...))
	}
	for name, curve := range want.LearningCurves {
		got := h.LearningCurve(name)
		if len(got) != len(curve) {
			fail("%s: %d points, want %d", name, len(got), len(curve))
			continue
		}
		for i, w := range curve {
			g := got[i]
			if g.Time != w[0] || math.Abs(g.Mu-w[1]) > f.Tolerances.Mu || math.Abs(g.Sigma-w[2]) > f.Tolerances.Sigma {
				fail("%s at %v: (%v, %.9f, %.9f), want (%v, %.9f, %.9f)", name, g.Time, g.Time, g.Mu, g.Sigma, w[0], w[1], w[2])
			}
		}
	}
	exact := true
	for k, want := range want.LogEvidenceByGame {
		if len(c.Inputs.Composition[k]) > 2 {
			exact = false
			out.Notes = append(out.Notes, fmt.Sprintf("%s game %d: log evidence %.6f (EP), reference %.6f (product of pairs)", stage, k, byGame[k], want))
			continue
		}
		if rel(byGame[k], want) > f.Tolerances.LogEvidence {
			fail("game %d: log evidence %.12g, want %.12g", k, byGame[k], want)
		}
	}
	if exact {
		total := 0.0
		for _, x := range byGame {
			total += x
		}
		if rel(total, want.LogEvidence) > f.Tolerances.LogEvidence {
			fail("log evidence %.12g, want %.12g", total, want.LogEvidence)
		}
	}
}

func rel(a, b float64) float64 {
	if a == b {
		return 0
	}
	return math.Abs(a-b) / math.Max(math.Abs(a), math.Abs(b))
}
