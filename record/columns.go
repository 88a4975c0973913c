package record

import (
	"fmt"
	"strings"
)

// Format is one of the two layouts Read takes.
type Format int

const (
	// Long has one row per player:
	// match_id,time,team,player,rank[,score][,weight][,season][,venue][,neutral].
	Long Format = iota + 1
	// Scores has one row per two-team match:
	// time,home,away,home_score,away_score[,neutral][,season][,match_id].
	Scores
)

// formatNames are the formats' names, by Format.
var formatNames = [...]string{Long: "long", Scores: "scores"}

// String returns "long" or "scores".
func (f Format) String() string {
	if f >= Long && int(f) < len(formatNames) {
		return formatNames[f]
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// column is a column the reader knows, by its canonical name.
type column int

const (
	colMatchID column = iota
	colTime
	colTeam
	colPlayer
	colRank
	colScore
	colWeight
	colSeason
	colVenue
	colNeutral
	colHome
	colAway
	colHomeScore
	colAwayScore
	numColumns
)

// name returns the column's canonical name, as WriteLong writes it.
func (c column) name() string {
	return [numColumns]string{"match_id", "time", "team", "player", "rank", "score", "weight", "season",
		"venue", "neutral", "home", "away", "home_score", "away_score"}[c]
}

// columnOf returns the column a header name stands for. Names are
// compared after normalize. The aliases are names that mean the same in
// every file; names that often mean something else (id, position,
// points) are not among them, since a column read wrongly would fail a
// file that is fine without it.
func columnOf(header string) (column, bool) {
	switch normalize(header) {
	case "match_id", "matchid", "game_id", "gameid":
		return colMatchID, true
	case "time", "date", "datetime", "date_time", "timestamp":
		return colTime, true
	case "team", "team_name":
		return colTeam, true
	case "player", "player_name", "player_id":
		return colPlayer, true
	case "rank", "place":
		return colRank, true
	case "score", "team_score":
		return colScore, true
	case "weight", "partial_play":
		return colWeight, true
	case "season":
		return colSeason, true
	case "venue":
		return colVenue, true
	case "neutral", "neutral_venue", "neutral_ground":
		return colNeutral, true
	case "home", "home_team", "hometeam":
		return colHome, true
	case "away", "away_team", "awayteam", "visitor", "visiting_team":
		return colAway, true
	case "home_score", "homescore", "home_goals", "home_points", "fthg":
		return colHomeScore, true
	case "away_score", "awayscore", "away_goals", "away_points", "visitor_score", "ftag":
		return colAwayScore, true
	}
	return 0, false
}

// normalize lower-cases a header name, trims its spaces and turns inner
// spaces and hyphens into underscores.
func normalize(h string) string {
	h = strings.ToLower(strings.TrimSpace(h))
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' {
			return '_'
		}
		return r
	}, h)
}

// columnsOf returns a format's needed and optional columns.
func columnsOf(f Format) (need, optional []column) {
	if f == Scores {
		return []column{colTime, colHome, colAway, colHomeScore, colAwayScore}, []column{colNeutral, colSeason, colMatchID}
	}
	return []column{colMatchID, colTime, colTeam, colPlayer, colRank}, []column{colScore, colWeight, colSeason, colVenue, colNeutral}
}

// columnList joins the canonical names of cs with commas.
func columnList(cs []column) string {
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = c.name()
	}
	return strings.Join(names, ",")
}
