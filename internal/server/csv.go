package server

import (
	"errors"
	"fmt"
	"io"

	"github.com/skillgraph/skillgraph/internal/store"
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/record"
)

// ToRecord returns m as the record package's match, each team named by
// record.NewTeams.
func ToRecord(m store.Match) (record.Match, error) {
	teams, err := record.NewTeams(m.Teams, m.Ranks)
	if err != nil {
		return record.Match{}, err
	}
	return record.Match{ID: m.ID, Time: m.Time, Teams: teams}, nil
}

// FromRecord returns the league's match of a record's: its players and
// ranks. Scores, venues and seasons are left out (TrueSkill rates the
// finishing order alone); a match with partial-play weights is refused
// (messages.ErrInput), since the league rates every player in full.
func FromRecord(rm record.Match) (store.Match, error) {
	if rm.Weights() != nil {
		return store.Match{}, fmt.Errorf("match %q has partial-play weights, which the league does not rate: %w", rm.ID, messages.ErrInput)
	}
	return store.Match{ID: rm.ID, Time: rm.Time, Teams: rm.Players(), Ranks: rm.Ranks()}, nil
}

// WriteCSV writes ms in the long format, match_id,time,team,player,rank,
// with record.WriteLong, in the given order.
func WriteCSV(w io.Writer, ms []store.Match) error {
	rs := make([]record.Match, len(ms))
	for i, m := range ms {
		var err error
		if rs[i], err = ToRecord(m); err != nil {
			return err
		}
	}
	return record.WriteLong(w, rs)
}

// ReadCSV reads matches with record.Read (the long or the scores format,
// told apart by the header), in time order, a file's matches at one time
// in file order; name names the input in errors.
func ReadCSV(name string, r io.Reader) ([]store.Match, record.Report, error) {
	rs, rep, err := record.Read(name, r)
	if err != nil {
		if !errors.Is(err, messages.ErrInput) { // a CSV syntax error is the client's too
			err = fmt.Errorf("%w: %w", err, messages.ErrInput)
		}
		return nil, rep, err
	}
	out := make([]store.Match, len(rs))
	for i, rm := range rs {
		if out[i], err = FromRecord(rm); err != nil {
			return nil, rep, err
		}
	}
	return out, rep, nil
}
