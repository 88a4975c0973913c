// Command evaluate reproduces the experiments of both papers on the data of
// ../shared/data, with the reusable parts from models/evaluation:
//
//  1. the score-based paper's section 5: Premier League 1995-96 to 2008-09
//     and AFL 2000-2010, each season on its own, test on the last 20 %,
//     train on the first 10 % … 80 %; TrueSkill, Poisson-OD, Gaussian-OD,
//     Gaussian-SD and Elo; information gain, AUC and score MAE (mean and
//     95 % interval over seasons), and a figure laid out like its Figure 4;
//
//  2. the TrueSkill paper's section 4.1: online prediction error, full and
//     challenged, of TrueSkill and Elo on Formula 1 races and on the
//     Premier League as two-team games.
//
//     go run ./examples/evaluate -data ../shared/data -out DIR
//     go run ./examples/evaluate -matches FILE     (experiment 2 on any file
//     with match_id, date, team, player, rank)
//
// It reads every input and makes sure it can write the figure before it
// starts. Errors are one line, "evaluate: what went wrong", with exit
// status 2 for a usage error and 1 for any other.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/skillgraph/skillgraph/internal/cli"
	"github.com/skillgraph/skillgraph/models/elo"
	"github.com/skillgraph/skillgraph/models/evaluation"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run is the program with its arguments and streams, returning the exit
// status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("evaluate", flag.ContinueOnError)
	data := fs.String("data", "../shared/data", "folder with epl.csv, afl.csv and f1_races.csv")
	out := fs.String("out", ".", "folder for figure4.svg")
	matches := fs.String("matches", "", "run only experiment 2 on this multi-team file")
	tau := fs.Float64("tau", trueskill.DefaultParams().Tau, "TrueSkill's dynamics τ in experiment 2")
	usage := func(format string, a ...any) int { return cli.Usagef(stderr, "evaluate", format, a...) }
	if status, done := cli.Parse(fs, args, "evaluate [-data DIR] [-out DIR] [-tau τ] | evaluate -matches FILE [-tau τ]", stderr); done {
		return status
	}
	tp := trueskill.DefaultParams()
	tp.Tau = *tau
	if err := tp.Validate(); err != nil {
		return usage("-tau %v: must be finite and not negative", *tau)
	}
	var err error
	if *matches != "" {
		err = rankingFile(stdout, stderr, *matches, tp)
	} else {
		err = experiments(stdout, stderr, *data, *out, tp)
	}
	if err != nil {
		fmt.Fprintln(stderr, "evaluate:", oneLine(err))
		return cli.Error
	}
	return cli.OK
}

// oneLine keeps an error message on one line.
func oneLine(err error) string { return strings.ReplaceAll(err.Error(), "\n", " ") }

func seasonRange(from, to int, football bool) []string {
	var out []string
	for y := from; y <= to; y++ {
		if football {
			out = append(out, fmt.Sprintf("%d-%02d", y, (y+1)%100))
		} else {
			out = append(out, strconv.Itoa(y))
		}
	}
	return out
}

// experiments runs both experiments on the data folder and writes the
// figure into out.
func experiments(stdout, stderr io.Writer, data, out string, tp trueskill.Params) (err error) {
	// The figure's folder is checked, by creating the file the figure will
	// be renamed from, before any work.
	if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("-out: %w", err)
	}
	tmp, err := os.CreateTemp(out, ".figure4-*.svg")
	if err != nil {
		return fmt.Errorf("-out %s: %w", out, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()

	sets := []struct {
		name, file string
		seasons    []string
		matches    []evaluation.ScoredMatch
	}{
		{name: "UK-PL", file: "epl.csv", seasons: seasonRange(1995, 2008, true)},
		{name: "AFL", file: "afl.csv", seasons: seasonRange(2000, 2010, false)},
	}
	for i := range sets {
		if sets[i].matches, err = evaluation.LoadScored(filepath.Join(data, sets[i].file)); err != nil {
			return err
		}
	}
	f1Path := filepath.Join(data, "f1_races.csv")
	f1, err := evaluation.LoadRanked(f1Path)
	if err != nil {
		return err
	}

	var panels []evaluation.Panel
	for _, set := range sets {
		fmt.Fprintf(stderr, "experiment 1, %s: ", set.name)
		res, err := evaluation.ScoreExperiment(set.matches, set.seasons, evaluation.TrainShares, evaluation.ScoreModels(),
			func(s string) { fmt.Fprintf(stderr, "%s ", s) })
		fmt.Fprintln(stderr)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "## Experiment 1: %s, seasons %s to %s (%d seasons)\n\n", set.name, set.seasons[0], set.seasons[len(set.seasons)-1], len(set.seasons))
		metrics := []struct {
			name string
			f    func(evaluation.ScoreMetrics) float64
		}{
			{"information gain (bits per match)", func(m evaluation.ScoreMetrics) float64 { return m.InfoGain }},
			{"win/no-win AUC", func(m evaluation.ScoreMetrics) float64 { return m.AUC }},
			{"score MAE", func(m evaluation.ScoreMetrics) float64 { return m.MAE }},
		}
		for _, met := range metrics {
			fmt.Fprintf(stdout, "%s, mean ± 95%% interval over seasons\n\n| model |", met.name)
			for _, s := range res.Shares {
				fmt.Fprintf(stdout, " %.0f%% |", 100*s)
			}
			fmt.Fprintf(stdout, "\n|---|%s\n", strings.Repeat("---|", len(res.Shares)))
			panel := evaluation.Panel{Title: set.name + ": " + strings.Split(met.name, " (")[0], YLabel: met.name, X: res.Shares}
			for mi, name := range res.Models {
				line := evaluation.Line{Name: name}
				fmt.Fprintf(stdout, "| %s |", name)
				for si := range res.Shares {
					mean, half, err := res.Summary(mi, si, met.f)
					switch {
					case errors.Is(err, evaluation.ErrNoData):
						mean, half = math.NaN(), 0 // a gap in the table and the figure
						fmt.Fprint(stdout, " – |")
					case err != nil:
						return fmt.Errorf("%s, %s: %w", set.name, met.name, err)
					default:
						fmt.Fprintf(stdout, " %.3f ± %.3f |", mean, half)
					}
					line.Mean, line.Half = append(line.Mean, mean), append(line.Half, half)
				}
				fmt.Fprintln(stdout)
				panel.Lines = append(panel.Lines, line)
			}
			fmt.Fprintln(stdout)
			panels = append(panels, panel)
		}
	}
	if err := evaluation.WriteFigureSVG(tmp, panels, 3); err != nil {
		return err
	}
	if err := tmp.Chmod(0o644); err != nil { // CreateTemp's 0600 is for secrets
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	fig := filepath.Join(out, "figure4.svg")
	if err := os.Rename(tmp.Name(), fig); err != nil {
		return err
	}
	fmt.Fprintln(stderr, "wrote", fig)

	if err := ranking(stdout, stderr, f1Path, f1, tp); err != nil {
		return err
	}
	var epl []evaluation.ScoredMatch
	for _, set := range sets {
		if set.file == "epl.csv" {
			epl = set.matches
		}
	}
	return ranking(stdout, stderr, "Premier League 1992-2026 as two-team games", evaluation.AsRanked(epl), tp)
}

// rankingFile runs experiment 2 on a multi-team file.
func rankingFile(stdout, stderr io.Writer, path string, tp trueskill.Params) error {
	ms, err := evaluation.LoadRanked(path)
	if err != nil {
		return err
	}
	return ranking(stdout, stderr, path, ms, tp)
}

// ranking runs experiment 2 on ms, labelled name, with TrueSkill's
// parameters tp (the draw probability is the data's).
func ranking(stdout, stderr io.Writer, name string, ms []evaluation.RankedMatch, tp trueskill.Params) error {
	fmt.Fprintf(stderr, "experiment 2, %s: %d games\n", name, len(ms))
	res, err := evaluation.RankingExperiment(context.Background(), ms, tp, elo.DefaultParams(),
		func(done, total int) { fmt.Fprintf(stderr, "\r  %d/%d", done, total) })
	fmt.Fprintln(stderr)
	if err != nil {
		return err
	}
	maxTeams := 0
	for _, m := range ms {
		maxTeams = max(maxTeams, len(m.Teams))
	}
	fmt.Fprintf(stdout, "## Experiment 2: %s\n\n%d games (up to %d teams), %d team pairs; empirical draw probability %.3f\n\n",
		name, res.Games, maxTeams, res.Pairs, res.DrawProbability)
	fmt.Fprintln(stdout, "| Elo full | TrueSkill full | Elo challenged | TrueSkill challenged |")
	fmt.Fprintln(stdout, "|---|---|---|---|")
	fmt.Fprintf(stdout, "| %.2f%% | %.2f%% | %.2f%% | %.2f%% |\n\n", 100*res.EloFull, 100*res.TrueSkillFull, 100*res.EloChallenged, 100*res.TrueSkillChallenged)
	return nil
}
