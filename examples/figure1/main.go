// Command figure1 draws the TrueSkill paper's Figure 1: players 1-4 in teams
// {1}, {2,3}, {4}; team 1 wins, teams 2 and 3 draw. It writes figure1.dot
// (the factor graph with every message of the Figure 1 schedule numbered and
// coloured) and, when Graphviz is installed, figure1.svg. It also draws the
// score-based paper's Figure 2 (the Poisson-OD model of a 2-1 match:
// figure2.dot) and Figure 3 (Gaussian-SD: figure3.dot), with their schedules.
//
//	go run ./examples/figure1 -o DIR [-values] [-after N]
//
// With -values each variable shows its marginal after the whole schedule, or
// after only its first N messages with -after N, to watch inference step by
// step. A mistake in the flags is reported in one line, with exit status 2.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/skillgraph/skillgraph/dot"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/internal/cli"
	"github.com/skillgraph/skillgraph/models/scorebased"
	"github.com/skillgraph/skillgraph/models/trueskill"
	"github.com/skillgraph/skillgraph/schedules"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("figure1", flag.ContinueOnError)
	out := fs.String("o", ".", "output directory")
	values := fs.Bool("values", false, "label variables with their marginals")
	after := fs.Int("after", -1, "with -values: run only the first N messages of the schedule")
	if status, done := cli.Parse(fs, args, "figure1 [-o DIR] [-values [-after N]]", stderr); done {
		return status
	}
	if *after < -1 {
		return cli.Usagef(stderr, "figure1", "-after %d: want a number of messages ≥ 0", *after)
	}
	if err := figures(stdout, *out, *values, *after); err != nil {
		return cli.Failf(stderr, "figure1", "%v", err)
	}
	return cli.OK
}

// figures writes the three figures into dir, naming each file written on
// stdout.
func figures(stdout io.Writer, dir string, values bool, after int) error {
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
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := draw(stdout, dir, "figure1", g, gm.Schedule(), values); err != nil {
		return err
	}
	sp := scorebased.DefaultParams()
	fig2, err := scorebased.NewPoissonOD(sp).Game(sp.NewTeam(), sp.NewTeam(), 2, 1)
	if err != nil {
		return err
	}
	fig3, err := scorebased.NewGaussianSD(sp).Game(sp.NewRating(), sp.NewRating(), 2, 1)
	if err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		game *scorebased.Game
	}{{"figure2", fig2}, {"figure3", fig3}} {
		name, game := f.name, f.game
		if values {
			if _, err := schedules.Run(context.Background(), game.Graph, game.Schedule); err != nil {
				return err
			}
		}
		if err := draw(stdout, dir, name, game.Graph, game.Schedule, values); err != nil {
			return err
		}
	}
	return nil
}

// draw writes NAME.dot and, with Graphviz, NAME.svg.
func draw(stdout io.Writer, dir, name string, g *graph.Graph, s schedules.Schedule, values bool) error {
	text, err := dot.Marshal(g, dot.Options{Schedule: s, Values: values})
	if err != nil {
		return err
	}
	dotPath := filepath.Join(dir, name+".dot")
	if err := os.WriteFile(dotPath, text, 0o644); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "wrote", dotPath)
	if _, err := exec.LookPath("dot"); err != nil {
		fmt.Fprintln(stdout, "graphviz not installed: render with  dot -Tsvg", dotPath)
		return nil
	}
	cmd := exec.Command("dot", "-Tsvg")
	cmd.Stdin = bytes.NewReader(text)
	var errs bytes.Buffer
	cmd.Stderr = &errs
	svg, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("dot -Tsvg: %w: %q", err, bytes.TrimSpace(errs.Bytes()))
	}
	svgPath := filepath.Join(dir, name+".svg")
	if err := os.WriteFile(svgPath, svg, 0o644); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "wrote", svgPath)
	return nil
}
