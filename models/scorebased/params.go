package scorebased

import (
	"fmt"
	"math"

	"github.com/skillgraph/skillgraph/messages"
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

// The errors the package returns wrap one of these (errors.Is), the
// project's vocabulary of messages: ErrInput for a parameter, rating or
// score the caller can correct, ErrNumerical for a result beyond
// float64's range (an expected score difference of ratings near
// ±1.8e308, a γ estimated from scores whose spread overflows). The
// error's text names the input it came from.
var (
	ErrInput     = messages.ErrInput
	ErrNumerical = messages.ErrNumerical
)

// The models' range: the graphs carry variances as float64, so β², γ² and
// every skill's σ² + τ² must be normal floats (σ between about 1.5e-154 and
// 1.3e154 when τ = 0), τ² finite, and means finite. Validate and the
// models' rating checks enforce it, and every posterior they return is
// checked to lie in it, so that it is a valid input to the next call.

// Validate reports an invalid parameter: one that is not finite, a σ₀, β
// or γ that is not positive, a negative τ, or one outside the models'
// range (above).
func (p Params) Validate() error {
	for _, c := range []struct {
		name     string
		v        float64
		positive bool
	}{{"Mu", p.Mu, false}, {"Sigma", p.Sigma, true}, {"Beta", p.Beta, true}, {"Gamma", p.Gamma, true}, {"Tau", p.Tau, false}} {
		if !messages.IsFinite(c.v) || (c.positive && !(c.v > 0)) || (c.name == "Tau" && c.v < 0) {
			return fmt.Errorf("scorebased: Params.%s = %v: %w", c.name, c.v, ErrInput)
		}
	}
	for _, c := range []struct {
		name string
		v    float64
		sq   float64
	}{{"Beta", p.Beta, p.Beta * p.Beta}, {"Gamma", p.Gamma, p.Gamma * p.Gamma}, {"Sigma", p.Sigma, p.variance(p.NewRating())}} {
		if !messages.IsNormalVariance(c.sq) {
			return fmt.Errorf("scorebased: Params.%s = %v: its variance %v is not a normal float64: %w", c.name, c.v, c.sq, ErrInput)
		}
	}
	if t2 := p.Tau * p.Tau; !(t2 <= math.MaxFloat64) {
		return fmt.Errorf("scorebased: Params.Tau = %v: τ² overflows: %w", p.Tau, ErrInput)
	}
	return nil
}

// Rating is a belief N(Mu, Sigma²) about one skill.
type Rating struct {
	Mu    float64 `json:"mu"`
	Sigma float64 `json:"sigma"`
}

// checkRating checks r, a skill of the models (finite μ, σ > 0 with
// σ² + τ² in range); its name is what+part, built only for the error, which
// names the offending field.
func (p Params) checkRating(r Rating, what, part string) error {
	switch {
	case !messages.IsFinite(r.Mu):
		return fmt.Errorf("scorebased: %s%s.Mu = %v: not a finite number: %w", what, part, r.Mu, ErrInput)
	case !(r.Sigma > 0) || math.IsInf(r.Sigma, 1):
		return fmt.Errorf("scorebased: %s%s.Sigma = %v: not a finite positive number: %w", what, part, r.Sigma, ErrInput)
	case !messages.IsNormalVariance(p.variance(r)):
		return fmt.Errorf("scorebased: %s%s.Sigma = %v: σ² + τ² = %v is not a normal float64: %w", what, part, r.Sigma, p.variance(r), ErrInput)
	}
	return nil
}

// checkPosterior checks a rating the models computed from the input what
// (named as in checkRating): it must be a valid input to the next call.
func (p Params) checkPosterior(r Rating, what, part string) error {
	if err := p.checkRating(r, what, part); err != nil {
		return fmt.Errorf("scorebased: %w: the posterior of %s%s = %+v is out of range", ErrNumerical, what, part, r)
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

// checkTeam checks both skills of t with checkRating.
func (p Params) checkTeam(t Team, name string) error {
	if err := p.checkRating(t.Offence, name, ".Offence"); err != nil {
		return err
	}
	return p.checkRating(t.Defence, name, ".Defence")
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
	if err := checkMatchScores(matches); err != nil {
		return 0, err
	}
	xs := make([]float64, 0, 2*len(matches))
	for _, m := range matches {
		xs = append(xs, m.ScoreA, m.ScoreB)
	}
	return sampleSD(xs, 1)
}

// EstimateGammaSD returns the sample standard deviation of the score
// differences in matches, the paper's "γ: score difference variance" for
// Gaussian-SD.
func EstimateGammaSD(matches []MatchScore) (float64, error) {
	if err := checkMatchScores(matches); err != nil {
		return 0, err
	}
	// Halves, exact for normal floats, so that a difference of scores near
	// ±1.8e308 does not overflow.
	xs := make([]float64, 0, len(matches))
	for _, m := range matches {
		xs = append(xs, m.ScoreA/2-m.ScoreB/2)
	}
	return sampleSD(xs, 2)
}

// checkMatchScores rejects a score that is not finite, naming the match.
func checkMatchScores(matches []MatchScore) error {
	for k, m := range matches {
		if !messages.IsFinite(m.ScoreA) || !messages.IsFinite(m.ScoreB) {
			return fmt.Errorf("scorebased: match %d: scores %v and %v: %w", k, m.ScoreA, m.ScoreB, ErrInput)
		}
	}
	return nil
}

// sampleSD returns scale times the sample standard deviation of xs (all
// finite). The values are divided by a power of two near the largest of
// them (exactly) before squaring, so that no sum overflows or underflows;
// an SD that itself exceeds float64's range is ErrNumerical.
func sampleSD(xs []float64, scale float64) (float64, error) {
	if len(xs) < 2 {
		return 0, fmt.Errorf("scorebased: estimating γ needs at least two values, have %d: %w", len(xs), ErrInput)
	}
	var largest float64
	for _, x := range xs {
		largest = math.Max(largest, math.Abs(x))
	}
	if largest == 0 {
		return 0, fmt.Errorf("scorebased: all scores equal, γ would be 0: %w", ErrInput)
	}
	_, e := math.Frexp(largest)
	var mean float64
	for _, x := range xs {
		mean += math.Ldexp(x, -e)
	}
	mean /= float64(len(xs))
	var ss float64
	for _, x := range xs {
		d := math.Ldexp(x, -e) - mean
		ss += d * d
	}
	sd := math.Ldexp(math.Sqrt(ss/float64(len(xs)-1)), e) * scale
	switch {
	case !(sd > 0):
		return 0, fmt.Errorf("scorebased: all scores equal, γ would be 0: %w", ErrInput)
	case math.IsInf(sd, 1):
		return 0, fmt.Errorf("scorebased: the scores' standard deviation exceeds float64's range: %w", ErrNumerical)
	}
	return sd, nil
}
