package evaluation

import (
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
)

// ScoredMatch is a two-team match with scores.
type ScoredMatch struct {
	Date, Season, Home, Away string
	HomeScore, AwayScore     int
}

// Ranks returns the outcome as ranks of (home, away), lower is better:
// {0, 1} for a home win, {1, 0} for an away win, {0, 0} for a draw.
func (m ScoredMatch) Ranks() []int {
	switch {
	case m.HomeScore == m.AwayScore:
		return []int{0, 0}
	case m.HomeScore < m.AwayScore:
		return []int{1, 0}
	}
	return []int{0, 1}
}

// RankedMatch is a match of any number of teams: the players of each team
// and the teams' ranks (lower is better, equal ranks tie).
type RankedMatch struct {
	ID, Date string
	Teams    [][]string
	Ranks    []int
}

// readCSV returns the rows of a CSV file with a header, and the column
// index of each needed name.
func readCSV(path string, need ...string) ([][]string, map[string]int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("evaluation: %w", err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	header, err := r.Read()
	if err != nil {
		return nil, nil, fmt.Errorf("evaluation: %s: %w", path, err)
	}
	col := map[string]int{}
	for i, h := range header {
		col[h] = i
	}
	for _, n := range need {
		if _, ok := col[n]; !ok {
			return nil, nil, fmt.Errorf("evaluation: %s: no column %q", path, n)
		}
	}
	var rows [][]string
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return rows, col, nil
		}
		if err != nil {
			return nil, nil, fmt.Errorf("evaluation: %s: %w", path, err)
		}
		rows = append(rows, rec)
	}
}

// LoadScored reads a file with columns date, season, home, away,
// home_score, away_score (the league files of ../shared/data), in file
// order.
func LoadScored(path string) ([]ScoredMatch, error) {
	rows, col, err := readCSV(path, "date", "season", "home", "away", "home_score", "away_score")
	if err != nil {
		return nil, err
	}
	out := make([]ScoredMatch, 0, len(rows))
	for k, rec := range rows {
		hs, err1 := strconv.Atoi(rec[col["home_score"]])
		as, err2 := strconv.Atoi(rec[col["away_score"]])
		if err1 != nil || err2 != nil || hs < 0 || as < 0 {
			return nil, fmt.Errorf("evaluation: %s row %d: bad score %q-%q", path, k+2, rec[col["home_score"]], rec[col["away_score"]])
		}
		out = append(out, ScoredMatch{rec[col["date"]], rec[col["season"]], rec[col["home"]], rec[col["away"]], hs, as})
	}
	return out, nil
}

// Seasons returns the seasons of ms in order of first appearance.
func Seasons(ms []ScoredMatch) []string {
	var out []string
	for _, m := range ms {
		if len(out) == 0 || out[len(out)-1] != m.Season {
			if !slices.Contains(out, m.Season) {
				out = append(out, m.Season)
			}
		}
	}
	return out
}

// Season returns the matches of one season, in order.
func Season(ms []ScoredMatch, season string) []ScoredMatch {
	var out []ScoredMatch
	for _, m := range ms {
		if m.Season == season {
			out = append(out, m)
		}
	}
	return out
}

// LoadRanked reads a file with columns match_id, date, team, player, rank
// (extra columns ignored): one row per player, rows of a match together.
// A team's rank is the best rank of its rows; ranks are made dense from 0.
func LoadRanked(path string) ([]RankedMatch, error) {
	rows, col, err := readCSV(path, "match_id", "date", "team", "player", "rank")
	if err != nil {
		return nil, err
	}
	var out []RankedMatch
	var teamIndex map[string]int
	var rawRanks []int
	flush := func() {
		if len(out) == 0 {
			return
		}
		out[len(out)-1].Ranks = denseRanks(rawRanks)
	}
	for k, rec := range rows {
		id := rec[col["match_id"]]
		if len(out) == 0 || out[len(out)-1].ID != id {
			flush()
			out = append(out, RankedMatch{ID: id, Date: rec[col["date"]]})
			teamIndex, rawRanks = map[string]int{}, nil
		}
		m := &out[len(out)-1]
		rank, err := strconv.Atoi(rec[col["rank"]])
		if err != nil {
			return nil, fmt.Errorf("evaluation: %s row %d: rank %q: %w", path, k+2, rec[col["rank"]], err)
		}
		team := rec[col["team"]]
		j, ok := teamIndex[team]
		if !ok {
			j = len(m.Teams)
			teamIndex[team] = j
			m.Teams = append(m.Teams, nil)
			rawRanks = append(rawRanks, rank)
		}
		m.Teams[j] = append(m.Teams[j], rec[col["player"]])
		rawRanks[j] = min(rawRanks[j], rank)
	}
	flush()
	return out, nil
}

// denseRanks maps ranks to 0, 1, 2, … keeping ties.
func denseRanks(r []int) []int {
	vals := slices.Clone(r)
	slices.Sort(vals)
	vals = slices.Compact(vals)
	out := make([]int, len(r))
	for i, x := range r {
		out[i], _ = slices.BinarySearch(vals, x)
	}
	return out
}

// AsRanked turns scored matches into two-team ranked matches (home first).
func AsRanked(ms []ScoredMatch) []RankedMatch {
	out := make([]RankedMatch, len(ms))
	for i, m := range ms {
		out[i] = RankedMatch{ID: fmt.Sprint(i), Date: m.Date, Teams: [][]string{{m.Home}, {m.Away}}, Ranks: m.Ranks()}
	}
	return out
}
