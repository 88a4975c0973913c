package server

import (
	"cmp"
	"fmt"
	"html/template"
	"slices"
	"strings"
	"time"

	"gonum.org/v1/plot/vg"

	"github.com/skillgraph/skillgraph/internal/league"
	"github.com/skillgraph/skillgraph/internal/plot"
	"github.com/skillgraph/skillgraph/internal/store"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

// Row is one player's line on the leaderboard.
type Row struct {
	Rank          int       `json:"rank"`
	Name          string    `json:"name"`
	DisplayRating float64   `json:"display_rating"` // (μ − σ)·48
	Mu            float64   `json:"mu"`
	Sigma         float64   `json:"sigma"`
	Stability     float64   `json:"stability"` // 1 − σ²/σ₀²
	Games         int       `json:"games"`
	LastPlayed    time.Time `json:"last_played"`
}

// leaderboard ranks players by display rating, best first; equal display
// ratings share a rank.
func leaderboard(p trueskill.Params, players []store.Player) []Row {
	rows := make([]Row, len(players))
	for i, pl := range players {
		rows[i] = Row{
			Name: pl.Name, DisplayRating: pl.Rating.DisplayRating(), Mu: pl.Rating.Mu, Sigma: pl.Rating.Sigma,
			Stability: p.Stability(pl.Rating), Games: pl.Games, LastPlayed: pl.LastPlayed,
		}
	}
	slices.SortStableFunc(rows, func(a, b Row) int {
		if c := cmp.Compare(b.DisplayRating, a.DisplayRating); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	for i := range rows {
		rows[i].Rank = i + 1
		if i > 0 && rows[i].DisplayRating == rows[i-1].DisplayRating {
			rows[i].Rank = rows[i-1].Rank
		}
	}
	return rows
}

// Step is a player's rating after one match.
type Step struct {
	MatchID       string    `json:"match_id"`
	Time          time.Time `json:"time"`
	Mu            float64   `json:"mu"`
	Sigma         float64   `json:"sigma"`
	DisplayRating float64   `json:"display_rating"`
	Result        string    `json:"result"` // won, drew or lost (against the next team in finishing order)
	Match         string    `json:"match"`  // the match in words
}

// Record is a player's results against one opponent: matches they played
// on different teams, won, drawn or lost by finishing order.
type Record struct {
	Opponent string `json:"opponent"`
	Won      int    `json:"won"`
	Drawn    int    `json:"drawn"`
	Lost     int    `json:"lost"`
}

// PlayerView is a player's page.
type PlayerView struct {
	Row
	History     []Step   `json:"history"`
	HeadToHeads []Record `json:"head_to_heads"`
}

func teamOf(m *store.Match, name string) int {
	for j, team := range m.Teams {
		if slices.Contains(team, name) {
			return j
		}
	}
	return -1
}

// describe writes a match as its teams in finishing order, "Ada + Bo 1st,
// Cy 2nd".
func describe(m *store.Match) string {
	idx := make([]int, len(m.Teams))
	for j := range idx {
		idx[j] = j
	}
	slices.SortStableFunc(idx, func(a, b int) int { return m.Ranks[a] - m.Ranks[b] })
	parts := make([]string, len(idx))
	for i, j := range idx {
		parts[i] = fmt.Sprintf("%s (%s)", strings.Join(m.Teams[j], " + "), league.Ordinal(m.Ranks[j]))
	}
	return strings.Join(parts, ", ")
}

// result says how the team j did: won if it beat every other team, drew if
// it shared the best rank, lost otherwise.
func result(m *store.Match, j int) string {
	best := true
	shared := false
	for k, r := range m.Ranks {
		if k == j {
			continue
		}
		if r < m.Ranks[j] {
			best = false
		}
		if r == m.Ranks[j] {
			shared = true
		}
	}
	switch {
	case !best:
		return "lost"
	case shared:
		return "drew"
	}
	return "won"
}

func playerView(row Row, hist []store.Point) PlayerView {
	v := PlayerView{Row: row}
	recs := map[string]*Record{}
	for _, pt := range hist {
		m := &pt.Match
		j := teamOf(m, row.Name)
		v.History = append(v.History, Step{
			MatchID: m.ID, Time: m.Time, Mu: pt.Rating.Mu, Sigma: pt.Rating.Sigma,
			DisplayRating: pt.Rating.DisplayRating(), Result: result(m, j), Match: describe(m),
		})
		for k, team := range m.Teams {
			if k == j {
				continue
			}
			for _, o := range team {
				r := recs[o]
				if r == nil {
					r = &Record{Opponent: o}
					recs[o] = r
				}
				switch {
				case m.Ranks[j] < m.Ranks[k]:
					r.Won++
				case m.Ranks[j] == m.Ranks[k]:
					r.Drawn++
				default:
					r.Lost++
				}
			}
		}
	}
	for _, r := range recs {
		v.HeadToHeads = append(v.HeadToHeads, *r)
	}
	slices.SortFunc(v.HeadToHeads, func(a, b Record) int {
		if c := cmp.Compare(b.Won+b.Drawn+b.Lost, a.Won+a.Drawn+a.Lost); c != 0 {
			return c
		}
		return strings.Compare(a.Opponent, b.Opponent)
	})
	return v
}

// Pairing is a proposed 1-v-1 game and its match quality.
type Pairing struct {
	A, B    string
	Quality float64
}

// fairest returns the top pairs of players by match quality, highest
// first, the player higher on the leaderboard first: league.FairestPairs'
// exact pruned search over every player.
func fairest(p trueskill.Params, rows []Row, top int) ([]Pairing, error) {
	rs := make([]trueskill.Rating, len(rows))
	for i, r := range rows {
		rs[i] = trueskill.Rating{Mu: r.Mu, Sigma: r.Sigma}
	}
	pairs, err := league.FairestPairs(p, rs, top)
	if err != nil {
		return nil, err
	}
	out := make([]Pairing, len(pairs))
	for i, pr := range pairs {
		out[i] = Pairing{A: rows[pr.A].Name, B: rows[pr.B].Name, Quality: pr.Quality}
	}
	return out, nil
}

// Matchup is the prediction of a game between two teams.
type Matchup struct {
	A, B            []string
	New             []string // players in the teams who have not played yet
	Win, Draw, Loss float64
	Quality         float64
}

func matchup(p trueskill.Params, rows []Row, a, b []string) (Matchup, error) {
	mu := Matchup{A: a, B: b}
	byName := map[string]Row{}
	for _, r := range rows {
		byName[r.Name] = r
	}
	ratings := func(names []string) []trueskill.Rating {
		out := make([]trueskill.Rating, len(names))
		for i, n := range names {
			if r, ok := byName[n]; ok {
				out[i] = trueskill.Rating{Mu: r.Mu, Sigma: r.Sigma}
			} else {
				out[i] = p.NewRating()
				mu.New = append(mu.New, n)
			}
		}
		return out
	}
	ra, rb := ratings(a), ratings(b)
	pr, err := p.Predict(ra, rb)
	if err != nil {
		return mu, err
	}
	mu.Win, mu.Draw, mu.Loss = pr.Win, pr.Draw, pr.Loss
	mu.Quality, err = p.Quality([][]trueskill.Rating{ra, rb}, nil)
	return mu, err
}

// historySVG draws a player's display rating (μ − σ)·48 after each match
// (from a new player's μ₀, σ₀ before the first) over a band up to
// (μ + σ)·48, with package plot, as an <svg> element with the id
// "history" to put in a page. The figure holds numbers and fixed labels
// only, no name, so it needs no escaping.
func historySVG(p trueskill.Params, h []Step) (template.HTML, error) {
	s := plot.Series{Name: "rating (μ − σ)·48, band to (μ + σ)·48"}
	add := func(i int, mu, sigma float64) {
		s.X = append(s.X, float64(i))
		s.Y = append(s.Y, (mu-sigma)*48)
		s.Lo = append(s.Lo, (mu-sigma)*48)
		s.Hi = append(s.Hi, (mu+sigma)*48)
	}
	add(0, p.Mu, p.Sigma)
	for i, st := range h {
		add(i+1, st.Mu, st.Sigma)
	}
	f := plot.Figure{XLabel: "matches played", YLabel: "rating", Series: []plot.Series{s}, Width: 16 * vg.Centimeter, Height: 8 * vg.Centimeter}
	var b strings.Builder
	if err := f.Write(&b, "svg"); err != nil {
		return "", fmt.Errorf("draw the rating history: %w", err)
	}
	out := b.String()
	i := strings.Index(out, "<svg")
	if i < 0 {
		return "", fmt.Errorf("draw the rating history: no <svg> element")
	}
	return template.HTML(`<svg id="history" role="img" aria-label="rating after each match"` + out[i+len("<svg"):]), nil
}
