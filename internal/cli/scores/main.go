package scores

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/skillgraph/skillgraph/internal/cli"
	"github.com/skillgraph/skillgraph/internal/cli/input"
	"github.com/skillgraph/skillgraph/internal/repo"
	"github.com/skillgraph/skillgraph/models/evaluation"
	"github.com/skillgraph/skillgraph/models/fit"
	"github.com/skillgraph/skillgraph/models/scorebased"
	"github.com/skillgraph/skillgraph/models/trueskill"
	"github.com/skillgraph/skillgraph/record"
)

// shipped is the league the subcommand reads without -matches, from the
// module root.
const shipped = "examples/data/epl.csv"

// config is the command line's settings.
type config struct {
	path     string
	season   string // "" for the file's last season
	holdout  int
	fit      bool
	progress time.Duration
}

// Prog is the subcommand's name in its messages.
const Prog = "skillgraph scores"

// Summary is the subcommand's one-line description for the command's
// help.
const Summary = "the score-based models (Guo et al. 2012), fitted, on a season of any scores file, predicting its last fixtures"

// Run is the subcommand with its arguments and streams, returning the exit
// status.
func Run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(Prog, flag.ContinueOnError)
	var c config
	fs.StringVar(&c.path, "matches", "", "scores file: time,home,away,home_score,away_score[,season] (default: the shipped "+shipped+")")
	fs.StringVar(&c.path, "data", "", "the same as -matches")
	fs.StringVar(&c.season, "season", "", "season to rate (default: the file's last; a file without seasons is rated whole)")
	fs.IntVar(&c.holdout, "next", 5, "number of final fixtures to predict")
	fs.BoolVar(&c.fit, "fit", true, "fit each score model's σ₀, β, base score and home advantage by evidence on the training matches; -fit=false uses the paper's settings")
	fs.DurationVar(&c.progress, "progress", 2*time.Second, "print progress on stderr for steps that run longer than this")
	usage := func(format string, a ...any) int { return cli.Usagef(stderr, Prog, format, a...) }
	if status, done := cli.Parse(fs, args, Prog+" [-matches FILE] [-season SEASON] [-next N] [-fit=false]", stderr); done {
		return status
	}
	given := 0
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "matches" || f.Name == "data" {
			given++
		}
	})
	if given > 1 {
		// Both set one path, the last one given: refused, not guessed.
		return usage("-matches and -data are the same flag: give one")
	}
	if c.holdout < 0 {
		return usage("-next %d: must not be negative", c.holdout)
	}
	if c.progress < 0 {
		return usage("-progress %v: must not be negative", c.progress)
	}
	fail := func(err error) int { return cli.Failf(stderr, Prog, "%v", err) }
	if c.path == "" {
		p, err := repo.Path(shipped)
		if err != nil {
			return fail(fmt.Errorf("no -matches given and the shipped %s is not found: %w", shipped, err))
		}
		c.path = p
	}
	if err := rate(stdout, stderr, c); err != nil {
		return fail(err)
	}
	return cli.OK
}

// tally sums one-step-ahead predictions: expected goals per side and the
// probability of a draw.
type tally struct {
	home, away, draw float64
	n                int
	scores           bool
}

func (t *tally) add(home, away, draw float64, scores bool) {
	t.home, t.away, t.draw, t.n, t.scores = t.home+home, t.away+away, t.draw+draw, t.n+1, scores
}

// model is one score model's ratings, learnt online from the training
// matches, each predicted before it is learnt.
type model[R scorebased.Team | scorebased.Rating] struct {
	m       scorebased.Online[R]
	ratings map[string]R
	ahead   tally
	logEv   float64
}

func (md *model[R]) get(team string) R {
	if r, ok := md.ratings[team]; ok {
		return r
	}
	return md.m.Fresh()
}

// learn rates train in order with m, tallying its predictions and summing
// the log evidence.
func learn[R scorebased.Team | scorebased.Rating](m scorebased.Online[R], train []scorebased.Match) (*model[R], error) {
	md := &model[R]{m: m, ratings: map[string]R{}}
	for i, x := range train {
		a, b := md.get(x.A), md.get(x.B)
		pr, err := m.Predict(a, b)
		if err != nil {
			return nil, fmt.Errorf("%s: match %d: %w", m.Name(), i, err)
		}
		md.ahead.add(pr.ScoreA, pr.ScoreB, pr.Draw, pr.HasScores)
		lp, err := m.LogPredictive(a, b, x.ScoreA, x.ScoreB)
		if err != nil {
			return nil, fmt.Errorf("%s: match %d: %w", m.Name(), i, err)
		}
		md.logEv += lp
		if md.ratings[x.A], md.ratings[x.B], err = m.Rate(context.Background(), a, b, x.ScoreA, x.ScoreB); err != nil {
			return nil, fmt.Errorf("%s: match %d: %w", m.Name(), i, err)
		}
	}
	return md, nil
}

// rate fits the models on the chosen season of the file but its last
// holdout matches, prints the ratings and how well they predicted, and
// predicts the held-out matches.
func rate(stdout, stderr io.Writer, c config) error {
	path, holdout := c.path, c.holdout
	ms, err := input.Read(stderr, Prog, path, record.Scores)
	if err != nil {
		return err
	}
	picked, season, err := pickSeason(path, ms, c.season)
	if err != nil {
		return err
	}
	all := picked
	neutral, err := input.Scored(path, all)
	if err != nil {
		return err
	}
	if holdout >= len(all) {
		what := season
		if what == "all matches" {
			what = "the file"
		}
		return fmt.Errorf("-next %d: %s has %s, and at least one match must be left to fit on", holdout, what, plural(len(all), "match", "matches"))
	}
	trainM, test := all[:len(all)-holdout], all[len(all)-holdout:]
	train := make([]scorebased.Match, len(trainM))
	for i, m := range trainM {
		train[i] = scorebased.Match{A: m.Teams[0].Name, B: m.Teams[1].Name, ScoreA: float64(m.Teams[0].Score), ScoreB: float64(m.Teams[1].Score)}
	}

	// The paper's settings: Table 1, γ and the draw probability from the
	// training matches, as the evaluation package sets them.
	pOD, pSD := scorebased.DefaultParams(), scorebased.DefaultParams()
	pOD.Gamma, pSD.Gamma = evaluation.Gammas(trainM)
	paper := [3]scorebased.Hyper{{Params: scorebased.DefaultParams()}, {Params: pOD}, {Params: pSD}}
	ts := trueskill.DefaultParams()
	ts.DrawProbability = evaluation.DrawProbability(trainM)
	cli.Fprintf(stdout, "%s, %s: fitted on %d matches (γ_OD = %.3f, γ_SD = %.3f; draw probability %.3f, estimated from the data)\n\n",
		path, season, len(train), pOD.Gamma, pSD.Gamma, ts.DrawProbability)

	if neutral > 0 {
		fmt.Fprintf(stdout, "%d matches were on neutral ground: the score models' home advantage applies to every home side, these too.\n\n", neutral)
	}
	sm, err := learnAll(paper, train)
	if err != nil {
		return err
	}
	if c.fit {
		paperEv := [3]float64{sm.pois.logEv, sm.god.logEv, sm.gsd.logEv}
		hyp, reports, err := fitAll(stderr, c.progress, train)
		if err != nil {
			return err
		}
		if sm, err = learnAll(hyp, train); err != nil {
			return err
		}
		printFit(stdout, hyp, reports, paperEv)
	} else {
		printPaperScale(stdout, pOD)
	}
	tl, err := learnTrueSkill(ts, trainM)
	if err != nil {
		return err
	}
	printRatings(stdout, sm, tl)
	printAhead(stdout, train, sm, tl)
	return printFixtures(stdout, test, sm, tl)
}

// modelNames are the score models' names, in the order of their
// hyperparameters.
var modelNames = [3]string{"Poisson-OD", "Gaussian-OD", "Gaussian-SD"}

// fitAll fits each score model's hyperparameters by evidence on train,
// reporting each evaluation and each finished fit on stderr if the fits
// take longer than progress.
func fitAll(stderr io.Writer, progress time.Duration, train []scorebased.Match) ([3]scorebased.Hyper, [3]fit.Report, error) {
	var hyp [3]scorebased.Hyper
	var reports [3]fit.Report
	start := time.Now()
	prog := cli.NewProgress(stderr, Prog, progress)
	for i := range hyp {
		opt := fit.Options[scorebased.Hyper]{Progress: func(p fit.Progress[scorebased.Hyper]) {
			prog.Printf("fit %s: evaluation %d: σ₀ = %.3g, β = %.3g: log evidence %.1f (best %.1f)", modelNames[i], p.Evaluation, p.Params.Params.Sigma, p.Params.Params.Beta, p.LogEvidence, p.Best)
		}}
		var err error
		if hyp[i], reports[i], err = fitModel(i, train, opt); err != nil {
			return hyp, reports, fmt.Errorf("fitting %s: %w", modelNames[i], err)
		}
		prog.Printf("fit %s: log evidence %.1f after %d evaluations, %v", modelNames[i], reports[i].LogEvidence, reports[i].Evaluations, time.Since(start).Round(time.Millisecond))
	}
	return hyp, reports, nil
}

// fitModel fits score model i (in modelNames' order) on train.
func fitModel(i int, train []scorebased.Match, opt fit.Options[scorebased.Hyper]) (scorebased.Hyper, fit.Report, error) {
	ctx, bounds, start := context.Background(), scorebased.DefaultFitBounds(), scorebased.FitStart()
	switch i {
	case 0:
		return scorebased.Fit(ctx, scorebased.OnlinePoissonOD, train, start, bounds, opt)
	case 1:
		return scorebased.Fit(ctx, scorebased.OnlineGaussianOD, train, start, bounds, opt)
	}
	return scorebased.Fit(ctx, scorebased.OnlineGaussianSD, train, start, bounds, opt)
}

// printFit prints the fitted hyperparameters beside the log evidence of
// the paper's settings.
func printFit(stdout io.Writer, hyp [3]scorebased.Hyper, reports [3]fit.Report, paperEv [3]float64) {
	fmt.Fprintln(stdout, "Hyperparameters fitted by evidence on the training matches (log evidence: the sum of each match's")
	fmt.Fprintln(stdout, "log predictive probability before it is learnt; Poisson a probability, Gaussian a density):")
	fmt.Fprintln(stdout, "model           σ₀       β       γ    base    home   log evidence (paper's settings)  evaluations")
	for i, h := range hyp {
		conv := ""
		if !reports[i].Converged {
			conv = " (not converged)"
		}
		if len(reports[i].AtBound) > 0 {
			conv += " at bound: " + strings.Join(reports[i].AtBound, ", ")
		}
		cli.Fprintf(stdout, "%-12s %7.3f %7.3f %7.3f %7.3f %7.3f %14.1f (%10.1f) %12d%s\n", modelNames[i],
			h.Params.Sigma, h.Params.Beta, h.Params.Gamma, h.Base, h.Home, reports[i].LogEvidence, paperEv[i], reports[i].Evaluations, conv)
	}
	fmt.Fprintln(stdout, "(Poisson-OD's base and home are on the log-rate scale; Gaussian-SD has no base.)")
	fmt.Fprintln(stdout)
}

// printPaperScale says why the paper's settings, pOD's, predict goals
// poorly.
func printPaperScale(stdout io.Writer, pOD scorebased.Params) {
	b, g := pOD.Beta, pOD.Gamma
	fmt.Fprintf(stdout, "These are the paper's settings (Table 1: σ₀ = %.2f, β = %.2f), which are on the wrong scale for goals.\n", pOD.Sigma, b)
	fmt.Fprintf(stdout, "β adds 2β² = %.1f goals² to the variance of each predicted score, so a predicted goal difference\n", 2*b*b)
	fmt.Fprintf(stdout, "spreads over ±%.1f goals (one sd) however well the teams are known: the Gaussian models'\n", math.Sqrt(2*(2*b*b+g*g)))
	fmt.Fprintln(stdout, "predictions are nearly flat, and Poisson-OD's expected goals and draw rates are off (see below).")
	fmt.Fprintln(stdout, "Run without -fit=false to choose σ₀, β, the base score and a home advantage by evidence on the training matches.")
	fmt.Fprintln(stdout)
}

// scoreModels are the three score models learnt from the training
// matches.
type scoreModels struct {
	pois, god *model[scorebased.Team]
	gsd       *model[scorebased.Rating]
}

// learnAll learns the three score models under hyp from train.
func learnAll(hyp [3]scorebased.Hyper, train []scorebased.Match) (scoreModels, error) {
	var sm scoreModels
	m, err := newModels(hyp)
	if err != nil {
		return sm, err
	}
	if sm.pois, err = learn(m.pois, train); err != nil {
		return sm, err
	}
	if sm.god, err = learn(m.god, train); err != nil {
		return sm, err
	}
	sm.gsd, err = learn(m.gsd, train)
	return sm, err
}

// trueSkillLeague is TrueSkill's ratings of the teams, learnt from the
// training matches, each predicted before it is learnt.
type trueSkillLeague struct {
	p       trueskill.Params
	ratings map[string]trueskill.Rating
	ahead   tally
}

func (tl *trueSkillLeague) get(name string) trueskill.Rating {
	if r, ok := tl.ratings[name]; ok {
		return r
	}
	return tl.p.NewRating()
}

// learnTrueSkill rates the matches in order with p.
func learnTrueSkill(p trueskill.Params, matches []record.Match) (*trueSkillLeague, error) {
	tl := &trueSkillLeague{p: p, ratings: map[string]trueskill.Rating{}}
	for _, m := range matches {
		home, away := m.Teams[0].Name, m.Teams[1].Name
		h, a := tl.get(home), tl.get(away)
		pr, err := p.Predict([]trueskill.Rating{h}, []trueskill.Rating{a})
		if err != nil {
			return nil, err
		}
		tl.ahead.add(0, 0, pr.Draw, false)
		res, err := p.Rate(context.Background(), trueskill.Match{Teams: [][]trueskill.Rating{{h}, {a}}, Ranks: m.Ranks()})
		if err != nil {
			return nil, err
		}
		tl.ratings[home], tl.ratings[away] = res.Ratings[0][0], res.Ratings[1][0]
	}
	return tl, nil
}

// printRatings prints every team's ratings, strongest by Gaussian-OD
// first.
func printRatings(stdout io.Writer, sm scoreModels, tl *trueSkillLeague) {
	teams := make([]string, 0, len(sm.god.ratings))
	for n := range sm.god.ratings {
		teams = append(teams, n)
	}
	slices.SortFunc(teams, func(a, b string) int {
		// Strength: offence plus defence (a high defence concedes little).
		ra, rb := sm.god.ratings[a], sm.god.ratings[b]
		return cmp.Or(cmp.Compare(rb.Offence.Mu+rb.Defence.Mu, ra.Offence.Mu+ra.Defence.Mu), cmp.Compare(a, b))
	})
	fmt.Fprintln(stdout, "team               Gaussian-OD off   def    Poisson-OD off   def   Gaussian-SD   TrueSkill μ (σ)")
	for _, n := range teams {
		g, p, s, t := sm.god.get(n), sm.pois.get(n), sm.gsd.get(n), tl.get(n)
		cli.Fprintf(stdout, "%-18s %14.2f %6.2f %14.2f %6.2f %12.2f %10.2f (%.2f)\n", n,
			g.Offence.Mu, g.Defence.Mu, p.Offence.Mu, p.Defence.Mu, s.Mu, t.Mu, t.Sigma)
	}
}

// printAhead prints the mean one-step-ahead predictions of each model
// beside the observed means of train.
func printAhead(stdout io.Writer, train []scorebased.Match, sm scoreModels, tl *trueSkillLeague) {
	var obs tally
	for _, x := range train {
		d := 0.0
		if x.ScoreA == x.ScoreB {
			d = 1
		}
		obs.add(x.ScoreA, x.ScoreB, d, true)
	}
	fmt.Fprintf(stdout, "\nOne-step-ahead predictions of the %d training matches (each predicted before it is learnt), means:\n", len(train))
	fmt.Fprintln(stdout, "              home goals  away goals  draw rate")
	for _, r := range []struct {
		name string
		t    tally
	}{{"observed", obs}, {"Poisson-OD", sm.pois.ahead}, {"Gaussian-OD", sm.god.ahead}, {"Gaussian-SD", sm.gsd.ahead}, {"TrueSkill", tl.ahead}} {
		n := float64(r.t.n)
		goals := fmt.Sprintf("%10s  %10s", "-", "-")
		if r.t.scores {
			goals = cli.Sprintf("%10.2f  %10.2f", r.t.home/n, r.t.away/n)
		}
		cli.Fprintf(stdout, "%-12s  %s  %9.2f\n", r.name, goals, r.t.draw/n)
	}
}

// printFixtures prints each model's prediction of the held-out matches.
func printFixtures(stdout io.Writer, test []record.Match, sm scoreModels, tl *trueSkillLeague) error {
	fmt.Fprintf(stdout, "\nNext %d fixtures (score: expected goals; W/D/L: probabilities for the home side)\n", len(test))
	for _, m := range test {
		home, away := m.Teams[0].Name, m.Teams[1].Name
		fmt.Fprintf(stdout, "\n%s  %s %d-%d %s\n", m.Time.Format("2006-01-02"), home, m.Teams[0].Score, m.Teams[1].Score, away)
		pp, err := sm.pois.m.Predict(sm.pois.get(home), sm.pois.get(away))
		if err != nil {
			return err
		}
		gp, err := sm.god.m.Predict(sm.god.get(home), sm.god.get(away))
		if err != nil {
			return err
		}
		sp, err := sm.gsd.m.Predict(sm.gsd.get(home), sm.gsd.get(away))
		if err != nil {
			return err
		}
		tp, err := tl.p.Predict([]trueskill.Rating{tl.get(home)}, []trueskill.Rating{tl.get(away)})
		if err != nil {
			return err
		}
		cli.Fprintf(stdout, "  Poisson-OD   score %5.2f-%-5.2f  W %.2f  D %.2f  L %.2f\n", pp.ScoreA, pp.ScoreB, pp.Win, pp.Draw, pp.Loss)
		cli.Fprintf(stdout, "  Gaussian-OD  score %5.2f-%-5.2f  W %.2f  D %.2f  L %.2f\n", gp.ScoreA, gp.ScoreB, gp.Win, gp.Draw, gp.Loss)
		cli.Fprintf(stdout, "  Gaussian-SD  diff  %+5.2f        W %.2f  D %.2f  L %.2f\n", sp.Difference, sp.Win, sp.Draw, sp.Loss)
		cli.Fprintf(stdout, "  TrueSkill                       W %.2f  D %.2f  L %.2f\n", tp.Win, tp.Draw, tp.Loss)
	}
	return nil
}

// models are the three score models under one setting each (Poisson-OD,
// Gaussian-OD, Gaussian-SD, in the order of hyp).
type models struct {
	pois, god scorebased.Online[scorebased.Team]
	gsd       scorebased.Online[scorebased.Rating]
}

func newModels(hyp [3]scorebased.Hyper) (models, error) {
	var ms models
	var err error
	if ms.pois, err = scorebased.OnlinePoissonOD(hyp[0]); err != nil {
		return ms, err
	}
	if ms.god, err = scorebased.OnlineGaussianOD(hyp[1]); err != nil {
		return ms, err
	}
	ms.gsd, err = scorebased.OnlineGaussianSD(hyp[2])
	return ms, err
}

// pickSeason returns the matches of the named season, or of the file's
// last season if name is "", with the season's label for the output. A
// file whose matches have no season is one season, "all matches".
func pickSeason(path string, file []record.Match, name string) ([]record.Match, string, error) {
	var seasons []string
	for _, m := range file {
		if !slices.Contains(seasons, m.Season) {
			seasons = append(seasons, m.Season)
		}
	}
	if len(seasons) == 1 && seasons[0] == "" {
		if name != "" {
			return nil, "", fmt.Errorf("-season %q: %s has no season column", name, path)
		}
		return file, "all matches", nil
	}
	if name == "" {
		name = file[len(file)-1].Season
	}
	var all []record.Match
	for _, m := range file {
		if m.Season == name {
			all = append(all, m)
		}
	}
	if len(all) == 0 {
		return nil, "", fmt.Errorf("%s: no matches in season %q (it has %d seasons, %s to %s)", path, name, len(seasons), seasons[0], seasons[len(seasons)-1])
	}
	return all, "season " + name, nil
}

// plural writes n with the singular or plural noun.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
