// Command figure1 draws the TrueSkill paper's Figure 1: players 1-4 in teams
// {1}, {2,3}, {4}; team 1 wins, teams 2 and 3 draw. It writes figure1.dot
// (the factor graph with every message of the Figure 1 schedule numbered and
// coloured) and, when Graphviz is installed, figure1.svg.
//
//	go run ./examples/figure1 -o DIR [-values] [-after N]
//
// With -values each variable shows its marginal after the whole schedule, or
// after only its first N messages with -after N, to watch inference step by
// step.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/skillgraph/skillgraph/dot"
	"github.com/skillgraph/skillgraph/models/trueskill"
	"github.com/skillgraph/skillgraph/schedules"
)

func main() {
	out := flag.String("o", ".", "output directory")
	values := flag.Bool("values", false, "label variables with their marginals")
	after := flag.Int("after", -1, "with -values: run only the first N messages of the schedule")
	flag.Parse()
	if err := run(*out, *values, *after); err != nil {
		fmt.Fprintln(os.Stderr, "figure1:", err)
		os.Exit(1)
	}
}

func run(dir string, values bool, after int) error {
	p := trueskill.DefaultParams()
	n := p.NewRating()
	gm, err := p.NewGame(trueskill.Match{Teams: [][]trueskill.Rating{{n}, {n, n}, {n}}, Ranks: []int{1, 2, 2}})
	if err != nil {
		return err
	}
	g := gm.Graph()
	if values {
		if after < 0 {
			if _, err := gm.Run(context.Background()); err != nil {
				return err
			}
		} else {
			var steps []*schedules.StepSchedule
			schedules.Walk(gm.Schedule(), func(s *schedules.StepSchedule, _ *schedules.LoopSchedule) { steps = append(steps, s) })
			for _, s := range steps[:min(after, len(steps))] {
				if _, _, err := g.Update(s.Factor, s.Edge, 0); err != nil {
					return err
				}
			}
		}
	}
	text, err := dot.Marshal(g, dot.Options{Schedule: gm.Schedule(), Values: values})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	dotPath := filepath.Join(dir, "figure1.dot")
	if err := os.WriteFile(dotPath, text, 0o644); err != nil {
		return err
	}
	fmt.Println("wrote", dotPath)
	if _, err := exec.LookPath("dot"); err != nil {
		fmt.Println("graphviz not installed: render with  dot -Tsvg", dotPath)
		return nil
	}
	cmd := exec.Command("dot", "-Tsvg")
	cmd.Stdin = bytes.NewReader(text)
	cmd.Stderr = os.Stderr
	svg, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("dot -Tsvg: %w", err)
	}
	svgPath := filepath.Join(dir, "figure1.svg")
	if err := os.WriteFile(svgPath, svg, 0o644); err != nil {
		return err
	}
	fmt.Println("wrote", svgPath)
	return nil
}
