package peercases

import (
	"encoding/json"
	"fmt"

	"github.com/skillgraph/skillgraph/internal/vectors"
)

// File is the top level of a vectors file.
type File struct {
	Schema      string `json:"schema"`
	Description string `json:"description"`
	Cases       []Case `json:"cases"`
	Aux         []Aux  `json:"aux"`
}

// Env holds a peer's parameters.
type Env struct {
	Mu0             *float64 `json:"mu0"`
	Sigma0          *float64 `json:"sigma0"`
	Beta            float64  `json:"beta"`
	Tau             float64  `json:"tau"`
	DrawProbability float64  `json:"draw_probability"`
}

// Rating is a (μ, σ) pair; either may be absent (null) in expectations.
type Rating struct {
	Mu    *float64 `json:"mu"`
	Sigma *float64 `json:"sigma"`
}

// Case is one rated match with the peer's expected results.
type Case struct {
	Name       string      `json:"name"`
	Kind       string      `json:"kind"`
	Env        Env         `json:"env"`
	AppliesTau bool        `json:"applies_tau"`
	DrawMargin string      `json:"draw_margin"` // "sqrt_n_beta" or "sqrt2_beta"
	Teams      [][]Rating  `json:"teams"`
	Weights    [][]float64 `json:"weights"`
	Ranks      []int       `json:"ranks"`
	Requires   string      `json:"requires"`
	Notes      string      `json:"notes"`
	Expected   Expected    `json:"expected"`
	Tolerance  Tolerance   `json:"tolerance"`
	Exact      [][]*Rating `json:"exact_closed_form"` // high-precision 1v1 posteriors, when present
}

// Expected holds a case's expected values; nil means not asserted.
type Expected struct {
	Posteriors   [][]*Rating `json:"posteriors"`
	MatchQuality *float64    `json:"match_quality"`
	Evidence     *float64    `json:"evidence"`
}

// Tolerance holds the peer's own absolute tolerances.
type Tolerance struct {
	PosteriorAbs         float64     `json:"posterior_abs"`
	QualityAbs           float64     `json:"quality_abs"`
	EvidenceAbs          float64     `json:"evidence_abs"`
	PosteriorAbsByPlayer [][]float64 `json:"posterior_abs_by_player"`
	Rule                 string      `json:"rule"`
}

// Aux is one check of a primitive function.
type Aux struct {
	Name         string          `json:"name"`
	Function     string          `json:"function"`
	Inputs       json.RawMessage `json:"inputs"`
	Expected     json.RawMessage `json:"expected"`
	ToleranceAbs float64         `json:"tolerance_abs"`
	Notes        string          `json:"notes"`
}

// Load reads a vectors file.
func Load(path string) (*File, error) {
	f, err := vectors.Load[File](path)
	if err != nil {
		return nil, fmt.Errorf("peercases: %w", err)
	}
	return f, nil
}
