package record_test

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/skillgraph/skillgraph/record"
)

func read(t *testing.T, data string, opts ...record.Option) ([]record.Match, record.Report) {
	t.Helper()
	ms, rep, err := record.Read("f.csv", strings.NewReader(data), opts...)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	return ms, rep
}

func day(y, m, d int) time.Time { return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC) }

func TestReadLong(t *testing.T) {
	data := "Match_ID,Date,Team,Player,Rank,Score,Weight,Season,Venue,Neutral,note\n" +
		"g1,2020-01-01,red,ann,2,3,,s1,home,no,x\n" +
		"g1,2020-01-01,red,bob,4,3,0.5,s1,home,no,x\n" +
		"g1,2020-01-01,blue,cat,1,5,,s1,away,no,\"q,\"\"uoted\"\"\"\n" +
		"g2,2020-01-02T10:30:00+02:00,x,dan,1,,,s1,,,\n" +
		"g2,2020-01-02 08:30:00,y,eve,1,,,s1,,,\n" +
		"g2,2020-01-02T08:30:00Z,z,fay,2,,,s1,,,\n"
	ms, rep := read(t, data)
	want := []record.Match{
		{ID: "g1", Time: day(2020, 1, 1), Season: "s1", HasScores: true, Venue: record.Venue{HomeAway: true},
			Teams: []record.Team{
				{Name: "red", Players: []string{"ann", "bob"}, Weights: []float64{1, 0.5}, Rank: 2, Score: 3},
				{Name: "blue", Players: []string{"cat"}, Rank: 1, Score: 5},
			}},
		{ID: "g2", Time: time.Date(2020, 1, 2, 8, 30, 0, 0, time.UTC), Season: "s1",
			Teams: []record.Team{
				{Name: "x", Players: []string{"dan"}, Rank: 1},
				{Name: "y", Players: []string{"eve"}, Rank: 1},
				{Name: "z", Players: []string{"fay"}, Rank: 2},
			}},
	}
	if d := cmp.Diff(want, ms); d != "" {
		t.Errorf("matches (-want +got):\n%s", d)
	}
	wantRep := record.Report{File: "f.csv", Format: record.Long, Rows: 6,
		Columns: []string{"match_id", "time", "team", "player", "rank", "score", "weight", "season", "venue", "neutral"},
		Unknown: []string{"note"}, Lines: []int{2, 5}}
	if d := cmp.Diff(wantRep, rep); d != "" {
		t.Errorf("report (-want +got):\n%s", d)
	}
	if got := rep.Notes(); len(got) != 1 || got[0] != `f.csv: ignored unknown columns "note"` {
		t.Errorf("notes %q", got)
	}
	if got := ms[0].Weights(); fmt.Sprint(got) != "[[1 0.5] [1]]" {
		t.Errorf("Weights() = %v", got)
	}
	if got := ms[1].Weights(); got != nil {
		t.Errorf("Weights() without weights = %v, want nil", got)
	}
	if got := fmt.Sprint(ms[1].Players(), ms[1].Ranks()); got != "[[dan] [eve] [fay]] [1 1 2]" {
		t.Errorf("Players, Ranks = %s", got)
	}
}

// TestReadLongPutsHomeFirst: the away team's rows may come first; the
// match returned has the home team first.
func TestReadLongPutsHomeFirst(t *testing.T) {
	ms, _ := read(t, "match_id,time,team,player,rank,venue,neutral\n"+
		"m,2021-03-04,b,bo,1,away,TRUE\nm,2021-03-04,a,al,2,home,true\n")
	if len(ms) != 1 || ms[0].Teams[0].Name != "a" || ms[0].Teams[1].Name != "b" || ms[0].Venue != (record.Venue{HomeAway: true, Neutral: true}) {
		t.Fatalf("%+v", ms)
	}
	if ms[0].Venue.HomeAdvantage() {
		t.Error("a neutral match gives home advantage")
	}
}

func TestReadScores(t *testing.T) {
	data := "\uFEFFdate,home_team,away_team,home_goals,away_goals,tournament,neutral,season\n" +
		"1872-11-30,Scotland,England,0,0,Friendly,FALSE,1872\n" +
		"1873-03-08,England,Scotland,4,2,Friendly,FALSE,1873\n" +
		"1873-03-08,England,Scotland,1,2,Friendly,TRUE,1873\n" +
		"1873-03-08,Wales,Scotland,0,2,Friendly,,1873\n"
	ms, rep := read(t, data)
	team := func(name string, rank, score int) record.Team {
		return record.Team{Name: name, Players: []string{name}, Rank: rank, Score: score}
	}
	home := record.Venue{HomeAway: true}
	want := []record.Match{
		{ID: "1872-11-30 Scotland v England", Time: day(1872, 11, 30), Season: "1872", HasScores: true, Venue: home,
			Teams: []record.Team{team("Scotland", 1, 0), team("England", 1, 0)}},
		{ID: "1873-03-08 England v Scotland", Time: day(1873, 3, 8), Season: "1873", HasScores: true, Venue: home,
			Teams: []record.Team{team("England", 1, 4), team("Scotland", 2, 2)}},
		{ID: "1873-03-08 England v Scotland #2", Time: day(1873, 3, 8), Season: "1873", HasScores: true,
			Venue: record.Venue{HomeAway: true, Neutral: true}, Teams: []record.Team{team("England", 2, 1), team("Scotland", 1, 2)}},
		{ID: "1873-03-08 Wales v Scotland", Time: day(1873, 3, 8), Season: "1873", HasScores: true, Venue: home,
			Teams: []record.Team{team("Wales", 2, 0), team("Scotland", 1, 2)}},
	}
	if d := cmp.Diff(want, ms); d != "" {
		t.Errorf("matches (-want +got):\n%s", d)
	}
	if rep.Format != record.Scores || rep.Rows != 4 || rep.Moved != 0 || fmt.Sprint(rep.Unknown) != "[tournament]" ||
		fmt.Sprint(rep.Columns) != "[time home away home_score away_score neutral season]" {
		t.Errorf("report %+v", rep)
	}
	// A scores file with its own IDs keeps them.
	ms, _ = read(t, "game_id,time,home,away,home_score,away_score\nq1,2020-01-01,A,B,1,0\n")
	if ms[0].ID != "q1" {
		t.Errorf("ID %q, want q1", ms[0].ID)
	}
	// A made-up ID never repeats one taken by a team named like a repeat.
	ms, _ = read(t, "time,home,away,home_score,away_score\n2020-01-01,A,B #2,1,0\n2020-01-01,A,B,1,0\n2020-01-01,A,B,1,0\n")
	if got := []string{ms[0].ID, ms[1].ID, ms[2].ID}; fmt.Sprint(got) != "[2020-01-01 A v B #2 2020-01-01 A v B 2020-01-01 A v B #3]" {
		t.Errorf("IDs %q", got)
	}
}

func TestReadTimes(t *testing.T) {
	for _, c := range []struct {
		text string
		want time.Time
	}{
		{"2020-02-29", day(2020, 2, 29)},
		{"2004-08-06T18:13:50", time.Date(2004, 8, 6, 18, 13, 50, 0, time.UTC)},
		{"2004-08-06 18:13:50", time.Date(2004, 8, 6, 18, 13, 50, 0, time.UTC)},
		{"2004-08-06 18:13:50.25", time.Date(2004, 8, 6, 18, 13, 50, 250e6, time.UTC)},
		{"2004-08-06T18:13:50Z", time.Date(2004, 8, 6, 18, 13, 50, 0, time.UTC)},
		{"2004-08-06T18:13:50.123456789-05:30", time.Date(2004, 8, 6, 23, 43, 50, 123456789, time.UTC)},
		{"0000-01-01", day(0, 1, 1)},
		{"2004-08-06T18:13:50+23:59", time.Date(2004, 8, 5, 18, 14, 50, 0, time.UTC)},
		{"2004-08-06T18:13:50-23:59", time.Date(2004, 8, 7, 18, 12, 50, 0, time.UTC)},
	} {
		got, err := record.ParseTime(c.text)
		if err != nil || !got.Equal(c.want) || got.Location() != time.UTC {
			t.Errorf("ParseTime(%q) = %v, %v; want %v", c.text, got, err, c.want)
		}
		if back, err := record.ParseTime(record.FormatTime(got)); err != nil || !back.Equal(got) {
			t.Errorf("FormatTime(%v) = %q reads as %v, %v", got, record.FormatTime(got), back, err)
		}
	}
	for _, bad := range []string{"", "2020-13-01", "2020-02-30", "1/2/2020", "2020-01-01T25:00:00", "2020-01-01T10:00", "20200101", "2020-01-01Z",
		"0000-01-01T00:30:00+01:00", "9999-12-31T23:30:00-01:00",
		"2020-01-01T10:00:00+24:00", "2020-01-01T10:00:00-23:60", "2020-01-01T10:00:00+05:60"} {
		if _, err := record.ParseTime(bad); !errors.Is(err, record.ErrInput) {
			t.Errorf("ParseTime(%q): %v, want ErrInput", bad, err)
		}
	}
	if got := record.FormatTime(time.Date(2020, 1, 1, 0, 0, 0, 0, time.FixedZone("", 3600))); got != "2019-12-31T23:00:00Z" {
		t.Errorf("FormatTime of midnight at +01:00 = %q", got)
	}
}

// TestOutOfOrder: rows out of time order are sorted stably, and Moved is
// the fewest matches to move, checked against a brute-force longest
// ordered subsequence on every sequence of up to 7 times from 3 values.
func TestOutOfOrder(t *testing.T) {
	var seq []int
	var walk func(n int)
	walk = func(n int) {
		if len(seq) == n {
			checkOrder(t, seq)
			return
		}
		for v := range 3 {
			seq = append(seq, v)
			walk(n)
			seq = seq[:len(seq)-1]
		}
	}
	for n := 1; n <= 7; n++ {
		walk(n)
	}
}

func checkOrder(t *testing.T, days []int) {
	t.Helper()
	var sb strings.Builder
	sb.WriteString("time,home,away,home_score,away_score\n")
	for i, d := range days {
		fmt.Fprintf(&sb, "2020-01-%02d,H%d,A%d,1,0\n", d+1, i, i)
	}
	ms, rep := read(t, sb.String())
	// Longest non-decreasing subsequence by O(n²) dynamic programming.
	best := 0
	run := make([]int, len(days))
	for i := range days {
		run[i] = 1
		for j := range i {
			if days[j] <= days[i] {
				run[i] = max(run[i], run[j]+1)
			}
		}
		best = max(best, run[i])
	}
	if rep.Moved != len(days)-best {
		t.Errorf("%v: Moved %d, want %d", days, rep.Moved, len(days)-best)
	}
	// The stable sort: by day, then by row.
	k := 0
	for d := range 3 {
		for i, x := range days {
			if x == d {
				if ms[k].Teams[0].Name != fmt.Sprintf("H%d", i) {
					t.Fatalf("%v: match %d is %s, want H%d", days, k, ms[k].Teams[0].Name, i)
				}
				k++
			}
		}
	}
	// InFileOrder refuses exactly the files that needed moves.
	_, _, err := record.Read("f.csv", strings.NewReader(sb.String()), record.InFileOrder())
	if (err != nil) != (rep.Moved > 0) || (err != nil && (!errors.Is(err, record.ErrInput) || !strings.Contains(err.Error(), "out of time order"))) {
		t.Errorf("%v: InFileOrder gives %v with %d moved", days, err, rep.Moved)
	}
}

// TestReadErrors: each problem is a *FileError at its line and column,
// wrapping ErrInput (or encoding/csv's error) with a message saying what
// is wrong.
func TestReadErrors(t *testing.T) {
	const long = "match_id,time,team,player,rank\n"
	const scores = "time,home,away,home_score,away_score\n"
	a := "a,2020-01-01,t1,p1,1\na,2020-01-01,t2,p2,2\n"
	b := "b,2020-01-02,t1,p1,1\nb,2020-01-02,t2,p2,2\n"
	for _, c := range []struct {
		name, data   string
		want         error
		line, column int
		text         string
		opts         []record.Option
	}{
		{"no bytes", "", record.ErrInput, 0, 0, "f.csv: file is empty", nil},
		{"blank lines", "\n\n", record.ErrInput, 0, 0, "f.csv: file is empty", nil},
		{"neither format", "a,b\n1,2\n", record.ErrInput, 1, 0, `header "a,b" is neither`, nil},
		{"missing column", "time,home,away,home_score\n", record.ErrInput, 1, 0, `no column "away_score"`, nil},
		{"misspelt column", "time,home,away,home_score,away_scor,x\n", record.ErrInput, 1, 0, `no column "away_score" for the scores format (the header also has "away_scor", "x")`, nil},
		{"column of the other format", "time,home,away,home_score,player\n", record.ErrInput, 1, 0, `no column "match_id" for the long format (the header also has "home", "away", "home_score")`, nil},
		{"alias twice", "date,time,home,away,home_score,away_score\n", record.ErrInput, 1, 6, `column "time" is also column 1, both read as time`, nil},
		{"unknown twice", scores[:len(scores)-1] + ",x,x\n", record.ErrInput, 1, 40, `column "x" is also column 6`, nil},
		{"long only", scores, record.ErrInput, 1, 0, `no column "match_id" for the long format`, []record.Option{record.OnlyFormat(record.Long)}},
		{"NUL in the header", "time,ho\x00me\n", record.ErrInput, 1, 6, `column name "ho\x00me": invalid UTF-8, control character or layout character`, nil},
		{"short row", scores + "2020-01-01,A,B,1\n", csv.ErrFieldCount, 2, 1, "", nil},
		{"bare quote", scores + "2020-01-01,A\"x,B,1,0\n", csv.ErrBareQuote, 2, 13, "", nil},
		{"NUL in an unknown field", "time,home,away,home_score,away_score,x\n2020-01-01,A,B,1,0,\x00\n", record.ErrInput, 2, 20, "control character", nil},
		{"bad time", scores + "2020-01-01T10:00,A,B,1,0\n", record.ErrInput, 2, 1, `time "2020-01-01T10:00" is not YYYY-MM-DD`, nil},
		{"same team", scores + "2020-01-01,A,A,1,0\n", record.ErrInput, 2, 14, `home and away are both "A": a team cannot play itself`, nil},
		{"empty away", scores + "2020-01-01,A,,1,0\n", record.ErrInput, 2, 14, "away: empty name", nil},
		{"space after a comma", scores + "2020-01-01,A, B,1,0\n", record.ErrInput, 2, 14, `away " B" starts or ends with a space`, nil},
		{"long name", scores + "2020-01-01,A," + strings.Repeat("b", record.MaxName+1) + ",1,0\n", record.ErrInput, 2, 14, "more than 256", nil},
		{"negative score", scores + "2020-01-01,A,B,1,-2\n", record.ErrInput, 2, 18, "away score -2 is negative", nil},
		{"fractional score", scores + "2020-01-01,A,B,1.5,0\n", record.ErrInput, 2, 16, `home_score "1.5" is not an integer`, nil},
		{"bad neutral", scores[:len(scores)-1] + ",neutral\n2020-01-01,A,B,1,0,maybe\n", record.ErrInput, 2, 20, `neutral "maybe"`, nil},
		{"empty season", scores[:len(scores)-1] + ",season\n2020-01-01,A,B,1,0,\n", record.ErrInput, 2, 20, "season: empty name", nil},
		{"scores ID twice", "match_id," + scores + "x,2020-01-01,A,B,1,0\nx,2020-01-02,A,B,1,0\n", record.ErrInput, 3, 1, "match x is also on line 2", nil},
		{"out of order", scores + "2020-01-02,A,B,1,0\n2020-01-01,A,B,1,0\n", record.ErrInput, 3, 1, "2020-01-01 after 2020-01-02: rows out of time order", []record.Option{record.InFileOrder()}},
		{"rows apart", long + a + b + "a,2020-01-01,t3,p3,3\n", record.ErrInput, 6, 1, "match a also starts on line 2", []record.Option{record.InFileOrder()}},
		{"one team", long + "a,2020-01-01,t1,p1,1\n" + b + "a,2020-01-01,t1,p2,2\n", record.ErrInput, 2, 0, "match a has 1 team", nil},
		{"time changes in a match", long + "a,2020-01-01,t1,p1,1\na,2020-01-02,t2,p2,2\n", record.ErrInput, 3, 3, `time "2020-01-02" differs from the match's first row (2020-01-01)`, nil},
		{"a player twice", long + "a,2020-01-01,t1,p1,1\n" + b + "a,2020-01-01,t2,p1,2\n", record.ErrInput, 5, 17, `"p1" is also on line 2 of match a: player appears twice`, nil},
		{"a player after a space", long + "a,2020-01-01,t1,p1,1\na,2020-01-01,t2, p2,2\n", record.ErrInput, 3, 17, `player " p2" starts or ends with a space`, nil},
		{"a match ID before a no-break space", long + "a\u00a0,2020-01-01,t1,p1,1\n", record.ErrInput, 2, 1, `match_id "a\u00a0" starts or ends with a space`, nil},
		{"empty player", long + "a,2020-01-01,t1,,1\n", record.ErrInput, 2, 17, "player: empty name", nil},
		{"bad rank", long + "a,2020-01-01,t1,p1,first\n", record.ErrInput, 2, 20, `rank "first" is not an integer`, nil},
		{"bad weight", "match_id,time,team,player,rank,weight\na,2020-01-01,t1,p1,1,-1\n", record.ErrInput, 2, 22, `weight "-1"`, nil},
		{"NaN weight", "match_id,time,team,player,rank,weight\na,2020-01-01,t1,p1,1,NaN\n", record.ErrInput, 2, 22, `weight "NaN"`, nil},
		{"scores in some rows", "match_id,time,team,player,rank,score\na,2020-01-01,t1,p1,1,2\na,2020-01-01,t2,p2,2,\n", record.ErrInput, 3, 22, "some rows and not in others", nil},
		{"team scores differ", "match_id,time,team,player,rank,score\na,2020-01-01,t1,p1,1,2\na,2020-01-01,t1,p2,1,3\n", record.ErrInput, 3, 22, `score 3 differs from team "t1"`, nil},
		{"season differs", "match_id,time,team,player,rank,season\na,2020-01-01,t1,p1,1,s\na,2020-01-01,t2,p2,2,r\n", record.ErrInput, 3, 22, `season "r" differs`, nil},
		{"two home teams", "match_id,time,team,player,rank,venue\na,2020-01-01,t1,p1,1,home\na,2020-01-01,t2,p2,2,home\n", record.ErrInput, 2, 0, "two home teams", nil},
		{"home without away", "match_id,time,team,player,rank,venue\na,2020-01-01,t1,p1,1,home\na,2020-01-01,t2,p2,2,\n", record.ErrInput, 2, 0, "not as one home and one away", nil},
		{"bad venue", "match_id,time,team,player,rank,venue\na,2020-01-01,t1,p1,1,there\n", record.ErrInput, 2, 22, `venue "there"`, nil},
		{"neutral without venue", "match_id,time,team,player,rank,neutral\na,2020-01-01,t1,p1,1,1\na,2020-01-01,t2,p2,2,1\n", record.ErrInput, 2, 0, "neutral ground", nil},
	} {
		_, _, err := record.Read("f.csv", strings.NewReader(c.data), c.opts...)
		var fe *record.FileError
		switch {
		case !errors.As(err, &fe):
			t.Errorf("%s: %v is not a *FileError", c.name, err)
		case !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.text):
			t.Errorf("%s: %q, want %v and %q", c.name, err, c.want, c.text)
		case fe.File != "f.csv" || fe.Line != c.line || fe.Column != c.column:
			t.Errorf("%s: at %s:%d:%d, want f.csv:%d:%d (%v)", c.name, fe.File, fe.Line, fe.Column, c.line, c.column, err)
		case c.line > 0 && c.column > 0 && !strings.HasPrefix(err.Error(), fmt.Sprintf("f.csv:%d:%d: ", c.line, c.column)):
			t.Errorf("%s: %q does not start with its place", c.name, err)
		}
	}
}

// TestReadBounds: a match of MaxPlayers players reads, one more does not.
func TestReadBounds(t *testing.T) {
	build := func(n int) string {
		var sb strings.Builder
		sb.WriteString("match_id,time,player,team,rank\n")
		for i := range n {
			fmt.Fprintf(&sb, "m,2020-01-01,p%d,t%d,%d\n", i, i%2, i%2)
		}
		return sb.String()
	}
	ms, _ := read(t, build(record.MaxPlayers))
	if len(ms) != 1 || len(ms[0].Teams[0].Players)+len(ms[0].Teams[1].Players) != record.MaxPlayers {
		t.Fatalf("%d matches", len(ms))
	}
	_, _, err := record.Read("f.csv", strings.NewReader(build(record.MaxPlayers+1)))
	var fe *record.FileError
	if !errors.Is(err, record.ErrInput) || !errors.As(err, &fe) || fe.Line != record.MaxPlayers+2 {
		t.Errorf("%d players: %v", record.MaxPlayers+1, err)
	}
}

func TestHeaderOnlyIsNoMatches(t *testing.T) {
	ms, rep := read(t, "match_id,time,team,player,rank\n")
	if len(ms) != 0 || rep.Rows != 0 || rep.Format != record.Long {
		t.Errorf("%v, %+v", ms, rep)
	}
}

func TestReadNil(t *testing.T) {
	if _, _, err := record.Read("f.csv", nil, nil); !errors.Is(err, record.ErrInput) {
		t.Errorf("Read of a nil reader: %v", err)
	}
	if _, _, err := record.ReadFile(filepath.Join(t.TempDir(), "missing.csv")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadFile of a missing file: %v", err)
	}
}

// TestReadCRLFAndQuotes: Windows line ends and quoted names with commas
// and quotes read as the text between the quotes.
func TestReadCRLFAndQuotes(t *testing.T) {
	ms, _ := read(t, "time,home,away,home_score,away_score\r\n2020-01-01,\"Ants, Bees\",\"The \"\"C\"\"\",1,0\r\n")
	if len(ms) != 1 || ms[0].Teams[0].Name != "Ants, Bees" || ms[0].Teams[1].Name != `The "C"` {
		t.Errorf("%+v", ms)
	}
}

// TestReadLines checks that the report gives each returned match the line
// of its first row, in both formats, after the sort by time too.
func TestReadLines(t *testing.T) {
	for _, c := range []struct {
		name, data string
		ids        []string
		lines      []int
	}{
		{"long, out of order", "match_id,time,team,player,rank\n" +
			"b,2020-01-03,t1,p1,1\nb,2020-01-03,t2,p2,2\n" +
			"a,2020-01-01,t1,p1,1\na,2020-01-01,t2,p2,2\n" +
			"c,2020-01-02,t1,p1,1\nc,2020-01-02,t2,p2,2\n",
			[]string{"a", "c", "b"}, []int{4, 6, 2}},
		{"scores, out of order", "time,home,away,home_score,away_score\n" +
			"2020-01-02,A,B,1,0\n2020-01-01,C,D,2,2\n2020-01-02,E,F,0,1\n",
			nil, []int{3, 2, 4}},
	} {
		ms, rep, err := record.Read("f.csv", strings.NewReader(c.data))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !slices.Equal(rep.Lines, c.lines) {
			t.Errorf("%s: lines %v, want %v", c.name, rep.Lines, c.lines)
		}
		for i, id := range c.ids {
			if ms[i].ID != id {
				t.Errorf("%s: match %d is %s, want %s", c.name, i, ms[i].ID, id)
			}
		}
	}
}
