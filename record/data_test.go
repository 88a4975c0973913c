package record_test

import (
	"encoding/csv"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/skillgraph/skillgraph/internal/repo"
	"github.com/skillgraph/skillgraph/record"
)

// sharedDir returns the folder of data files that may not be copied into
// the repository, ../shared/data beside the clone (or beside the folder of
// worktrees), or "" where there is none: the tests then read the shipped
// files only.
func sharedDir(t *testing.T) string {
	t.Helper()
	root, err := repo.Root()
	if err != nil {
		t.Fatal(err)
	}
	for _, up := range []string{"..", "../.."} {
		dir := filepath.Join(root, up, "shared", "data")
		if _, err := os.Stat(dir); err == nil {
			return dir
		}
	}
	t.Log("no shared/data beside the repository: reading the shipped files only")
	return ""
}

// rows reads a CSV file with encoding/csv alone, for checking the reader
// against: the header and the rows.
func rows(t *testing.T, path string) ([]string, [][]string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	all, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return all[0], all[1:]
}

// dataFiles returns the paths of data files: "repo:" and a path from the
// module root for a shipped file, or a name in sharedDir, left out where
// there is no such folder.
func dataFiles(t *testing.T, names ...string) []string {
	t.Helper()
	var out []string
	shared := ""
	for _, n := range names {
		if rel, ok := strings.CutPrefix(n, "repo:"); ok {
			p, err := repo.Path(rel)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, p)
			continue
		}
		if shared == "" {
			if shared = sharedDir(t); shared == "" {
				continue
			}
		}
		out = append(out, filepath.Join(shared, n))
	}
	return out
}

// TestShippedScoresFiles reads each league file and checks every match
// against its row as encoding/csv reads it: teams, scores, the outcome as
// ranks, the season and the date.
func TestShippedScoresFiles(t *testing.T) {
	for _, path := range dataFiles(t, "repo:examples/data/epl.csv", "epl.csv", "afl.csv") {
		ms, rep, err := record.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d matches", path, len(ms))
		header, rs := rows(t, path)
		if strings.Join(header, ",") != "date,season,home,away,home_score,away_score" {
			t.Fatalf("%s: header %v", path, header)
		}
		if want := 11266; strings.Contains(path, "examples") && len(ms) != want {
			t.Errorf("%s: %d matches, want %d", path, len(ms), want)
		}
		if len(ms) != len(rs) || rep.Rows != len(rs) || rep.Moved != 0 || rep.Format != record.Scores || len(rep.Unknown) != 0 {
			t.Fatalf("%s: %d matches of %d rows, report %+v", path, len(ms), len(rs), rep)
		}
		for i, r := range rs {
			checkScoresRow(t, fmt.Sprintf("%s row %d", path, i+2), ms[i], r)
		}
	}
}

// checkScoresRow compares a match with its row date,season,home,away,
// home_score,away_score.
func checkScoresRow(t *testing.T, where string, m record.Match, r []string) {
	t.Helper()
	hs, _ := strconv.Atoi(r[4])
	as, _ := strconv.Atoi(r[5])
	hr, ar := 1, 1
	if hs > as {
		ar = 2
	} else if hs < as {
		hr = 2
	}
	home, away := m.Teams[0], m.Teams[1]
	if m.Time.Format(time.DateOnly) != r[0] || m.Season != r[1] || home.Name != r[2] || away.Name != r[3] ||
		!slices.Equal(home.Players, []string{r[2]}) || !slices.Equal(away.Players, []string{r[3]}) ||
		home.Score != hs || away.Score != as || home.Rank != hr || away.Rank != ar ||
		!m.HasScores || m.Venue != (record.Venue{HomeAway: true}) || len(m.Teams) != 2 {
		t.Fatalf("%s: %v read as %+v", where, r, m)
	}
}

// TestShippedLongFiles reads the Formula 1 and office files and checks
// them against a grouping of encoding/csv's rows by match_id and team.
func TestShippedLongFiles(t *testing.T) {
	for _, path := range dataFiles(t, "repo:examples/data/f1_races.csv", "repo:examples/data/office.csv", "f1_races.csv") {
		ms, rep, err := record.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d matches", path, len(ms))
		header, rs := rows(t, path)
		if rep.Rows != len(rs) || rep.Moved != 0 || rep.Format != record.Long || len(rep.Unknown) != len(header)-5 {
			t.Errorf("%s: report %+v", path, rep)
		}
		// match_id,date,team,player,rank: the players of each team and
		// each team's best rank, in order of first appearance.
		type team struct {
			players []string
			rank    int
		}
		var ids []string
		teams := map[string][]string{}
		byTeam := map[[2]string]*team{}
		dates := map[string]string{}
		for _, r := range rs {
			key := [2]string{r[0], r[2]}
			rank, _ := strconv.Atoi(r[4])
			if _, ok := dates[r[0]]; !ok {
				ids = append(ids, r[0])
				dates[r[0]] = r[1]
			}
			tm := byTeam[key]
			if tm == nil {
				tm = &team{rank: rank}
				byTeam[key] = tm
				teams[r[0]] = append(teams[r[0]], r[2])
			}
			tm.players = append(tm.players, r[3])
			tm.rank = min(tm.rank, rank)
		}
		if len(ms) != len(ids) {
			t.Fatalf("%s: %d matches, want %d", path, len(ms), len(ids))
		}
		if strings.HasSuffix(path, "f1_races.csv") && len(ms) != 1138 {
			t.Errorf("%s: %d races, want 1138", path, len(ms))
		}
		for i, m := range ms {
			if m.ID != ids[i] || m.Time.Format(time.DateOnly) != dates[m.ID] || len(m.Teams) != len(teams[m.ID]) || m.HasScores {
				t.Fatalf("%s: match %d %+v, want %s", path, i, m, ids[i])
			}
			for j, tm := range m.Teams {
				want := byTeam[[2]string{m.ID, teams[m.ID][j]}]
				if tm.Name != teams[m.ID][j] || !slices.Equal(tm.Players, want.players) || tm.Rank != want.rank || tm.Weights != nil {
					t.Fatalf("%s: match %s team %d %+v, want %+v", path, m.ID, j, tm, want)
				}
			}
		}
	}
}

// writeTemp writes a file for a test and returns its path.
func writeTemp(t *testing.T, name string, lines []string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestTimestampedFile gives each Premier League match a clock time in
// one of the four forms (the k-th match of a day at 12:00 plus k minutes
// and a few seconds, some written at +02:00), and checks the times read.
func TestTimestampedFile(t *testing.T) {
	src := dataFiles(t, "repo:examples/data/epl.csv")[0]
	_, rs := rows(t, src)
	lines := []string{"date,season,home,away,home_score,away_score"}
	want := make([]time.Time, len(rs))
	perDay := map[string]int{}
	for i, r := range rs {
		d, err := time.Parse(time.DateOnly, r[0])
		if err != nil {
			t.Fatal(err)
		}
		k := perDay[r[0]]
		perDay[r[0]]++
		want[i] = d.Add(12*time.Hour + time.Duration(k)*time.Minute + time.Duration(i%60)*time.Second + time.Duration(i%7)*time.Millisecond)
		var text string
		switch i % 4 {
		case 0:
			text = want[i].Format("2006-01-02T15:04:05.000")
		case 1:
			text = want[i].Format("2006-01-02 15:04:05.000")
		case 2:
			text = want[i].In(time.FixedZone("", 2*3600)).Format(time.RFC3339Nano)
		case 3:
			text = want[i].Format(time.RFC3339Nano)
		}
		r = slices.Clone(r)
		r[0] = text
		lines = append(lines, strings.Join(r, ","))
	}
	ms, rep, err := record.ReadFile(writeTemp(t, "timed.csv", lines))
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != len(rs) || rep.Moved != 0 {
		t.Fatalf("%d matches, %d moved", len(ms), rep.Moved)
	}
	for i := range ms {
		if !ms[i].Time.Equal(want[i]) || ms[i].Teams[0].Name != rs[i][2] {
			t.Fatalf("match %d at %v, want %v", i, ms[i].Time, want[i])
		}
	}
	// The made-up IDs carry the time, so every match's differs.
	ids := map[string]bool{}
	for _, m := range ms {
		ids[m.ID] = true
	}
	if len(ids) != len(ms) {
		t.Errorf("%d IDs for %d matches", len(ids), len(ms))
	}
}

// TestShuffledFiles shuffles the rows of a scores file and a long file
// (the rows of a race then lie anywhere) and checks that the matches read
// are the same as from the file in order, in time order.
func TestShuffledFiles(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, rel := range []string{"examples/data/epl.csv", "examples/data/f1_races.csv"} {
		src := dataFiles(t, "repo:"+rel)[0]
		inOrder, _, err := record.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
		body := lines[1:]
		rng.Shuffle(len(body), func(i, j int) { body[i], body[j] = body[j], body[i] })
		ms, rep, err := record.ReadFile(writeTemp(t, "shuffled.csv", lines))
		if err != nil {
			t.Fatal(err)
		}
		if len(ms) != len(inOrder) || rep.Moved < len(ms)/2 || rep.Moved >= len(ms) {
			t.Errorf("%s: %d matches, %d moved", rel, len(ms), rep.Moved)
		}
		if notes := rep.Notes(); len(notes) == 0 || !strings.Contains(notes[0], fmt.Sprintf("%d matches out of time order", rep.Moved)) {
			t.Errorf("%s: notes %q", rel, notes)
		}
		byID := map[string]record.Match{}
		for i, m := range ms {
			if i > 0 && m.Time.Before(ms[i-1].Time) {
				t.Fatalf("%s: match %d at %v after %v", rel, i, m.Time, ms[i-1].Time)
			}
			byID[m.ID] = canonical(m)
		}
		for _, m := range inOrder {
			if c := canonical(m); !reflect.DeepEqual(c, byID[m.ID]) {
				t.Fatalf("%s: match %s (-in order +shuffled):\n%s", rel, m.ID, cmp.Diff(c, byID[m.ID]))
			}
		}
	}
}

// canonical sorts a match's teams by name and each team's players, which
// a shuffle of its rows reorders.
func canonical(m record.Match) record.Match {
	m.Teams = slices.Clone(m.Teams)
	for j := range m.Teams {
		m.Teams[j].Players = slices.Sorted(slices.Values(m.Teams[j].Players))
	}
	slices.SortFunc(m.Teams, func(a, b record.Team) int { return strings.Compare(a.Name, b.Name) })
	return m
}
