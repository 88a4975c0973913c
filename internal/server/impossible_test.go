package server_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
)

// TestImpossibleDrawIsBadRequest: a draw posted to a league whose draw
// probability is 0 is impossible under the model (messages.ErrImpossible
// from trueskill, through the store), which the client can correct, by the
// ranks or the setting: 400, saying why, and nothing stored.
func TestImpossibleDrawIsBadRequest(t *testing.T) {
	l := newLeague(t)
	if err := l.db.SetDrawProbability(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	before := l.csv()
	code, body := l.post(`{"id":"d","time":"2025-03-01T18:00:00Z","teams":[["Ada"],["Bo"]],"ranks":[1,1]}`)
	if code != http.StatusBadRequest || !strings.Contains(body, "draw probability is 0") || !strings.Contains(body, "a draw is observed but the draw margin is 0") {
		t.Errorf("a draw at draw probability 0: %d %s, want 400 saying why", code, body)
	}
	if after := l.csv(); after != before {
		t.Errorf("the refused draw changed the record:\n%s", after)
	}
}
