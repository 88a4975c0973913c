package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"log"
	"math"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/internal/server"
	"github.com/skillgraph/skillgraph/internal/store"
	"github.com/skillgraph/skillgraph/internal/store/storetest"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

const token = "s3cret-token"

var now = time.Date(2025, 5, 1, 10, 0, 0, 0, time.UTC)

type league struct {
	t   *testing.T
	db  *store.DB
	srv *httptest.Server
}

func newLeague(t *testing.T) *league {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "league.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	h, err := server.New(server.Config{Store: db, Token: token, ErrorLog: log.New(io.Discard, "", 0), Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &league{t, db, srv}
}

// do sends a request and returns the status and body.
func (l *league) do(method, path, auth, body string) (int, string) {
	l.t.Helper()
	req, err := http.NewRequest(method, l.srv.URL+path, strings.NewReader(body))
	if err != nil {
		l.t.Fatal(err)
	}
	if auth != "" {
		req.Header.Set("Authorization", "Bearer "+auth)
	}
	res, err := l.srv.Client().Do(req)
	if err != nil {
		l.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

func (l *league) post(body string) (int, string) {
	l.t.Helper()
	return l.do("POST", "/api/matches", token, body)
}

func (l *league) csv() string {
	l.t.Helper()
	code, body := l.do("GET", "/api/matches.csv", "", "")
	if code != 200 {
		l.t.Fatalf("GET /api/matches.csv: %d %s", code, body)
	}
	return body
}

type board struct {
	Params  trueskill.Params `json:"params"`
	Players []server.Row     `json:"players"`
}

func (l *league) board() board {
	l.t.Helper()
	code, body := l.do("GET", "/api/leaderboard", "", "")
	if code != 200 {
		l.t.Fatalf("GET /api/leaderboard: %d %s", code, body)
	}
	var b board
	if err := json.Unmarshal([]byte(body), &b); err != nil {
		l.t.Fatal(err)
	}
	return b
}

// checkReplay checks the served leaderboard against rating the exported
// CSV's matches in file order.
func (l *league) checkReplay() {
	l.t.Helper()
	ms, _, err := server.ReadCSV("matches.csv", strings.NewReader(l.csv()))
	if err != nil {
		l.t.Fatal(err)
	}
	b := l.board()
	ratings, games := storetest.Replay(l.t, b.Params, ms)
	if len(b.Players) != len(ratings) {
		l.t.Fatalf("%d players served, %d in the replay", len(b.Players), len(ratings))
	}
	s0 := b.Params.Sigma
	for i, row := range b.Players {
		r := ratings[row.Name]
		if math.Abs(row.Mu-r.Mu) > 1e-12 || math.Abs(row.Sigma-r.Sigma) > 1e-12 || row.Games != games[row.Name] {
			l.t.Fatalf("%s: served μ=%v σ=%v in %d games, replay %v in %d", row.Name, row.Mu, row.Sigma, row.Games, r, games[row.Name])
		}
		if want := (r.Mu - r.Sigma) * 48; math.Abs(row.DisplayRating-want) > 1e-9 {
			l.t.Fatalf("%s: display rating %v, want (μ−σ)·48 = %v", row.Name, row.DisplayRating, want)
		}
		if want := 1 - r.Sigma*r.Sigma/(s0*s0); math.Abs(row.Stability-want) > 1e-12 {
			l.t.Fatalf("%s: stability %v, want 1 − σ²/σ₀² = %v", row.Name, row.Stability, want)
		}
		if i > 0 && row.DisplayRating > b.Players[i-1].DisplayRating {
			l.t.Fatalf("leaderboard out of order at %d: %+v after %+v", i, row, b.Players[i-1])
		}
	}
}

func TestAPI(t *testing.T) {
	l := newLeague(t)
	bodies := []string{
		`{"id":"g1","time":"2025-03-01T18:00:00Z","teams":[["Ada","Bo"],["Cy"]],"ranks":[1,2]}`,
		`{"id":"g2","time":"2025-03-02T18:00:00Z","teams":[["Ada"],["Cy"],["Dee"]],"ranks":[2,1,2]}`,
		`{"id":"g3","time":"2025-03-03T18:00:00+02:00","teams":[["Bo"],["Dee"]],"ranks":[1,1]}`,
		`{"time":"2025-03-04T18:00:00Z","teams":[["Cy","Dee"],["Ada","Bo"]],"ranks":[2,1]}`,
		// Earlier than the others: re-rates from its place.
		`{"id":"g0","time":"2025-02-01T09:00:00Z","teams":[["Bo"],["Ada"]],"ranks":[1,2]}`,
	}
	for _, b := range bodies {
		if code, body := l.post(b); code != http.StatusCreated {
			t.Fatalf("POST %s: %d %s", b, code, body)
		}
		l.checkReplay()
	}
	csv := l.csv()
	// A retry is acknowledged and changes nothing; the id for another game
	// is a conflict.
	if code, body := l.post(bodies[1]); code != http.StatusOK || !strings.Contains(body, `"created": false`) {
		t.Fatalf("retry: %d %s", code, body)
	}
	if code, body := l.post(strings.Replace(bodies[1], "[2,1,2]", "[1,2,3]", 1)); code != http.StatusConflict {
		t.Fatalf("same id, other game: %d %s", code, body)
	}
	if got := l.csv(); got != csv {
		t.Fatalf("a retry or conflict changed the record:\n%s\nwas\n%s", got, csv)
	}
	if !strings.HasPrefix(csv, "match_id,time,team,player,rank\ng0,2025-02-01T09:00:00Z,Bo,Bo,1\ng0,2025-02-01T09:00:00Z,Ada,Ada,2\ng1,") {
		t.Fatalf("CSV:\n%s", csv)
	}
	// Correct a match, then delete one.
	// The answer holds the match as stored: its time in UTC, to the
	// microsecond.
	if code, body := l.do("PUT", "/api/matches/g1", token, `{"time":"2025-03-05T20:00:00.1234567+02:00","teams":[["Ada"],["Bo","Cy"]],"ranks":[1,2]}`); code != 200 || !strings.Contains(body, `"time": "2025-03-05T18:00:00.123456Z"`) {
		t.Fatalf("PUT: %d %s", code, body)
	}
	l.checkReplay()
	if code, body := l.do("DELETE", "/api/matches/g2", token, ""); code != 200 {
		t.Fatalf("DELETE: %d %s", code, body)
	}
	l.checkReplay()
	if code, _ := l.do("DELETE", "/api/matches/g2", token, ""); code != http.StatusNotFound {
		t.Fatalf("second DELETE: %d, want 404", code)
	}
	// A player's page: one point per match, head-to-heads counted by hand
	// from the record (g0: Bo beat Ada; g3: Bo drew Dee; g4: Ada+Bo, team
	// mates, beat Cy+Dee; g1 corrected: Ada beat Bo+Cy).
	code, body := l.do("GET", "/api/players/Bo", "", "")
	if code != 200 {
		t.Fatalf("GET /api/players/Bo: %d %s", code, body)
	}
	var pv server.PlayerView
	if err := json.Unmarshal([]byte(body), &pv); err != nil {
		t.Fatal(err)
	}
	if len(pv.History) != 4 || pv.Games != 4 {
		t.Fatalf("Bo's history has %d points, %d games, want 4", len(pv.History), pv.Games)
	}
	want := map[string][3]int{"Ada": {1, 0, 1}, "Cy": {1, 0, 0}, "Dee": {1, 1, 0}}
	for _, r := range pv.HeadToHeads {
		if w := want[r.Opponent]; [3]int{r.Won, r.Drawn, r.Lost} != w {
			t.Errorf("Bo v %s: %d-%d-%d, want %v", r.Opponent, r.Won, r.Drawn, r.Lost, w)
		}
		delete(want, r.Opponent)
	}
	if len(want) != 0 {
		t.Errorf("head-to-heads missing: %v", want)
	}
	if code, _ := l.do("GET", "/api/players/Nobody", "", ""); code != http.StatusNotFound {
		t.Fatalf("unknown player: %d, want 404", code)
	}
}

// TestPostsRaceDeletes has clients post matches, each twice (a retry),
// most of them earlier than matches already stored, while deleting
// matches other clients have posted: every match posted and not deleted
// is stored once, every deleted one is gone, and the ratings are a
// replay of what is stored.
func TestPostsRaceDeletes(t *testing.T) {
	l := newLeague(t)
	send := func(method, path, body string) (int, error) {
		req, err := http.NewRequest(method, l.srv.URL+path, strings.NewReader(body))
		if err != nil {
			return 0, err
		}
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := l.srv.Client().Do(req)
		if err != nil {
			return 0, err
		}
		res.Body.Close()
		return res.StatusCode, nil
	}
	const clients, each = 4, 12
	var mu sync.Mutex
	posted, deleted := map[string]bool{}, map[string]bool{}
	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() {
			for i := range each {
				id := fmt.Sprintf("c%d-%d", c, i)
				// Each client's matches go back in time.
				body := fmt.Sprintf(`{"id":%q,"time":"2025-03-%02dT%02d:00:00Z","teams":[["P%d","Q%d"],["P%d"]],"ranks":[%d,2]}`,
					id, 28-i, c, c, (i+c)%3, (c+1)%clients, 1+i%2)
				for range 2 {
					if code, err := send("POST", "/api/matches", body); err != nil || code != http.StatusCreated && code != http.StatusOK {
						t.Errorf("POST %s: %d, %v", id, code, err)
						return
					}
				}
				if i%2 == 0 {
					mu.Lock()
					posted[id] = true
					mu.Unlock()
					continue
				}
				// Delete the next client's match before, or if that is not
				// posted yet (or gone), this client's.
				mu.Lock()
				posted[id] = true
				victim := ""
				for _, v := range []string{fmt.Sprintf("c%d-%d", (c+1)%clients, i-1), fmt.Sprintf("c%d-%d", c, i-1)} {
					if posted[v] && !deleted[v] {
						victim = v
						break
					}
				}
				if victim != "" {
					deleted[victim] = true
				}
				mu.Unlock()
				if victim == "" {
					continue
				}
				if code, err := send("DELETE", "/api/matches/"+victim, ""); err != nil || code != http.StatusOK {
					t.Errorf("DELETE %s: %d, %v", victim, code, err)
					return
				}
			}
		})
	}
	wg.Wait()
	ms, _, err := server.ReadCSV("matches.csv", strings.NewReader(l.csv()))
	if err != nil {
		t.Fatal(err)
	}
	stored := map[string]int{}
	for _, m := range ms {
		stored[m.ID]++
	}
	for id := range posted {
		if want := map[bool]int{false: 1, true: 0}[deleted[id]]; stored[id] != want {
			t.Errorf("%s is stored %d times, want %d", id, stored[id], want)
		}
	}
	if len(ms) != len(posted)-len(deleted) || len(deleted) == 0 {
		t.Errorf("%d matches stored, %d posted, %d deleted", len(ms), len(posted), len(deleted))
	}
	l.checkReplay()
}

// TestBadInput sends writes that must be refused and checks each status,
// message, and that the record did not change.
func TestBadInput(t *testing.T) {
	l := newLeague(t)
	if code, body := l.post(`{"id":"ok","time":"2025-03-01T18:00:00Z","teams":[["Ada"],["Bo"]],"ranks":[1,2]}`); code != 201 {
		t.Fatalf("%d %s", code, body)
	}
	before := l.csv()
	big := `{"id":"big","time":"2025-03-01T18:00:00Z","teams":[["` + strings.Repeat("x", server.MaxBody) + `"],["Bo"]],"ranks":[1,2]}`
	cases := []struct {
		method, path, auth, body string
		code                     int
		msg                      string
	}{
		{"POST", "/api/matches", "", `{}`, 401, "Authorization"},
		{"POST", "/api/matches", "wrong", `{}`, 401, "Authorization"},
		{"POST", "/api/matches", token + "x", `{}`, 401, "Authorization"},
		{"DELETE", "/api/matches/ok", "", ``, 401, "Authorization"},
		{"PUT", "/api/matches/ok", "nope", `{}`, 401, "Authorization"},
		{"POST", "/api/matches", token, ``, 400, "not a match's JSON"},
		{"POST", "/api/matches", token, `not json`, 400, "not a match's JSON"},
		{"POST", "/api/matches", token, `[]`, 400, "not a match's JSON"},
		{"POST", "/api/matches", token, `{"time":"2025-03-01T18:00:00Z","teams":[["A"],["B"]],"ranks":[1,2]} {}`, 400, "after the match's JSON object"},
		{"POST", "/api/matches", token, `{"time":"2025-03-01T18:00:00Z","teams":[["A"],["B"]],"ranks":[1,2],"score":3}`, 400, "unknown field"},
		{"POST", "/api/matches", token, `{"teams":[["A"],["B"]],"ranks":[1,2]}`, 400, `is missing`},
		{"POST", "/api/matches", token, `{"time":"yesterday","teams":[["A"],["B"]],"ranks":[1,2]}`, 400, "is not RFC 3339"},
		{"POST", "/api/matches", token, `{"time":"2025-03-01","teams":[["A"],["B"]],"ranks":[1,2]}`, 400, "is not RFC 3339"},
		{"POST", "/api/matches", token, `{"time":"2025-03-01T18:00:00Z","teams":[["A"]],"ranks":[1]}`, 400, "2 to 64 teams"},
		{"POST", "/api/matches", token, `{"time":"2025-03-01T18:00:00Z","teams":[["A"],[]],"ranks":[1,2]}`, 400, "team 2 needs"},
		{"POST", "/api/matches", token, `{"time":"2025-03-01T18:00:00Z","teams":[["A"],["A"]],"ranks":[1,2]}`, 400, "twice"},
		{"POST", "/api/matches", token, `{"time":"2025-03-01T18:00:00Z","teams":[["A"],[""]],"ranks":[1,2]}`, 400, "player name: empty name"},
		{"POST", "/api/matches", token, `{"time":"2025-03-01T18:00:00Z","teams":[["A"],["B\u0007"]],"ranks":[1,2]}`, 400, "control"},
		{"POST", "/api/matches", token, `{"time":"2025-03-01T18:00:00Z","teams":[["A"],["B"]],"ranks":[1]}`, 400, "1 ranks for 2 teams"},
		{"POST", "/api/matches", token, `{"time":"2025-03-01T18:00:00Z","teams":[["A"],["B"]],"ranks":[1,-2]}`, 400, "outside"},
		{"POST", "/api/matches", token, `{"time":"2025-03-01T18:00:00Z","teams":[["A"],["B"]],"ranks":[1,1.5]}`, 400, "not a match's JSON"},
		{"POST", "/api/matches", token, `{"id":" a","time":"2025-03-01T18:00:00Z","teams":[["A"],["B"]],"ranks":[1,2]}`, 400, "match id"},
		// No address reaches a match or player named "." or "..": the
		// router resolves them as path steps.
		{"POST", "/api/matches", token, `{"id":"..","time":"2025-03-01T18:00:00Z","teams":[["A"],["B"]],"ranks":[1,2]}`, 400, "path step"},
		{"POST", "/api/matches", token, `{"time":"2025-03-01T18:00:00Z","teams":[["A"],["."]],"ranks":[1,2]}`, 400, "path step"},
		{"POST", "/api/matches", token, `{"id":"ok","time":"2025-03-01T18:00:00Z","teams":[["A"],["B"]],"ranks":[1,2]}`, 409, "stored with other"},
		{"POST", "/api/matches", token, big, 413, "larger than"},
		{"POST", "/api/matches", token, `{"time":"2025-03-01T18:00:00Z","teams":[["A"],["B"]],"ranks":[1,2]}` + strings.Repeat(" ", server.MaxBody), 413, "larger than"},
		// A key given twice has no one meaning: encoding/json would keep
		// the last, matched to a field without case.
		{"POST", "/api/matches", token, `{"time":"2025-03-01T18:00:00Z","time":"2025-03-09T18:00:00Z","teams":[["A"],["B"]],"ranks":[1,2]}`, 400, `key \"time\" appears twice`},
		{"POST", "/api/matches", token, `{"time":"2025-03-01T18:00:00Z","teams":[["A"],["B"]],"ranks":[1,2],"Ranks":[2,1]}`, 400, `key \"Ranks\" appears twice`},
		// Invalid UTF-8 and lone surrogates would be stored as U+FFFD,
		// making two different names one.
		{"POST", "/api/matches", token, "{\"time\":\"2025-03-01T18:00:00Z\",\"teams\":[[\"A\"],[\"B\xff\"]],\"ranks\":[1,2]}", 400, "not UTF-8"},
		{"POST", "/api/matches", token, `{"time":"2025-03-01T18:00:00Z","teams":[["A"],["B\ud800"]],"ranks":[1,2]}`, 400, `team 2: player name \"B` + "\ufffd" + `\" holds U+FFFD`},
		{"POST", "/api/matches", token, `{"id":"\udfff","time":"2025-03-01T18:00:00Z","teams":[["A"],["B"]],"ranks":[1,2]}`, 400, "holds U+FFFD"},
		// RFC 3339 offsets run from -23:59 to +23:59; time.Parse alone
		// would read +24:00 as a day earlier.
		{"POST", "/api/matches", token, `{"time":"2025-03-01T18:00:00+24:00","teams":[["A"],["B"]],"ranks":[1,2]}`, 400, "outside -23:59 to +23:59"},
		{"POST", "/api/matches", token, `{"time":"2025-03-01T18:00:00-05:60","teams":[["A"],["B"]],"ranks":[1,2]}`, 400, "outside -23:59 to +23:59"},
		{"PUT", "/api/matches/ok", token, `{"id":"other","time":"2025-03-01T18:00:00Z","teams":[["A"],["B"]],"ranks":[1,2]}`, 400, "not the path's"},
		{"PUT", "/api/matches/missing", token, `{"time":"2025-03-01T18:00:00Z","teams":[["A"],["B"]],"ranks":[1,2]}`, 404, "no match"},
		{"DELETE", "/api/matches/missing", token, ``, 404, "no match"},
	}
	for _, c := range cases {
		code, body := l.do(c.method, c.path, c.auth, c.body)
		if code != c.code || !strings.Contains(body, c.msg) {
			t.Errorf("%s %s %.60q: %d %s, want %d saying %q", c.method, c.path, c.body, code, body, c.code, c.msg)
		}
		if after := l.csv(); after != before {
			t.Fatalf("%s %.60q changed the record:\n%s", c.method, c.body, after)
		}
	}
}

// TestDecodeMatch checks what DecodeMatch accepts at the edges of what
// it refuses, with the values worked out by hand.
func TestDecodeMatch(t *testing.T) {
	for _, c := range []struct {
		body, id, name string
		time           time.Time
	}{
		// A surrogate pair is one character; keys match fields without
		// case; the largest offsets RFC 3339 allows.
		{`{"ID":"\ud83d\ude00","Time":"2025-03-01T18:00:00-23:59","TEAMS":[["A"],["B"]],"ranks":[1,2]}`, "😀", "A",
			time.Date(2025, 3, 2, 17, 59, 0, 0, time.UTC)},
		{`{"id":"x","time":"2025-03-01T18:00:00+23:59","teams":[["\u00e9"],["B"]],"ranks":[1,2]}` + "\n\t ", "x", "é",
			time.Date(2025, 2, 28, 18, 1, 0, 0, time.UTC)},
	} {
		m, err := server.DecodeMatch(strings.NewReader(c.body))
		if err != nil || m.ID != c.id || !m.Time.Equal(c.time) || m.Teams[0][0] != c.name || m.Ranks[1] != 2 {
			t.Errorf("%s: %+v, %v; want id %q, time %v, first player %q", c.body, m, err, c.id, c.time, c.name)
		}
	}
}

// browser is an HTTP client with a cookie jar, sending what a browser
// sends on a same-origin form post.
type browser struct {
	l *league
	c *http.Client
}

func (l *league) browser() *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{l, &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

func (b *browser) send(method, path string, form url.Values, site string) (int, string, http.Header) {
	b.l.t.Helper()
	req, err := http.NewRequest(method, b.l.srv.URL+path, strings.NewReader(form.Encode()))
	if err != nil {
		b.l.t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if site != "" {
		req.Header.Set("Sec-Fetch-Site", site)
	}
	res, err := b.c.Do(req)
	if err != nil {
		b.l.t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(body), res.Header
}

var csrfRE = regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`)

func TestForm(t *testing.T) {
	l := newLeague(t)
	b := l.browser()
	// Not logged in: the form sends to the login page, and a post is refused.
	if code, _, h := b.send("GET", "/matches/new", nil, ""); code != http.StatusSeeOther || !strings.HasPrefix(h.Get("Location"), "/login") {
		t.Fatalf("form before login: %d %v", code, h)
	}
	form := url.Values{"time": {"2025-03-01T18:30"}, "team1": {"Ada, Bo"}, "rank1": {"2"}, "team2": {"Cy"}, "rank2": {"1"}}
	if code, _, _ := b.send("POST", "/matches", form, "same-origin"); code != http.StatusForbidden {
		t.Fatalf("post before login: %d", code)
	}
	if code, body, _ := b.send("POST", "/login", url.Values{"token": {"wrong"}}, "same-origin"); code != http.StatusForbidden || !strings.Contains(body, "wrong token") {
		t.Fatalf("wrong token: %d", code)
	}
	code, _, h := b.send("POST", "/login", url.Values{"token": {token}, "next": {"/matches/new"}}, "same-origin")
	if code != http.StatusSeeOther || h.Get("Location") != "/matches/new" || !strings.Contains(h.Get("Set-Cookie"), "SameSite=Strict") || !strings.Contains(h.Get("Set-Cookie"), "HttpOnly") {
		t.Fatalf("login: %d %v", code, h)
	}
	code, page, _ := b.send("GET", "/matches/new", nil, "")
	sub := csrfRE.FindStringSubmatch(page)
	if code != 200 || sub == nil {
		t.Fatalf("form: %d, no csrf token in\n%s", code, page)
	}
	// Without the form's token, or from another site, the post is refused.
	if code, _, _ := b.send("POST", "/matches", form, "same-origin"); code != http.StatusForbidden {
		t.Fatalf("post without the csrf token: %d", code)
	}
	form.Set("csrf", sub[1])
	if code, _, _ := b.send("POST", "/matches", form, "cross-site"); code != http.StatusForbidden {
		t.Fatalf("cross-site post: %d", code)
	}
	if got := l.csv(); got != "match_id,time,team,player,rank\n" {
		t.Fatalf("refused posts stored:\n%s", got)
	}
	// Bad forms: 400, saying what is wrong, storing nothing.
	bad := []struct {
		edit func(url.Values)
		msg  string
	}{
		{func(f url.Values) { f.Set("time", "soon") }, "not YYYY-MM-DDTHH:MM"},
		{func(f url.Values) { f.Set("time", "2025-03-01T18:30:00+24:00") }, "has the offset"},
		{func(f url.Values) { f.Del("team2") }, "at least two teams"},
		{func(f url.Values) { f.Set("rank2", "") }, "team 2 has no place"},
		{func(f url.Values) { f.Set("rank2", "first") }, "not a whole number"},
		{func(f url.Values) { f.Set("rank2", "99999999999999999999") }, "place 99999999999999999999 of team 2 is outside 1 to 64"},
		{func(f url.Values) { f.Set("team2", "Ada") }, "twice"},
		{func(f url.Values) { f.Set("team2", " , ") }, "team 2 has no names"},
	}
	for _, c := range bad {
		f := url.Values{}
		for k, v := range form {
			f[k] = v
		}
		c.edit(f)
		code, body, _ := b.send("POST", "/matches", f, "same-origin")
		if code != http.StatusBadRequest || !strings.Contains(body, c.msg) {
			t.Errorf("form %v: %d, want 400 saying %q", f, code, c.msg)
		}
	}
	big := url.Values{"csrf": {sub[1]}, "team1": {strings.Repeat("x", server.MaxBody)}}
	if code, body, _ := b.send("POST", "/matches", big, "same-origin"); code != http.StatusRequestEntityTooLarge || !strings.Contains(body, "larger than") {
		t.Errorf("form of %d bytes: %d, want 413", len(big.Encode()), code)
	}
	if got := l.csv(); got != "match_id,time,team,player,rank\n" {
		t.Fatalf("bad forms stored:\n%s", got)
	}
	if code, _, h := b.send("POST", "/matches", form, "same-origin"); code != http.StatusSeeOther || h.Get("Location") != "/" {
		t.Fatalf("form post: %d %v", code, h)
	}
	if got := l.csv(); !strings.Contains(got, ",2025-03-01T18:30:00Z,Ada+Bo,Ada,2\n") || !strings.Contains(got, ",2025-03-01T18:30:00Z,Cy,Cy,1\n") {
		t.Fatalf("stored:\n%s", got)
	}
	l.checkReplay()
	// Deleting through the matches page.
	ms, _, _ := server.ReadCSV("matches.csv", strings.NewReader(l.csv()))
	if code, _, _ := b.send("POST", "/matches/"+ms[0].ID+"/delete", url.Values{"csrf": {sub[1]}}, "same-origin"); code != http.StatusSeeOther {
		t.Fatalf("delete: %d", code)
	}
	if got := l.csv(); got != "match_id,time,team,player,rank\n" {
		t.Fatalf("after delete:\n%s", got)
	}
	// Logging out ends the session.
	b.send("POST", "/logout", url.Values{}, "same-origin")
	if code, _, _ := b.send("POST", "/matches", form, "same-origin"); code != http.StatusForbidden {
		t.Fatalf("post after logout: %d", code)
	}
}

// TestTokenCanBeSent checks that a token no request could carry is
// refused when the server is made, instead of refusing every write.
func TestTokenCanBeSent(t *testing.T) {
	l := newLeague(t)
	for _, tok := range []string{"tok ", " tok", "tok\n", "to\x00k", "\t"} {
		if _, err := server.New(server.Config{Store: l.db, Token: tok}); err == nil || !strings.Contains(err.Error(), "no Authorization header can carry") {
			t.Errorf("token %q: %v, want an error", tok, err)
		}
	}
	for _, tok := range []string{"", "tok", "a b", "ünï"} {
		if _, err := server.New(server.Config{Store: l.db, Token: tok}); err != nil {
			t.Errorf("token %q: %v", tok, err)
		}
	}
}

// TestFormSentTwice submits one entry form twice, as a double click
// does: the match is stored once. A second submission with other values
// is refused, saying the form was saved, with a new id to save it under.
func TestFormSentTwice(t *testing.T) {
	l := newLeague(t)
	b := l.browser()
	b.send("POST", "/login", url.Values{"token": {token}}, "same-origin")
	_, page, _ := b.send("GET", "/matches/new", nil, "")
	sub := csrfRE.FindStringSubmatch(page)
	idRE := regexp.MustCompile(`name="id" value="([0-9a-f]+)"`)
	id := idRE.FindStringSubmatch(page)
	if sub == nil || id == nil {
		t.Fatalf("no form token or id in\n%s", page)
	}
	form := url.Values{"csrf": {sub[1]}, "id": {id[1]}, "time": {"2025-03-01T18:30"}, "team1": {"Ada"}, "rank1": {"1"}, "team2": {"Bo"}, "rank2": {"2"}}
	for range 2 {
		if code, body, _ := b.send("POST", "/matches", form, "same-origin"); code != http.StatusSeeOther {
			t.Fatalf("form post: %d %s", code, body)
		}
	}
	want := "match_id,time,team,player,rank\n" + id[1] + ",2025-03-01T18:30:00Z,Ada,Ada,1\n" + id[1] + ",2025-03-01T18:30:00Z,Bo,Bo,2\n"
	if got := l.csv(); got != want {
		t.Fatalf("stored\n%s\nwant\n%s", got, want)
	}
	l.checkReplay()
	form.Set("rank2", "1")
	code, page, _ := b.send("POST", "/matches", form, "same-origin")
	if next := idRE.FindStringSubmatch(page); code != http.StatusConflict || !strings.Contains(page, "saved already") || next == nil || next[1] == id[1] {
		t.Fatalf("the form sent again with other values: %d, id %v\n%s", code, next, page)
	}
	if got := l.csv(); got != want {
		t.Fatalf("stored\n%s\nwant\n%s", got, want)
	}
}

// TestNamesWithCommas checks that names holding a comma or a quote can
// be entered in the form, and that the match-up links of names holding
// those or a space, "+", "%" or "&" reach the players they are, not new
// players named by their parts or by an address escaped twice.
func TestNamesWithCommas(t *testing.T) {
	for _, c := range []struct {
		field string
		want  []string
	}{
		{`"Smith, J", Bo`, []string{"Smith, J", "Bo"}},
		{` "Smith, J" ,Bo,`, []string{"Smith, J", "Bo"}},
		{`"O""Neil", O"Hara`, []string{`O"Neil`, `O"Hara`}},
		{`"x"y, z`, []string{`"x"y`, "z"}},
		{`"open, Bo`, []string{`"open`, "Bo"}},
		{`Ada, , Bo`, []string{"Ada", "Bo"}},
	} {
		m, err := server.ParseMatchForm(url.Values{"team1": {c.field}, "rank1": {"1"}, "team2": {"Cy"}, "rank2": {"2"}}, now)
		if err != nil || !slices.Equal(m.Teams[0], c.want) {
			t.Errorf("team %s: %q, %v; want %q", c.field, m.Teams, err, c.want)
		}
	}
	l := newLeague(t)
	b := l.browser()
	b.send("POST", "/login", url.Values{"token": {token}}, "same-origin")
	_, page, _ := b.send("GET", "/matches/new", nil, "")
	sub := csrfRE.FindStringSubmatch(page)
	if sub == nil {
		t.Fatal("no form token")
	}
	form := url.Values{"csrf": {sub[1]}, "time": {"2025-03-01T18:30"}, "team1": {`"Smith, J", Cy`}, "rank1": {"1"}, "team2": {`"O""Neil"`}, "rank2": {"2"}}
	if code, body, _ := b.send("POST", "/matches", form, "same-origin"); code != http.StatusSeeOther {
		t.Fatalf("form post: %d %s", code, body)
	}
	for _, body := range []string{
		`{"time":"2025-03-02T18:00:00Z","teams":[["Smith, J"],["Bo"]],"ranks":[2,1]}`,
		`{"time":"2025-03-03T18:00:00Z","teams":[["Ada Lovelace"],["x+y%z&w"]],"ranks":[1,2]}`,
	} {
		if code, got := l.post(body); code != 201 {
			t.Fatalf("%d %s", code, got)
		}
	}
	if got := l.csv(); !strings.Contains(got, `"Smith, J+Cy","Smith, J",1`) || !strings.Contains(got, `"O""Neil","O""Neil",2`) {
		t.Fatalf("the form's names were not stored whole:\n%s", got)
	}
	bd := l.board()
	r := map[string]trueskill.Rating{}
	for _, row := range bd.Players {
		r[row.Name] = trueskill.Rating{Mu: row.Mu, Sigma: row.Sigma}
	}
	link := regexp.MustCompile(`href="(/matchup\?[^"]*)"`)
	for _, page := range []string{"/players/" + url.PathEscape("Smith, J"), "/players/" + url.PathEscape(`O"Neil`),
		"/players/" + url.PathEscape("Ada Lovelace"), "/players/" + url.PathEscape("x+y%z&w"), "/matchup"} {
		_, body := l.do("GET", page, "", "")
		links := link.FindAllStringSubmatch(body, -1)
		if len(links) == 0 {
			t.Fatalf("%s has no match-up links", page)
		}
		for _, ln := range links {
			u, err := url.Parse(html.UnescapeString(ln[1]))
			if err != nil {
				t.Fatal(err)
			}
			code, got := l.do("GET", u.String(), "", "")
			if code != 200 || strings.Contains(got, "New to the league") {
				t.Errorf("%s links to %s: %d, or names new players", page, u, code)
				continue
			}
			// The link's players are the stored ones (read from it as the
			// form reads a team), and the page shows trueskill's
			// prediction for their ratings.
			m, err := server.ParseMatchForm(url.Values{"team1": {u.Query().Get("a")}, "rank1": {"1"}, "team2": {u.Query().Get("b")}, "rank2": {"2"}}, now)
			if err != nil || len(m.Teams[0]) != 1 || len(m.Teams[1]) != 1 {
				t.Errorf("%s: not one player a side: %q, %v", u, m.Teams, err)
				continue
			}
			ra, okA := r[m.Teams[0][0]]
			rb, okB := r[m.Teams[1][0]]
			if !okA || !okB {
				t.Errorf("%s: %q are not the stored players", u, m.Teams)
				continue
			}
			ta, tb := []trueskill.Rating{ra}, []trueskill.Rating{rb}
			pr, err := bd.Params.Predict(ta, tb)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(got, fmt.Sprintf("<td>%.3f</td>", pr.Win)) || !strings.Contains(got, fmt.Sprintf("<td>%.3f</td>", pr.Loss)) {
				t.Errorf("%s: the page lacks the prediction %.3f / %.3f", u, pr.Win, pr.Loss)
			}
		}
	}
}

// TestLoginNext checks where logging in sends the browser: the page it
// came from, or the leaderboard for any address a browser would read as
// another site's (it drops tabs and newlines and reads "\\" as "/").
func TestLoginNext(t *testing.T) {
	l := newLeague(t)
	for _, c := range []struct{ next, want string }{
		{"/matches/new", "/matches/new"},
		{"/players/AC%2FDC?x=1", "/players/AC%2FDC?x=1"},
		{"//evil.example", "/"},
		{"/\\evil.example", "/"},
		{"/\t/evil.example", "/"},
		{"/\n/evil.example", "/"},
		{"/\r\n/evil.example", "/"},
		{"/x\\..\\\\evil.example", "/"},
		{"https://evil.example/", "/"},
		{"", "/"},
	} {
		form := url.Values{"token": {token}, "next": {c.next}}
		req, err := http.NewRequest("POST", l.srv.URL+"/login", strings.NewReader(form.Encode()))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		// The transport, unlike a client, hands back a Location header
		// that does not parse.
		res, err := l.srv.Client().Transport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if got := res.Header.Get("Location"); res.StatusCode != http.StatusSeeOther || got != c.want {
			t.Errorf("log in with next %q: %d to %q, want %q", c.next, res.StatusCode, got, c.want)
		}
	}
}

func TestEscaping(t *testing.T) {
	l := newLeague(t)
	evil := `<script>alert("x")</script>&"'/?`
	body, _ := json.Marshal(map[string]any{"time": "2025-03-01T18:00:00Z", "teams": [][]string{{evil}, {"Bo"}}, "ranks": []int{1, 2}})
	if code, b := l.post(string(body)); code != 201 {
		t.Fatalf("%d %s", code, b)
	}
	for _, path := range []string{"/", "/players/" + url.PathEscape(evil), "/players/Bo", "/matches", "/matchup?a=" + url.QueryEscape(evil) + "&b=Bo"} {
		code, page := l.do("GET", path, "", "")
		if code != 200 {
			t.Fatalf("GET %s: %d\n%s", path, code, page)
		}
		if strings.Contains(page, "<script") || strings.Contains(page, `alert("x")`) {
			t.Fatalf("GET %s: the name is not escaped:\n%s", path, page)
		}
		if !strings.Contains(page, "&lt;script&gt;") {
			t.Fatalf("GET %s: the escaped name is missing:\n%s", path, page)
		}
	}
}

func TestPages(t *testing.T) {
	l := newLeague(t)
	for i := range 6 {
		body := fmt.Sprintf(`{"time":"2025-03-0%dT18:00:00Z","teams":[["Ada"],["Bo"],["Cy"]],"ranks":[1,2,%d]}`, i+1, 2+i%2)
		if code, b := l.post(body); code != 201 {
			t.Fatalf("%d %s", code, b)
		}
	}
	code, page := l.do("GET", "/players/Ada", "", "")
	if code != 200 {
		t.Fatalf("%d %s", code, page)
	}
	// The plot's line has one point per match and one for the start.
	line := regexp.MustCompile(`<svg id="history"(?s:.*?)<path d="M[0-9.,-]+((?:L[0-9.,-]+)*)" style="fill:none;stroke:#[0-9A-F]+;stroke-width:1.5"`).FindStringSubmatch(page)
	if line == nil || strings.Count(line[1], "L") != 6 {
		t.Fatalf("plot line: %v", line)
	}
	for _, want := range []string{`id="recent"`, `id="h2h"`, ">Bo</a>", ">Cy</a>", "won"} {
		if !strings.Contains(page, want) {
			t.Errorf("player page lacks %q", want)
		}
	}
	// The match-up page's numbers are trueskill's Predict and Quality for
	// the served ratings.
	b := l.board()
	r := map[string]trueskill.Rating{}
	for _, row := range b.Players {
		r[row.Name] = trueskill.Rating{Mu: row.Mu, Sigma: row.Sigma}
	}
	pr, err := b.Params.Predict([]trueskill.Rating{r["Ada"], r["Cy"]}, []trueskill.Rating{r["Bo"]})
	if err != nil {
		t.Fatal(err)
	}
	q, _ := b.Params.Quality([][]trueskill.Rating{{r["Ada"], r["Cy"]}, {r["Bo"]}}, nil)
	code, page = l.do("GET", "/matchup?a=Ada,+Cy&b=Bo", "", "")
	for _, want := range []string{fmt.Sprintf("%.3f", pr.Win), fmt.Sprintf("%.3f", pr.Draw), fmt.Sprintf("%.3f", pr.Loss), fmt.Sprintf("%.3f", q)} {
		if code != 200 || !strings.Contains(page, "<td>"+want+"</td>") {
			t.Fatalf("match-up page (%d) lacks %s:\n%s", code, want, page)
		}
	}
	if code, page := l.do("GET", "/matchup?a=Ada&b=Ada", "", ""); code != 400 || !strings.Contains(page, "twice") {
		t.Fatalf("match-up of a player with themself: %d", code)
	}
	// Fairest pairings: the three pairs, by quality computed here.
	rows := regexp.MustCompile(`<tr><td class="left">(\w+)</td><td class="left">(\w+)</td>`).FindAllStringSubmatch(page, -1)
	if len(rows) != 3 {
		t.Fatalf("pairings: %v", rows)
	}
	last := 2.0
	for _, row := range rows {
		q, _ := b.Params.Quality([][]trueskill.Rating{{r[row[1]]}, {r[row[2]]}}, nil)
		if q > last {
			t.Fatalf("pairings out of order: %v", rows)
		}
		last = q
	}
	if code, _ := l.do("GET", "/nope", "", ""); code != 404 {
		t.Fatalf("unknown page: %d", code)
	}
}

// TestAPIErrorsAreJSON checks that the API answers a wrong method or an
// address it does not have with a JSON error, as it answers the rest.
func TestAPIErrorsAreJSON(t *testing.T) {
	l := newLeague(t)
	for _, c := range []struct {
		method, path string
		code         int
		allow, msg   string
	}{
		{"GET", "/api/matches", 405, "POST", "/api/matches takes POST, not GET"},
		{"DELETE", "/api/matches", 405, "POST", "not DELETE"},
		{"POST", "/api/matches/x", 405, "PUT, DELETE", "/api/matches/{id} takes PUT, DELETE, not POST"},
		{"POST", "/api/leaderboard", 405, "GET, HEAD", "not POST"},
		{"DELETE", "/api/players/Ada", 405, "GET, HEAD", "not DELETE"},
		{"PUT", "/api/matches.csv", 405, "GET, HEAD", "not PUT"},
		{"GET", "/api/nope", 404, "", "the API has no /api/nope"},
		{"GET", "/api/players/a/b", 404, "", "the API has no /api/players/a/b"},
		{"DELETE", "/api/matches/", 404, "", "the API has no /api/matches/"},
	} {
		req, err := http.NewRequest(c.method, l.srv.URL+c.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := l.srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var body struct{ Error string }
		err = json.NewDecoder(res.Body).Decode(&body)
		res.Body.Close()
		if res.StatusCode != c.code || err != nil || !strings.Contains(body.Error, c.msg) || res.Header.Get("Allow") != c.allow {
			t.Errorf("%s %s: %d, Allow %q, %q (%v); want %d, Allow %q, a JSON error saying %q",
				c.method, c.path, res.StatusCode, res.Header.Get("Allow"), body.Error, err, c.code, c.allow, c.msg)
		}
	}
}

// TestLargestMatchFits posts the largest match the store takes, with every
// character of its names and ID written as a \u escape: the body limit
// must let it through, and the league must rate it as a replay does.
func TestLargestMatchFits(t *testing.T) {
	l := newLeague(t)
	escape := func(s string) string {
		var b strings.Builder
		for _, r := range s {
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		return b.String()
	}
	var body strings.Builder
	fmt.Fprintf(&body, `{"id":"%s","time":"2025-03-01T18:00:00Z","teams":[`, escape(strings.Repeat("i", store.MaxIDLength)))
	var ranks []string
	for j := range store.MaxTeams {
		if j > 0 {
			body.WriteString(",")
		}
		body.WriteString("[")
		for i := range store.MaxTeamSize {
			if i > 0 {
				body.WriteString(",")
			}
			name := fmt.Sprintf("p%02d-%02d", j, i)
			name += strings.Repeat("x", store.MaxNameLength-len(name))
			fmt.Fprintf(&body, `"%s"`, escape(name))
		}
		body.WriteString("]")
		ranks = append(ranks, fmt.Sprint(j+1))
	}
	fmt.Fprintf(&body, `],"ranks":[%s]}`, strings.Join(ranks, ","))
	if body.Len() > server.MaxBody {
		t.Fatalf("the largest match takes %d bytes, more than MaxBody %d", body.Len(), server.MaxBody)
	}
	if code, resp := l.post(body.String()); code != 201 {
		t.Fatalf("%d bytes: %d %.300s", body.Len(), code, resp)
	}
	l.checkReplay()
}
