package messages_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/skillgraph/skillgraph/internal/sharedtest"
	"github.com/skillgraph/skillgraph/messages"
)

type muSigma struct{ Mu, Sigma float64 }

func (m muSigma) gaussian() messages.Gaussian { return messages.NewGaussian(m.Mu, m.Sigma*m.Sigma) }

// TestPeerAux checks the primitive functions against the aux vectors of
// ../shared/vectors/peer_cases.json at each vector's own tolerance. Functions
// that belong to the TrueSkill model (draw margins, exposure) are checked in
// models/trueskill.
func TestPeerAux(t *testing.T) {
	file := sharedtest.PeerCases(t)
	modelLevel := map[string]bool{"draw_margin": true, "draw_margin_from_sd": true, "expose": true, "conservative_skill_clamped": true}
	checked := 0
	for _, a := range file.Aux {
		if modelLevel[a.Function] {
			continue
		}
		var in struct {
			X, T, Epsilon, Mu, Sigma, Margin float64
			Tie                              bool
			A, B                             muSigma
		}
		if err := json.Unmarshal(a.Inputs, &in); err != nil {
			t.Fatalf("%s: inputs: %v", a.Name, err)
		}
		var want, got []float64
		var scalar float64
		var pair muSigma
		isPair := json.Unmarshal(a.Expected, &scalar) != nil
		if isPair {
			if err := json.Unmarshal(a.Expected, &pair); err != nil {
				t.Fatalf("%s: expected: %v", a.Name, err)
			}
			want = []float64{pair.Mu, pair.Sigma}
		} else {
			want = []float64{scalar}
		}
		switch a.Function {
		case "norm_cdf":
			got = []float64{messages.NormCDF(in.X)}
		case "norm_pdf":
			got = []float64{messages.NormPDF(in.X)}
		case "norm_ppf":
			got = []float64{messages.NormQuantile(in.X)}
		case "erfc": // the standard library function NormCDF is built on
			got = []float64{math.Erfc(in.X)}
		case "erfcinv": // the standard library function NormQuantile is built on
			got = []float64{math.Erfcinv(in.X)}
		case "v_win":
			got = []float64{messages.GreaterThan(in.T, in.Epsilon).V}
		case "w_win":
			got = []float64{messages.GreaterThan(in.T, in.Epsilon).W}
		case "v_draw":
			got = []float64{messages.Within(in.T, in.Epsilon).V}
		case "w_draw":
			got = []float64{messages.Within(in.T, in.Epsilon).W}
		case "truncated_gaussian_moments":
			// N(μ, σ²) truncated to x > margin or |x| ≤ margin: mean μ + σV,
			// standard deviation σ√(1 − W).
			tr := messages.GreaterThan(in.Mu/in.Sigma, in.Margin/in.Sigma)
			if in.Tie {
				tr = messages.Within(in.Mu/in.Sigma, in.Margin/in.Sigma)
			}
			got = []float64{in.Mu + in.Sigma*tr.V, in.Sigma * math.Sqrt(tr.OneMinusW)}
		case "gaussian_mul":
			g := in.A.gaussian().Mul(in.B.gaussian())
			got = []float64{g.Mean(), g.Sigma()}
		case "gaussian_div":
			g := in.A.gaussian().Div(in.B.gaussian())
			got = []float64{g.Mean(), g.Sigma()}
		case "log_product_normalization":
			got = []float64{in.A.gaussian().LogAverageOf(in.B.gaussian())}
		case "log_ratio_normalization":
			got = []float64{in.A.gaussian().LogAverageOfRatio(in.B.gaussian())}
		case "absolute_difference":
			got = []float64{messages.AbsDiff(in.A.gaussian(), in.B.gaussian())}
		default:
			t.Errorf("%s: unknown function %q", a.Name, a.Function)
			continue
		}
		for k := range want {
			if math.IsNaN(got[k]) || math.Abs(got[k]-want[k]) > a.ToleranceAbs {
				t.Errorf("%s: %s value %d = %.17g, want %.17g ± %g", a.Name, a.Function, k, got[k], want[k], a.ToleranceAbs)
			}
		}
		checked++
	}
	if checked < 25 {
		t.Errorf("only %d aux vectors checked", checked)
	}
	t.Logf("%d aux vectors checked", checked)
}
