package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"math"
	"net/url"
	"os"
	"testing"

	"github.com/skillgraph/skillgraph/internal/sharedtest"
	"github.com/skillgraph/skillgraph/internal/store"
	"github.com/skillgraph/skillgraph/models/trueskill"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver
)

// PostgresEnv names the environment variable that holds the URL of a
// PostgreSQL server the tests may create databases in.
const PostgresEnv = "SKILLGRAPH_TEST_POSTGRES"

// Postgres returns the URL of a new, empty PostgreSQL database, dropped
// when the test ends. Without PostgresEnv the test is skipped, except
// when CI is set, where it fails: CI must run the PostgreSQL tests.
func Postgres(t testing.TB) string {
	t.Helper()
	dsn := os.Getenv(PostgresEnv)
	if dsn == "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is not set: CI runs the PostgreSQL tests", PostgresEnv)
		}
		t.Skipf("%s is not set (a postgres:// URL)", PostgresEnv)
	}
	admin, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatalf("open %s: %v", PostgresEnv, err)
	}
	defer admin.Close()
	var b [6]byte
	rand.Read(b[:])
	name := "skillgraph_test_" + hex.EncodeToString(b[:])
	ctx := context.Background()
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("create database: %v", err)
	}
	t.Cleanup(func() {
		a, err := sql.Open("pgx", dsn)
		if err != nil {
			t.Errorf("drop database %s: %v", name, err)
			return
		}
		defer a.Close()
		if _, err := a.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("drop database %s: %v", name, err)
		}
	})
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatalf("%s: %v", PostgresEnv, err)
	}
	u.Path = "/" + name
	return u.String()
}

// Replay rates ms one by one, in the order given, with p.Rate (through
// sharedtest.Replay), and returns every player's rating and number of
// games.
func Replay(t testing.TB, p trueskill.Params, ms []store.Match) (map[string]trueskill.Rating, map[string]int) {
	t.Helper()
	played := make([]sharedtest.Played, len(ms))
	for k, m := range ms {
		played[k] = sharedtest.Played{Teams: m.Teams, Ranks: m.Ranks}
	}
	return sharedtest.Replay(t, p, played)
}

// Same reports the first difference of more than tol between the
// players' standings and the ratings and game counts of a replay.
func Same(t testing.TB, players []store.Player, ratings map[string]trueskill.Rating, games map[string]int, tol float64) {
	t.Helper()
	if len(players) != len(ratings) {
		t.Fatalf("%d players stored, %d in the replay", len(players), len(ratings))
	}
	for _, pl := range players {
		r, ok := ratings[pl.Name]
		if !ok {
			t.Fatalf("player %q is not in the replay", pl.Name)
		}
		if math.Abs(pl.Rating.Mu-r.Mu) > tol || math.Abs(pl.Rating.Sigma-r.Sigma) > tol || pl.Games != games[pl.Name] {
			t.Fatalf("player %q: stored %v in %d games, replay %v in %d games", pl.Name, pl.Rating, pl.Games, r, games[pl.Name])
		}
	}
}

// Check checks that the league in st holds the standings and histories
// of replaying ms, its matches in stored order, with p: each player's
// rating to tol, games and last match, and one point of history a match
// ending at the standing.
func Check(t testing.TB, st store.Store, p trueskill.Params, ms []store.Match, tol float64) {
	t.Helper()
	ctx := context.Background()
	players, err := st.Players(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ratings, games := Replay(t, p, ms)
	Same(t, players, ratings, games, tol)
	for _, pl := range players {
		h, err := st.History(ctx, pl.Name)
		if err != nil {
			t.Fatal(err)
		}
		last := h[len(h)-1]
		if len(h) != pl.Games || last.Rating != pl.Rating || !last.Match.Time.Equal(pl.LastPlayed) {
			t.Fatalf("%s: %d points of history ending %+v, standing %+v", pl.Name, len(h), last, pl)
		}
	}
}
