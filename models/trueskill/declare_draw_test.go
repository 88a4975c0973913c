package trueskill_test

import (
	"context"
	"errors"
	"testing"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

// TestDeclareRefusesImpossibleDraws: a draw observed where the draw margin
// is 0 has probability zero, and Declare refuses it as Rate does, with the
// same *InputError on Ranks wrapping ErrImpossible; a positive draw
// probability, a fixed margin, draw-margin variables or no draw at all
// declare.
func TestDeclareRefusesImpossibleDraws(t *testing.T) {
	zero := trueskill.DefaultParams()
	zero.DrawProbability = 0
	declare := func(p trueskill.Params, ranks []int, margins bool) error {
		b := graph.NewBuilder("draw")
		skills := [][]graph.VarID{{b.AddVariable("a")}, {b.AddVariable("b")}, {b.AddVariable("c")}}
		c := trueskill.Contest{Skills: skills, Ranks: ranks}
		if margins {
			c.Margins = []graph.VarID{b.AddVariable("ma"), b.AddVariable("mb"), b.AddVariable("mc")}
		}
		_, err := p.Declare(b, c)
		return err
	}
	r := zero.NewRating()
	_, rateErr := zero.Rate(context.Background(), trueskill.Match{Teams: [][]trueskill.Rating{{r}, {r}, {r}}, Ranks: []int{2, 1, 2}})
	for _, err := range []error{rateErr, declare(zero, []int{2, 1, 2}, false)} {
		var ie *trueskill.InputError
		if !errors.Is(err, trueskill.ErrImpossible) || errors.Is(err, trueskill.ErrInput) || !errors.As(err, &ie) || ie.Field != "Ranks" || len(ie.Index) != 1 || ie.Index[0] != 2 || ie.Value != 2 {
			t.Errorf("teams 0 and 2 drawn at draw margin 0: %v, want an InputError on Ranks[2] = 2 wrapping ErrImpossible", err)
		}
	}
	margin := zero
	margin.DrawMargin = 0.5
	for _, c := range []struct {
		name    string
		p       trueskill.Params
		ranks   []int
		margins bool
	}{
		{"draw probability", trueskill.DefaultParams(), []int{2, 1, 2}, false},
		{"fixed margin", margin, []int{2, 1, 2}, false},
		{"margin variables", zero, []int{2, 1, 2}, true},
		{"no draw", zero, []int{2, 1, 3}, false},
	} {
		if err := declare(c.p, c.ranks, c.margins); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}
