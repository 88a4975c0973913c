package league

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

var big = flag.Bool("big", false, "run FairestPairs on 10,000 players")

// randomGames returns n games of a league of players, 1v1 and 2v2, some
// drawn, dated one a day in order.
func randomGames(seed uint64, n, players int) []Match {
	rng := rand.New(rand.NewPCG(seed, 1))
	skill := make([]float64, players)
	for i := range skill {
		skill[i] = rng.NormFloat64() * 4
	}
	games := make([]Match, n)
	for g := range games {
		size := 1 + rng.IntN(2)
		perm := rng.Perm(players)[:2*size]
		teams := [][]string{{}, {}}
		var perf [2]float64
		for k, p := range perm {
			teams[k/size] = append(teams[k/size], fmt.Sprint("p", p))
			perf[k/size] += skill[p] + rng.NormFloat64()*4
		}
		ranks := []int{0, 1}
		switch {
		case math.Abs(perf[0]-perf[1]) < 0.5:
			ranks = []int{0, 0}
		case perf[1] > perf[0]:
			ranks = []int{1, 0}
		}
		games[g] = Match{Key: fmt.Sprint("g", g), Date: fmt.Sprintf("2025-%02d-%02d", 1+g/28%12, 1+g%28), Teams: teams, Ranks: ranks}
	}
	slices.SortStableFunc(games, func(a, b Match) int { return strings.Compare(a.Date, b.Date) })
	return games
}

// roundTrip writes l as a state and reads it back.
func roundTrip(t *testing.T, l *League) *League {
	t.Helper()
	var buf bytes.Buffer
	if err := l.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return back
}

// TestSplit: rating 90 % of the games, saving and loading the state, then
// the rest (given with all the games, or alone) gives every player's
// rating to 1e-12 of rating all at once, each game rated with
// trueskill.Params.Rate on the ratings before it.
func TestSplit(t *testing.T) {
	games := randomGames(7, 300, 12)
	p := trueskill.DefaultParams()
	all := New(FormatLong, p)
	if n, err := all.Rate(context.Background(), games); err != nil || n != len(games) {
		t.Fatalf("rated %d: %v", n, err)
	}
	// The same games rated in two parts are compared with all. (That
	// rating at once is rating game by game with Params.Rate is tested on
	// the bundled league by the rate subcommand's TestBundled.)
	ratings := map[string]trueskill.Rating{}
	for _, pl := range all.Players {
		ratings[pl.Name] = pl.Rating
	}
	cut := len(games) * 9 / 10
	for _, rest := range [][]Match{games, games[cut:]} {
		part := New(FormatLong, p)
		if _, err := part.Rate(context.Background(), games[:cut]); err != nil {
			t.Fatal(err)
		}
		part = roundTrip(t, part)
		n, err := part.Rate(context.Background(), rest)
		if err != nil || n != len(games)-cut {
			t.Fatalf("second part rated %d of %d: %v", n, len(games)-cut, err)
		}
		if len(part.Players) != len(ratings) {
			t.Fatalf("%d players, want %d", len(part.Players), len(ratings))
		}
		for _, pl := range part.Players {
			want := ratings[pl.Name]
			if math.Abs(pl.Rating.Mu-want.Mu) > 1e-12 || math.Abs(pl.Rating.Sigma-want.Sigma) > 1e-12 {
				t.Errorf("%s: %v in two parts, %v at once", pl.Name, pl.Rating, want)
			}
			if a := all.Player(pl.Name); a.Games != pl.Games || len(a.History) != len(pl.History) {
				t.Errorf("%s: %d games in two parts, %d at once", pl.Name, pl.Games, a.Games)
			}
		}
	}
	// A new game dated before the last one, or an old game after a new
	// one, is refused.
	late := New(FormatLong, p)
	if _, err := late.Rate(context.Background(), games[cut:]); err != nil {
		t.Fatal(err)
	}
	if _, err := late.Rate(context.Background(), games[:1]); !errors.Is(err, messages.ErrInput) || !strings.Contains(err.Error(), "cannot be redone in the past") {
		t.Errorf("a game before the last: err %v, want messages.ErrInput saying so", err)
	}
	if _, err := late.Rate(context.Background(), []Match{{Key: "new", Date: "2099-01-01", Teams: [][]string{{"a"}, {"b"}}, Ranks: []int{0, 1}}, games[cut]}); !errors.Is(err, messages.ErrInput) || !strings.Contains(err.Error(), "the rated games must come first") {
		t.Errorf("a rated game after a new one: err %v, want messages.ErrInput saying so", err)
	}
	// A draw where the draw probability is 0 has probability zero.
	q := p
	q.DrawProbability = 0
	none := New(FormatLong, q)
	if _, err := none.Rate(context.Background(), []Match{{Key: "d", Date: "2099-01-01", Teams: [][]string{{"a"}, {"b"}}, Ranks: []int{0, 0}}}); !errors.Is(err, messages.ErrImpossible) || !strings.Contains(err.Error(), "is a draw") {
		t.Errorf("a draw at draw probability 0: err %v, want messages.ErrImpossible", err)
	}
}

// TestCheckRating: a league takes exactly the ratings of TrueSkill's
// domain, |μ| ≤ 1e12 and σ in [1e-9, 1e9], the bounds included and the
// next float64 beyond each excluded: those that Rate1v1 takes too.
func TestCheckRating(t *testing.T) {
	p := trueskill.DefaultParams()
	up, down := func(x float64) float64 { return math.Nextafter(x, math.Inf(1)) }, func(x float64) float64 { return math.Nextafter(x, math.Inf(-1)) }
	for _, r := range []trueskill.Rating{
		{Mu: 25, Sigma: 1e-300}, {Mu: 25, Sigma: 0}, {Mu: 25, Sigma: -1}, {Mu: 25, Sigma: 1e200},
		{Mu: 25, Sigma: math.Inf(1)}, {Mu: 25, Sigma: math.NaN()}, {Mu: math.NaN(), Sigma: 1},
		{Mu: math.Inf(-1), Sigma: 1}, {Mu: 1e308, Sigma: 1}, {Mu: 1e300, Sigma: 1e-10}, {Mu: 0, Sigma: 1e-150},
		{Mu: up(1e12), Sigma: 1}, {Mu: down(-1e12), Sigma: 1}, {Mu: 0, Sigma: down(1e-9)}, {Mu: 0, Sigma: up(1e9)},
	} {
		if _, _, err := p.Rate1v1(r, p.NewRating(), false); !errors.Is(err, messages.ErrInput) {
			t.Errorf("%v: Rate1v1 takes it: err %v", r, err)
		}
		if err := checkRating(r); !errors.Is(err, messages.ErrInput) || !strings.Contains(err.Error(), "not a valid league state") {
			t.Errorf("%v: err %v, want messages.ErrInput, not a valid league state", r, err)
		} else if strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: error of more than one line: %q", r, err)
		}
	}
	for _, r := range []trueskill.Rating{{Mu: 25, Sigma: 8}, {Mu: -1e6, Sigma: 1e-6}, {Mu: 1e12, Sigma: 1e-9}, {Mu: -1e12, Sigma: 1e9}} {
		if err := checkRating(r); err != nil {
			t.Errorf("%v: %v", r, err)
		}
		if _, _, err := p.Rate1v1(r, p.NewRating(), false); err != nil {
			t.Errorf("%v: Rate1v1: %v", r, err)
		}
	}
	// A state holding σ = 1e-300 is rejected on reading.
	l := New(FormatLong, p)
	if _, err := l.Rate(context.Background(), randomGames(1, 5, 4)); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	l.Encode(&buf)
	sigma := fmt.Sprintf(`"sigma": %v`, l.Players[0].Rating.Sigma)
	bad := strings.Replace(buf.String(), sigma, `"sigma": 1e-300`, 1)
	if bad == buf.String() {
		t.Fatalf("no %s in the state", sigma)
	}
	if _, err := Decode(strings.NewReader(bad)); !errors.Is(err, messages.ErrInput) || !strings.Contains(err.Error(), "1e-300") {
		t.Errorf("σ = 1e-300 in a state: err %v, want messages.ErrInput naming it", err)
	}
}

func TestStandings(t *testing.T) {
	l := New(FormatLong, trueskill.DefaultParams())
	if _, err := l.Rate(context.Background(), randomGames(3, 60, 10)); err != nil {
		t.Fatal(err)
	}
	for _, by := range []RankBy{Display, Conservative} {
		for _, minGames := range []int{0, 12} {
			s := l.Standings(by, minGames)
			want := 0
			for _, pl := range l.Players {
				if pl.Games >= minGames {
					want++
				}
			}
			if len(s) != want || want == 0 {
				t.Fatalf("%s, min %d: %d rows, want %d (> 0)", by, minGames, len(s), want)
			}
			for i, row := range s {
				r := row.Player.Rating
				score := (r.Mu - r.Sigma) * 48
				if by == Conservative {
					score = r.Mu - 3*r.Sigma
				}
				if row.Score != score || row.Player.Games < minGames {
					t.Errorf("%s: %+v, want score %v", by, row, score)
				}
				if i > 0 && (row.Score > s[i-1].Score || row.Rank != i+1) {
					t.Errorf("%s: row %d out of order: %+v after %+v", by, i, row, s[i-1])
				}
			}
		}
	}
	if _, err := ParseRankBy("elo"); err == nil {
		t.Error("ParseRankBy(elo) succeeded")
	}
}

// randomRatings returns n ratings spread like a league's, with repeats so
// that qualities tie.
func randomRatings(seed uint64, n int) []trueskill.Rating {
	rng := rand.New(rand.NewPCG(seed, 2))
	rs := make([]trueskill.Rating, n)
	for i := range rs {
		if i > 0 && rng.IntN(5) == 0 {
			rs[i] = rs[rng.IntN(i)]
			continue
		}
		rs[i] = trueskill.Rating{Mu: 25 + rng.NormFloat64()*5, Sigma: 0.8 + 7.5*rng.Float64()}
	}
	return rs
}

// TestFairestPairs: the pruned search returns the same pairs as sorting
// every pair, for leagues of 2 to 60 players and every k.
func TestFairestPairs(t *testing.T) {
	p := trueskill.DefaultParams()
	for seed := range uint64(20) {
		n := 2 + int(seed*3)
		rs := randomRatings(seed, n)
		all, err := allPairs(p, rs)
		if err != nil {
			t.Fatal(err)
		}
		if len(all) != n*(n-1)/2 {
			t.Fatalf("%d pairs of %d players", len(all), n)
		}
		// allPairs itself against the paper's equation 7 written here.
		for _, pr := range all[:min(5, len(all))] {
			a, b := rs[pr.A], rs[pr.B]
			c2 := 2*p.Beta*p.Beta + a.Sigma*a.Sigma + b.Sigma*b.Sigma
			want := math.Sqrt(2*p.Beta*p.Beta/c2) * math.Exp(-(a.Mu-b.Mu)*(a.Mu-b.Mu)/(2*c2))
			if math.Abs(pr.Quality-want) > 1e-14 {
				t.Errorf("quality %v, equation 7 gives %v", pr.Quality, want)
			}
		}
		for _, k := range []int{1, 2, 3, 5, 10, 50, len(all) - 1, len(all), len(all) + 3, 0} {
			got, err := FairestPairs(p, rs, k)
			if err != nil {
				t.Fatal(err)
			}
			want := all
			if k > 0 && k < len(all) {
				want = all[:k]
			}
			if !slices.Equal(got, want) {
				t.Errorf("%d players, k = %d: pruned search differs from every pair sorted:\n got %v\nwant %v", n, k, got, want)
			}
		}
	}
}

// TestFairestPairsWork: on 5,000 players (10,000 with -big) the search
// computes a small multiple of n pairs, not n²/2.
func TestFairestPairsWork(t *testing.T) {
	n := 5000
	if *big {
		n = 10000
	}
	rs := randomRatings(99, n)
	evaluated := 0
	got, err := fairest(trueskill.DefaultParams(), rs, 10, &evaluated)
	if err != nil || len(got) != 10 {
		t.Fatalf("%d pairs: %v", len(got), err)
	}
	if evaluated > 20*n {
		t.Errorf("%d pairs computed for %d players: want at most %d", evaluated, n, 20*n)
	}
	t.Logf("%d players: %d of %d pairs computed", n, evaluated, n*(n-1)/2)
}

// TestConcurrentState: runs adding games to one state file at once, each
// opening, rating and saving under the lock, lose none of them; and a
// state reached through a symbolic link keeps the link.
func TestConcurrentState(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "league.json")
	games := randomGames(5, 80, 8)
	const workers = 8
	var wg sync.WaitGroup
	errs := make(chan error, len(games))
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(games); i += workers {
				errs <- addGame(path, games[i])
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	s, err := OpenState(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := len(s.League.Games); got != len(games) {
		t.Errorf("%d games in the state, want %d: %d lost", got, len(games), len(games)-got)
	}
}

// addGame adds one game to the state at path, as a run of the rate
// subcommand does (games arrive in any order here, so each is dated after
// the last).
func addGame(path string, g Match) error {
	s, err := OpenState(context.Background(), path)
	if err != nil {
		return err
	}
	defer s.Close()
	l := s.League
	if l == nil {
		l = New(FormatLong, trueskill.DefaultParams())
	}
	g.Date = max(g.Date, l.LastDate)
	if _, err := l.Rate(context.Background(), []Match{g}); err != nil {
		return err
	}
	return s.Save(l)
}

// TestFractionalSeconds: a game half a second after the last one rated is
// later, though its date, "…T08:00:00.5Z", sorts before "…T08:00:00Z" as
// text; the league rates it, keeps it in a state that loads back, and
// reports the earlier game's date as the first.
func TestFractionalSeconds(t *testing.T) {
	games := []Match{
		{Key: "g1", Date: "2025-01-01T08:00:00Z", Teams: [][]string{{"A"}, {"B"}}, Ranks: []int{0, 1}},
		{Key: "g2", Date: "2025-01-01T08:00:00.5Z", Teams: [][]string{{"C"}, {"D"}}, Ranks: []int{0, 1}},
	}
	l := New(FormatLong, trueskill.DefaultParams())
	n, err := l.Rate(context.Background(), games)
	if err != nil || n != 2 {
		t.Fatalf("rated %d games, error %v; want 2 and none", n, err)
	}
	if l.LastDate != games[1].Date {
		t.Errorf("last date %q, want %q", l.LastDate, games[1].Date)
	}
	back := roundTrip(t, l)
	if got := back.FirstDate(); got != games[0].Date {
		t.Errorf("first date %q, want %q", got, games[0].Date)
	}
	// A game earlier by a fraction of a second is still refused.
	early := Match{Key: "g3", Date: "2025-01-01T08:00:00.25Z", Teams: [][]string{{"A"}, {"C"}}, Ranks: []int{0, 1}}
	if _, err := back.Rate(context.Background(), []Match{early}); !errors.Is(err, messages.ErrInput) || !strings.Contains(err.Error(), "before the last game rated") {
		t.Errorf("a game before the last one: error %v, want one saying it is before the last game rated", err)
	}
}

// TestDecodePlace: a state file that is not JSON, or holds a value of the
// wrong type, is refused with the line and column (from 1, in bytes) of
// the byte at fault, found here by searching the text; one cut short says
// where it ends; an empty one says it is empty.
func TestDecodePlace(t *testing.T) {
	l := New(FormatLong, trueskill.DefaultParams())
	if _, err := l.Rate(context.Background(), randomGames(1, 3, 4)); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := l.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	good := buf.String()
	lines := strings.Split(good, "\n")
	k := slices.IndexFunc(lines, func(s string) bool { return strings.Contains(s, `"format": "long",`) })
	if k < 1 {
		t.Fatalf("no format line in\n%s", good)
	}
	// at returns the place of the first byte of mark in line k, once it
	// replaces old there.
	at := func(old, mark string) (string, string) {
		changed := slices.Clone(lines)
		changed[k] = strings.Replace(lines[k], old, mark, 1)
		return strings.Join(changed, "\n"), fmt.Sprintf("line %d, column %d: ", k+1, strings.Index(changed[k], mark)+1)
	}
	syntax, syntaxAt := at(`"long",`, `x"long",`)
	typ, typAt := at(`"long",`, `7,`)
	cut := good[:strings.Index(good, `"format"`)]
	cutLines := strings.Split(cut, "\n")
	for _, c := range []struct {
		name, text string
		want       []string
	}{
		{"syntax", syntax, []string{syntaxAt, "invalid character 'x'"}},
		{"type", typ, []string{typAt, "cannot unmarshal number"}},
		{"cut", cut, []string{fmt.Sprintf("line %d, column %d: unexpected EOF", len(cutLines), len(cutLines[len(cutLines)-1])+1)}},
		{"empty", " \n", []string{"the file is empty"}},
	} {
		_, err := Decode(strings.NewReader(c.text))
		if !errors.Is(err, messages.ErrInput) {
			t.Errorf("%s: error %v, want messages.ErrInput", c.name, err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not say %q", c.name, err, w)
			}
		}
	}
}

// TestWeightErrors: a weight the model refuses is reported by the game and
// the player's name, or for a team of weight 0 throughout by its players,
// not by its position in trueskill.Match.Weights.
func TestWeightErrors(t *testing.T) {
	for _, c := range []struct {
		weights [][]float64
		want    []string
	}{
		{[][]float64{{1, 1}, {1e300, 1}}, []string{`game w (2025-01-01): player "C" has weight 1e+300`, "neither 0 nor in [1e-9, 1e9]"}},
		{[][]float64{{1, 1e-12}, {1, 1}}, []string{`game w (2025-01-01): player "B" has weight 1e-12`}},
		{[][]float64{{0, 0}, {0, 0}}, []string{"game w (2025-01-01), the team of A, B: all weights of a team are 0", "one that took part"}},
	} {
		l := New(FormatLong, trueskill.DefaultParams())
		g := Match{Key: "w", Date: "2025-01-01", Teams: [][]string{{"A", "B"}, {"C", "D"}}, Ranks: []int{0, 1}, Weights: c.weights}
		_, err := l.Rate(context.Background(), []Match{g})
		if !errors.Is(err, messages.ErrInput) {
			t.Errorf("%v: error %v, want messages.ErrInput", c.weights, err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: error %q does not say %q", c.weights, err, w)
			}
		}
		if strings.Contains(err.Error(), "Weights[") {
			t.Errorf("%v: error %q names a position in trueskill.Match", c.weights, err)
		}
	}
}
