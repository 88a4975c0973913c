package store_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/internal/store"
	"github.com/skillgraph/skillgraph/internal/store/storetest"
	"github.com/skillgraph/skillgraph/messages"
)

var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// randomMatch returns a match of 2 to 4 teams of 1 or 2 of 10 players,
// ranked at random with some draws, at a time up to 50 hours after t0.
func randomMatch(rng *rand.Rand, id string) store.Match {
	names := rng.Perm(10)
	k := 2 + rng.IntN(3)
	m := store.Match{ID: id, Time: t0.Add(time.Duration(rng.IntN(50)) * time.Hour)}
	for j := range k {
		team := []string{fmt.Sprintf("P%d", names[2*j])}
		if rng.IntN(2) == 0 {
			team = append(team, fmt.Sprintf("P%d", names[2*j+1]))
		}
		m.Teams = append(m.Teams, team)
		m.Ranks = append(m.Ranks, 1+rng.IntN(k))
	}
	return m
}

// order sorts ms as the store orders them: by time, then by arrival
// (arrival[id], the order they were first added).
func order(ms []store.Match, arrival map[string]int) []store.Match {
	out := slices.Clone(ms)
	slices.SortStableFunc(out, func(a, b store.Match) int {
		if c := a.Time.Compare(b.Time); c != 0 {
			return c
		}
		return arrival[a.ID] - arrival[b.ID]
	})
	return out
}

func openSQLite(t *testing.T) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "league.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func openPostgres(t *testing.T) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), storetest.Postgres(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestRecordSQLite(t *testing.T)   { testRecord(t, openSQLite(t)) }
func TestRecordPostgres(t *testing.T) { testRecord(t, openPostgres(t)) }

// testRecord adds matches out of time order, corrects and deletes some,
// and checks after each step that the standings and histories are those
// of replaying the matches the test keeps, in the store's order.
func testRecord(t *testing.T, db *store.DB) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	p, err := db.Params(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if p.DrawProbability != store.DefaultDrawProbability {
		t.Fatalf("draw probability %v, want the default %v", p.DrawProbability, store.DefaultDrawProbability)
	}
	arrival := map[string]int{}
	var kept []store.Match
	check := func(step string) {
		t.Helper()
		want := order(kept, arrival)
		got, err := db.Matches(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d matches stored, want %d", step, len(got), len(want))
		}
		for i := range got {
			if got[i].ID != want[i].ID || !got[i].Time.Equal(want[i].Time) || !slices.Equal(got[i].Ranks, want[i].Ranks) {
				t.Fatalf("%s: match %d is %+v, want %+v", step, i, got[i], want[i])
			}
		}
		storetest.Check(t, db, p, want, 1e-12)
	}
	for i := range 60 {
		m := randomMatch(rng, fmt.Sprintf("m%d", i))
		got, created, err := db.Add(ctx, m)
		if err != nil || !created || got.ID != m.ID {
			t.Fatalf("add %+v: %+v, %v, %v", m, got, created, err)
		}
		arrival[m.ID] = i
		kept = append(kept, m)
		if i%10 == 9 {
			check(fmt.Sprintf("after %d adds", i+1))
		}
	}
	// A retry changes nothing; the same id for another game is refused.
	if _, created, err := db.Add(ctx, kept[7]); err != nil || created {
		t.Fatalf("retry: created %v, %v", created, err)
	}
	other := kept[7]
	other.Ranks = []int{9, 9, 9, 9}[:len(other.Ranks)]
	if _, _, err := db.Add(ctx, other); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("same id, other game: %v, want ErrConflict", err)
	}
	check("after a retry and a conflict")
	// Correct matches, moving them in time both ways.
	for _, i := range []int{3, 30, 55} {
		c := randomMatch(rng, kept[i].ID)
		if _, err := db.Correct(ctx, c); err != nil {
			t.Fatal(err)
		}
		kept[i] = c
		check(fmt.Sprintf("after correcting %s", c.ID))
	}
	for _, i := range []int{40, 0, 12} {
		if err := db.Delete(ctx, kept[i].ID); err != nil {
			t.Fatal(err)
		}
		delete(arrival, kept[i].ID)
		kept = slices.Delete(kept, i, i+1)
		check("after a delete")
	}
	// Deleting or correcting a player's last match gives them back the
	// standing of their match before, or takes them off the board.
	solo := []store.Match{
		{ID: "z1", Time: t0.Add(-time.Hour), Teams: [][]string{{"Z1"}, {"Z2"}}, Ranks: []int{1, 2}},
		{ID: "z2", Time: t0.Add(20 * time.Hour), Teams: [][]string{{"Z1", "Z3"}, {"P1"}}, Ranks: []int{2, 1}},
		{ID: "z3", Time: t0.Add(30 * time.Hour), Teams: [][]string{{"Z4"}, {"P2"}}, Ranks: []int{2, 1}},
	}
	for _, m := range solo {
		if _, _, err := db.Add(ctx, m); err != nil {
			t.Fatal(err)
		}
		arrival[m.ID] = len(arrival) + 1000
		kept = append(kept, m)
	}
	check("after the solo matches")
	fix := solo[2]
	fix.Teams = [][]string{{"Z5"}, {"P2"}}
	if _, err := db.Correct(ctx, fix); err != nil {
		t.Fatal(err)
	}
	kept[len(kept)-1] = fix
	check("after taking Z4 out of their one match")
	for _, id := range []string{"z2", "z1"} {
		if err := db.Delete(ctx, id); err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(kept, func(m store.Match) bool { return m.ID == id })
		kept = slices.Delete(kept, i, i+1)
		check("after deleting " + id)
	}
	if err := db.Delete(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("delete of a missing match: %v, want ErrNotFound", err)
	}
	if _, err := db.Correct(ctx, randomMatch(rng, "nope")); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("correct of a missing match: %v, want ErrNotFound", err)
	}
	if _, err := db.History(ctx, "nobody"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("history of nobody: %v, want ErrNotFound", err)
	}
	// Another draw probability re-rates everything.
	if err := db.SetDrawProbability(ctx, 0.25); err != nil {
		t.Fatal(err)
	}
	p.DrawProbability = 0.25
	check("after changing the draw probability")
	// A draw cannot be rated with a draw probability of 0, and the setting
	// is refused while drawn matches are stored.
	if err := db.SetDrawProbability(ctx, 0); !errors.Is(err, messages.ErrImpossible) || !strings.Contains(err.Error(), "draw probability is 0") {
		t.Fatalf("draw probability 0 with drawn matches stored: %v, want messages.ErrImpossible", err)
	}
	check("after a refused setting")
}

func TestInvalidMatches(t *testing.T) {
	db := openSQLite(t)
	ctx := context.Background()
	ok := store.Match{ID: "a", Time: t0, Teams: [][]string{{"Ada"}, {"Bo"}}, Ranks: []int{1, 2}}
	many := make([][]string, store.MaxTeams+1)
	for i := range many {
		many[i] = []string{fmt.Sprint("p", i)}
	}
	cases := []struct {
		name string
		edit func(m *store.Match)
		msg  string
	}{
		{"bad id", func(m *store.Match) { m.ID = "a\tb" }, "match id"},
		{"padded id", func(m *store.Match) { m.ID = "a " }, "match id"},
		{"long id", func(m *store.Match) { m.ID = strings.Repeat("x", 2000) }, "match id"},
		{"dot id", func(m *store.Match) { m.ID = "." }, `match id "." is a path step`},
		{"dot-dot id", func(m *store.Match) { m.ID = ".." }, `match id ".." is a path step`},
		{"dot-dot name", func(m *store.Match) { m.Teams = [][]string{{"Ada"}, {".."}} }, `player name ".." is a path step`},
		{"no time", func(m *store.Match) { m.Time = time.Time{} }, "time"},
		{"one team", func(m *store.Match) { m.Teams = m.Teams[:1]; m.Ranks = m.Ranks[:1] }, "2 to 64 teams"},
		{"too many teams", func(m *store.Match) { m.Teams = many }, "2 to 64 teams"},
		{"empty team", func(m *store.Match) { m.Teams = [][]string{{"Ada"}, {}} }, "team 2 needs"},
		{"empty name", func(m *store.Match) { m.Teams = [][]string{{"Ada"}, {""}} }, "player name: empty name"},
		{"padded name", func(m *store.Match) { m.Teams = [][]string{{"Ada"}, {" Bo"}} }, "space"},
		{"control", func(m *store.Match) { m.Teams = [][]string{{"Ada"}, {"B\x00o"}} }, "control"},
		{"not utf-8", func(m *store.Match) { m.Teams = [][]string{{"Ada"}, {"B\xffo"}} }, "invalid UTF-8"},
		{"long name", func(m *store.Match) { m.Teams = [][]string{{"Ada"}, {strings.Repeat("é", 40)}} }, "longer"},
		{"twice", func(m *store.Match) { m.Teams = [][]string{{"Ada"}, {"Ada"}} }, "twice"},
		{"ranks short", func(m *store.Match) { m.Ranks = []int{1} }, "1 ranks for 2 teams"},
		{"rank zero", func(m *store.Match) { m.Ranks = []int{0, 1} }, "outside"},
	}
	for _, c := range cases {
		m := ok
		m.Teams = slices.Clone(ok.Teams)
		m.Ranks = slices.Clone(ok.Ranks)
		c.edit(&m)
		_, _, err := db.Add(ctx, m)
		if !errors.Is(err, messages.ErrInput) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v, want messages.ErrInput saying %q", c.name, err, c.msg)
		}
	}
	if ms, err := db.Matches(ctx); err != nil || len(ms) != 0 {
		t.Fatalf("invalid matches stored: %v, %v", ms, err)
	}
	if err := db.SetDrawProbability(ctx, 0); err != nil {
		t.Fatal(err)
	}
	draw := ok
	draw.Ranks = []int{1, 1}
	if _, _, err := db.Add(ctx, draw); !errors.Is(err, messages.ErrImpossible) || !strings.Contains(err.Error(), "draw probability is 0") {
		t.Fatalf("a draw at draw probability 0: %v", err)
	}
	if ms, err := db.Matches(ctx); err != nil || len(ms) != 0 {
		t.Fatalf("refused draw stored: %v, %v", ms, err)
	}
}

// TestOddPaths stores a league in files whose names hold the characters
// an SQLite URI gives a meaning ("%41" would be "A", "#" would end the
// name and "?" start parameters), and checks that the league is in the
// file named, in WAL mode, and reads back.
func TestOddPaths(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	m := store.Match{ID: "x", Time: t0, Teams: [][]string{{"Ada"}, {"Bo"}}, Ranks: []int{1, 2}}
	names := []string{"a%41.db", "b#1.db", "c?mode=ro.db", "d 100%.db"}
	for _, name := range names {
		path := filepath.Join(dir, name)
		db, err := store.Open(ctx, path)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if _, _, err := db.Add(ctx, m); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		_, errWAL := os.Stat(path + "-wal")
		db.Close()
		if _, err := os.Stat(path); err != nil || errWAL != nil {
			t.Errorf("%s: the league is not in the file named, in WAL mode: %v, %v", name, err, errWAL)
			continue
		}
		db, err = store.Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		ms, err := db.Matches(ctx)
		db.Close()
		if err != nil || len(ms) != 1 || ms[0].ID != "x" {
			t.Errorf("%s: read back %v, %v", name, ms, err)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !slices.Contains(names, strings.TrimSuffix(strings.TrimSuffix(e.Name(), "-wal"), "-shm")) {
			t.Errorf("a file %q was made that is none of the leagues", e.Name())
		}
	}
}

// TestReopen checks that a league's file keeps its record and setting.
func TestReopen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "l.db")
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	m := store.Match{ID: "x", Time: t0, Teams: [][]string{{"Ada", "Bo"}, {"Cy"}}, Ranks: []int{1, 2}}
	if _, _, err := db.Add(ctx, m); err != nil {
		t.Fatal(err)
	}
	if err := db.SetDrawProbability(ctx, 0.05); err != nil {
		t.Fatal(err)
	}
	db.Close()
	db, err = store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	p, err := db.Params(ctx)
	if err != nil || p.DrawProbability != 0.05 {
		t.Fatalf("draw probability %v, %v after reopening, want 0.05", p.DrawProbability, err)
	}
	players, err := db.Players(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ratings, games := storetest.Replay(t, p, []store.Match{m})
	storetest.Same(t, players, ratings, games, 1e-12)
}

// TestAddAll adds a batch of matches, some before and some after the
// stored ones, with a retry among them, and checks the league against a
// replay; then batches with one bad match, which must store nothing.
func TestAddAll(t *testing.T) {
	db := openSQLite(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 4))
	p, err := db.Params(ctx)
	if err != nil {
		t.Fatal(err)
	}
	arrival := map[string]int{}
	var kept []store.Match
	for i := range 10 {
		m := randomMatch(rng, fmt.Sprintf("s%d", i))
		if _, _, err := db.Add(ctx, m); err != nil {
			t.Fatal(err)
		}
		arrival[m.ID] = len(arrival)
		kept = append(kept, m)
	}
	batch := []store.Match{kept[4]} // a retry
	for i := range 20 {
		m := randomMatch(rng, fmt.Sprintf("b%d", i))
		batch = append(batch, m)
		arrival[m.ID] = len(arrival)
		kept = append(kept, m)
	}
	added, err := db.AddAll(ctx, batch)
	if err != nil || added != 20 {
		t.Fatalf("AddAll: %d added, %v; want 20", added, err)
	}
	want := order(kept, arrival)
	got, err := db.Matches(ctx)
	if err != nil || len(got) != len(want) {
		t.Fatalf("%d matches stored (%v), want %d", len(got), err, len(want))
	}
	for i := range got {
		if got[i].ID != want[i].ID {
			t.Fatalf("match %d is %s, want %s", i, got[i].ID, want[i].ID)
		}
	}
	storetest.Check(t, db, p, want, 1e-12)

	// One bad match anywhere in a batch stores none of it, and the error
	// names that match.
	conflict := kept[0]
	conflict.Ranks = slices.Clone(conflict.Ranks)
	conflict.Ranks[0] = 9
	long := randomMatch(rng, "long")
	long.Teams[1] = []string{strings.Repeat("n", store.MaxNameLength+1)}
	for _, c := range []struct {
		bad  store.Match
		kind error
		msg  string
	}{
		{conflict, store.ErrConflict, "stored with other"},
		{long, messages.ErrInput, "longer than allowed"},
	} {
		ms := []store.Match{randomMatch(rng, "x1"), c.bad, randomMatch(rng, "x2")}
		_, err := db.AddAll(ctx, ms)
		var me *store.MatchError
		if !errors.As(err, &me) || me.ID != c.bad.ID || !errors.Is(err, c.kind) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("batch with %s: %v, want a MatchError naming it, %v, saying %q", c.bad.ID, err, c.kind, c.msg)
		}
		if got, err := db.Matches(ctx); err != nil || len(got) != len(want) {
			t.Fatalf("a refused batch stored matches: %d, %v", len(got), err)
		}
		storetest.Check(t, db, p, want, 1e-12)
	}
}
