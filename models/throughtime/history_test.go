package throughtime_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/models/fit"
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

// TestGameError: a game the history refuses comes back as a *GameError
// whose Index is the game's place in the input, counted on through Add,
// not its place in time, with the package's errors still reachable by
// errors.Is and the text unchanged.
func TestGameError(t *testing.T) {
	p := throughtime.DefaultParams()
	one := [][]string{{"a"}, {"b"}}
	// Teams of weight 0 either side of one that played: refused when the
	// game's graph is declared, in time order (game 2 is the second).
	absent := throughtime.Match{Time: 2, Teams: [][]string{{"a"}, {"b"}, {"c"}}, Weights: [][]float64{{0}, {1}, {0}}}
	tie := throughtime.Match{Time: 2, Teams: one, Ranks: []int{0, 0}}
	for _, c := range []struct {
		name  string
		games []throughtime.Match
		index int
		is    error
		text  string
	}{
		{"declared", []throughtime.Match{{Time: 3, Teams: one}, {Time: 1, Teams: one}, absent}, 2, throughtime.ErrInput,
			"throughtime: game 2: trueskill: Weights[0] = 0: all weights of a team are 0"},
		{"checked", []throughtime.Match{{Time: 3, Teams: one}, tie, {Time: 1, Teams: one}}, 1, throughtime.ErrImpossible,
			"throughtime: game 1: teams 0 and 1 tie, but the draw probability is 0 (set Params.DrawProbability): invalid input (observation has probability zero under the model)"},
	} {
		_, err := throughtime.New(p, c.games)
		var ge *throughtime.GameError
		if !errors.As(err, &ge) || ge.Index != c.index || !errors.Is(err, c.is) || !errors.Is(err, throughtime.ErrInput) || !strings.HasPrefix(err.Error(), c.text) {
			t.Errorf("New, %s: %v (%#v), want game %d wrapping %v: %q", c.name, err, ge, c.index, c.is, c.text)
		}
		_, _, err = throughtime.Fit(context.Background(), p, c.games, throughtime.DefaultFitBounds(p), throughtime.FilteredEvidence, fit.Options[throughtime.Params]{})
		if !errors.As(err, &ge) || ge.Index != c.index || !errors.Is(err, c.is) {
			t.Errorf("Fit, %s: %v, want game %d", c.name, err, c.index)
		}
	}
	h, err := throughtime.New(p, []throughtime.Match{{Time: 3, Teams: one}, {Time: 1, Teams: one}, {Time: 2, Teams: one}})
	if err != nil {
		t.Fatal(err)
	}
	later := absent
	later.Time = 5
	err = h.Add([]throughtime.Match{{Time: 4, Teams: one}, later})
	var ge *throughtime.GameError
	if !errors.As(err, &ge) || ge.Index != 4 || !errors.Is(err, throughtime.ErrInput) || !strings.HasPrefix(err.Error(), "throughtime: game 4: trueskill: Weights[0] = 0") {
		t.Errorf("Add after 3 games, its second refused: %v, want game 4", err)
	}
	early := throughtime.Match{Time: 1, Teams: one}
	if err := h.Add([]throughtime.Match{early}); !errors.As(err, &ge) || ge.Index != 3 || !strings.Contains(err.Error(), "is not after") {
		t.Errorf("Add of an earlier game after 3 games: %v, want game 3", err)
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
