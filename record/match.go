package record

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/skillgraph/skillgraph/messages"
)

// Match is one observed match.
type Match struct {
	// ID names the match; it is unique within a file.
	ID string
	// Time is when the match was played.
	Time time.Time
	// Teams holds two or more teams with distinct names; no player is in
	// two of them.
	Teams []Team
	// HasScores reports that each team's Score is known; without it every
	// Score is 0.
	HasScores bool
	// Venue says where a two-team match was played.
	Venue Venue
	// Season names the season the match belongs to, "" for none.
	Season string
}

// Team is one side of a match.
type Team struct {
	// Name names the team; in the scores format it is also its one
	// player's name.
	Name string
	// Players holds the team's players by name.
	Players []string
	// Weights, if not nil, holds one weight per player: the share of the
	// match that player took part in, finite and at least 0. Nil means
	// every player took full part (weight 1).
	Weights []float64
	// Rank is the team's place: lower is better, equal ranks draw.
	Rank int
	// Score is the team's score, at least 0, when the match HasScores.
	Score int
}

// Venue says where a two-team match was played. The zero Venue records
// nothing.
type Venue struct {
	// HomeAway reports that Teams[0] is the home team and Teams[1] the
	// away team.
	HomeAway bool
	// Neutral reports that the match, though listed with a home and an
	// away team, was played on neutral ground, so that neither had home
	// advantage. It is set only with HomeAway.
	Neutral bool
}

// HomeAdvantage reports whether Teams[0] played at home: a home-and-away
// match not on neutral ground.
func (v Venue) HomeAdvantage() bool { return v.HomeAway && !v.Neutral }

// Bounds on the size of a match, which Read and Validate enforce.
const (
	// MaxName is the longest team, player or season name, in bytes.
	MaxName = 256
	// MaxID is the longest match ID, in bytes: room for the IDs the
	// scores format makes from a time and two team names.
	MaxID = 1024
	// MaxPlayers is the most players in one match.
	MaxPlayers = 10000
)

// ErrInput is the one error value a caller of this package matches with
// errors.Is: every failure it reports is input the caller can correct, a
// field that does not parse, a name or text that cannot be a name, a match
// that breaks the rules Validate lists, or a file whose header or rows do
// not make a match list. The message says which, naming the match or
// field; from Read it arrives in a *FileError giving its place.
var ErrInput = messages.ErrInput

// FileError reports a problem in a data file. Line and Column are 1-based
// and count as encoding/csv does (Column in bytes); either is 0 when the
// problem concerns the whole file or the whole row.
type FileError struct {
	File         string
	Line, Column int
	Err          error
}

// Error returns "file:line:column: problem", leaving out a 0 line or
// column.
func (e *FileError) Error() string {
	var sb strings.Builder
	sb.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&sb, ":%d", e.Line)
		if e.Column > 0 {
			fmt.Fprintf(&sb, ":%d", e.Column)
		}
	}
	sb.WriteString(": ")
	sb.WriteString(e.Err.Error())
	return sb.String()
}

// Unwrap returns the underlying error.
func (e *FileError) Unwrap() error { return e.Err }

// CheckText reports (as ErrInput) text that is not valid UTF-8 or holds
// a control character, one of the two noncharacters XML forbids, or a
// layout control (layoutControl). what names the text in the error. It is the project's one rule
// for text that reaches a data file, an SVG drawing or a web page: names,
// labels, titles.
func CheckText(what, s string) error {
	text := utf8.ValidString(s)
	for _, r := range s {
		if unicode.IsControl(r) || r == 0xFFFE || r == 0xFFFF || layoutControl(r) {
			text = false
			break
		}
	}
	if !text {
		return fmt.Errorf("%s %q: invalid UTF-8, control character or layout character in text: %w", what, s, ErrInput)
	}
	return nil
}

// layoutControl reports whether r is a line or paragraph separator
// (U+2028, U+2029), which breaks a line as a newline does, or a
// bidirectional embedding, override or isolate (U+202A-U+202E,
// U+2066-U+2069; Unicode's UAX #9, Table 2), which reorders the text after
// it, so that one name could be shown as another on a leaderboard (the
// "Trojan Source" characters). The marks U+200E and U+200F, which
// right-to-left names may need, are text like any other.
func layoutControl(r rune) bool {
	return r >= 0x2028 && r <= 0x202E || r >= 0x2066 && r <= 0x2069
}

// CheckName is CheckText for a name, which must also not be empty, nor
// longer than most bytes, nor be one that nameWhy refuses. The length is
// checked first, so that the error quotes at most the start of a long
// name.
func CheckName(what, s string, most int) error {
	switch {
	case len(s) > most:
		return fmt.Errorf("%s %.20q… is longer than allowed: %d bytes, more than %d: %w", what, s, len(s), most, ErrInput)
	case s == "":
		return fmt.Errorf("%s: empty name: %w", what, ErrInput)
	}
	if err := CheckText(what, s); err != nil {
		return err
	}
	if why := nameWhy(s); why != "" {
		return fmt.Errorf("%s %q %s: %w", what, s, why, ErrInput)
	}
	return nil
}

// nameWhy says what makes s, valid text, no name, "" if nothing: a space
// at either end ("Ann, Bob" in a file would otherwise make " Bob" a second
// player who looks like Bob), or U+FFFD, the replacement character, which
// marks text lost in decoding (invalid UTF-8, a lone surrogate escape), so
// that two different names could become one.
func nameWhy(s string) string {
	switch {
	case strings.TrimSpace(s) != s:
		return "starts or ends with a space, which would make it a name apart from the one without"
	case strings.ContainsRune(s, utf8.RuneError):
		return "holds U+FFFD, the replacement character of text lost in decoding"
	}
	return ""
}

// Validate reports, as ErrInput, a match that Read could not have
// returned, and so WriteLong cannot write: an ID or name that is empty,
// too long or not text; a time outside the years 0 to 9999; fewer than
// two teams, a team without players, more than MaxPlayers; weights not
// one per player or not finite and at least 0; a negative score, or a
// score without HasScores; two teams of one name; a player listed twice;
// a venue on a match that is not two teams, or Neutral without HomeAway.
func (m *Match) Validate() error {
	if m == nil {
		return fmt.Errorf("record: no match: %w", ErrInput)
	}
	if err := CheckName("match ID", m.ID, MaxID); err != nil {
		return fmt.Errorf("record: %w", err)
	}
	fail := func(format string, a ...any) error {
		return fmt.Errorf("record: match %s: "+format, append([]any{m.ID}, a...)...)
	}
	if y := m.Time.UTC().Year(); y < 0 || y > 9999 {
		return fail("year %d is outside 0 to 9999: %w", y, ErrInput)
	}
	if len(m.Teams) < 2 {
		return fail("%d teams, need at least 2: %w", len(m.Teams), ErrInput)
	}
	if m.Season != "" {
		if err := CheckName("season", m.Season, MaxName); err != nil {
			return fail("%w", err)
		}
	}
	if m.Venue.Neutral && !m.Venue.HomeAway {
		return fail("neutral ground without a home and an away team: %w", ErrInput)
	}
	if m.Venue.HomeAway && len(m.Teams) != 2 {
		return fail("a home and an away team, but %d teams: %w", len(m.Teams), ErrInput)
	}
	players := 0
	for j := range m.Teams {
		players += len(m.Teams[j].Players)
	}
	if players > MaxPlayers {
		return fail("%d players, more than %d: %w", players, MaxPlayers, ErrInput)
	}
	teams := make(map[string]int, len(m.Teams))
	seen := make(map[string][2]int, players)
	for j := range m.Teams {
		t := &m.Teams[j]
		if err := CheckName(fmt.Sprintf("team %d", j), t.Name, MaxName); err != nil {
			return fail("%w", err)
		}
		if k, dup := teams[t.Name]; dup {
			return fail("teams %d and %d are both %q: a team cannot play itself: %w", k, j, t.Name, ErrInput)
		}
		teams[t.Name] = j
		if len(t.Players) == 0 {
			return fail("team %q has no players: %w", t.Name, ErrInput)
		}
		if t.Weights != nil && len(t.Weights) != len(t.Players) {
			return fail("team %q has %d weights for %d players: %w", t.Name, len(t.Weights), len(t.Players), ErrInput)
		}
		for i, w := range t.Weights {
			if !(w >= 0) || math.IsInf(w, 1) {
				return fail("team %q player %d has weight %v, want a finite number from 0: %w", t.Name, i, w, ErrInput)
			}
		}
		if t.Score < 0 || (t.Score != 0 && !m.HasScores) {
			return fail("team %q has score %d, want one from 0, and only with HasScores: %w", t.Name, t.Score, ErrInput)
		}
		for i, pl := range t.Players {
			if err := CheckName(fmt.Sprintf("team %d player %d", j, i), pl, MaxName); err != nil {
				return fail("%w", err)
			}
			if at, dup := seen[pl]; dup {
				return fail("%q at team %d player %d and team %d player %d: player appears twice in one match: %w", pl, at[0], at[1], j, i, ErrInput)
			}
			seen[pl] = [2]int{j, i}
		}
	}
	return nil
}

// NewTeams makes the teams of a match from what the rating models take:
// each team's players and rank. A team is named by its players joined
// with "+" (one player's name for a team of one), or, where two such names
// would be the same or one too long, all teams by their number from 1.
// The slices are not copied. It returns ErrInput if players and ranks
// differ in length; Validate checks the rest.
func NewTeams(players [][]string, ranks []int) ([]Team, error) {
	if len(players) != len(ranks) {
		return nil, fmt.Errorf("record: %d teams but %d ranks: %w", len(players), len(ranks), ErrInput)
	}
	teams := make([]Team, len(players))
	names := make(map[string]bool, len(players))
	for j := range teams {
		teams[j] = Team{Name: strings.Join(players[j], "+"), Players: players[j], Rank: ranks[j]}
		names[teams[j].Name] = true
		if len(teams[j].Name) > MaxName {
			names = nil
			break
		}
	}
	if len(names) != len(teams) {
		for j := range teams {
			teams[j] = Team{Name: fmt.Sprint(j + 1), Players: players[j], Rank: ranks[j]}
		}
	}
	return teams, nil
}

// Players returns the players of each team, as the rating models take
// them.
func (m *Match) Players() [][]string {
	out := make([][]string, len(m.Teams))
	for j := range m.Teams {
		out[j] = m.Teams[j].Players
	}
	return out
}

// Ranks returns each team's rank.
func (m *Match) Ranks() []int {
	out := make([]int, len(m.Teams))
	for j := range m.Teams {
		out[j] = m.Teams[j].Rank
	}
	return out
}

// AdjacentTies counts the pairs of teams adjacent in finishing order
// given ranks (one pair in a match of two teams) and those of them that
// tie. Summed over matches, ties/pairs is the share of draws from which a
// draw probability is estimated, as if each pair were evenly matched.
func AdjacentTies(ranks []int) (ties, pairs int) {
	sorted := slices.Sorted(slices.Values(ranks))
	for k := 1; k < len(sorted); k++ {
		if sorted[k] == sorted[k-1] {
			ties++
		}
	}
	return ties, max(len(sorted)-1, 0)
}

// Weights returns each player's weight in the shape of Players, 1 for a
// team without weights, or nil when no team has weights.
func (m *Match) Weights() [][]float64 {
	var out [][]float64
	for j := range m.Teams {
		if m.Teams[j].Weights != nil {
			out = make([][]float64, len(m.Teams))
			break
		}
	}
	for j := range out {
		t := &m.Teams[j]
		out[j] = t.Weights
		if out[j] == nil {
			out[j] = make([]float64, len(t.Players))
			for i := range out[j] {
				out[j][i] = 1
			}
		}
	}
	return out
}
