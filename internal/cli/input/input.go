package input

import (
	"fmt"
	"io"

	"github.com/skillgraph/skillgraph/models/scorebased"
	"github.com/skillgraph/skillgraph/record"
)

// Read reads the file at path in either format (or only format f, if it
// is not 0) in time order, and writes the reader's notes (rows moved into
// time order, columns ignored) to stderr, each as a line starting "prog: ".
// A file with a header and no rows is an error.
func Read(stderr io.Writer, prog, path string, f record.Format) ([]record.Match, error) {
	var opts []record.Option
	if f != 0 {
		opts = append(opts, record.OnlyFormat(f))
	}
	ms, rep, err := record.ReadFile(path, opts...)
	if err != nil {
		return nil, err
	}
	for _, note := range rep.Notes() {
		fmt.Fprintf(stderr, "%s: %s\n", prog, note)
	}
	if len(ms) == 0 {
		return nil, fmt.Errorf("%s: a header and no rows: %w", path, record.ErrInput)
	}
	return ms, nil
}

// Scored checks that every match is two teams with scores, as the
// score-based protocols take them (the home side first), each a count
// the Poisson model takes (at most scorebased.MaxCount), naming one that
// is not, and counts the matches played on neutral ground.
func Scored(path string, ms []record.Match) (neutral int, err error) {
	for _, m := range ms {
		if len(m.Teams) != 2 || !m.HasScores {
			return 0, fmt.Errorf("%s: match %s: %d teams, scores %v: want two teams with scores", path, m.ID, len(m.Teams), m.HasScores)
		}
		for _, t := range m.Teams {
			if t.Score > scorebased.MaxCount {
				return 0, fmt.Errorf("%s: match %s: %s's score %d is more than the Poisson model takes (%d): %w", path, m.ID, t.Name, t.Score, scorebased.MaxCount, record.ErrInput)
			}
		}
		if m.Venue.Neutral {
			neutral++
		}
	}
	return neutral, nil
}
