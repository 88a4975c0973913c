package server_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/internal/server"
	"github.com/skillgraph/skillgraph/internal/store"
	"github.com/skillgraph/skillgraph/messages"
)

// FuzzParseMatchForm checks that any form either is refused with a
// bad-request error or gives a match of two or more teams, one place
// each, of trimmed names.
func FuzzParseMatchForm(f *testing.F) {
	f.Add("time=2025-03-01T18:30&team1=Ada,+Bo&rank1=1&team2=Cy&rank2=2")
	f.Add("team1=Ada&rank1=1&team2=Bo&rank2=1&team3=Cy&rank3=2&id=x")
	f.Add("team1=%20,&rank1=1&team2=Bo&rank2=x")
	f.Add("time=2025-03-01T18:30:00%2B02:00&team1=A&rank1=-1&team65=B&rank65=1")
	f.Fuzz(func(t *testing.T, raw string) {
		form, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		m, err := server.ParseMatchForm(form, now)
		if err != nil {
			if !errors.Is(err, messages.ErrInput) {
				t.Fatalf("%q: %v is not a bad request", raw, err)
			}
			return
		}
		if len(m.Teams) < 2 || len(m.Teams) != len(m.Ranks) || len(m.Teams) > store.MaxTeams {
			t.Fatalf("%q: %d teams, %d ranks", raw, len(m.Teams), len(m.Ranks))
		}
		for _, team := range m.Teams {
			if len(team) == 0 {
				t.Fatalf("%q: an empty team", raw)
			}
			for _, n := range team {
				// Only a name in quotes holds a comma or ends in a space.
				if n == "" || (strings.TrimSpace(n) != n || strings.Contains(n, ",")) && !strings.Contains(fmt.Sprint(form), `"`) {
					t.Fatalf("%q: name %q", raw, n)
				}
			}
		}
	})
}

// FuzzPostMatch posts any body to POST /api/matches and checks that the
// answer is a success that stored the match, or a refusal that changed
// nothing, never a server error.
func FuzzPostMatch(f *testing.F) {
	f.Add([]byte(`{"id":"g1","time":"2025-03-01T18:00:00Z","teams":[["Ada","Bo"],["Cy"]],"ranks":[1,2]}`))
	f.Add([]byte(`{"time":"2025-03-01T18:00:00Z","teams":[["Ada"],["Bo"],["Cy"]],"ranks":[1,1,2]}`))
	f.Add([]byte(`{"id":"g1","time":"2024-03-01T18:00:00Z","teams":[["Ada"],["Cy"]],"ranks":[2,1]}`))
	f.Add([]byte(`{"time":"0001-01-01T00:00:00Z","teams":[["A"],["B"]],"ranks":[1,2]}`))
	f.Add([]byte(`{"teams":[[""]],"ranks":[]}`))
	db, err := store.Open(context.Background(), filepath.Join(f.TempDir(), "fuzz.db"))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { db.Close() })
	h, err := server.New(server.Config{Store: db, Token: token, ErrorLog: log.New(io.Discard, "", 0), Now: func() time.Time { return now }})
	if err != nil {
		f.Fatal(err)
	}
	count := func(t *testing.T) int {
		ms, err := db.Matches(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return len(ms)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		before := count(t)
		req := httptest.NewRequest("POST", "/api/matches", strings.NewReader(string(body)))
		req.Header.Set("Authorization", "Bearer "+token)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		after := count(t)
		switch rec.Code {
		case http.StatusCreated:
			if after != before+1 {
				t.Fatalf("%q: created, %d matches then %d", body, before, after)
			}
		case http.StatusOK, http.StatusBadRequest, http.StatusConflict, http.StatusRequestEntityTooLarge, http.StatusUnprocessableEntity:
			if after != before {
				t.Fatalf("%q: %d, %d matches then %d", body, rec.Code, before, after)
			}
			if rec.Code != http.StatusOK && !strings.Contains(rec.Body.String(), `"error"`) {
				t.Fatalf("%q: %d without a message: %s", body, rec.Code, rec.Body)
			}
		default:
			t.Fatalf("%q: %d %s", body, rec.Code, rec.Body)
		}
	})
}
