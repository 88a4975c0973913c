package record_test

import (
	"bytes"
	"encoding/csv"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/skillgraph/skillgraph/record"
)

// FuzzRead checks, for any input, that Read returns without panicking
// either a *FileError wrapping ErrInput (or encoding/csv's error) and
// no matches, or valid matches in time order with distinct IDs, which
// WriteLong writes and Read reads back unchanged.
func FuzzRead(f *testing.F) {
	for _, seed := range []string{
		"match_id,time,team,player,rank,score,weight,season,venue,neutral,x\n" +
			"a,2020-01-02,red,p1,1,2,0.5,s,home,no,\"q,\"\"u\"\"\"\na,2020-01-02,blue,p2,2,1,,s,away,no,\n" +
			"b,2020-01-01T10:00:00+02:00,red,p1,1,,,s,,,\nb,2020-01-01 08:00:00,blue,p3,1,,,s,,,\n",
		"\uFEFFdate,home_team,away_team,home_goals,away_goals,neutral,season\n" +
			"2020-01-02,A,B,2,1,TRUE,s1\n2020-01-01,B,A,0,0,,s1\n2020-01-01,A,B #2,1,3,0,s2\n",
		"match_id,time,team,player,rank\na,2020-01-01,t,p,1\nb,2020-01-01,t,p,1\na,2020-01-01,u,q,1\n",
		"time,home,away,home_score,away_score\n2020-01-01,A,A,1,0\n",
		"",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ms, rep, err := record.Read("f.csv", bytes.NewReader(data))
		if err != nil {
			var fe *record.FileError
			if !errors.As(err, &fe) || fe.File != "f.csv" || ms != nil {
				t.Fatalf("%v (%T) is not a *FileError naming f.csv, or came with matches", err, err)
			}
			var pe *csv.ParseError
			if !errors.Is(err, record.ErrInput) && (fe.Line == 0 || errors.As(err, &pe)) {
				t.Fatalf("%v wraps neither ErrInput nor a parse error with its place", err)
			}
			return
		}
		if rep.Moved < 0 || rep.Moved > max(len(ms)-1, 0) || rep.Format == 0 {
			t.Fatalf("report %+v for %d matches", rep, len(ms))
		}
		ids := map[string]bool{}
		for i := range ms {
			if err := ms[i].Validate(); err != nil {
				t.Fatalf("match %d: %v", i, err)
			}
			if ids[ms[i].ID] {
				t.Fatalf("match %q twice", ms[i].ID)
			}
			ids[ms[i].ID] = true
			if i > 0 && ms[i].Time.Before(ms[i-1].Time) {
				t.Fatalf("match %d at %v after %v", i, ms[i].Time, ms[i-1].Time)
			}
		}
		var buf bytes.Buffer
		if err := record.WriteLong(&buf, ms); err != nil {
			t.Fatalf("WriteLong: %v", err)
		}
		back, rep2, err := record.Read("g.csv", bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatalf("reading WriteLong's output: %v\n%s", err, buf.String())
		}
		if d := cmp.Diff(ms, back); d != "" || rep2.Moved != 0 {
			t.Fatalf("round trip moved %d, (-read +reread):\n%s", rep2.Moved, d)
		}
	})
}
