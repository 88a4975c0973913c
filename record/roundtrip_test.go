package record_test

import (
	"bytes"
	"encoding/csv"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/skillgraph/skillgraph/record"
)

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
		ms := randomMatches(rng, 1+rng.IntN(4))
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
