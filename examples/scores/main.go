// Command scores fits the score-based models of Guo et al. (2012) —
// Poisson-OD, Gaussian-OD, Gaussian-SD — and TrueSkill on one season of a
// league file (columns date, season, home, away, home_score, away_score, as
// in ../shared/data), holding out its last five fixtures. It prints each
// team's ratings and, for the five held-out fixtures, every model's
// predicted score and win/draw/loss probabilities beside the actual result.
//
//	go run ./examples/scores -data ../shared/data/epl.csv -season 2008-09
//
// Errors are one line, "scores: what went wrong", with exit status 2 for a
// usage error and 1 for any other.
package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/skillgraph/skillgraph/internal/cli"
	"github.com/skillgraph/skillgraph/models/evaluation"
	"github.com/skillgraph/skillgraph/models/scorebased"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run is the program with its arguments and streams, returning the exit
// status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("scores", flag.ContinueOnError)
	data := fs.String("data", "../shared/data/epl.csv", "league CSV file")
	season := fs.String("season", "2008-09", "season to fit")
	holdout := fs.Int("next", 5, "number of final fixtures to predict")
	usage := func(format string, a ...any) int { return cli.Usagef(stderr, "scores", format, a...) }
	if status, done := cli.Parse(fs, args, "scores [-data FILE] [-season SEASON] [-next N]", stderr); done {
		return status
	}
	if *holdout < 0 {
		return usage("-next %d: must not be negative", *holdout)
	}
	if err := fit(stdout, *data, *season, *holdout); err != nil {
		fmt.Fprintln(stderr, "scores:", strings.ReplaceAll(err.Error(), "\n", " "))
		return cli.Error
	}
	return cli.OK
}

// fit fits the models on season of the file at path but its last holdout
// matches, prints the ratings and predicts the held-out matches.
func fit(stdout io.Writer, path, season string, holdout int) error {
	file, err := evaluation.LoadScored(path)
	if err != nil {
		return err
	}
	all := evaluation.Season(file, season)
	if len(all) == 0 {
		return fmt.Errorf("%s: no matches in season %q", path, season)
	}
	if holdout >= len(all) {
		return fmt.Errorf("-next %d: season %s has %d matches, and at least one must be left to fit on", holdout, season, len(all))
	}
	train, test := all[:len(all)-holdout], all[len(all)-holdout:]

	// γ and the draw probability from the training matches, as in the paper
	// and as the evaluation package sets them.
	pOD, pSD := scorebased.DefaultParams(), scorebased.DefaultParams()
	pOD.Gamma, pSD.Gamma = evaluation.Gammas(train)
	ts := trueskill.DefaultParams()
	ts.DrawProbability = evaluation.DrawProbability(evaluation.AsRanked(train))
	pois, god, gsd := scorebased.NewPoissonOD(scorebased.DefaultParams()), scorebased.NewGaussianOD(pOD), scorebased.NewGaussianSD(pSD)

	teamsP := map[string]scorebased.Team{}
	teamsG := map[string]scorebased.Team{}
	teamsS := map[string]scorebased.Rating{}
	teamsT := map[string]trueskill.Rating{}
	get := func(name string) {
		if _, ok := teamsG[name]; !ok {
			teamsP[name], teamsG[name] = pois.Params.NewTeam(), god.Params.NewTeam()
			teamsS[name], teamsT[name] = gsd.Params.NewRating(), ts.NewRating()
		}
	}
	maxSteps := 0
	for _, m := range train {
		get(m.Home)
		get(m.Away)
		h, a, steps, err := pois.Update(teamsP[m.Home], teamsP[m.Away], m.HomeScore, m.AwayScore)
		if err != nil {
			return err
		}
		teamsP[m.Home], teamsP[m.Away], maxSteps = h, a, max(maxSteps, steps)
		if teamsG[m.Home], teamsG[m.Away], err = god.Update(teamsG[m.Home], teamsG[m.Away], float64(m.HomeScore), float64(m.AwayScore)); err != nil {
			return err
		}
		if teamsS[m.Home], teamsS[m.Away], err = gsd.Update(teamsS[m.Home], teamsS[m.Away], float64(m.HomeScore), float64(m.AwayScore)); err != nil {
			return err
		}
		res, err := ts.Rate(context.Background(), trueskill.Match{Teams: [][]trueskill.Rating{{teamsT[m.Home]}, {teamsT[m.Away]}}, Ranks: m.Ranks()})
		if err != nil {
			return err
		}
		teamsT[m.Home], teamsT[m.Away] = res.Ratings[0][0], res.Ratings[1][0]
	}
	fmt.Fprintf(stdout, "%s %s: fitted on %d matches (γ_OD = %.3f, γ_SD = %.3f, draw probability %.3f; Lemma 1 took at most %d Halley steps)\n\n",
		path, season, len(train), pOD.Gamma, pSD.Gamma, ts.DrawProbability, maxSteps)

	names := make([]string, 0, len(teamsG))
	for n := range teamsG {
		names = append(names, n)
	}
	slices.SortFunc(names, func(a, b string) int {
		// Strength: offence plus defence (a high defence concedes little).
		return cmp.Compare(teamsG[b].Offence.Mu+teamsG[b].Defence.Mu, teamsG[a].Offence.Mu+teamsG[a].Defence.Mu)
	})
	fmt.Fprintln(stdout, "team               Gaussian-OD off   def    Poisson-OD off   def   Gaussian-SD   TrueSkill μ (σ)")
	for _, n := range names {
		g, p, s, t := teamsG[n], teamsP[n], teamsS[n], teamsT[n]
		fmt.Fprintf(stdout, "%-18s %14.2f %6.2f %14.2f %6.2f %12.2f %10.2f (%.2f)\n", n,
			g.Offence.Mu, g.Defence.Mu, p.Offence.Mu, p.Defence.Mu, s.Mu, t.Mu, t.Sigma)
	}

	fmt.Fprintf(stdout, "\nNext %d fixtures (score: expected goals; W/D/L: probabilities for the home side)\n", len(test))
	for _, m := range test {
		get(m.Home)
		get(m.Away)
		fmt.Fprintf(stdout, "\n%s  %s %d-%d %s\n", m.Date, m.Home, m.HomeScore, m.AwayScore, m.Away)
		pp, err := pois.Predict(teamsP[m.Home], teamsP[m.Away])
		if err != nil {
			return err
		}
		gp, err := god.Predict(teamsG[m.Home], teamsG[m.Away])
		if err != nil {
			return err
		}
		sp, err := gsd.Predict(teamsS[m.Home], teamsS[m.Away])
		if err != nil {
			return err
		}
		w, d, l, err := ts.OutcomeProbabilities([]trueskill.Rating{teamsT[m.Home]}, []trueskill.Rating{teamsT[m.Away]})
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "  Poisson-OD   score %5.2f-%-5.2f  W %.2f  D %.2f  L %.2f\n", pp.ScoreA, pp.ScoreB, pp.Win, pp.Draw, pp.Loss)
		fmt.Fprintf(stdout, "  Gaussian-OD  score %5.2f-%-5.2f  W %.2f  D %.2f  L %.2f\n", gp.ScoreA, gp.ScoreB, gp.Win, gp.Draw, gp.Loss)
		fmt.Fprintf(stdout, "  Gaussian-SD  diff  %+5.2f        W %.2f  D %.2f  L %.2f\n", sp.Difference, sp.Win, sp.Draw, sp.Loss)
		fmt.Fprintf(stdout, "  TrueSkill                       W %.2f  D %.2f  L %.2f\n", w, d, l)
	}
	return nil
}
