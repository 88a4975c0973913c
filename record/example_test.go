package record_test

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/skillgraph/skillgraph/record"
)

// Read tells the format by the header, accepts timestamps, sorts rows
// out of time order, and says so in its report.
func ExampleRead() {
	file := `date,home_team,away_team,home_score,away_score,neutral,tournament
2004-08-06 18:13:50,Brazil,Argentina,2,2,TRUE,Copa America
2004-08-06T15:00:00Z,Peru,Uruguay,1,0,FALSE,Copa America
`
	ms, rep, err := record.Read("cup.csv", strings.NewReader(file))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range ms {
		fmt.Println(m.Time.Format("15:04"), m.Teams[0].Name, m.Teams[0].Score, m.Teams[1].Score, m.Teams[1].Name,
			"ranks", m.Ranks(), "home advantage", m.Venue.HomeAdvantage())
	}
	for _, note := range rep.Notes() {
		fmt.Println(note)
	}
	// Output:
	// 15:00 Peru 1 0 Uruguay ranks [1 2] home advantage true
	// 18:13 Brazil 2 2 Argentina ranks [1 1] home advantage false
	// cup.csv: 1 match out of time order was moved into place
	// cup.csv: ignored unknown columns "tournament"
}

// Errors give the file, line and column.
func ExampleRead_error() {
	file := "match_id,time,team,player,rank\ng1,2025-01-06,red,Ann,first\n"
	_, _, err := record.Read("office.csv", strings.NewReader(file))
	fmt.Println(err)
	// Output:
	// office.csv:2:23: rank "first" is not an integer: invalid input
}

// WriteLong writes the long format, which Read reads back unchanged.
func ExampleWriteLong() {
	ms, _, err := record.Read("scores.csv", strings.NewReader("date,home,away,home_score,away_score\n2025-01-06,Ann,Bo,3,1\n"))
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := record.WriteLong(os.Stdout, ms); err != nil {
		fmt.Println(err)
	}
	// Output:
	// match_id,time,team,player,rank,score,venue
	// 2025-01-06 Ann v Bo,2025-01-06,Ann,Ann,1,3,home
	// 2025-01-06 Ann v Bo,2025-01-06,Bo,Bo,2,1,away
}

// A match entered as players and ranks, as a rating model takes it,
// written for export.
func ExampleNewTeams() {
	teams, err := record.NewTeams([][]string{{"Ada", "Bo"}, {"Cy"}}, []int{1, 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	m := record.Match{ID: "g1", Time: time.Date(2025, 1, 6, 12, 30, 0, 0, time.UTC), Teams: teams}
	if err := record.WriteLong(os.Stdout, []record.Match{m}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// match_id,time,team,player,rank
	// g1,2025-01-06T12:30:00Z,Ada+Bo,Ada,1
	// g1,2025-01-06T12:30:00Z,Ada+Bo,Bo,1
	// g1,2025-01-06T12:30:00Z,Cy,Cy,2
}
