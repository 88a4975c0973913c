package store

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/record"
)

// Limits on a match, so that one request cannot make the server do
// unbounded work.
const (
	MaxTeams      = 64           // teams in a match
	MaxTeamSize   = 64           // players in a team
	MaxNameLength = 64           // bytes in a player's name
	MaxIDLength   = record.MaxID // bytes in a match's id
)

// Sentinel errors a caller can act on (with errors.Is). A match or
// setting that cannot be stored is an error wrapping messages.ErrInput
// whose text says what is wrong, and one the stored league makes
// impossible (a draw where the draw probability is 0) wraps
// messages.ErrImpossible.
var (
	// ErrNotFound is returned for a match id that is not stored.
	ErrNotFound = errors.New("not found")
	// ErrConflict is returned when a match is added with the id of a
	// stored match that differs from it.
	ErrConflict = errors.New("conflict")
)

// MatchError is an error about one match of several, which it names by
// ID; Err says what is wrong.
type MatchError struct {
	ID  string
	Err error
}

func (e *MatchError) Error() string { return e.Err.Error() }

// Unwrap returns e.Err.
func (e *MatchError) Unwrap() error { return e.Err }

// Match is one stored game. Ranks hold one rank per team, lower better,
// equal ranks a draw.
type Match struct {
	ID    string     `json:"id"`
	Time  time.Time  `json:"time"`
	Teams [][]string `json:"teams"`
	Ranks []int      `json:"ranks"`
}

// invalid reports a match or setting that cannot be stored.
func invalid(format string, a ...any) error {
	return fmt.Errorf(format+": %w", append(a, messages.ErrInput)...)
}

// CheckName reports whether name can be a player's name: a
// record.CheckName of at most MaxNameLength bytes with no space at either
// end, and not "." or "..".
func CheckName(name string) error { return checkText("player name", name, MaxNameLength) }

// CheckID reports whether id can be a match's id: a record.CheckName of
// at most MaxIDLength bytes with no space at either end, and not "." or
// "..".
func CheckID(id string) error { return checkText("match id", id, MaxIDLength) }

// checkText checks a name or id s of at most most bytes by the record's
// rule (record.CheckName, which refuses a space at either end); what
// names it. The store adds one rule: "." or ".." in a URL's path is a
// step that every HTTP router resolves (/players/.. is /), so the page of
// such a player, or the address that corrects or deletes such a match,
// could never be reached.
func checkText(what, s string, most int) error {
	if err := record.CheckName(what, s, most); err != nil {
		return err
	}
	if s == "." || s == ".." {
		return invalid("%s %q is a path step, which no address can name", what, s)
	}
	return nil
}

// Check reports the first thing wrong with m, wrapping messages.ErrInput: its id,
// its time (zero, or outside the years 1-9999), the number and size of its
// teams, a player's name, a player in two places, or the ranks.
func (m *Match) Check() error {
	if err := CheckID(m.ID); err != nil {
		return err
	}
	if m.Time.IsZero() || m.Time.Year() < 1 || m.Time.Year() > 9999 {
		return invalid("match time missing or outside the years 1 to 9999")
	}
	if n := len(m.Teams); n < 2 || n > MaxTeams {
		return invalid("a match needs 2 to %d teams, got %d", MaxTeams, n)
	}
	seen := map[string]bool{}
	for j, team := range m.Teams {
		if len(team) == 0 || len(team) > MaxTeamSize {
			return invalid("team %d needs 1 to %d players, got %d", j+1, MaxTeamSize, len(team))
		}
		for _, name := range team {
			if err := CheckName(name); err != nil {
				return fmt.Errorf("team %d: %w", j+1, err)
			}
			if seen[name] {
				return invalid("player %q appears twice in the match", name)
			}
			seen[name] = true
		}
	}
	if len(m.Ranks) != len(m.Teams) {
		return invalid("%d ranks for %d teams: give one rank per team", len(m.Ranks), len(m.Teams))
	}
	for j, r := range m.Ranks {
		if r < 1 || r > MaxTeams {
			return invalid("rank %d of team %d is outside 1 to %d", r, j+1, MaxTeams)
		}
	}
	return nil
}

// same reports whether a and b record the same game (ids aside).
func same(a, b *Match) bool {
	return a.Time.Equal(b.Time) && slices.Equal(a.Ranks, b.Ranks) && slices.EqualFunc(a.Teams, b.Teams, slices.Equal[[]string])
}
