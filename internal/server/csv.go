package server

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/skillgraph/skillgraph/internal/store"
)

// ReadCSV reads matches in the long format WriteCSV writes (columns found
// by the header's names; "date", YYYY-MM-DD, may stand for "time"): one
// row per player, the rows of a match together, a team's players sharing
// its label and rank.
func ReadCSV(r io.Reader) ([]store.Match, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	head, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("read the header: %w", err)
	}
	col := map[string]int{}
	for i, h := range head {
		col[strings.TrimSpace(strings.ToLower(h))] = i
	}
	if _, ok := col["time"]; !ok {
		if i, ok := col["date"]; ok {
			col["time"] = i
		}
	}
	for _, c := range []string{"match_id", "time", "team", "player", "rank"} {
		if _, ok := col[c]; !ok {
			return nil, fmt.Errorf("%w: the header has no column %q", store.ErrInvalid, c)
		}
	}
	var out []store.Match
	var team map[string]int
	done := map[string]bool{}
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		get := func(c string) string {
			if i := col[c]; i < len(rec) {
				return strings.TrimSpace(rec[i])
			}
			return ""
		}
		id := get("match_id")
		rank, err := strconv.Atoi(get("rank"))
		if err != nil {
			return nil, fmt.Errorf("line %d: %w: rank %q is not a whole number", line, store.ErrInvalid, get("rank"))
		}
		t, err := time.Parse(time.RFC3339, get("time"))
		if err != nil {
			if t, err = time.Parse("2006-01-02", get("time")); err != nil {
				return nil, fmt.Errorf("line %d: %w: time %q is neither RFC 3339 nor YYYY-MM-DD", line, store.ErrInvalid, get("time"))
			}
		}
		if len(out) == 0 || out[len(out)-1].ID != id {
			if done[id] {
				return nil, fmt.Errorf("line %d: %w: the rows of match %q are not together", line, store.ErrInvalid, id)
			}
			done[id] = true
			out = append(out, store.Match{ID: id, Time: t})
			team = map[string]int{}
		}
		m := &out[len(out)-1]
		if !m.Time.Equal(t) {
			return nil, fmt.Errorf("line %d: %w: match %q has two times", line, store.ErrInvalid, id)
		}
		j, ok := team[get("team")]
		if !ok {
			j = len(m.Teams)
			team[get("team")] = j
			m.Teams = append(m.Teams, nil)
			m.Ranks = append(m.Ranks, rank)
		}
		if m.Ranks[j] != rank {
			return nil, fmt.Errorf("line %d: %w: team %q of match %q has two ranks", line, store.ErrInvalid, get("team"), id)
		}
		m.Teams[j] = append(m.Teams[j], get("player"))
	}
	return out, nil
}
