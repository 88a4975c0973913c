package throughtime_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/models/throughtime"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

// TestFixedMarginsAreDrawProbability: margins whose prior is nearly a point
// at the margin ε a draw probability p sets, and which do not drift, are
// that model: every skill, filtered and smoothed, and the evidence agree
// with the history whose draw probability is p (MARGINS.md: fixed, equal
// margins are TrueSkill's ε).
func TestFixedMarginsAreDrawProbability(t *testing.T) {
	games := league()
	rng := rand.New(rand.NewPCG(2, 9))
	for k := range games {
		if rng.IntN(3) == 0 {
			games[k].Ranks = []int{0, 0}
		}
	}
	p := throughtime.DefaultParams()
	p.DrawProbability = 0.25
	global, err := throughtime.New(p, games)
	if err != nil {
		t.Fatal(err)
	}
	eps := trueskill.DrawMargin(p.DrawProbability, p.Beta, 2)
	p.DrawProbability = 0
	learned, err := throughtime.New(p, games, throughtime.WithDrawMargins(throughtime.Margins{Mu: eps, Sigma: 1e-4}))
	if err != nil {
		t.Fatal(err)
	}
	const tol = 1e-5
	for k, lz := range global.Filtered() {
		if got := learned.Filtered()[k]; math.Abs(got-lz) > tol {
			t.Errorf("game %d: filtered %v with margins, %v with p", k, got, lz)
		}
	}
	sameCurves(t, "filtered", learned, global, tol)
	for _, h := range []*throughtime.History{global, learned} {
		if res, err := h.Converge(context.Background(), 1e-8, 300); err != nil || !res.Converged {
			t.Fatalf("%+v, %v", res, err)
		}
	}
	sameCurves(t, "smoothed", learned, global, tol)
	for _, t0 := range []float64{20, 100} {
		want, err := global.Predict(t0, []string{"ann"}, []string{"bob"})
		if err != nil {
			t.Fatal(err)
		}
		got, err := learned.Predict(t0, []string{"ann"}, []string{"bob"})
		if err != nil || math.Abs(got.Win-want.Win) > tol || math.Abs(got.Draw-want.Draw) > tol || math.Abs(got.Loss-want.Loss) > tol {
			t.Errorf("at %v: Predict %+v, %v with margins, %+v with p", t0, got, err, want)
		}
		tie := throughtime.Match{Time: t0, Teams: [][]string{{"cat"}, {"zed"}}, Ranks: []int{0, 0}}
		lw, err := global.LogProbability(tie)
		if err != nil {
			t.Fatal(err)
		}
		lg, err := learned.LogProbability(tie)
		if err != nil || math.Abs(lg-lw) > tol {
			t.Errorf("at %v: a tie's log probability %v, %v with margins, %v with p", t0, lg, err, lw)
		}
	}
	m, err := learned.DrawMargin("ann", 100)
	if err != nil || math.Abs(m.Mu-eps) > 1e-6 {
		t.Errorf("ann's margin %+v, %v; ε = %v", m, err, eps)
	}
}

// drawingHistory is a fixed-seed history of 1v1 games among players with
// planted skills and draw margins (Dangauthier et al.'s model: white wins
// when d > m_black, black when d < −m_white, else a draw, d the
// performance difference with β = 1).
func drawingHistory(players, games int) ([]throughtime.Match, map[string]float64, float64) {
	rng := rand.New(rand.NewPCG(40, 7))
	skill := make([]float64, players)
	margin := make(map[string]float64, players)
	for i := range skill {
		skill[i] = rng.NormFloat64()
	}
	for i, k := range rng.Perm(players) {
		margin[fmt.Sprint(i)] = 0.1 + 1.6*float64(k)/float64(players-1)
	}
	var out []throughtime.Match
	draws := 0
	for len(out) < games {
		b := len(out) / (players / 2)
		perm := rng.Perm(players)
		for k := 0; k+1 < players && len(out) < games; k += 2 {
			w, bl := perm[k], perm[k+1]
			d := skill[w] + rng.NormFloat64() - skill[bl] - rng.NormFloat64()
			g := throughtime.Match{Time: float64(b), Teams: [][]string{{fmt.Sprint(w)}, {fmt.Sprint(bl)}}}
			switch {
			case d > margin[fmt.Sprint(bl)]:
			case d < -margin[fmt.Sprint(w)]:
				g.Ranks = []int{1, 0}
			default:
				g.Ranks = []int{0, 0}
				draws++
			}
			out = append(out, g)
		}
	}
	return out, margin, float64(draws) / float64(len(out))
}

// spearman returns the rank correlation of paired values (no ties).
func spearman(x, y []float64) float64 {
	rank := func(v []float64) []float64 {
		idx := make([]int, len(v))
		for i := range idx {
			idx[i] = i
		}
		slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(v[a], v[b]) })
		r := make([]float64, len(v))
		for k, i := range idx {
			r[i] = float64(k)
		}
		return r
	}
	rx, ry := rank(x), rank(y)
	n := float64(len(x))
	var d2 float64
	for i := range rx {
		d2 += (rx[i] - ry[i]) * (rx[i] - ry[i])
	}
	return 1 - 6*d2/(n*(n*n-1))
}

// TestLearnedMargins: on a history whose players draw as planted margins
// say, the learned margins rank the players as the planted ones do
// (Spearman ≥ 0.8), and the model predicts the history better than one
// draw probability, at the history's own draw rate or any other on a
// grid: a higher filtered log evidence.
func TestLearnedMargins(t *testing.T) {
	games, planted, rate := drawingHistory(24, 720)
	p := throughtime.Params{Sigma: 1.5, Beta: 1, Gamma: 0.01}
	h, err := throughtime.New(p, games, throughtime.WithDrawMargins(throughtime.Margins{Mu: 0.8, Sigma: 0.5, Gamma: 0.01}))
	if err != nil {
		t.Fatal(err)
	}
	learnedEvidence := h.FilteredLogEvidence()
	if res, err := h.Converge(context.Background(), 1e-4, 200); err != nil || !res.Converged {
		t.Fatalf("%+v, %v", res, err)
	}
	var want, got []float64
	for name, m := range planted {
		curve := h.MarginCurve(name)
		want, got = append(want, m), append(got, curve[len(curve)-1].Mu)
	}
	if r := spearman(want, got); r < 0.8 {
		t.Errorf("Spearman %v between planted and learned margins; planted %v, learned %v", r, want, got)
	} else {
		t.Logf("Spearman %.3f over %d players", r, len(want))
	}
	best, bestP := math.Inf(-1), 0.0
	for _, q := range []float64{rate, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7} {
		g := p
		g.DrawProbability = q
		gh, err := throughtime.New(g, games)
		if err != nil {
			t.Fatal(err)
		}
		if lz := gh.FilteredLogEvidence(); lz > best {
			best, bestP = lz, q
		}
	}
	if !(learnedEvidence > best) {
		t.Errorf("filtered log evidence %v with learned margins, %v with draw probability %v", learnedEvidence, best, bestP)
	} else {
		t.Logf("filtered log evidence %.1f with learned margins, %.1f with draw probability %.3f (draw rate %.3f)", learnedEvidence, best, bestP, rate)
	}
}

// TestMarginErrors: learned margins need 1v1 games, no draw probability,
// and a valid prior; a history without them has no margins to read.
func TestMarginErrors(t *testing.T) {
	m := throughtime.WithDrawMargins(throughtime.Margins{Mu: 1, Sigma: 0.5})
	p := throughtime.DefaultParams()
	if _, err := throughtime.New(p, []throughtime.Match{{Teams: [][]string{{"a", "b"}, {"c"}}}}, m); !errors.Is(err, throughtime.ErrInput) || !strings.Contains(err.Error(), "game 0: learned draw margins need games of two players") {
		t.Errorf("a 2v1 game: %v", err)
	}
	q := p
	q.DrawProbability = 0.1
	if _, err := throughtime.New(q, []throughtime.Match{{Teams: [][]string{{"a"}, {"b"}}}}, m); !errors.Is(err, throughtime.ErrInput) || !strings.Contains(err.Error(), "DrawProbability 0.1") {
		t.Errorf("a draw probability too: %v", err)
	}
	if _, err := throughtime.New(p, []throughtime.Match{{Teams: [][]string{{"a"}, {"b"}}}}, throughtime.WithDrawMargins(throughtime.Margins{Mu: 1})); !errors.Is(err, throughtime.ErrInput) || !strings.Contains(err.Error(), "margins {") {
		t.Errorf("σ = 0: %v", err)
	}
	h, err := throughtime.New(p, []throughtime.Match{{Teams: [][]string{{"a"}, {"b"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.DrawMargin("a", 0); !errors.Is(err, throughtime.ErrInput) || !strings.Contains(err.Error(), "no draw margins") || h.MarginCurve("a") != nil {
		t.Errorf("margins of a history without them: %v, %v", err, h.MarginCurve("a"))
	}
}
