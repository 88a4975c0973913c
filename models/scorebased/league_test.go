package scorebased_test

import (
	"encoding/csv"
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/skillgraph/skillgraph/models/scorebased"
)

// league reads the shipped Premier League file (date, season, home, away,
// home_score, away_score) into matches by season, in file order.
func league(t testing.TB) map[string][]scorebased.Result {
	t.Helper()
	f, err := os.Open("../../examples/data/epl.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(rows[0]); got != "[date season home away home_score away_score]" {
		t.Fatalf("epl.csv header %s", got)
	}
	out := map[string][]scorebased.Result{}
	for _, r := range rows[1:] {
		a, err1 := strconv.Atoi(r[4])
		b, err2 := strconv.Atoi(r[5])
		if err1 != nil || err2 != nil {
			t.Fatalf("epl.csv row %v", r)
		}
		out[r[1]] = append(out[r[1]], scorebased.Result{A: r[2], B: r[3], ScoreA: float64(a), ScoreB: float64(b)})
	}
	return out
}
