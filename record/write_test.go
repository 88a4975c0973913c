package record_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/skillgraph/skillgraph/record"
)

// names holds awkward but valid names: CSV's quote and comma, inner
// spaces, non-ASCII text, a byte-order mark inside, and a header's words.
var names = []string{"ann", "Bo, Jr.", `"Cy"`, "d ee", "Élodie", "李", "x\uFEFFy", "match_id", "v", "#2", "a b c", "\\."}

// nameRunes are the characters added to generated names: CSV's
// delimiters and quotes, spaces, a BOM, right-to-left marks, letters of
// other scripts and an emoji, which a round trip must carry unchanged.
var nameRunes = []rune("ab Z09,\"'#=+-._/\\;:\u00e9\u00df\u4e2d\u0627\u200f\u200e\U0001F600\uFEFF\u00a0")

// randomName returns one of names followed by up to five of nameRunes,
// ending in a letter: a name may hold spaces but not end with one
// (record.CheckName).
func randomName(rng *rand.Rand) string {
	var sb strings.Builder
	sb.WriteString(names[rng.IntN(len(names))])
	for range rng.IntN(6) {
		sb.WriteRune(nameRunes[rng.IntN(len(nameRunes))])
	}
	sb.WriteByte('x')
	return sb.String()
}

// randomMatches returns n valid matches in time order: random names,
// times from dates to nanoseconds in zones from −23:59 to +23:59, two to
// four teams of one to three players, ranks with ties, and scores,
// weights (down to the least float64 and up to 1e300), venues and seasons
// on some of them (seasons on all or none).
func randomMatches(rng *rand.Rand, n int) []record.Match {
	seasons := rng.IntN(2) == 0
	ms := make([]record.Match, n)
	for i := range ms {
		m := &ms[i]
		m.ID = fmt.Sprintf("%s%d", randomName(rng), i)
		m.Time = time.Date(1800+rng.IntN(300), time.Month(1+rng.IntN(12)), 1+rng.IntN(28), 0, 0, 0, 0, time.UTC)
		if rng.IntN(2) == 0 {
			m.Time = m.Time.Add(time.Duration(rng.Int64N(int64(24 * time.Hour))))
		}
		m.Time = m.Time.In(time.FixedZone("", (rng.IntN(2*1439+1)-1439)*60))
		if seasons {
			m.Season = randomName(rng)
		}
		m.HasScores = rng.IntN(2) == 0
		m.Teams = make([]record.Team, 2+rng.IntN(3))
		player := 0
		for j := range m.Teams {
			tm := &m.Teams[j]
			tm.Name = fmt.Sprintf("%s-%d", randomName(rng), j)
			tm.Rank = rng.IntN(4) - 1
			if m.HasScores {
				tm.Score = rng.IntN(1000)
			}
			tm.Players = make([]string, 1+rng.IntN(3))
			for k := range tm.Players {
				tm.Players[k] = fmt.Sprintf("%s.%d", randomName(rng), player)
				player++
			}
			if rng.IntN(3) == 0 {
				tm.Weights = make([]float64, len(tm.Players))
				for k := range tm.Weights {
					tm.Weights[k] = []float64{0, 1, 0.1, 1.0 / 3, 5e-324, 2.5e10, 1e-300, 1e300, rng.Float64()}[rng.IntN(9)]
				}
			}
		}
		if len(m.Teams) == 2 && rng.IntN(2) == 0 {
			m.Venue = record.Venue{HomeAway: true, Neutral: rng.IntN(3) == 0}
		}
	}
	slices.SortStableFunc(ms, func(a, b record.Match) int { return a.Time.Compare(b.Time) })
	return ms
}

// TestWriteLongRoundTrips: reading what WriteLong writes gives back the
// same matches, for 300 random files of up to 40 matches.
func TestWriteLongRoundTrips(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for trial := range 300 {
		ms := randomMatches(rng, rng.IntN(41))
		var buf bytes.Buffer
		if err := record.WriteLong(&buf, ms); err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		got, rep, err := record.Read("w.csv", bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatalf("trial %d: %v\n%s", trial, err, buf.String())
		}
		if len(ms) == 0 {
			ms = nil
		}
		// cmp compares times as instants (time.Time.Equal): Read returns UTC.
		if d := cmp.Diff(ms, got); d != "" || rep.Moved != 0 || rep.Format != record.Long || len(rep.Unknown) != 0 {
			t.Fatalf("trial %d: report %+v, matches (-written +read):\n%s\n%s", trial, rep, d, buf.String())
		}
	}
}

func TestWriteLongColumns(t *testing.T) {
	ms := []record.Match{
		{ID: "m1", Time: day(2020, 1, 1), Teams: []record.Team{
			{Name: "a", Players: []string{"ann", "al"}, Rank: 1},
			{Name: "b", Players: []string{"bo"}, Rank: 2},
		}},
		{ID: "m2", Time: time.Date(2020, 1, 1, 18, 30, 0, 5e8, time.FixedZone("", 3600)), HasScores: true,
			Venue: record.Venue{HomeAway: true, Neutral: true}, Teams: []record.Team{
				{Name: "b", Players: []string{"bo"}, Weights: []float64{0.25}, Rank: 1, Score: 3},
				{Name: "a", Players: []string{"ann"}, Rank: 1, Score: 3},
			}},
	}
	var buf bytes.Buffer
	if err := record.WriteLong(&buf, ms); err != nil {
		t.Fatal(err)
	}
	want := "match_id,time,team,player,rank,score,weight,venue,neutral\n" +
		"m1,2020-01-01,a,ann,1,,,,false\n" +
		"m1,2020-01-01,a,al,1,,,,false\n" +
		"m1,2020-01-01,b,bo,2,,,,false\n" +
		"m2,2020-01-01T17:30:00.5Z,b,bo,1,3,0.25,home,true\n" +
		"m2,2020-01-01T17:30:00.5Z,a,ann,1,3,,away,true\n"
	if got := buf.String(); got != want {
		t.Errorf("wrote\n%s\nwant\n%s", got, want)
	}
	buf.Reset()
	if err := record.WriteLong(&buf, ms[:1]); err != nil || buf.String() != "match_id,time,team,player,rank\n"+
		"m1,2020-01-01,a,ann,1\nm1,2020-01-01,a,al,1\nm1,2020-01-01,b,bo,2\n" {
		t.Errorf("plain match: %v\n%s", err, buf.String())
	}
}

// TestWriteLongRefuses: invalid matches, repeated IDs and seasons on
// some matches only are errors, and nothing is written.
func TestWriteLongRefuses(t *testing.T) {
	ok := func() record.Match {
		return record.Match{ID: "m", Time: day(2020, 1, 1), Teams: []record.Team{
			{Name: "a", Players: []string{"ann"}, Rank: 1}, {Name: "b", Players: []string{"bo"}, Rank: 2}}}
	}
	change := func(f func(m *record.Match)) []record.Match {
		m := ok()
		f(&m)
		return []record.Match{m}
	}
	second := ok()
	second.ID = "n"
	second.Season = "s"
	for _, c := range []struct {
		name string
		ms   []record.Match
		text string
	}{
		{"empty ID", change(func(m *record.Match) { m.ID = "" }), "match ID: empty name"},
		{"long ID", change(func(m *record.Match) { m.ID = strings.Repeat("x", record.MaxID+1) }), "more than 1024"},
		{"NUL in a player", change(func(m *record.Match) { m.Teams[0].Players[0] = "a\x00" }), "control character"},
		{"space before a player", change(func(m *record.Match) { m.Teams[1].Players[0] = " bo" }), `" bo" starts or ends with a space`},
		{"no-break space after a team", change(func(m *record.Match) { m.Teams[1].Name = "b\u00a0" }), "starts or ends with a space"},
		{"right-to-left override in a player", change(func(m *record.Match) { m.Teams[0].Players[0] = "ann\u202enhoj" }), "layout character"},
		{"isolate in a team", change(func(m *record.Match) { m.Teams[0].Name = "a\u2067b" }), "layout character"},
		{"one team", change(func(m *record.Match) { m.Teams = m.Teams[:1] }), "1 teams, need at least 2"},
		{"year 10000", change(func(m *record.Match) { m.Time = day(10000, 1, 1) }), "outside 0 to 9999"},
		{"year 10000 in UTC", change(func(m *record.Match) {
			m.Time = time.Date(9999, 12, 31, 23, 0, 0, 0, time.FixedZone("", -3600))
		}), "outside 0 to 9999"},
		{"same team name", change(func(m *record.Match) { m.Teams[1].Name = "a" }), "a team cannot play itself"},
		{"player twice", change(func(m *record.Match) { m.Teams[1].Players[0] = "ann" }), "player appears twice"},
		{"no players", change(func(m *record.Match) { m.Teams[1].Players = nil }), "has no players"},
		{"weights short", change(func(m *record.Match) { m.Teams[1].Weights = []float64{} }), "0 weights for 1 players"},
		{"NaN weight", change(func(m *record.Match) { m.Teams[1].Weights = []float64{math.NaN()} }), "weight NaN"},
		{"negative score", change(func(m *record.Match) { m.HasScores = true; m.Teams[1].Score = -1 }), "score -1"},
		{"score without HasScores", change(func(m *record.Match) { m.Teams[1].Score = 2 }), "score 2"},
		{"neutral without home", change(func(m *record.Match) { m.Venue.Neutral = true }), "neutral ground without"},
		{"home with three teams", change(func(m *record.Match) {
			m.Venue.HomeAway = true
			m.Teams = append(m.Teams, record.Team{Name: "c", Players: []string{"cy"}})
		}), "but 3 teams"},
		{"empty season name is none, a control character is not", change(func(m *record.Match) { m.Season = "\n" }), "control character"},
		{"same ID", []record.Match{ok(), ok()}, "are both \"m\""},
		{"season on some", []record.Match{ok(), second}, "seasons for all or none"},
		{"no writer", nil, "no writer"},
	} {
		var buf bytes.Buffer
		var w io.Writer = &buf
		if c.name == "no writer" {
			w = nil
		}
		err := record.WriteLong(w, c.ms)
		if !errors.Is(err, record.ErrInput) || !strings.Contains(fmt.Sprint(err), c.text) || buf.Len() != 0 {
			t.Errorf("%s: %v with %d bytes written, want ErrInput and %q", c.name, err, buf.Len(), c.text)
		}
	}
}

func TestNewTeams(t *testing.T) {
	names := func(ts []record.Team) string {
		var out []string
		for _, tm := range ts {
			out = append(out, fmt.Sprintf("%s:%v:%d", tm.Name, tm.Players, tm.Rank))
		}
		return strings.Join(out, " ")
	}
	for _, c := range []struct {
		players [][]string
		ranks   []int
		want    string
	}{
		{[][]string{{"Ada", "Bo"}, {"Cy"}}, []int{1, 2}, "Ada+Bo:[Ada Bo]:1 Cy:[Cy]:2"},
		{[][]string{{"a+b"}, {"a", "b"}}, []int{1, 1}, "1:[a+b]:1 2:[a b]:1"},
		{[][]string{{strings.Repeat("x", 200), strings.Repeat("y", 200)}, {"z"}}, []int{2, 1}, "1:[" + strings.Repeat("x", 200) + " " + strings.Repeat("y", 200) + "]:2 2:[z]:1"},
	} {
		ts, err := record.NewTeams(c.players, c.ranks)
		if err != nil || names(ts) != c.want {
			t.Errorf("NewTeams(%v, %v) = %s, %v; want %s", c.players, c.ranks, names(ts), err, c.want)
		}
		m := record.Match{ID: "m", Teams: ts}
		if err := m.Validate(); err != nil {
			t.Errorf("NewTeams(%v) makes an invalid match: %v", c.players, err)
		}
	}
	if _, err := record.NewTeams([][]string{{"a"}}, []int{1, 2}); !errors.Is(err, record.ErrInput) {
		t.Errorf("NewTeams with a rank too many: %v", err)
	}
}

// TestCheckTextBidi checks the text rule against the bidirectional
// controls of Unicode's UAX #9: the embeddings, overrides and isolates
// are refused wherever they stand, the marks and right-to-left letters
// are names like any other.
func TestCheckTextBidi(t *testing.T) {
	for r := rune(0x2000); r <= 0x206F; r++ {
		refused := r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069 || r == 0x2028 || r == 0x2029
		err := record.CheckText("name", "x"+string(r)+"y")
		if refused != (err != nil) {
			t.Errorf("U+%04X: %v", r, err)
		}
	}
	for _, name := range []string{"\u05d3\u05e0\u05d4", "\u0645\u0631\u064a\u0645\u200f", "Ann\u200e"} {
		if err := record.CheckText("name", name); err != nil {
			t.Errorf("%q: %v", name, err)
		}
	}
}

// TestCheckNameReplacementCharacter checks that a name holding U+FFFD, the
// mark of text lost in decoding, is refused wherever it stands, and that
// text around it in a title stays text.
func TestCheckNameReplacementCharacter(t *testing.T) {
	for _, s := range []string{"\uFFFD", "Jos\uFFFD", "\uFFFDa", "a\uFFFDb"} {
		if err := record.CheckName("player", s, record.MaxName); !errors.Is(err, record.ErrInput) || !strings.Contains(err.Error(), "U+FFFD") {
			t.Errorf("%q: %v", s, err)
		}
		if err := record.CheckText("title", s); err != nil {
			t.Errorf("title %q: %v", s, err)
		}
	}
	if _, _, err := record.Read("f.csv", strings.NewReader("time,home,away,home_score,away_score\n2020-01-01,A,B\uFFFD,1,0\n")); !errors.Is(err, record.ErrInput) || !strings.Contains(err.Error(), "f.csv:2:14") {
		t.Errorf("a file with U+FFFD in a name: %v", err)
	}
}
