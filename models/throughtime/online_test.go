package throughtime_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/models/throughtime"
)

// league is a fixed-seed history of 1v1 games among six players over
// twelve times, two games a time, so that batches hold several games and
// players skip times.
func league() []throughtime.Match {
	rng := rand.New(rand.NewPCG(7, 11))
	names := []string{"ann", "bob", "cat", "dan", "eve", "fay"}
	var games []throughtime.Match
	for t := 1; t <= 12; t++ {
		perm := rng.Perm(len(names))
		for g := range 2 {
			a, b := names[perm[2*g]], names[perm[2*g+1]]
			games = append(games, throughtime.Match{Time: float64(3 * t), Teams: [][]string{{a}, {b}}})
		}
	}
	return games
}

// TestAddIsNew: a history built in pieces with Add and no smoothing in
// between is the same graph run in the same order as New on all of it, so
// its filtered evidence and skills agree to rounding; and smoothed to a
// tight tolerance, both reach the same fixed point.
func TestAddIsNew(t *testing.T) {
	p := throughtime.DefaultParams()
	games := league()
	whole, err := throughtime.New(p, games)
	if err != nil {
		t.Fatal(err)
	}
	parts, err := throughtime.New(p, games[:8])
	if err != nil {
		t.Fatal(err)
	}
	for _, cut := range [][2]int{{8, 10}, {10, 16}, {16, 24}} {
		if err := parts.Add(games[cut[0]:cut[1]]); err != nil {
			t.Fatal(err)
		}
		// After each Add, the forward filter is a fresh New's.
		fresh, err := throughtime.New(p, games[:cut[1]])
		if err != nil {
			t.Fatal(err)
		}
		for k, want := range fresh.Filtered() {
			if got := parts.Filtered()[k]; math.Abs(got-want) > 1e-9 {
				t.Errorf("after adding games %v: game %d: filtered log evidence %v, fresh %v", cut, k, got, want)
			}
		}
		sameCurves(t, fmt.Sprintf("after adding games %v", cut), parts, fresh, 1e-9)
	}
	for k, want := range whole.Filtered() {
		if got := parts.Filtered()[k]; math.Abs(got-want) > 1e-12 {
			t.Errorf("game %d: filtered log evidence %v in pieces, %v whole", k, got, want)
		}
	}
	sameCurves(t, "filtered", parts, whole, 1e-12)

	ctx := context.Background()
	for _, h := range []*throughtime.History{whole, parts} {
		if res, err := h.Converge(ctx, 1e-12, 1000); err != nil || !res.Converged {
			t.Fatalf("smoothing: %+v, %v", res, err)
		}
	}
	sameCurves(t, "smoothed", parts, whole, 1e-9)
}

// TestOnline smooths between additions, as a league adding each week's
// games would: the fixed point does not depend on the path to it.
func TestOnline(t *testing.T) {
	p := throughtime.DefaultParams()
	games := league()
	whole, err := throughtime.New(p, games)
	if err != nil {
		t.Fatal(err)
	}
	online, err := throughtime.New(p, games[:2])
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for k := 2; k < len(games); k += 2 {
		if _, err := online.Converge(ctx, 1e-6, 3); err != nil {
			t.Fatal(err)
		}
		if err := online.Add(games[k : k+2]); err != nil {
			t.Fatal(err)
		}
	}
	for _, h := range []*throughtime.History{whole, online} {
		if res, err := h.Converge(ctx, 1e-12, 1000); err != nil || !res.Converged {
			t.Fatalf("smoothing: %+v, %v", res, err)
		}
	}
	sameCurves(t, "online", online, whole, 1e-9)
}

// TestAddRejects: a game not later than the history's latest, or invalid,
// is an error and leaves the history as it was.
func TestAddRejects(t *testing.T) {
	p := throughtime.DefaultParams()
	games := league()
	h, err := throughtime.New(p, games[:4])
	if err != nil {
		t.Fatal(err)
	}
	before := h.LearningCurve("ann")
	players := h.Players()
	for _, c := range []struct {
		name, want string // want: a fragment of the message
		add        []throughtime.Match
	}{
		{"same time", "is not after", []throughtime.Match{{Time: games[3].Time, Teams: [][]string{{"zed"}, {"ann"}}}}},
		{"earlier", "is not after", []throughtime.Match{{Time: 1, Teams: [][]string{{"zed"}, {"ann"}}}}},
		{"one team", "1 teams", []throughtime.Match{{Time: 100, Teams: [][]string{{"zed"}}}}},
		{"valid then tied", "tie", []throughtime.Match{{Time: 100, Teams: [][]string{{"zed"}, {"ann"}}}, {Time: 101, Teams: [][]string{{"yan"}, {"ann"}}, Ranks: []int{1, 1}}}},
	} {
		if err := h.Add(c.add); !errors.Is(err, throughtime.ErrInput) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ErrInput naming %q", c.name, err, c.want)
		}
	}
	if !slices.Equal(h.Players(), players) || !slices.Equal(h.LearningCurve("ann"), before) || len(h.Filtered()) != 4 {
		t.Errorf("a rejected Add changed the history: players %q, ann %v, %d games", h.Players(), h.LearningCurve("ann"), len(h.Filtered()))
	}
	// It still works.
	if err := h.Add(games[4:6]); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Converge(context.Background(), 1e-6, 100); err != nil {
		t.Fatal(err)
	}
}

// TestPosteriorBetweenGames checks the bridge against a skill declared
// there: a player who sits in a game with weight 0 at time t has a skill at
// t on the drift chain to which the game sends nothing, so its converged
// marginal is what Posterior at t must give in the same history without
// that seat. After the last game the drift adds γ²·Δt; at a game's time
// Posterior is the learning curve.
func TestPosteriorBetweenGames(t *testing.T) {
	p := throughtime.DefaultParams()
	p.Gamma = 0.5
	base := []throughtime.Match{
		{Time: 0, Teams: [][]string{{"x"}, {"y"}}},
		{Time: 2, Teams: [][]string{{"a"}, {"b"}}},
		{Time: 7, Teams: [][]string{{"y"}, {"x"}}},
		{Time: 8, Teams: [][]string{{"x"}, {"a"}}},
	}
	seated := slices.Clone(base)
	seated[1] = throughtime.Match{Time: 2, Teams: [][]string{{"a", "x"}, {"b"}}, Weights: [][]float64{{1, 0}, {1}}}
	ctx := context.Background()
	var hs [2]*throughtime.History
	for i, games := range [][]throughtime.Match{base, seated} {
		h, err := throughtime.New(p, games)
		if err != nil {
			t.Fatal(err)
		}
		if res, err := h.Converge(ctx, 1e-12, 1000); err != nil || !res.Converged {
			t.Fatalf("smoothing: %+v, %v", res, err)
		}
		hs[i] = h
	}
	got, err := hs[0].Posterior("x", 2)
	if err != nil {
		t.Fatal(err)
	}
	want := hs[1].LearningCurve("x")[1]
	if want.Time != 2 || math.Abs(got.Mu-want.Mu) > 1e-9 || math.Abs(got.Sigma-want.Sigma) > 1e-9 {
		t.Errorf("x at 2: Posterior %+v, a skill declared there %+v", got, want)
	}

	curve := hs[0].LearningCurve("x")
	for _, pt := range curve {
		if got, err := hs[0].Posterior("x", pt.Time); err != nil || got != pt {
			t.Errorf("at a game: Posterior %+v, %v; curve %+v", got, err, pt)
		}
	}
	last := curve[len(curve)-1]
	later, err := hs[0].Posterior("x", last.Time+4)
	if err != nil {
		t.Fatal(err)
	}
	if wantSigma := math.Sqrt(last.Sigma*last.Sigma + 4*p.Gamma*p.Gamma); math.Abs(later.Mu-last.Mu) > 1e-12 || math.Abs(later.Sigma-wantSigma) > 1e-12 {
		t.Errorf("after the last game: %+v, want μ %v σ %v", later, last.Mu, wantSigma)
	}
	if first, err := hs[0].Posterior("x", -5); err != nil || first.Mu != curve[0].Mu || first.Sigma != curve[0].Sigma {
		t.Errorf("before the first game: %+v, %v; want the first skill %+v", first, err, curve[0])
	}
	if _, err := hs[0].Posterior("nobody", 1); !errors.Is(err, throughtime.ErrPlayer) {
		t.Errorf("unknown player: %v", err)
	}
	if _, err := hs[0].Posterior("x", math.NaN()); !errors.Is(err, throughtime.ErrInput) {
		t.Errorf("NaN time: %v", err)
	}
}

func sameCurves(t *testing.T, what string, got, want *throughtime.History, tol float64) {
	t.Helper()
	if !slices.Equal(got.Players(), want.Players()) {
		t.Fatalf("%s: players %q, want %q", what, got.Players(), want.Players())
	}
	for _, name := range want.Players() {
		g, w := got.LearningCurve(name), want.LearningCurve(name)
		if len(g) != len(w) {
			t.Fatalf("%s: %s has %d points, want %d", what, name, len(g), len(w))
		}
		for i := range w {
			if g[i].Time != w[i].Time || math.Abs(g[i].Mu-w[i].Mu) > tol || math.Abs(g[i].Sigma-w[i].Sigma) > tol {
				t.Errorf("%s: %s point %d: %+v, want %+v", what, name, i, g[i], w[i])
			}
		}
	}
}
