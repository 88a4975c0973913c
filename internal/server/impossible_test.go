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

// TestNumericalFailureSaysWhy: at a draw probability so small that its
// margin (about 7e-300) underflows the messages of a graph of three
// teams, a three-team draw is valid but cannot be rated
// (messages.ErrNumerical): 422, saying why, and nothing stored, not an
// internal error. The same draw of two teams takes trueskill's closed
// form, which carries it.
func TestNumericalFailureSaysWhy(t *testing.T) {
	l := newLeague(t)
	if err := l.db.SetDrawProbability(context.Background(), 1e-300); err != nil {
		t.Fatal(err)
	}
	before := l.csv()
	code, body := l.post(`{"id":"d3","time":"2025-03-01T18:00:00Z","teams":[["Ada"],["Bo"],["Cy"]],"ranks":[1,1,2]}`)
	if code != http.StatusUnprocessableEntity || !strings.Contains(body, "numerical failure") || !strings.Contains(body, "draw's margin") {
		t.Errorf("a three-team draw at draw probability 1e-300: %d %s, want 422 saying why", code, body)
	}
	if after := l.csv(); after != before {
		t.Errorf("the refused draw changed the record:\n%s", after)
	}
	if code, body := l.post(`{"id":"d2","time":"2025-03-01T18:00:00Z","teams":[["Ada"],["Bo"]],"ranks":[1,1]}`); code != http.StatusCreated {
		t.Errorf("a two-team draw at draw probability 1e-300: %d %s", code, body)
	}
	l.checkReplay()
}
