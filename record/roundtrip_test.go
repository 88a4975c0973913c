package record_test

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/skillgraph/skillgraph/record"
)

// nameRunes are the characters of generated names: CSV's delimiters and
// quotes, spaces, a BOM, right-to-left marks, letters of other scripts
// and an emoji, which a round trip must carry unchanged.
var nameRunes = []rune("ab Z09,\"'#=+-._/\\;:\u00e9\u00df\u4e2d\u0627\u200f\u200e\U0001F600\uFEFF\u00a0")

// randomName returns prefix and up to five of nameRunes, ending in a
// letter: a name may hold spaces but not end with one (record.CheckName).
func randomName(rng *rand.Rand, prefix string) string {
	var sb strings.Builder
	sb.WriteString(prefix)
	for range rng.IntN(6) {
		sb.WriteRune(nameRunes[rng.IntN(len(nameRunes))])
	}
	sb.WriteByte('x')
	return sb.String()
}

// randomZonedMatches returns n valid matches in time order, each drawn with
// its own options: scores, weights, a venue, times with fractions of a
// second in zones from −23:59 to +23:59; seasons for all or none.
func randomZonedMatches(rng *rand.Rand, n int, seasons bool) []record.Match {
	ms := make([]record.Match, n)
	t := time.Date(1990+rng.IntN(40), 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range ms {
		m := &ms[i]
		next := t.Add(time.Duration(rng.Int64N(int64(72 * time.Hour))))
		switch rng.IntN(3) {
		case 0:
			next = next.Truncate(24 * time.Hour) // a date
		case 1:
			next = next.Truncate(time.Second)
		}
		if !next.Before(t) { // (a truncation may go back in time)
			t = next
		}
		zone := time.FixedZone("", (rng.IntN(2*1439+1)-1439)*60)
		m.ID, m.Time = randomName(rng, fmt.Sprint("m", i, " ·")), t.In(zone)
		if seasons {
			m.Season = randomName(rng, "s")
		}
		m.HasScores = rng.IntN(2) == 0
		nTeams := 2
		if rng.IntN(3) == 0 {
			nTeams = 3 + rng.IntN(3)
		}
		if nTeams == 2 && rng.IntN(2) == 0 {
			m.Venue = record.Venue{HomeAway: true, Neutral: rng.IntN(3) == 0}
		}
		for j := range nTeams {
			tm := record.Team{Name: randomName(rng, fmt.Sprint("t", j)), Rank: 1 + rng.IntN(nTeams)}
			size := 1 + rng.IntN(3)
			for k := range size {
				tm.Players = append(tm.Players, randomName(rng, fmt.Sprint("p", j, ".", k)))
			}
			if rng.IntN(3) == 0 {
				for range size {
					w := []float64{0, 1, 0.5, 1e-300, 1e300, math.SmallestNonzeroFloat64, rng.Float64()}[rng.IntN(7)]
					tm.Weights = append(tm.Weights, w)
				}
			}
			if m.HasScores {
				tm.Score = rng.IntN(1000)
			}
			m.Teams = append(m.Teams, tm)
		}
	}
	return ms
}

// TestWriteReadRoundTrip: random valid matches, written by WriteLong and
// read by Read, come back as they were (times as the same instants).
func TestWriteReadRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for trial := range 300 {
		ms := randomZonedMatches(rng, 1+rng.IntN(6), trial%2 == 0)
		for i := range ms {
			if err := ms[i].Validate(); err != nil {
				t.Fatalf("trial %d: generated an invalid match: %v", trial, err)
			}
		}
		var buf bytes.Buffer
		if err := record.WriteLong(&buf, ms); err != nil {
			t.Fatalf("trial %d: WriteLong: %v", trial, err)
		}
		back, rep, err := record.Read("rt.csv", bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatalf("trial %d: Read: %v\n%s", trial, err, buf.String())
		}
		if d := cmp.Diff(ms, back); d != "" || rep.Moved != 0 {
			t.Fatalf("trial %d: moved %d, (-written +read):\n%s\n%s", trial, rep.Moved, d, buf.String())
		}
	}
}

// invalidField holds, per long-format column, a value Read must refuse.
var invalidField = map[string]string{
	"match_id": "", "time": "2020-13-01", "team": "", "player": "a\x01b", "rank": "1.5",
	"score": "-1", "weight": "-1", "season": "", "venue": "there", "neutral": "maybe",
}

// TestReadRefusesACorruptedField: one field of a random valid file set
// to a value its column cannot hold is refused by Read with a *FileError
// wrapping ErrInput at that field's line and column, as encoding/csv's
// Reader.FieldPos places it.
func TestReadRefusesACorruptedField(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 17))
	for trial := range 300 {
		ms := randomZonedMatches(rng, 1+rng.IntN(4), trial%2 == 0)
		var buf bytes.Buffer
		if err := record.WriteLong(&buf, ms); err != nil {
			t.Fatalf("trial %d: WriteLong: %v", trial, err)
		}
		rows, err := csv.NewReader(&buf).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		header := rows[0]
		r, c := 1+rng.IntN(len(rows)-1), rng.IntN(len(header))
		rows[r][c] = invalidField[header[c]]
		var bad bytes.Buffer
		w := csv.NewWriter(&bad)
		if err := w.WriteAll(rows); err != nil {
			t.Fatal(err)
		}
		cr := csv.NewReader(bytes.NewReader(bad.Bytes()))
		var line, column int
		for i := 0; i <= r; i++ {
			if _, err := cr.Read(); err != nil {
				t.Fatal(err)
			}
			line, column = cr.FieldPos(c)
		}
		_, _, err = record.Read("bad.csv", bytes.NewReader(bad.Bytes()))
		var fe *record.FileError
		if !errors.As(err, &fe) || !errors.Is(err, record.ErrInput) || fe.File != "bad.csv" || fe.Line != line || fe.Column != column {
			t.Errorf("trial %d: %s = %q on line %d: %v, want a *FileError wrapping ErrInput at bad.csv:%d:%d\n%s",
				trial, header[c], rows[r][c], line, err, line, column, bad.String())
		}
	}
}
