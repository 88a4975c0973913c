package rate

import (
	"fmt"
	"time"

	"github.com/skillgraph/skillgraph/internal/plot"
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
		t, err := parseDate(r.Date)
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

// parseDate reads a game's date: YYYY-MM-DD, RFC 3339, or
// YYYY-MM-DD HH:MM:SS.
func parseDate(s string) (time.Time, error) {
	for _, layout := range []string{time.DateOnly, time.RFC3339, time.DateTime} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("date %q", s)
}
