package league

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

// TestImpossibleDrawAtHome: at a draw probability of 0 a draw has
// probability zero whether or not the game has a home side, so the home
// advantage's graph refuses it as Params.Rate does (messages.ErrImpossible,
// trueskill's *InputError on Ranks), and the league keeps the games rated
// before it and its home advantage.
func TestImpossibleDrawAtHome(t *testing.T) {
	p := trueskill.DefaultParams()
	p.DrawProbability = 0
	for _, home := range []bool{false, true} {
		l := New(FormatScores, p)
		start := trueskill.Rating{Mu: 0.5, Sigma: 1}
		h := start
		l.Home = &h
		games := []Match{
			{Key: "w", Date: "2025-01-01", Teams: [][]string{{"a"}, {"b"}}, Ranks: []int{0, 1}, Home: home},
			{Key: "d", Date: "2025-01-02", Teams: [][]string{{"a"}, {"b"}}, Ranks: []int{0, 0}, Home: home},
		}
		n, err := l.Rate(context.Background(), games)
		var ie *trueskill.InputError
		if n != 1 || !errors.Is(err, messages.ErrImpossible) || !errors.As(err, &ie) || ie.Field != "Ranks" || !strings.Contains(err.Error(), "game d (2025-01-02) is a draw") {
			t.Errorf("home %v: rated %d, %v; want 1 rated and the draw refused as impossible", home, n, err)
		}
		if len(l.Games) != 1 || l.Player("a").Games != 1 {
			t.Errorf("home %v: the league holds %v, a's games %d", home, l.Games, l.Player("a").Games)
		}
		if home == (*l.Home == start) {
			t.Errorf("home %v: home advantage %v after the first game, from %v", home, *l.Home, start)
		}
	}
}
