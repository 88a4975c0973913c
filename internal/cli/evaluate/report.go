package evaluate

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/skillgraph/skillgraph/internal/cli"
)

// report is everything a run prints, and the per-season values behind it;
// printReport writes it as Markdown and -json as JSON.
type report struct {
	Command        []string      `json:"command"`
	Data           string        `json:"data,omitempty"`
	LeftOut        []leftOut     `json:"left_out"`
	Settings       settings      `json:"settings"`
	Experiment1    []scoreLeague `json:"experiment1,omitempty"`
	Experiment2    []rankingSet  `json:"experiment2,omitempty"`
	ElapsedSeconds float64       `json:"elapsed_seconds"`
}

// leftOut is a data file that was absent, and the parts it would have run.
type leftOut struct {
	File  string `json:"file"`
	Parts string `json:"parts"`
	Why   string `json:"why"`
}

type settings struct {
	Confidence    float64 `json:"confidence"`
	TestSetRule   string  `json:"test_set_rule"`
	TrueSkillTau1 float64 `json:"trueskill_tau_experiment1"`
	TrueSkillTau2 float64 `json:"trueskill_tau_experiment2"`
	Ties          string  `json:"ties"`
	DrawGiven     num     `json:"draw_probability_given"` // null: the data's
}

// scoreLeague is experiment 1 on one league.
type scoreLeague struct {
	League        string        `json:"league"`
	Seasons       []string      `json:"seasons"`
	SeasonMatches []int         `json:"season_matches"`
	TestMatches   []int         `json:"test_matches"`
	Shares        []float64     `json:"shares"`
	Models        []string      `json:"models"`
	Metrics       []metricTable `json:"metrics"`
	Tests         []pairedRow   `json:"paired_tests"`
}

type metricTable struct {
	Metric string      `json:"metric"`
	Label  string      `json:"label"`
	Rows   []metricRow `json:"rows"`
}

// metricRow is one model's row: a cell per share, and per share the value
// of each season.
type metricRow struct {
	Model     string  `json:"model"`
	Cells     []cell  `json:"cells"`
	PerSeason [][]num `json:"per_season"`
}

// cell is a mean and the half-width of its 95 % interval.
type cell struct {
	Mean num `json:"mean"`
	Half num `json:"half"`
}

// pairedRow is the paired t-test of A − B at each share.
type pairedRow struct {
	Metric string     `json:"metric"`
	A      string     `json:"a"`
	B      string     `json:"b"`
	Cells  []testCell `json:"cells"`
}

type testCell struct {
	Diff    num `json:"diff"`
	Half    num `json:"half"`
	P       num `json:"p"`
	Seasons int `json:"seasons"`
}

// rankingSet is experiment 2 on one data set; errors in percent.
type rankingSet struct {
	Name                string  `json:"name"`
	Games               int     `json:"games"`
	MaxTeams            int     `json:"max_teams"`
	Pairs               int     `json:"pairs"`
	EmpiricalDraw       float64 `json:"empirical_draw_probability"`
	Draw                float64 `json:"draw_probability"`
	DrawGiven           bool    `json:"draw_probability_given"`
	Ties                string  `json:"ties"`
	ChallengedGames     int     `json:"challenged_games"`
	EloFull             cell    `json:"elo_full_pct"`
	TrueSkillFull       cell    `json:"trueskill_full_pct"`
	EloChallenged       cell    `json:"elo_challenged_pct"`
	TrueSkillChallenged cell    `json:"trueskill_challenged_pct"`
	FullDifference      cell    `json:"full_difference_elo_minus_trueskill_pct"`
	FullDifferenceP     float64 `json:"full_difference_p"`
}

// num is a float64 that is null in JSON where it is NaN (a metric a model
// or season lacks).
type num float64

// MarshalJSON writes null for NaN.
func (x num) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(x)) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(x))
}

// UnmarshalJSON reads null as NaN.
func (x *num) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*x = num(math.NaN())
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	*x = num(f)
	return nil
}

// printReport writes rep as Markdown.
func printReport(w io.Writer, rep *report) {
	for _, l := range rep.LeftOut {
		fmt.Fprintf(w, "Left out: %s (%s): %s.\n\n", l.Parts, l.File, l.Why)
	}
	s := rep.Settings
	for _, e := range rep.Experiment1 {
		printScoreLeague(w, e, s)
	}
	for _, e := range rep.Experiment2 {
		printRanking(w, e)
	}
}

func printScoreLeague(w io.Writer, e scoreLeague, s settings) {
	fmt.Fprintf(w, "## Experiment 1: %s, seasons %s to %s (%d seasons)\n\n", e.League, e.Seasons[0], e.Seasons[len(e.Seasons)-1], len(e.Seasons))
	fmt.Fprintf(w, "Test set: the last ⌈0.2·N⌉ matches of each season (%s); TrueSkill's τ = %s, and its draw probability each training set's share of draws (estimated from the data).\n\n", testSizes(e), fmtFloat(s.TrueSkillTau1))
	shareHeader := func(first string) {
		fmt.Fprintf(w, "| %s |", first)
		for _, sh := range e.Shares {
			fmt.Fprintf(w, " %s%% |", fmtFloat(100*sh))
		}
		fmt.Fprintf(w, "\n|---|%s\n", strings.Repeat("---|", len(e.Shares)))
	}
	for _, tab := range e.Metrics {
		fmt.Fprintf(w, "%s, mean ± %s%% interval over seasons\n\n", tab.Label, fmtFloat(100*s.Confidence))
		shareHeader("model")
		for _, row := range tab.Rows {
			fmt.Fprintf(w, "| %s |", row.Model)
			for _, c := range row.Cells {
				if math.IsNaN(float64(c.Mean)) {
					fmt.Fprint(w, " – |")
					continue
				}
				cli.Fprintf(w, " %.3f ± %.3f |", c.Mean, c.Half)
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "Paired t-tests over seasons, two-sided: mean of A − B per season ± %s%% interval (p)\n\n", fmtFloat(100*s.Confidence))
	shareHeader("metric: A − B")
	for _, row := range e.Tests {
		fmt.Fprintf(w, "| %s: %s − %s |", row.Metric, row.A, row.B)
		for _, c := range row.Cells {
			if math.IsNaN(float64(c.Diff)) {
				fmt.Fprint(w, " – |")
				continue
			}
			cli.Fprintf(w, " %+.3f ± %.3f (%s) |", c.Diff, c.Half, fmtP(float64(c.P)))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
}

// testSizes describes the test-set sizes of a league's seasons.
func testSizes(e scoreLeague) string {
	var parts []string
	for i, n := range e.SeasonMatches {
		part := fmt.Sprintf("%d of %d", e.TestMatches[i], n)
		if len(parts) == 0 || parts[len(parts)-1] != part {
			parts = append(parts, part)
		}
	}
	if len(parts) == 1 {
		return parts[0] + " in every season"
	}
	var per []string
	for i, s := range e.Seasons {
		per = append(per, fmt.Sprintf("%s: %d of %d", s, e.TestMatches[i], e.SeasonMatches[i]))
	}
	return strings.Join(per, ", ")
}

func printRanking(w io.Writer, e rankingSet) {
	fmt.Fprintf(w, "## Experiment 2: %s\n\n", e.Name)
	drawNote := "estimated from the data"
	if e.DrawGiven {
		drawNote = fmt.Sprintf("given; the data's is %.3f", e.EmpiricalDraw)
	}
	cli.Fprintf(w, "%d games (up to %d teams), %d team pairs; draw probability %.3f (%s); a predicted tie counts %s; challenged sets of %d games\n\n",
		e.Games, e.MaxTeams, e.Pairs, e.Draw, drawNote, map[string]string{"wrong": "as an error", "half": "as half an error"}[e.Ties], e.ChallengedGames)
	fmt.Fprintln(w, "| Elo full | TrueSkill full | Elo challenged | TrueSkill challenged |")
	fmt.Fprintln(w, "|---|---|---|---|")
	c := func(x cell) string { return cli.Sprintf("%.2f ± %.2f %%", x.Mean, x.Half) }
	fmt.Fprintf(w, "| %s | %s | %s | %s |\n\n", c(e.EloFull), c(e.TrueSkillFull), c(e.EloChallenged), c(e.TrueSkillChallenged))
	cli.Fprintf(w, "Elo full − TrueSkill full, paired by game: %+.2f ± %.2f points (%s)\n\n", e.FullDifference.Mean, e.FullDifference.Half, fmtP(e.FullDifferenceP))
}

// fmtFloat writes x in its shortest form.
func fmtFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// fmtP writes a p-value with two significant digits, or "< 0.001".
func fmtP(p float64) string {
	if p < 0.001 {
		return "p < 0.001"
	}
	return "p = " + strconv.FormatFloat(p, 'g', 2, 64)
}
