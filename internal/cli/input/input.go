package input

import (
	"fmt"
	"io"

	"github.com/skillgraph/skillgraph/models/evaluation"
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

// Scored returns two-team matches with scores as the score-based
// protocols take them: the home side (the first team) and its score
// first, the day of the match as its date. A match of more teams or
// without scores is an error naming it. neutral counts the matches played
// on neutral ground.
func Scored(path string, ms []record.Match) (out []evaluation.ScoredMatch, neutral int, err error) {
	out = make([]evaluation.ScoredMatch, len(ms))
	for i, m := range ms {
		if len(m.Teams) != 2 || !m.HasScores {
			return nil, 0, fmt.Errorf("%s: match %s: %d teams, scores %v: want two teams with scores", path, m.ID, len(m.Teams), m.HasScores)
		}
		if m.Venue.Neutral {
			neutral++
		}
		home, away := m.Teams[0], m.Teams[1]
		out[i] = evaluation.ScoredMatch{Date: m.Time.Format("2006-01-02"), Season: m.Season,
			Home: home.Name, Away: away.Name, HomeScore: home.Score, AwayScore: away.Score}
	}
	return out, neutral, nil
}

// Ranked returns matches as the ranking protocol takes them: the teams'
// players and ranks, the day of the match as its date.
func Ranked(ms []record.Match) []evaluation.RankedMatch {
	out := make([]evaluation.RankedMatch, len(ms))
	for i, m := range ms {
		out[i] = evaluation.RankedMatch{ID: m.ID, Date: m.Time.Format("2006-01-02"), Teams: m.Players(), Ranks: m.Ranks()}
	}
	return out
}
