package scorebased

import (
	"errors"
	"fmt"
	"math"
)

// Params are the parameters of the score-based models (Guo, Sanner, Graepel
// and Buntine 2012, Table 1). They are a plain value, safe to share.
type Params struct {
	Mu    float64 `json:"mu"`    // μ₀, prior mean of every skill (offence, defence or single)
	Sigma float64 `json:"sigma"` // σ₀, prior standard deviation of every skill
	// Beta is the performance noise: β_o = β_d = β for offence and defence
	// performances (the OD models), and β for the single skill (Gaussian-SD).
	Beta float64 `json:"beta"`
	// Gamma is the score noise γ of the Gaussian models: the standard
	// deviation of a score (Gaussian-OD) or of a score difference
	// (Gaussian-SD) around its performance mean. The paper estimates it from
	// the training data: see EstimateGammaOD and EstimateGammaSD.
	Gamma float64 `json:"gamma"`
	// Tau is the dynamics: τ² is added to every skill variance before each
	// match (and before each prediction, which is about the next match).
	Tau float64 `json:"tau"`
}

// DefaultParams returns Table 1 of the paper: μ₀ = 25, σ₀ = 25/3,
// β = σ₀/2, with γ = 1 as a placeholder to be estimated from data, and no
// dynamics.
func DefaultParams() Params {
	return Params{Mu: 25, Sigma: 25.0 / 3, Beta: 25.0 / 6, Gamma: 1}
}

// Errors, matched with errors.Is.
var (
	ErrParameter = errors.New("invalid parameter")
	ErrRating    = errors.New("invalid rating")
	ErrScore     = errors.New("invalid score")
)

// Validate reports an invalid parameter.
func (p Params) Validate() error {
	for _, c := range []struct {
		name     string
		v        float64
		positive bool
	}{{"Mu", p.Mu, false}, {"Sigma", p.Sigma, true}, {"Beta", p.Beta, true}, {"Gamma", p.Gamma, true}, {"Tau", p.Tau, false}} {
		if math.IsNaN(c.v) || math.IsInf(c.v, 0) || (c.positive && !(c.v > 0)) || (c.name == "Tau" && c.v < 0) {
			return fmt.Errorf("scorebased: Params.%s = %v: %w", c.name, c.v, ErrParameter)
		}
	}
	return nil
}

// Rating is a belief N(Mu, Sigma²) about one skill.
type Rating struct {
	Mu    float64 `json:"mu"`
	Sigma float64 `json:"sigma"`
}

func (r Rating) validate(what string) error { return r.validateIn(what, "") }

// validateIn checks r; its name is what+part, built only for the error.
func (r Rating) validateIn(what, part string) error {
	if math.IsNaN(r.Mu) || math.IsInf(r.Mu, 0) || !(r.Sigma > 0) || math.IsInf(r.Sigma, 1) {
		return fmt.Errorf("scorebased: %s%s = %+v: %w", what, part, r, ErrRating)
	}
	return nil
}

// variance is σ² + τ², the prior variance of the skill in the next match.
func (p Params) variance(r Rating) float64 { return r.Sigma*r.Sigma + p.Tau*p.Tau }

// Team holds the offence and defence skills of a team (Poisson-OD and
// Gaussian-OD).
type Team struct {
	Offence Rating `json:"offence"`
	Defence Rating `json:"defence"`
}

func (t Team) validate(name string) error {
	if err := t.Offence.validateIn(name, ".Offence"); err != nil {
		return err
	}
	return t.Defence.validateIn(name, ".Defence")
}

// NewRating returns the prior N(μ₀, σ₀²).
func (p Params) NewRating() Rating { return Rating{Mu: p.Mu, Sigma: p.Sigma} }

// NewTeam returns a team with prior offence and defence skills.
func (p Params) NewTeam() Team { return Team{Offence: p.NewRating(), Defence: p.NewRating()} }

// Prediction is a model's forecast of a match between teams A and B.
type Prediction struct {
	// Win, Draw and Loss are the probabilities of A scoring more than,
	// as much as, and less than B. In the Gaussian models, whose scores are
	// continuous, a draw is a score difference within ±½ (the difference of
	// integer scores rounds to 0).
	Win, Draw, Loss float64
	// ScoreA and ScoreB are the expected scores (the OD models); Difference
	// is the expected score difference A − B (all models).
	ScoreA, ScoreB, Difference float64
	// HasScores is false for Gaussian-SD, which models only the difference.
	HasScores bool

	winAtZero float64 // P(difference > 0), the papers' win probability
}

// MatchScore is one match result, for estimating γ.
type MatchScore struct {
	ScoreA, ScoreB float64
}

// EstimateGammaOD returns the sample standard deviation of all scores in
// matches, the paper's "γ: score variance" for Gaussian-OD.
func EstimateGammaOD(matches []MatchScore) (float64, error) {
	xs := make([]float64, 0, 2*len(matches))
	for _, m := range matches {
		xs = append(xs, m.ScoreA, m.ScoreB)
	}
	return sampleSD(xs)
}

// EstimateGammaSD returns the sample standard deviation of the score
// differences in matches, the paper's "γ: score difference variance" for
// Gaussian-SD.
func EstimateGammaSD(matches []MatchScore) (float64, error) {
	xs := make([]float64, 0, len(matches))
	for _, m := range matches {
		xs = append(xs, m.ScoreA-m.ScoreB)
	}
	return sampleSD(xs)
}

func sampleSD(xs []float64) (float64, error) {
	if len(xs) < 2 {
		return 0, fmt.Errorf("scorebased: estimating γ needs at least two values, have %d: %w", len(xs), ErrScore)
	}
	var mean float64
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, fmt.Errorf("scorebased: score %v: %w", x, ErrScore)
		}
		mean += x
	}
	mean /= float64(len(xs))
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	sd := math.Sqrt(ss / float64(len(xs)-1))
	if !(sd > 0) {
		return 0, fmt.Errorf("scorebased: all scores equal, γ would be 0: %w", ErrScore)
	}
	return sd, nil
}
