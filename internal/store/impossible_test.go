package store_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/internal/store"
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

// TestImpossibleDrawKeepsItsKind: a draw that the league's draw
// probability of 0 makes impossible is refused by trueskill's own check,
// and its error reaches the store's caller as trueskill made it, an
// *InputError on Ranks wrapping messages.ErrImpossible and not
// messages.ErrInput, naming the league's setting; nothing is stored, and a
// win is then stored.
func TestImpossibleDrawKeepsItsKind(t *testing.T) {
	db := openSQLite(t)
	ctx := context.Background()
	if err := db.SetDrawProbability(ctx, 0); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2025, 3, 1, 18, 0, 0, 0, time.UTC)
	draw := store.Match{ID: "d", Time: at, Teams: [][]string{{"Ada", "Bo"}, {"Cy"}, {"Di"}}, Ranks: []int{2, 1, 2}}
	_, _, err := db.Add(ctx, draw)
	var ie *trueskill.InputError
	if !errors.Is(err, messages.ErrImpossible) || errors.Is(err, messages.ErrInput) || !errors.As(err, &ie) || ie.Field != "Ranks" ||
		!strings.Contains(err.Error(), `match "d", the league's draw probability is 0`) {
		t.Fatalf("a draw at draw probability 0: %v, want trueskill's InputError on Ranks wrapping only messages.ErrImpossible", err)
	}
	if ms, err := db.Matches(ctx); err != nil || len(ms) != 0 {
		t.Fatalf("refused draw stored: %v, %v", ms, err)
	}
	win := draw
	win.Ranks = []int{3, 1, 2}
	if _, _, err := db.Add(ctx, win); err != nil {
		t.Fatal(err)
	}
	if ms, err := db.Matches(ctx); err != nil || len(ms) != 1 || !slices.Equal(ms[0].Ranks, win.Ranks) {
		t.Fatalf("after a win: %v, %v", ms, err)
	}
}
