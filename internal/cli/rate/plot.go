package rate

import (
	"fmt"

	"github.com/skillgraph/skillgraph/internal/plot"
	"github.com/skillgraph/skillgraph/record"
)

// plotHistory plots a player's μ after each game with the band μ ± σ,
// over the games' dates when every date parses (YYYY-MM-DD or RFC 3339),
// else over the game number.
func plotHistory(path string, h *historyView) error {
	n := len(h.Rows)
	s := plot.Series{Name: "μ ± σ", X: make([]float64, n), Y: make([]float64, n), Lo: make([]float64, n), Hi: make([]float64, n)}
	dates := true
	for i, r := range h.Rows {
		s.Y[i], s.Lo[i], s.Hi[i] = r.Mu, r.Mu-r.Sigma, r.Mu+r.Sigma
		t, err := record.ParseTime(r.Date) // the league writes its dates with record.FormatTime
		if err != nil {
			dates = false
		}
		s.X[i] = float64(t.Unix())
	}
	xLabel := "date"
	if !dates {
		xLabel = "game"
		for i := range s.X {
			s.X[i] = float64(i + 1)
		}
	}
	f := plot.Figure{Title: fmt.Sprintf("%s: rating after each of %d games", h.Player, n), XLabel: xLabel, YLabel: "skill μ", Dates: dates, Series: []plot.Series{s}}
	if err := f.Save(path); err != nil {
		return fmt.Errorf("-plot: %w", err)
	}
	return nil
}
