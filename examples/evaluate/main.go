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
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/skillgraph/skillgraph/models/elo"
	"github.com/skillgraph/skillgraph/models/evaluation"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

func main() {
	data := flag.String("data", "../shared/data", "folder with epl.csv, afl.csv and f1_races.csv")
	out := flag.String("out", ".", "folder for figure4.svg")
	matches := flag.String("matches", "", "run only experiment 2 on this multi-team file")
	tau := flag.Float64("tau", trueskill.DefaultParams().Tau, "TrueSkill's dynamics τ in experiment 2")
	flag.Parse()
	var err error
	if *matches != "" {
		err = ranking(*matches, nil, *tau)
	} else {
		err = run(*data, *out, *tau)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "evaluate:", err)
		os.Exit(1)
	}
}

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

func run(data, out string, tau float64) error {
	sets := []struct {
		name, file string
		seasons    []string
	}{
		{"UK-PL", "epl.csv", seasonRange(1995, 2008, true)},
		{"AFL", "afl.csv", seasonRange(2000, 2010, false)},
	}
	var panels []evaluation.Panel
	for _, set := range sets {
		all, err := evaluation.LoadScored(filepath.Join(data, set.file))
		if err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "experiment 1, %s: ", set.name)
		res, err := evaluation.ScoreExperiment(all, set.seasons, evaluation.TrainShares, evaluation.ScoreModels(),
			func(s string) { fmt.Fprintf(os.Stderr, "%s ", s) })
		fmt.Fprintln(os.Stderr)
		if err != nil {
			return err
		}
		fmt.Printf("## Experiment 1: %s, seasons %s to %s (%d seasons)\n\n", set.name, set.seasons[0], set.seasons[len(set.seasons)-1], len(set.seasons))
		metrics := []struct {
			name string
			f    func(evaluation.ScoreMetrics) float64
		}{
			{"information gain (bits per match)", func(m evaluation.ScoreMetrics) float64 { return m.InfoGain }},
			{"win/no-win AUC", func(m evaluation.ScoreMetrics) float64 { return m.AUC }},
			{"score MAE", func(m evaluation.ScoreMetrics) float64 { return m.MAE }},
		}
		for _, met := range metrics {
			fmt.Printf("%s, mean ± 95%% interval over seasons\n\n| model |", met.name)
			for _, s := range res.Shares {
				fmt.Printf(" %.0f%% |", 100*s)
			}
			fmt.Printf("\n|---|%s\n", strings.Repeat("---|", len(res.Shares)))
			panel := evaluation.Panel{Title: set.name + ": " + strings.Split(met.name, " (")[0], YLabel: met.name, X: res.Shares}
			for mi, name := range res.Models {
				line := evaluation.Line{Name: name}
				fmt.Printf("| %s |", name)
				for si := range res.Shares {
					mean, half := res.Summary(mi, si, met.f)
					line.Mean, line.Half = append(line.Mean, mean), append(line.Half, half)
					if math.IsNaN(mean) {
						fmt.Print(" – |")
					} else {
						fmt.Printf(" %.3f ± %.3f |", mean, half)
					}
				}
				fmt.Println()
				panel.Lines = append(panel.Lines, line)
			}
			fmt.Println()
			panels = append(panels, panel)
		}
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	fig := filepath.Join(out, "figure4.svg")
	f, err := os.Create(fig)
	if err != nil {
		return err
	}
	if err := evaluation.WriteFigureSVG(f, panels, 3); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Fprintln(os.Stderr, "wrote", fig)

	if err := ranking(filepath.Join(data, "f1_races.csv"), nil, tau); err != nil {
		return err
	}
	epl, err := evaluation.LoadScored(filepath.Join(data, "epl.csv"))
	if err != nil {
		return err
	}
	return ranking("Premier League 1992-2026 as two-team games", evaluation.AsRanked(epl), tau)
}

// ranking runs experiment 2 on a multi-team file, or on ms if given (name
// then labels it), with TrueSkill's dynamics tau.
func ranking(name string, ms []evaluation.RankedMatch, tau float64) error {
	if ms == nil {
		var err error
		if ms, err = evaluation.LoadRanked(name); err != nil {
			return err
		}
	}
	fmt.Fprintf(os.Stderr, "experiment 2, %s: %d games\n", name, len(ms))
	tp := trueskill.DefaultParams()
	tp.Tau = tau
	res, err := evaluation.RankingExperiment(context.Background(), ms, tp, elo.DefaultParams(),
		func(done, total int) { fmt.Fprintf(os.Stderr, "\r  %d/%d", done, total) })
	fmt.Fprintln(os.Stderr)
	if err != nil {
		return err
	}
	maxTeams := 0
	for _, m := range ms {
		maxTeams = max(maxTeams, len(m.Teams))
	}
	fmt.Printf("## Experiment 2: %s\n\n%d games (up to %d teams), %d team pairs; empirical draw probability %.3f\n\n",
		name, res.Games, maxTeams, res.Pairs, res.DrawProbability)
	fmt.Println("| Elo full | TrueSkill full | Elo challenged | TrueSkill challenged |")
	fmt.Println("|---|---|---|---|")
	fmt.Printf("| %.2f%% | %.2f%% | %.2f%% | %.2f%% |\n\n", 100*res.EloFull, 100*res.TrueSkillFull, 100*res.EloChallenged, 100*res.TrueSkillChallenged)
	return nil
}
