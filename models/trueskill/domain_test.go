package trueskill_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/models/trueskill"
)

// TestRatingValidate: Rating.Validate accepts exactly the ratings Rate
// takes, at the domain's bounds (|μ| ≤ 1e12, σ in [1e-9, 1e9]) and at the
// next float64 beyond each, and names the field it rejects.
func TestRatingValidate(t *testing.T) {
	p := trueskill.DefaultParams()
	up, down := func(x float64) float64 { return math.Nextafter(x, math.Inf(1)) }, func(x float64) float64 { return math.Nextafter(x, math.Inf(-1)) }
	for _, c := range []struct {
		r     trueskill.Rating
		field string // "" for a rating in the domain
	}{
		{trueskill.Rating{Mu: 1e12, Sigma: 1e-9}, ""}, {trueskill.Rating{Mu: -1e12, Sigma: 1e9}, ""},
		{trueskill.Rating{Mu: up(1e12), Sigma: 1}, "Rating.Mu"}, {trueskill.Rating{Mu: down(-1e12), Sigma: 1}, "Rating.Mu"},
		{trueskill.Rating{Mu: math.NaN(), Sigma: 1}, "Rating.Mu"}, {trueskill.Rating{Mu: 0, Sigma: down(1e-9)}, "Rating.Sigma"},
		{trueskill.Rating{Mu: 0, Sigma: up(1e9)}, "Rating.Sigma"}, {trueskill.Rating{Mu: 0, Sigma: 0}, "Rating.Sigma"},
		{trueskill.Rating{Mu: 0, Sigma: math.NaN()}, "Rating.Sigma"},
	} {
		err := c.r.Validate()
		_, rateErr := p.Rate(context.Background(), trueskill.Match{Teams: [][]trueskill.Rating{{c.r}, {p.NewRating()}}, Ranks: []int{0, 1}})
		var ie *trueskill.InputError
		switch {
		case c.field == "" && (err != nil || rateErr != nil):
			t.Errorf("%v: Validate %v, Rate %v; want both nil", c.r, err, rateErr)
		case c.field != "" && (!errors.As(err, &ie) || ie.Field != c.field || !errors.Is(err, trueskill.ErrInput) || !strings.Contains(err.Error(), "not")):
			t.Errorf("%v: Validate %v, want ErrInput naming %s", c.r, err, c.field)
		case c.field != "" && !errors.Is(rateErr, trueskill.ErrInput):
			t.Errorf("%v: Rate %v, want ErrInput", c.r, rateErr)
		}
	}
}
