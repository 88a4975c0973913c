// Command newmodel builds a model the library does not ship, from its
// parts: the Gaussian offence/defence model of Guo et al. (2012) with one
// home advantage shared by every match, fitted to a whole Premier League
// season at once. The model is the function model below: the score model's
// open builder declares each match on team skills shared by the season, the
// home advantage is one more variable, and the schedule is derived from the
// graph. It prints the home advantage and a few teams' skills with their
// uncertainty side by side from loopy message passing (loopy EP), from
// joint-Gaussian expectation propagation (exact.EP) and from the exact
// Gaussian solve (exact.Solve), then the teams by strength; -dot draws the
// model on the season's first few matches. The model is linear-Gaussian,
// so joint EP is the exact answer; loopy EP gets the means but not the
// spreads, as it counts evidence twice around the graph's loops.
//
//	go run ./examples/newmodel
//	go run ./examples/newmodel -season 2019-20 -dot model.dot -draw 3
package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/skillgraph/skillgraph/dot"
	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/exact"
	"github.com/skillgraph/skillgraph/internal/cli"
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/models/evaluation"
	"github.com/skillgraph/skillgraph/models/scorebased"
	"github.com/skillgraph/skillgraph/record"
	"github.com/skillgraph/skillgraph/schedules"
)

// A model is a graph, its schedule, and the variables to read.
type model struct {
	g        *graph.Graph
	schedule schedules.Schedule
	teams    map[string]scorebased.TeamVars
	home     graph.VarID
}

// newModel declares the season: every team's offence and defence skills
// (goals a team scores against an average defence, goals its defence
// keeps out), one home advantage h, and for each match the home side's
// goals N(o_home − d_away + h, γ²) and the away side's N(o_away − d_home,
// γ²), through performances of noise β. On the goal scale: about 1.1 goals
// for an away side, so the home advantage starts at 0 ± 1.
func newModel(matches []record.Match) (*model, error) {
	p := scorebased.Params{Sigma: 0.5, Beta: 0.2, Gamma: 1.1}
	prior := scorebased.Team{Offence: scorebased.Rating{Mu: 1.1, Sigma: 0.5}, Defence: scorebased.Rating{Mu: 0, Sigma: 0.5}}
	gaussianOD := scorebased.NewGaussianOD(p)
	b := graph.NewBuilder("home advantage")
	m := &model{teams: map[string]scorebased.TeamVars{}}
	m.home = b.AddVariable("home")
	b.AddFactor(factors.NewPrior(0, 1), "", m.home)
	for i, r := range matches {
		home, away := r.Teams[0], r.Teams[1]
		for _, team := range []string{home.Name, away.Name} {
			if _, ok := m.teams[team]; !ok {
				b.Group(team)
				tv, err := p.DeclareTeam(b, team, prior)
				if err != nil {
					return nil, err
				}
				m.teams[team] = tv
			}
		}
		b.Group(fmt.Sprintf("%s v %s", home.Name, away.Name))
		_, err := gaussianOD.Declare(b, scorebased.Contest{
			Name: fmt.Sprintf("m%d.", i+1), A: m.teams[home.Name], B: m.teams[away.Name],
			ScoreA: float64(home.Score), ScoreB: float64(away.Score), Advantage: []graph.VarID{m.home},
		})
		if err != nil {
			return nil, err
		}
	}
	g, err := b.Build()
	if err != nil {
		return nil, err
	}
	m.g = g
	m.schedule, err = schedules.Derive(g, schedules.WithLoop(schedules.Tolerance(1e-6), schedules.MaxIterations(1000)))
	return m, err
}

// answers are the three inferences' marginals of the model's variables,
// by graph.VarID.
type answers struct {
	loopy, joint, exact []messages.Gaussian
	sweeps              int
	jointConverged      bool
}

// infer runs the three inferences: the derived schedule (loopy EP, whose
// marginals stay in the graph), joint EP and the exact solve.
func infer(m *model) (answers, schedules.Convergence, error) {
	res, err := schedules.Run(context.Background(), m.g, m.schedule)
	if err != nil {
		return answers{}, res, err
	}
	a := answers{loopy: make([]messages.Gaussian, m.g.NumVariables())}
	for v := range a.loopy {
		a.loopy[v] = m.g.Marginal(graph.VarID(v))
	}
	ep, err := exact.EP(context.Background(), m.g)
	if err != nil {
		return answers{}, res, err
	}
	a.joint, a.sweeps, a.jointConverged = ep.Marginals, ep.Sweeps, ep.Converged
	sol, err := exact.Solve(m.g)
	if err != nil {
		return answers{}, res, err
	}
	a.exact = sol.Marginals
	return a, res, nil
}

// row is one variable's line of the side-by-side table.
type row struct {
	name string
	v    graph.VarID
}

// sideBySide returns the rows of the table: the home advantage and the
// offence and defence of the first and last of the teams, in order.
func sideBySide(m *model, teams []string) []row {
	rows := []row{{"home advantage", m.home}}
	for _, n := range []string{teams[0], teams[len(teams)-1]} {
		rows = append(rows, row{n + " offence", m.teams[n].Offence}, row{n + " defence", m.teams[n].Defence})
	}
	return rows
}

// printSideBySide writes the table: each row's mean ± σ from loopy EP,
// joint EP and the exact solve.
func printSideBySide(w io.Writer, a answers, rows []row) {
	fmt.Fprintf(w, "%-20s%17s%17s%17s\n", "", "loopy EP", "joint EP", "exact")
	for _, r := range rows {
		fmt.Fprintf(w, "%-20s", r.name)
		for _, g := range []messages.Gaussian{a.loopy[r.v], a.joint[r.v], a.exact[r.v]} {
			fmt.Fprintf(w, "  %+6.3f ± %.4f", g.Mean(), g.Sigma())
		}
		fmt.Fprintln(w)
	}
}

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run is the command with its arguments and outputs, returning its exit
// status: cli.Usage for a flag or argument it does not take (one line on
// stderr), cli.Error for a file it cannot read or write.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("newmodel", flag.ContinueOnError)
	data := fs.String("data", "examples/data/epl.csv", "league CSV (date, season, home, away, home_score, away_score)")
	season := fs.String("season", "2008-09", "season to fit")
	dotFile := fs.String("dot", "", "write the model on the season's first -draw matches as Graphviz DOT to this file")
	draw := fs.Int("draw", 2, "matches to draw with -dot")
	if status, done := cli.Parse(fs, args, "newmodel [-data FILE] [-season S] [-dot FILE [-draw N]]", stderr); done {
		return status
	}
	if *draw < 1 {
		return cli.Usagef(stderr, "newmodel", "-draw %d: want at least 1 match", *draw)
	}
	if err := report(stdout, *data, *season, *dotFile, *draw); err != nil {
		return cli.Failf(stderr, "newmodel", "%v", err)
	}
	return cli.OK
}

// report fits the model to season of the file data, prints the side by
// side comparison and the teams on stdout, and with dotFile draws the
// model on the season's first draw matches.
func report(stdout io.Writer, data, season, dotFile string, draw int) error {
	all, _, err := record.ReadFile(data, record.OnlyFormat(record.Scores))
	if err != nil {
		return err
	}
	matches := evaluation.Season(all, season)
	if len(matches) == 0 {
		return fmt.Errorf("no matches of season %q in %s", season, data)
	}
	start := time.Now()
	m, err := newModel(matches)
	if err != nil {
		return err
	}
	a, res, err := infer(m)
	if err != nil {
		return err
	}
	took := time.Since(start)

	fmt.Fprintf(stdout, "%s: %d matches, %d teams; a graph of %d variables and %d factors\n",
		season, len(matches), len(m.teams), m.g.NumVariables(), m.g.NumFactors())
	fmt.Fprintf(stdout, "loopy EP: %d passes of the derived schedule (converged %v); joint EP: %d sweeps (converged %v); all three in %v\n\n",
		res.Iterations, res.Converged, a.sweeps, a.jointConverged, took.Round(time.Millisecond))

	names := make([]string, 0, len(m.teams))
	for n := range m.teams {
		names = append(names, n)
	}
	// A team's expected goal difference against an average side: its
	// offence adds to its goals, its defence takes from the opponent's.
	strength := func(n string) float64 {
		return a.exact[m.teams[n].Offence].Mean() + a.exact[m.teams[n].Defence].Mean()
	}
	slices.SortFunc(names, func(a, b string) int { return cmp.Compare(strength(b), strength(a)) })
	printSideBySide(stdout, a, sideBySide(m, names))
	fmt.Fprintln(stdout)

	fmt.Fprintln(stdout, "team              offence             defence        (goals; exact σ in brackets)")
	for _, n := range names {
		o, d := m.teams[n].Offence, m.teams[n].Defence
		fmt.Fprintf(stdout, "%-16s %5.2f ± %.2f (%.2f)  %5.2f ± %.2f (%.2f)\n", n,
			a.loopy[o].Mean(), a.loopy[o].Sigma(), a.exact[o].Sigma(),
			a.loopy[d].Mean(), a.loopy[d].Sigma(), a.exact[d].Sigma())
	}

	if dotFile == "" {
		return nil
	}
	small, err := newModel(matches[:min(draw, len(matches))])
	if err != nil {
		return err
	}
	text, err := dot.Marshal(small.g, dot.Options{Schedule: small.schedule, HideNumbers: true})
	if err != nil {
		return err
	}
	return os.WriteFile(dotFile, text, 0o644)
}
