package league

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/skillgraph/skillgraph/internal/jsonpos"
	"github.com/skillgraph/skillgraph/internal/safefile"
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

// badState reports a state file that is not whole or holds a value the
// league would not write.
func badState(format string, a ...any) error {
	return fmt.Errorf(format+": not a valid league state: %w", append(a, messages.ErrInput)...)
}

// checkRating reports why r cannot be a rating of a league, or nil: it
// must lie in TrueSkill's domain (trueskill.Rating.Validate), where every
// number shown and used from it (μ/σ², the display rating (μ − σ)·48, the
// stability 1 − σ²/σ₀²) is finite. A state holding σ = 1e-300 or
// μ = 1e308 is rejected here instead of printing −Inf or failing later.
func checkRating(r trueskill.Rating) error {
	if err := r.Validate(); err != nil {
		return fmt.Errorf("%w: not a valid league state", err)
	}
	return nil
}

// Decode reads a league from its JSON state, as strictly as a league file:
// unknown fields, data after the object, or any value the league would
// not write (see Check) is an error wrapping messages.ErrInput.
func Decode(r io.Reader) (*League, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, badState("the file is empty")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var l League
	if err := dec.Decode(&l); err != nil {
		if line, col, ok := jsonpos.Place(data, err); ok {
			return nil, badState("line %d, column %d: %v", line, col, err)
		}
		return nil, badState("%v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, badState("data after its JSON object")
	}
	if err := l.Check(); err != nil {
		return nil, err
	}
	return &l, nil
}

// Encode writes l's JSON state.
func (l *League) Encode(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(l)
}

// Check validates a league read from a state and indexes its players.
func (l *League) Check() error {
	bad := badState
	if l.Version != Version {
		return bad("version %q, want %q", l.Version, Version)
	}
	if l.Format != FormatLong && l.Format != FormatScores {
		return bad("format %q, want %q or %q", l.Format, FormatLong, FormatScores)
	}
	if err := l.Params.Validate(); err != nil {
		return badState("params: %v", err)
	}
	if err := checkRating(l.Params.NewRating()); err != nil {
		return fmt.Errorf("params: a new player's %w", err)
	}
	if l.Games == nil || l.Players == nil {
		return bad("no games or players list")
	}
	if l.Home != nil {
		if err := checkRating(*l.Home); err != nil {
			return fmt.Errorf("home advantage: %w", err)
		}
	}
	games := make(map[string]bool, len(l.Games))
	for _, k := range l.Games {
		if k == "" || games[k] {
			return bad("game key %q empty or repeated", k)
		}
		games[k] = true
	}
	l.byName = make(map[string]*Player, len(l.Players))
	for _, pl := range l.Players {
		if pl == nil || pl.Name == "" || l.byName[pl.Name] != nil {
			return bad("a player is missing, unnamed or listed twice")
		}
		if err := checkRating(pl.Rating); err != nil {
			return fmt.Errorf("player %q: %w", pl.Name, err)
		}
		if pl.Games != len(pl.History) || pl.Games == 0 || pl.LastPlayed != pl.History[len(pl.History)-1].Date ||
			pl.Rating != pl.History[len(pl.History)-1].Rating || compareDates(pl.LastPlayed, l.LastDate) > 0 {
			return bad("player %q: games, last game and history disagree", pl.Name)
		}
		for _, s := range pl.History {
			if !games[s.Game] {
				return bad("player %q: history names game %q, not rated", pl.Name, s.Game)
			}
			if err := checkRating(s.Rating); err != nil {
				return fmt.Errorf("player %q after game %q: %w", pl.Name, s.Game, err)
			}
		}
		l.byName[pl.Name] = pl
	}
	return nil
}

// State is a league's state file, locked from OpenState to Close.
type State struct {
	lock *safefile.Locked
	// League is the league the file held, nil if there was no file.
	League *League
}

// OpenState locks the state file at path (waiting for another holder until
// ctx ends) and reads it; State.League is nil if there is no file yet. A
// symbolic link is followed to its target. The lock is held until Close,
// so that the games another run adds meanwhile are never lost: it loads,
// rates and saves in turn.
func OpenState(ctx context.Context, path string) (*State, error) {
	lock, err := safefile.Lock(ctx, path)
	if err != nil {
		return nil, err
	}
	s := &State{lock: lock}
	data, err := os.ReadFile(lock.Path())
	switch {
	case errors.Is(err, os.ErrNotExist):
		return s, nil
	case err != nil:
		lock.Unlock()
		return nil, err
	}
	if s.League, err = Decode(bytes.NewReader(data)); err != nil {
		lock.Unlock()
		return nil, err
	}
	return s, nil
}

// Save writes l to the state file atomically (see safefile.Write).
func (s *State) Save(l *League) error {
	if s.lock == nil {
		return errors.New("league: save after close")
	}
	return s.lock.Write(l.Encode)
}

// Close releases the state's lock.
func (s *State) Close() error {
	err := s.lock.Unlock()
	s.lock = nil
	return err
}
