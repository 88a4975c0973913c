package throughtime_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/models/fit"
	"github.com/skillgraph/skillgraph/models/throughtime"
)

// TestPosteriorFarAway: a game at time −1e308, or a drift of γ = 1e150,
// makes the skill far from it a variance beyond float64, which is
// ErrInput, never σ = +Inf.
func TestPosteriorFarAway(t *testing.T) {
	for _, c := range []struct {
		name  string
		gamma float64
		time  float64
	}{{"time -1e308", 0.03, -1e308}, {"gamma 1e150", 1e150, 0}} {
		p := throughtime.DefaultParams()
		p.Gamma = c.gamma
		h, err := throughtime.New(p, []throughtime.Match{{Time: c.time, Teams: [][]string{{"a"}, {"b"}}}})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		pt, err := h.Posterior("a", 1e308)
		if !errors.Is(err, throughtime.ErrInput) {
			t.Errorf("%s: Posterior %+v, %v; want %v", c.name, pt, err, throughtime.ErrInput)
		}
		if _, err := h.Predict(1e308, []string{"a"}, []string{"b"}); !errors.Is(err, throughtime.ErrInput) {
			t.Errorf("%s: Predict: %v", c.name, err)
		}
	}
}

// TestTieWithoutMargin: a tie between players whose β are 0 has a draw
// margin of 0 whatever the draw probability, so probability 0: New,
// Add and LogProbability reject it (ErrInput, and ErrImpossible as trueskill
// says of it) instead of giving −Inf.
func TestTieWithoutMargin(t *testing.T) {
	p := throughtime.DefaultParams()
	p.DrawProbability = 0.3
	priors := throughtime.WithPriors(map[string]throughtime.Player{"a": {Sigma: 6}, "b": {Sigma: 6}})
	tie := throughtime.Match{Time: 1, Teams: [][]string{{"a"}, {"b"}}, Ranks: []int{0, 0}}
	if _, err := throughtime.New(p, []throughtime.Match{tie}, priors); !errors.Is(err, throughtime.ErrInput) || !errors.Is(err, throughtime.ErrImpossible) || !strings.Contains(err.Error(), "tie") {
		t.Errorf("New: %v", err)
	}
	h, err := throughtime.New(p, []throughtime.Match{{Time: 0, Teams: [][]string{{"a"}, {"b"}}}}, priors)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.LogProbability(tie); !errors.Is(err, throughtime.ErrInput) || !strings.Contains(err.Error(), "tie") {
		t.Errorf("LogProbability: %v", err)
	}
	if err := h.Add([]throughtime.Match{tie}); !errors.Is(err, throughtime.ErrInput) || !strings.Contains(err.Error(), "tie") {
		t.Errorf("Add: %v", err)
	}
	// One player with β > 0 gives the pair a margin.
	tie.Teams = [][]string{{"a"}, {"c"}}
	lp, err := h.LogProbability(tie)
	if err != nil || !(lp < 0) || math.IsInf(lp, -1) {
		t.Errorf("a tie with a margin: %v, %v", lp, err)
	}
}

// TestPriorMeanInvariance: with every player on Params.Mu, moving μ₀ moves
// every skill and nothing else, games of three teams included: the
// filtered and smoothed evidence and the predictions are the same at
// μ₀ = 0, 1e12, 1e15, 1e20 and 1e308, and the skills less μ₀ where μ₀
// leaves them digits.
func TestPriorMeanInvariance(t *testing.T) {
	games := []throughtime.Match{
		{Time: 1, Teams: [][]string{{"a"}, {"b"}, {"c"}}},
		{Time: 2, Teams: [][]string{{"c"}, {"a"}, {"b"}}, Ranks: []int{0, 1, 1}},
		{Time: 3, Teams: [][]string{{"a"}, {"b"}}},
		{Time: 4, Teams: [][]string{{"a", "d"}, {"b", "c"}}},
	}
	type outcome struct {
		filtered, smoothed, win float64
		mu                      float64
	}
	run := func(mu float64) outcome {
		p := throughtime.DefaultParams()
		p.Mu, p.DrawProbability = mu, 0.1
		h, err := throughtime.New(p, games)
		if err != nil {
			t.Fatalf("μ₀ = %v: %v", mu, err)
		}
		f := h.FilteredLogEvidence()
		if _, err := h.Converge(context.Background(), 1e-9, 200); err != nil {
			t.Fatal(err)
		}
		_, s, err := h.LogEvidence()
		if err != nil {
			t.Fatal(err)
		}
		pr, err := h.Predict(5, []string{"a"}, []string{"b"})
		if err != nil {
			t.Fatal(err)
		}
		pt, err := h.Posterior("a", 4)
		if err != nil {
			t.Fatal(err)
		}
		return outcome{f, s, pr.Win, pt.Mu - mu}
	}
	want := run(0)
	for _, mu := range []float64{1e3, 1e12, 1e15, 1e20, 1e308, -1e308} {
		got := run(mu)
		if math.Abs(got.filtered-want.filtered) > 1e-9 || math.Abs(got.smoothed-want.smoothed) > 1e-9 || math.Abs(got.win-want.win) > 1e-9 {
			t.Errorf("μ₀ = %v: %+v, at 0 %+v", mu, got, want)
		}
		if mu == 1e3 && math.Abs(got.mu-want.mu) > 1e-9 {
			t.Errorf("μ₀ = %v: a's skill less μ₀ %v, at 0 %v", mu, got.mu, want.mu)
		}
	}
}

// TestScaleAtDomainEnds: with μ₀ = 0, scaling σ₀, β and γ by one factor f
// scales every skill by f and leaves every outcome's probability as it was
// (see DefaultFitBounds), so a history at the ends of the domain (σ₀, β
// and γ of 1e-9, or of 1e9, whose drifted skills pass 1e9) is the history
// at scale 1, f times over. The 1v1 games take trueskill's closed form,
// whose own domain stops at those ends.
func TestScaleAtDomainEnds(t *testing.T) {
	var games []throughtime.Match
	for k := range 12 {
		g := throughtime.Match{Time: float64(k / 2), Teams: [][]string{{"a"}, {"b"}}}
		switch k % 3 {
		case 1:
			g.Teams = [][]string{{"b"}, {"c"}}
			g.Ranks = []int{0, 0}
		case 2:
			g.Teams = [][]string{{"c"}, {"a"}}
		}
		games = append(games, g)
	}
	run := func(f float64) (*throughtime.History, float64) {
		p := throughtime.Params{Sigma: f, Beta: f, Gamma: 0.5 * f, DrawProbability: 0.2}
		h, err := throughtime.New(p, games)
		if err != nil {
			t.Fatalf("scale %v: %v", f, err)
		}
		filtered := h.FilteredLogEvidence()
		// Converge's tolerance is on μ and σ themselves.
		if _, err := h.Converge(context.Background(), 1e-12*f, 500); err != nil {
			t.Fatalf("scale %v: %v", f, err)
		}
		return h, filtered
	}
	want, wantFiltered := run(1)
	_, wantSmoothed, err := want.LogEvidence()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []float64{1e-9, 1e9} {
		h, filtered := run(f)
		_, smoothed, err := h.LogEvidence()
		if err != nil {
			t.Fatalf("scale %v: %v", f, err)
		}
		if math.Abs(filtered-wantFiltered) > 1e-9 || math.Abs(smoothed-wantSmoothed) > 1e-9 {
			t.Errorf("scale %v: log evidence %v filtered, %v smoothed; at scale 1 %v, %v", f, filtered, smoothed, wantFiltered, wantSmoothed)
		}
		for _, name := range []string{"a", "b", "c"} {
			got, ref := h.LearningCurve(name), want.LearningCurve(name)
			for i := range ref {
				if math.Abs(got[i].Mu/f-ref[i].Mu) > 1e-9*ref[i].Sigma || math.Abs(got[i].Sigma/(f*ref[i].Sigma)-1) > 1e-9 {
					t.Errorf("scale %v: %s at %v: %+v, want %v times %+v", f, name, ref[i].Time, got[i], f, ref[i])
				}
			}
		}
	}
}

// TestScalesTooFarApart: a game 1e308 time units after a player's last,
// at γ = 0.03, gives the player a cavity σ of 3e152 against a β of 1,
// scales no float64 closed form carries together: Add fails with an error
// that says so, wraps ErrInput and ErrNumerical and says "invalid input"
// once, and leaves the history as it was.
func TestScalesTooFarApart(t *testing.T) {
	h, err := throughtime.New(throughtime.DefaultParams(), []throughtime.Match{{Time: 1, Teams: [][]string{{"a"}, {"b"}}}})
	if err != nil {
		t.Fatal(err)
	}
	before := h.LearningCurve("a")
	err = h.Add([]throughtime.Match{{Time: 1e308, Teams: [][]string{{"a"}, {"c"}}}})
	if !errors.Is(err, throughtime.ErrInput) || !errors.Is(err, throughtime.ErrNumerical) || !strings.Contains(err.Error(), "scales too far apart") || strings.Count(err.Error(), throughtime.ErrInput.Error()) != 1 {
		t.Errorf("Add: %v, want ErrInput and ErrNumerical saying the scales are too far apart, and \"invalid input\" once", err)
	}
	if after := h.LearningCurve("a"); len(after) != len(before) || after[0] != before[0] {
		t.Errorf("a's curve %v after the failed Add, %v before", after, before)
	}
}

// TestNilOption: nil options are ignored, by New and by Fit.
func TestNilOption(t *testing.T) {
	games := league()
	h, err := throughtime.New(throughtime.DefaultParams(), games, nil)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := throughtime.New(throughtime.DefaultParams(), games)
	if err != nil {
		t.Fatal(err)
	}
	if h.FilteredLogEvidence() != plain.FilteredLogEvidence() {
		t.Errorf("with a nil option %v, without %v", h.FilteredLogEvidence(), plain.FilteredLogEvidence())
	}
}

// extremes are the values every parameter and time is tried at.
var extremes = []float64{0, math.Copysign(0, -1), 5e-324, 1e-300, 0.5, 1, 3, 1e150, 1e308, -1e308, -1, math.NaN(), math.Inf(1), math.Inf(-1)}

// TestExtremeInputs calls every exported function of a history (and Fit,
// with learned margins or not) on
// parameters, priors, times and weights of which one to three are drawn
// from extremes (a fixed-seed sample of the combinations): each returns finite values or an error
// that wraps ErrInput or ErrNumerical, and returns at all (a call
// that has not returned in 20 s fails).
func TestExtremeInputs(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 1))
	pick := func() float64 { return extremes[rng.IntN(len(extremes))] }
	typed := func(err error) bool {
		return errors.Is(err, throughtime.ErrInput) || errors.Is(err, throughtime.ErrNumerical)
	}
	for trial := range 400 {
		// A valid history with one to three of its numbers set to extremes.
		p := throughtime.Params{Mu: 0, Sigma: 6, Beta: 1, Gamma: 0.03, DrawProbability: 0.2}
		var priors map[string]throughtime.Player
		prior := throughtime.Player{Mu: 1, Sigma: 2, Beta: 1, Gamma: 0.1}
		times := []float64{1, 2, 3}
		weight := 0.5
		var margins *throughtime.Margins
		for range 1 + rng.IntN(3) {
			x := pick()
			switch rng.IntN(16) {
			case 0:
				p.Mu = x
			case 1:
				p.Sigma = x
			case 2:
				p.Beta = x
			case 3:
				p.Gamma = x
			case 4:
				p.DrawProbability = math.Min(math.Abs(x), 0.99)
			case 5, 6, 7:
				times[rng.IntN(3)] = x
			case 8:
				prior.Mu = x
			case 9:
				prior.Sigma = x
			case 10:
				prior.Beta = x
			case 11:
				prior.Gamma = x
			case 12:
				weight = x
			case 13:
				priors = map[string]throughtime.Player{}
			case 14:
				margins = &throughtime.Margins{Mu: 0.5, Sigma: 0.3, Gamma: 0.01}
			case 15:
				margins = &throughtime.Margins{Mu: x, Sigma: 0.3, Gamma: x}
			}
		}
		if priors != nil || prior != (throughtime.Player{Mu: 1, Sigma: 2, Beta: 1, Gamma: 0.1}) {
			priors = map[string]throughtime.Player{"b": prior}
		}
		games := []throughtime.Match{
			{Time: times[0], Teams: [][]string{{"a"}, {"b"}}},
			{Time: times[1], Teams: [][]string{{"b"}, {"c"}, {"a"}}, Ranks: []int{0, 1, 1}},
			{Time: times[2], Teams: [][]string{{"a", "c"}, {"b"}}, Weights: [][]float64{{weight, 1}, {1}}},
		}
		if margins != nil {
			// Learned margins: 1v1 games, a draw among them.
			p.DrawProbability = 0
			games[1].Teams, games[1].Ranks = [][]string{{"b"}, {"c"}}, []int{0, 0}
			games[2].Teams, games[2].Weights = [][]string{{"c"}, {"a"}}, nil
		}
		what := fmt.Sprintf("trial %d: %+v, priors %+v, margins %+v, times %v", trial, p, priors, margins, times)
		within(t, what, func() error {
			var opts []throughtime.Option
			if priors != nil {
				opts = append(opts, throughtime.WithPriors(priors))
			}
			if margins != nil {
				opts = append(opts, throughtime.WithDrawMargins(*margins))
			}
			h, err := throughtime.New(p, games, opts...)
			if err != nil {
				if !typed(err) {
					return fmt.Errorf("New: %w", err)
				}
				return nil
			}
			for _, lz := range h.Filtered() {
				if !messages.IsFinite(lz) || lz > 1e-9 {
					return fmt.Errorf("filtered log evidence %v", h.Filtered())
				}
			}
			if _, err := h.Converge(context.Background(), 1e-6, 20); err != nil && !typed(err) {
				return fmt.Errorf("Converge: %w", err)
			}
			if lzs, _, err := h.LogEvidence(); err != nil {
				if !typed(err) {
					return fmt.Errorf("LogEvidence: %w", err)
				}
			} else {
				for _, lz := range lzs {
					if !messages.IsFinite(lz) || lz > 1e-9 {
						return fmt.Errorf("log evidence %v", lzs)
					}
				}
			}
			for _, name := range []string{"a", "b", "c", "z"} {
				for _, c := range h.LearningCurve(name) {
					if !messages.IsFinite(c.Mu) || !(c.Sigma > 0) || math.IsInf(c.Sigma, 1) {
						return fmt.Errorf("%s's curve %+v", name, h.LearningCurve(name))
					}
				}
				at := pick()
				if pt, err := h.Posterior(name, at); err != nil {
					if !typed(err) {
						return fmt.Errorf("Posterior(%s, %v): %w", name, at, err)
					}
				} else if !messages.IsFinite(pt.Mu) || !(pt.Sigma > 0) || math.IsInf(pt.Sigma, 1) {
					return fmt.Errorf("Posterior(%s, %v) = %+v", name, at, pt)
				}
				if pr, err := h.Predict(at, []string{name}, []string{"b"}); err != nil {
					if !typed(err) {
						return fmt.Errorf("Predict(%s, %v): %w", name, at, err)
					}
				} else if s := pr.Win + pr.Draw + pr.Loss; !(math.Abs(s-1) < 1e-9) || pr.Win < 0 || pr.Loss < 0 || pr.Draw < 0 {
					return fmt.Errorf("Predict(%s, %v) = %+v", name, at, pr)
				}
				g := throughtime.Match{Time: at, Teams: [][]string{{name}, {"q"}, {"b"}}}
				if name == "b" {
					g.Teams[2] = []string{"r"}
				}
				if lp, err := h.LogProbability(g); err != nil {
					if !typed(err) {
						return fmt.Errorf("LogProbability(%+v): %w", g, err)
					}
				} else if !messages.IsFinite(lp) || lp > 1e-9 {
					return fmt.Errorf("LogProbability(%+v) = %v", g, lp)
				}
			}
			add := []throughtime.Match{{Time: pick(), Teams: [][]string{{"a"}, {"d"}}}}
			if err := h.Add(add); err != nil && !typed(err) {
				return fmt.Errorf("Add: %w", err)
			}
			if margins != nil {
				for _, name := range []string{"a", "z"} {
					if m, err := h.DrawMargin(name, pick()); err != nil {
						if !typed(err) {
							return fmt.Errorf("DrawMargin(%s): %w", name, err)
						}
					} else if !messages.IsFinite(m.Mu) || !(m.Sigma > 0) || math.IsInf(m.Sigma, 1) {
						return fmt.Errorf("DrawMargin(%s) = %+v", name, m)
					}
				}
			}
			opt := fit.Options[throughtime.Params]{MaxEvaluations: 3}
			if _, res, err := throughtime.Fit(context.Background(), p, games, throughtime.DefaultFitBounds(p), throughtime.FilteredEvidence, opt, opts...); err != nil {
				if !typed(err) {
					return fmt.Errorf("Fit: %w", err)
				}
			} else if !messages.IsFinite(res.LogEvidence) || res.LogEvidence > 1e-9 {
				return fmt.Errorf("Fit: %+v", res)
			}
			return nil
		})
	}
}

// within runs f, failing t with f's error, or if f has not returned in
// 20 s (a hang).
func within(t *testing.T, what string, f func() error) {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- fmt.Errorf("panic: %v", r)
			}
		}()
		done <- f()
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("%s: %v", what, err)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("%s: no answer in 20 s", what)
	}
}
