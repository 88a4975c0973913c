package throughtime_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/models/throughtime"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

func TestErrors(t *testing.T) {
	p := throughtime.DefaultParams()
	one := [][]string{{"a"}, {"b"}}
	for _, c := range []struct {
		name  string
		p     throughtime.Params
		games []throughtime.Match
		opts  []throughtime.Option
		want  string // a fragment of the message, saying what was wrong
	}{
		{"σ = 0", throughtime.Params{Beta: 1}, []throughtime.Match{{Teams: one}}, nil, "Params.Sigma"},
		{"negative γ", throughtime.Params{Sigma: 1, Beta: 1, Gamma: -1}, []throughtime.Match{{Teams: one}}, nil, "Params.Gamma"},
		{"draw probability 1", throughtime.Params{Sigma: 1, Beta: 1, DrawProbability: 1}, []throughtime.Match{{Teams: one}}, nil, "Params.DrawProbability"},
		{"bad prior", p, []throughtime.Match{{Teams: one}}, []throughtime.Option{throughtime.WithPriors(map[string]throughtime.Player{"a": {Sigma: math.NaN()}})}, `player "a"`},
		{"one team", p, []throughtime.Match{{Teams: [][]string{{"a"}}}}, nil, "game 0: 1 teams"},
		{"empty team", p, []throughtime.Match{{Teams: [][]string{{"a"}, {}}}}, nil, "game 0: team 1 is empty"},
		{"player twice", p, []throughtime.Match{{Teams: [][]string{{"a"}, {"a"}}}}, nil, "game 0: player \"a\" appears twice"},
		{"NaN time", p, []throughtime.Match{{Time: math.NaN(), Teams: one}}, nil, "game 0: time NaN"},
		{"ranks", p, []throughtime.Match{{Teams: one, Ranks: []int{0}}}, nil, "game 0: 1 ranks"},
		{"weights", p, []throughtime.Match{{Teams: one, Weights: [][]float64{{1}, {1, 1}}}}, nil, "game 0: team 1: 2 weights"},
		{"negative weight", p, []throughtime.Match{{Teams: one, Weights: [][]float64{{1}, {-1}}}}, nil, "game 0: team 1 player 0: weight -1"},
		{"tie without draws", p, []throughtime.Match{{Teams: one, Ranks: []int{0, 0}}}, nil, "game 0: teams 0 and 1 tie"},
		// Teams of performance 0 either side of one that played (trueskill's
		// rule), which the ranking would make impossible.
		{"absent teams", p, []throughtime.Match{{Teams: [][]string{{"a"}, {"b"}, {"c"}}, Weights: [][]float64{{0}, {1}, {0}}}}, nil, "game 0: trueskill: Weights[0] = 0: all weights of a team are 0"},
	} {
		if _, err := throughtime.New(c.p, c.games, c.opts...); !errors.Is(err, throughtime.ErrInput) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ErrInput naming %s", c.name, err, c.want)
		}
	}
	h, err := throughtime.New(p, []throughtime.Match{{Teams: one}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Converge(context.Background(), 0, 10); !errors.Is(err, throughtime.ErrInput) {
		t.Errorf("tolerance 0: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := h.Converge(ctx, 1e-6, 10); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if h.LearningCurve("nobody") != nil {
		t.Error("a curve for an unknown player")
	}
}

// TestOneGameIsTrueSkill: a history of one game is that game rated by
// TrueSkill from the priors (τ = 0), and its one-step-ahead evidence is
// the game's evidence, before and after smoothing.
func TestOneGameIsTrueSkill(t *testing.T) {
	p := throughtime.Params{Mu: 25, Sigma: 25.0 / 3, Beta: 25.0 / 6, Gamma: 0.1, DrawProbability: 0.1}
	teams := [][]string{{"a", "b"}, {"c"}, {"d"}}
	h, err := throughtime.New(p, []throughtime.Match{{Teams: teams, Ranks: []int{0, 1, 1}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Converge(context.Background(), 1e-9, 50); err != nil {
		t.Fatal(err)
	}
	ts := trueskill.Params{Mu: 25, Sigma: 25.0 / 3, Beta: 25.0 / 6, DrawProbability: 0.1, Tolerance: 1e-12}
	r := ts.NewRating()
	want, err := ts.Rate(context.Background(), trueskill.Match{Teams: [][]trueskill.Rating{{r, r}, {r}, {r}}, Ranks: []int{0, 1, 1}})
	if err != nil {
		t.Fatal(err)
	}
	for j, team := range teams {
		for i, name := range team {
			got := h.LearningCurve(name)[0]
			if w := want.Ratings[j][i]; math.Abs(got.Mu-w.Mu) > 1e-6 || math.Abs(got.Sigma-w.Sigma) > 1e-6 {
				t.Errorf("%s: %v, TrueSkill %v", name, got, w)
			}
		}
	}
	_, lz, err := h.LogEvidence()
	if err != nil {
		t.Fatal(err)
	}
	for what, got := range map[string]float64{"filtered": h.FilteredLogEvidence(), "smoothed": lz} {
		if math.Abs(got-want.LogEvidence) > 1e-6 {
			t.Errorf("%s log evidence %v, TrueSkill %v", what, got, want.LogEvidence)
		}
	}
}
