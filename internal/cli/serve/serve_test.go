package serve_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/internal/cli/rate"
	"github.com/skillgraph/skillgraph/internal/cli/serve"
	"github.com/skillgraph/skillgraph/internal/server"
	"github.com/skillgraph/skillgraph/internal/store"
	"github.com/skillgraph/skillgraph/internal/store/storetest"
)

const (
	childEnv = "SKILLGRAPH_SERVE_TEST_ARGS"
	token    = "test-token"
	clients  = 8
)

// TestMain runs `skillgraph serve` when the test binary is started as a
// server by the tests below, so that they can kill it.
func TestMain(m *testing.M) {
	if a := os.Getenv(childEnv); a != "" {
		var args []string
		if err := json.Unmarshal([]byte(a), &args); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		os.Exit(serve.Run(args, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// child is a `skillgraph serve` process.
type child struct {
	cmd  *exec.Cmd
	url  string
	done chan struct{}
}

var addrRE = regexp.MustCompile(`on (http://127\.0\.0\.1:\d+)/`)

// start starts a server on the league dsn, listening on a free port of
// 127.0.0.1, and waits until it serves.
func start(t *testing.T, dsn string, extra ...string) *child {
	t.Helper()
	args, _ := json.Marshal(append([]string{"-db", dsn, "-addr", "127.0.0.1:0", "-token", token}, extra...))
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+string(args))
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &child{cmd: cmd, done: make(chan struct{})}
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if m := addrRE.FindStringSubmatch(sc.Text()); m != nil {
				urls <- m[1]
			}
		}
		cmd.Wait()
		close(c.done)
	}()
	t.Cleanup(func() { c.kill(syscall.SIGKILL) })
	select {
	case c.url = <-urls:
	case <-c.done:
		t.Fatal("the server exited before serving")
	case <-time.After(30 * time.Second):
		t.Fatal("the server did not start in 30 s")
	}
	return c
}

func (c *child) kill(sig syscall.Signal) {
	c.cmd.Process.Signal(sig)
	<-c.done
}

// plan is a league's matches, numbered in time order, each posted by
// client i mod clients, so that the server sees them out of order.
func plan(n int) []server.MatchBody {
	rng := rand.New(rand.NewPCG(7, 11))
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	out := make([]server.MatchBody, n)
	for i := range out {
		names := rng.Perm(16)
		teams := 2 + rng.IntN(3)/2 // two teams twice as often as three
		size := 1 + rng.IntN(2)
		b := server.MatchBody{ID: fmt.Sprintf("m%04d", i), Time: t0.Add(time.Duration(i) * time.Minute).Format(time.RFC3339)}
		for j := range teams {
			var team []string
			for k := range size {
				team = append(team, fmt.Sprintf("P%02d", names[j*size+k]))
			}
			b.Teams = append(b.Teams, team)
			b.Ranks = append(b.Ranks, 1+rng.IntN(teams))
		}
		out[i] = b
	}
	return out
}

// post sends one match and returns the status (0 if there was none).
func post(ctx context.Context, hc *http.Client, url string, b server.MatchBody) int {
	body, _ := json.Marshal(b)
	req, err := http.NewRequestWithContext(ctx, "POST", url+"/api/matches", strings.NewReader(string(body)))
	if err != nil {
		return 0
	}
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := hc.Do(req)
	if err != nil {
		return 0
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode
}

// tally counts what the clients were told.
type tally struct {
	mu      sync.Mutex
	acked   map[string]bool
	created atomic.Int64
	other   atomic.Int64
}

// send posts m until it is acknowledged posts times, at most 5 tries,
// starting with server number at; it returns false when stop is closed.
func (tl *tally) send(hc *http.Client, urls []string, m server.MatchBody, posts, at int, stop <-chan struct{}) bool {
	for tries := 0; posts > 0 && tries < 5; tries++ {
		select {
		case <-stop:
			return false
		default:
		}
		switch post(context.Background(), hc, urls[(at+tries)%len(urls)], m) {
		case http.StatusCreated:
			tl.created.Add(1)
		case http.StatusOK:
		default:
			tl.other.Add(1)
			continue
		}
		tl.mu.Lock()
		tl.acked[m.ID] = true
		tl.mu.Unlock()
		posts--
	}
	return true
}

// run posts the plan from clients goroutines spread over the servers'
// urls, retrying every match until it is acknowledged (at most 5 tries),
// posting a quarter of them once more after that and a tenth from two
// clients at once, stopping early when stop is closed.
func run(t *testing.T, ms []server.MatchBody, urls []string, stop <-chan struct{}) *tally {
	t.Helper()
	tl := &tally{acked: map[string]bool{}}
	hc := &http.Client{Timeout: 30 * time.Second}
	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(c), 3))
			for i := c; i < len(ms); i += clients {
				posts := 1
				if rng.IntN(4) == 0 {
					posts = 2
				}
				if !tl.send(hc, urls, ms[i], posts, i, stop) {
					return
				}
				// Every tenth round, also the next client's match, about
				// when that client posts it.
				if j := i + 1; (i/clients)%10 == 0 && j < len(ms) && j%clients != 0 {
					if !tl.send(hc, urls, ms[j], 1, j+1, stop) {
						return
					}
				}
			}
		})
	}
	wg.Wait()
	return tl
}

// consistent opens the league and checks that it holds every acknowledged
// match exactly once, nothing that was not planned, and the ratings of
// replaying its matches in stored order.
func consistent(t *testing.T, dsn string, ms []server.MatchBody, acked map[string]bool) []store.Match {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	stored, err := db.Matches(ctx)
	if err != nil {
		t.Fatal(err)
	}
	planned := map[string]server.MatchBody{}
	for _, m := range ms {
		planned[m.ID] = m
	}
	seen := map[string]bool{}
	for i, m := range stored {
		b, ok := planned[m.ID]
		if !ok || seen[m.ID] {
			t.Fatalf("stored match %q was not planned or is stored twice", m.ID)
		}
		seen[m.ID] = true
		if m.Time.Format(time.RFC3339) != b.Time || fmt.Sprint(m.Teams, m.Ranks) != fmt.Sprint(b.Teams, b.Ranks) {
			t.Fatalf("stored %+v, posted %+v", m, b)
		}
		if i > 0 && m.Time.Before(stored[i-1].Time) {
			t.Fatalf("stored order goes back in time at %d", i)
		}
	}
	for id := range acked {
		if !seen[id] {
			t.Fatalf("acknowledged match %q is not stored", id)
		}
	}
	p, err := db.Params(ctx)
	if err != nil {
		t.Fatal(err)
	}
	storetest.Check(t, db, p, stored, 1e-12)
	return stored
}

func nothingLost(t *testing.T, dsn string, servers int) {
	ms := plan(matchesTotal)
	var urls []string
	for range servers {
		urls = append(urls, start(t, dsn).url)
	}
	tl := run(t, ms, urls, nil)
	if tl.other.Load() != 0 {
		t.Fatalf("%d posts were not acknowledged", tl.other.Load())
	}
	if int(tl.created.Load()) != len(ms) || len(tl.acked) != len(ms) {
		t.Fatalf("%d matches created, %d acknowledged, of %d", tl.created.Load(), len(tl.acked), len(ms))
	}
	stored := consistent(t, dsn, ms, tl.acked)
	if len(stored) != len(ms) {
		t.Fatalf("%d matches stored, %d posted", len(stored), len(ms))
	}
	// The served leaderboard is the stored one.
	res, err := http.Get(urls[len(urls)-1] + "/api/leaderboard")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var b struct{ Players []server.Row }
	if err := json.NewDecoder(res.Body).Decode(&b); err != nil {
		t.Fatal(err)
	}
	games := 0
	for _, r := range b.Players {
		games += r.Games
	}
	want := 0
	for _, m := range ms {
		for _, team := range m.Teams {
			want += len(team)
		}
	}
	if games != want {
		t.Fatalf("the leaderboard counts %d player-games, the plan %d", games, want)
	}
}

func TestNothingLostSQLite(t *testing.T) {
	t.Parallel()
	nothingLost(t, filepath.Join(t.TempDir(), "league.db"), 1)
}

func TestNothingLostPostgresTwoServers(t *testing.T) {
	t.Parallel()
	nothingLost(t, storetest.Postgres(t), 2)
}

// killMidWrite posts matches to servers, kills one with SIGKILL while
// the posts go on, and checks the database.
func killMidWrite(t *testing.T, dsn string, servers int) {
	ms := plan(matchesTotal / 2)
	var cs []*child
	var urls []string
	for range servers {
		c := start(t, dsn)
		cs = append(cs, c)
		urls = append(urls, c.url)
	}
	stop := make(chan struct{})
	killed := make(chan struct{})
	go func() {
		defer close(killed)
		// Kill once the league has some matches, while the clients post.
		db, err := store.Open(context.Background(), dsn)
		if err != nil {
			t.Error(err)
			return
		}
		defer db.Close()
		for deadline := time.Now().Add(2 * time.Minute); ; {
			got, err := db.Matches(context.Background())
			if err != nil {
				t.Error(err)
				return
			}
			if len(got) >= len(ms)/4 {
				break
			}
			if time.Now().After(deadline) {
				t.Errorf("only %d matches stored after 2 minutes", len(got))
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		cs[0].kill(syscall.SIGKILL)
		if servers == 1 {
			close(stop)
		}
	}()
	tl := run(t, ms, urls, stop)
	<-killed
	if tl.created.Load() == 0 {
		t.Fatal("no match was acknowledged")
	}
	stored := consistent(t, dsn, ms, tl.acked)
	t.Logf("%d acknowledged, %d stored, %d posts failed", len(tl.acked), len(stored), tl.other.Load())
	// The league goes on: a new server takes the matches not acknowledged
	// and retries of a few that were.
	var rest []server.MatchBody
	for i, m := range ms {
		if !tl.acked[m.ID] || i%50 == 0 {
			rest = append(rest, m)
		}
	}
	c := start(t, dsn)
	tl2 := run(t, rest, []string{c.url}, nil)
	if tl2.other.Load() != 0 {
		t.Fatalf("%d posts to the restarted server failed", tl2.other.Load())
	}
	for id := range tl.acked {
		tl2.acked[id] = true
	}
	if stored = consistent(t, dsn, ms, tl2.acked); len(stored) != len(ms) {
		t.Fatalf("%d matches stored after the restart, %d posted", len(stored), len(ms))
	}
}

func TestKillMidWriteSQLite(t *testing.T) {
	t.Parallel()
	killMidWrite(t, filepath.Join(t.TempDir(), "league.db"), 1)
}

func TestKillMidWritePostgres(t *testing.T) {
	t.Parallel()
	killMidWrite(t, storetest.Postgres(t), 2)
}

func TestUsage(t *testing.T) {
	for _, c := range []struct {
		args   []string
		status int
		msg    string
	}{
		{[]string{"-nope"}, 2, "flag provided but not defined"},
		{[]string{"extra"}, 2, "unexpected argument"},
		{[]string{"-h"}, 0, "usage: skillgraph serve"},
		{[]string{"-db", filepath.Join(t.TempDir(), "no", "such", "dir", "l.db"), "-token", "x"}, 1, "skillgraph serve: store:"},
		{[]string{"-db", filepath.Join(t.TempDir(), "l.db"), "-token", "x", "-draw", "1.5"}, 2, `invalid value "1.5" for flag -draw: must be in [0, 1)`},
		{[]string{"-db", filepath.Join(t.TempDir(), "l.db"), "-token", "x", "-import", "/no/such.csv"}, 1, "-import /no/such.csv"},
		{[]string{"-db", filepath.Join(t.TempDir(), "l.db"), "-token", "x", "-addr", "256.0.0.1:1"}, 1, "256.0.0.1"},
		{[]string{"-db", filepath.Join(t.TempDir(), "l.db"), "-token", "x\n", "-addr", "127.0.0.1:0"}, 1, "token starts or ends with white space"},
	} {
		var out, errb strings.Builder
		if got := serve.Run(c.args, &out, &errb); got != c.status || !strings.Contains(errb.String(), c.msg) {
			t.Errorf("%v: status %d, stderr %q; want %d saying %q", c.args, got, errb.String(), c.status, c.msg)
		}
	}
}

// TestImport starts a server with -import twice on one league and reads
// the leaderboard: the file's matches, stored once.
func TestImport(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "m.csv")
	data := "match_id,time,team,player,rank\n" +
		"a,2025-03-01T18:00:00Z,x,Ada,1\na,2025-03-01T18:00:00Z,x,Bo,1\na,2025-03-01T18:00:00Z,y,Cy,2\n" +
		"b,2025-03-02,1,Cy,1\nb,2025-03-02,2,Ada,2\n"
	if err := os.WriteFile(csv, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "l.db")
	for range 2 {
		c := start(t, db, "-import", csv)
		c.kill(syscall.SIGTERM)
	}
	c := start(t, db)
	res, err := http.Get(c.url + "/api/matches.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	got, _ := io.ReadAll(res.Body)
	want := "match_id,time,team,player,rank\n" +
		"a,2025-03-01T18:00:00Z,Ada+Bo,Ada,1\na,2025-03-01T18:00:00Z,Ada+Bo,Bo,1\na,2025-03-01T18:00:00Z,Cy,Cy,2\n" +
		"b,2025-03-02,Cy,Cy,1\nb,2025-03-02,Ada,Ada,2\n"
	if string(got) != want {
		t.Fatalf("exported:\n%s\nwant\n%s", got, want)
	}
}

// TestSlowClientDropped opens a connection that sends half a request
// line and nothing more: the server must close it (its header timeout is
// 5 s), not hold it open for good.
func TestSlowClientDropped(t *testing.T) {
	t.Parallel()
	c := start(t, filepath.Join(t.TempDir(), "l.db"))
	conn, err := net.Dial("tcp", strings.TrimPrefix(c.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Write([]byte("GET /api/lead")); err != nil {
		t.Fatal(err)
	}
	conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	buf := make([]byte, 512)
	for {
		_, err := conn.Read(buf)
		if errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatal("the server kept a slow client's connection open for 30 s")
		}
		if err != nil {
			return // closed by the server
		}
	}
}

// TestImportBadRows imports files whose matches read as CSV but cannot
// be stored, one bad match after a good one: the error names the file,
// the line of the bad match's first row and what is wrong, and nothing is
// imported. Each run ends at the import, before the server listens.
func TestImportBadRows(t *testing.T) {
	dir := t.TempDir()
	const good = "match_id,time,team,player,rank\na,2025-03-01,x,Ada,1\na,2025-03-01,y,Bo,2\n"
	for _, c := range []struct {
		rows, extra, msg string
	}{
		{"b,2025-03-02,x,Ada,1\nb,2025-03-02,y," + strings.Repeat("n", 70) + ",2\n", "", `m.csv:4: match "b": team 2: player name`},
		{"b,2025-03-02,x,Ada,1\nb,2025-03-02,y,Cy,70\n", "", `m.csv:4: match "b": rank 70 of team 2 is outside 1 to 64`},
		{"b,2025-03-02,x,Ada,1\nb,2025-03-02,y,..,2\n", "", `m.csv:4: match "b": team 2: player name ".." is a path step`},
		{"c,2025-03-04,x,Ada,1\nc,2025-03-04,y,Bo,2\nb,2025-03-02,x,Ada,1\nb,2025-03-02,y,Cy,1\n", "0", `m.csv:6: rating match "b", the league's draw probability is 0`},
	} {
		csv := filepath.Join(dir, "m.csv")
		if err := os.WriteFile(csv, []byte(good+c.rows), 0o644); err != nil {
			t.Fatal(err)
		}
		db := filepath.Join(dir, fmt.Sprintf("l%d.db", len(c.msg)))
		args := []string{"-db", db, "-token", "x", "-import", csv}
		if c.extra != "" {
			args = append(args, "-draw", c.extra)
		}
		var out, errb strings.Builder
		if st := serve.Run(args, &out, &errb); st != 1 || !strings.Contains(errb.String(), c.msg) || !strings.Contains(errb.String(), "nothing was imported") {
			t.Errorf("import of\n%s: status %d, stderr %q; want 1 saying %q", c.rows, st, errb.String(), c.msg)
		}
		s, err := store.Open(context.Background(), db)
		if err != nil {
			t.Fatal(err)
		}
		ms, err := s.Matches(context.Background())
		s.Close()
		if err != nil || len(ms) != 0 {
			t.Errorf("import of\n%s: %d matches stored (%v), want none", c.rows, len(ms), err)
		}
	}
}

// TestRateAgrees rates the league's exported CSV with `skillgraph rate`
// and compares its leaderboard with the served one.
func TestRateAgrees(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	db, err := store.Open(ctx, filepath.Join(dir, "l.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ms := plan(60)
	// Posted newest first, so that every match after the first lands in
	// the past and re-rates the league.
	for i := len(ms) - 1; i >= 0; i-- {
		m, err := server.DecodeMatch(strings.NewReader(mustJSON(t, ms[i])))
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := db.Add(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	stored, err := db.Matches(ctx)
	if err != nil {
		t.Fatal(err)
	}
	csv := filepath.Join(dir, "m.csv")
	f, err := os.Create(csv)
	if err != nil {
		t.Fatal(err)
	}
	if err := server.WriteCSV(f, stored); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var out, errb strings.Builder
	if st := rate.Run([]string{"-matches", csv, "-draw", fmt.Sprint(store.DefaultDrawProbability), "-format", "json"}, &out, &errb); st != 0 {
		t.Fatalf("skillgraph rate: %d %s", st, errb.String())
	}
	var rated struct {
		Leaderboard []struct {
			Player    string
			Mu, Sigma float64
			Games     int
		}
	}
	if err := json.Unmarshal([]byte(out.String()), &rated); err != nil {
		t.Fatal(err)
	}
	players, err := db.Players(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(players) != len(rated.Leaderboard) {
		t.Fatalf("%d players served, %d rated", len(players), len(rated.Leaderboard))
	}
	byName := map[string]store.Player{}
	for _, p := range players {
		byName[p.Name] = p
	}
	for _, r := range rated.Leaderboard {
		p := byName[r.Player]
		if math.Abs(p.Rating.Mu-r.Mu) > 1e-12 || math.Abs(p.Rating.Sigma-r.Sigma) > 1e-12 || p.Games != r.Games {
			t.Fatalf("%s: served %v in %d games, rate gives μ=%v σ=%v in %d", r.Player, p.Rating, p.Games, r.Mu, r.Sigma, r.Games)
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestImportBadScoresRow checks that a bad match of a scores-format file,
// which has no match IDs (record makes them up), is named by its line too.
func TestImportBadScoresRow(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "s.csv")
	data := "time,home,away,home_score,away_score\n2025-03-01,A,B,1,0\n2025-03-02,C,..,1,0\n"
	if err := os.WriteFile(csv, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb strings.Builder
	st := serve.Run([]string{"-db", filepath.Join(dir, "l.db"), "-token", "x", "-import", csv}, &out, &errb)
	if want := `s.csv:3: match "2025-03-02 C v ..": team 2: player name ".." is a path step`; st != 1 || !strings.Contains(errb.String(), want) {
		t.Errorf("status %d, stderr %q; want 1 saying %q", st, errb.String(), want)
	}
}
