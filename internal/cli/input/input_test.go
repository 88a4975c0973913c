package input

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/record"
)

func write(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "f.csv")
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestReadScored: a scores file out of order, with an unknown column and
// a neutral match, comes back in time order, the notes on stderr, and as
// scored matches with the home side first.
func TestReadScored(t *testing.T) {
	path := write(t, "date,home,away,home_score,away_score,neutral,referee\n"+
		"2020-01-08,Bees,Ants,0,3,1,Kim\n2020-01-01,Ants,Bees,2,2,0,Lee\n")
	var notes strings.Builder
	ms, err := Read(&notes, "prog", path, record.Scores)
	if err != nil {
		t.Fatal(err)
	}
	want := "prog: " + path + ": 1 match out of time order was moved into place\nprog: " + path + ": ignored unknown columns \"referee\"\n"
	if notes.String() != want {
		t.Errorf("notes %q, want %q", notes.String(), want)
	}
	neutral, err := Scored(path, ms)
	if err != nil || neutral != 1 || len(ms) != 2 {
		t.Fatalf("%+v, %d neutral, %v", ms, neutral, err)
	}
	if m := ms[0]; m.Time.Format("2006-01-02") != "2020-01-01" || m.Teams[0].Name != "Ants" || m.Teams[1].Name != "Bees" || m.Teams[0].Score != 2 || m.Teams[1].Score != 2 || !slices.Equal(m.Ranks(), []int{1, 1}) {
		t.Errorf("first match %+v", m)
	}
	// The home side first, the away win ranked ahead.
	if m := ms[1]; m.Time.Format("2006-01-02") != "2020-01-08" || m.Teams[0].Name != "Bees" || m.Teams[0].Score != 0 || m.Teams[1].Score != 3 || !slices.Equal(m.Ranks(), []int{2, 1}) {
		t.Errorf("second match %+v", m)
	}
}

func TestReadErrors(t *testing.T) {
	var notes strings.Builder
	if _, err := Read(&notes, "p", write(t, "date,home,away,home_score,away_score\n"), 0); !errors.Is(err, record.ErrInput) || !strings.Contains(err.Error(), "a header and no rows") {
		t.Errorf("header only: %v", err)
	}
	if _, err := Read(&notes, "p", filepath.Join(t.TempDir(), "none.csv"), 0); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	long := write(t, "match_id,time,team,player,rank\nr,2020-01-01,a,a,1\nr,2020-01-01,b,b,2\nr,2020-01-01,c,c,3\n")
	if _, err := Read(&notes, "p", long, record.Scores); err == nil {
		t.Errorf("a long file read as scores")
	}
	ms, err := Read(&notes, "p", long, 0)
	if err != nil {
		t.Fatal(err)
	}
	// A race of three without scores is no scored match.
	if _, err := Scored(long, ms); err == nil || !strings.Contains(err.Error(), "match r: 3 teams, scores false") {
		t.Errorf("Scored on a race: %v", err)
	}
	if notes.Len() != 0 {
		t.Errorf("notes for files in order: %q", notes.String())
	}
}

// TestScoredCounts: a score of 2³¹ − 1 is a count the Poisson model takes;
// one of 2³¹ is refused, naming the file, the match, the team and the
// score, rather than failing inside a model.
func TestScoredCounts(t *testing.T) {
	var notes strings.Builder
	for _, c := range []struct {
		score string
		want  string // "" for no error
	}{
		{"2147483647", ""},
		{"2147483648", "match 2020-01-02 Bees v Ants: Ants's score 2147483648 is more than the Poisson model takes (2147483647)"},
	} {
		path := write(t, "date,home,away,home_score,away_score\n2020-01-01,Ants,Bees,1,0\n2020-01-02,Bees,Ants,0,"+c.score+"\n")
		ms, err := Read(&notes, "p", path, record.Scores)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Scored(path, ms)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("score %s: %v", c.score, err)
		case c.want != "" && (!errors.Is(err, record.ErrInput) || !strings.Contains(err.Error(), path+": "+c.want)):
			t.Errorf("score %s: error %v, want ErrInput saying %q", c.score, err, c.want)
		}
	}
}
