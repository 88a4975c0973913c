package record

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
)

// WriteLong writes ms in the long format, in the given order, one row per
// player: match_id,time,team,player,rank, then score if a match has
// scores, weight if a team has weights, season if the matches have
// seasons, venue if a match has a home and an away team, and neutral if
// one was on neutral ground. Times are written by FormatTime. Reading the
// output gives back ms as they were if they are in time order, and sorted
// stably by time if not.
//
// Nothing is written unless every match passes Validate, the IDs differ,
// and either all matches or none have a season, since a season column
// with an empty field cannot be read; otherwise the error wraps ErrInput.
func WriteLong(w io.Writer, ms []Match) error {
	if w == nil {
		return fmt.Errorf("record: no writer: %w", ErrInput)
	}
	var scores, weights, seasons, venues, neutral bool
	ids := make(map[string]int, len(ms))
	for i := range ms {
		m := &ms[i]
		if err := m.Validate(); err != nil {
			return err
		}
		if j, dup := ids[m.ID]; dup {
			return fmt.Errorf("record: matches %d and %d are both %q: %w", j, i, m.ID, ErrInput)
		}
		ids[m.ID] = i
		if (m.Season != "") != (ms[0].Season != "") {
			return fmt.Errorf("record: match %s has season %q but match %s has %q, and a file has seasons for all or none: %w",
				m.ID, m.Season, ms[0].ID, ms[0].Season, ErrInput)
		}
		scores = scores || m.HasScores
		seasons = seasons || m.Season != ""
		venues = venues || m.Venue.HomeAway
		neutral = neutral || m.Venue.Neutral
		for j := range m.Teams {
			weights = weights || m.Teams[j].Weights != nil
		}
	}
	header := []string{colMatchID.name(), colTime.name(), colTeam.name(), colPlayer.name(), colRank.name()}
	for _, c := range []struct {
		col column
		on  bool
	}{{colScore, scores}, {colWeight, weights}, {colSeason, seasons}, {colVenue, venues}, {colNeutral, neutral}} {
		if c.on {
			header = append(header, c.col.name())
		}
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return fmt.Errorf("record: %w", err)
	}
	row := make([]string, 0, len(header))
	for i := range ms {
		m := &ms[i]
		when := FormatTime(m.Time)
		for j, t := range m.Teams {
			for k, pl := range t.Players {
				row = append(row[:0], m.ID, when, t.Name, pl, strconv.Itoa(t.Rank))
				if scores {
					row = append(row, "")
					if m.HasScores {
						row[len(row)-1] = strconv.Itoa(t.Score)
					}
				}
				if weights {
					row = append(row, "")
					if t.Weights != nil {
						row[len(row)-1] = strconv.FormatFloat(t.Weights[k], 'g', -1, 64)
					}
				}
				if seasons {
					row = append(row, m.Season)
				}
				if venues {
					row = append(row, venueText(m.Venue, j))
				}
				if neutral {
					row = append(row, strconv.FormatBool(m.Venue.Neutral))
				}
				if err := cw.Write(row); err != nil {
					return fmt.Errorf("record: %w", err)
				}
			}
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("record: %w", err)
	}
	return nil
}

// venueText is the venue field of team j's rows.
func venueText(v Venue, j int) string {
	switch {
	case !v.HomeAway:
		return ""
	case j == 0:
		return "home"
	}
	return "away"
}
