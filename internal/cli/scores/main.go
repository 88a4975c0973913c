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
	path, holdout, doFit := c.path, c.holdout, c.fit
	ms, err := input.Read(stderr, Prog, path, record.Scores)
	if err != nil {
		return err
	}
	picked, season, err := pickSeason(path, ms, c.season)
	if err != nil {
		return err
	}
	all, neutral, err := input.Scored(path, picked)
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
		train[i] = scorebased.Match{A: m.Home, B: m.Away, ScoreA: float64(m.HomeScore), ScoreB: float64(m.AwayScore)}
	}

	// The paper's settings: Table 1, γ and the draw probability from the
	// training matches, as the evaluation package sets them.
	pOD, pSD := scorebased.DefaultParams(), scorebased.DefaultParams()
	pOD.Gamma, pSD.Gamma = evaluation.Gammas(trainM)
	paper := [3]scorebased.Hyper{{Params: scorebased.DefaultParams()}, {Params: pOD}, {Params: pSD}}
	ts := trueskill.DefaultParams()
	ts.DrawProbability = evaluation.DrawProbability(evaluation.AsRanked(trainM))
	fmt.Fprintf(stdout, "%s, %s: fitted on %d matches (γ_OD = %.3f, γ_SD = %.3f; draw probability %.3f, estimated from the data)\n\n",
		path, season, len(train), pOD.Gamma, pSD.Gamma, ts.DrawProbability)

	if neutral > 0 {
		fmt.Fprintf(stdout, "%d matches were on neutral ground: the score models' home advantage applies to every home side, these too.\n\n", neutral)
	}
	hyp := paper
	names := [3]string{"Poisson-OD", "Gaussian-OD", "Gaussian-SD"}
	var reports [3]fit.Report
	if doFit {
		ctx := context.Background()
		bounds := scorebased.DefaultFitBounds()
		start := time.Now()
		prog := cli.NewProgress(stderr, Prog, c.progress)
		opt := func(i int) fit.Options[scorebased.Hyper] {
			return fit.Options[scorebased.Hyper]{Progress: func(p fit.Progress[scorebased.Hyper]) {
				prog.Printf("fit %s: evaluation %d: σ₀ = %.3g, β = %.3g: log evidence %.1f (best %.1f)", names[i], p.Evaluation, p.Params.Params.Sigma, p.Params.Params.Beta, p.LogEvidence, p.Best)
			}}
		}
		done := func(i int) {
			prog.Printf("fit %s: log evidence %.1f after %d evaluations, %v", names[i], reports[i].LogEvidence, reports[i].Evaluations, time.Since(start).Round(time.Millisecond))
		}
		if hyp[0], reports[0], err = scorebased.Fit(ctx, scorebased.OnlinePoissonOD, train, scorebased.FitStart(), bounds, opt(0)); err != nil {
			return fmt.Errorf("fitting %s: %w", names[0], err)
		}
		done(0)
		if hyp[1], reports[1], err = scorebased.Fit(ctx, scorebased.OnlineGaussianOD, train, scorebased.FitStart(), bounds, opt(1)); err != nil {
			return fmt.Errorf("fitting %s: %w", names[1], err)
		}
		done(1)
		if hyp[2], reports[2], err = scorebased.Fit(ctx, scorebased.OnlineGaussianSD, train, scorebased.FitStart(), bounds, opt(2)); err != nil {
			return fmt.Errorf("fitting %s: %w", names[2], err)
		}
		done(2)
	}
	pm, err := newModels(paper)
	if err != nil {
		return err
	}
	pois, err := learn(pm.pois, train)
	if err != nil {
		return err
	}
	god, err := learn(pm.god, train)
	if err != nil {
		return err
	}
	gsd, err := learn(pm.gsd, train)
	if err != nil {
		return err
	}
	paperEv := [3]float64{pois.logEv, god.logEv, gsd.logEv}
	if doFit {
		fm, err := newModels(hyp)
		if err != nil {
			return err
		}
		if pois, err = learn(fm.pois, train); err != nil {
			return err
		}
		if god, err = learn(fm.god, train); err != nil {
			return err
		}
		if gsd, err = learn(fm.gsd, train); err != nil {
			return err
		}
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
			fmt.Fprintf(stdout, "%-12s %7.3f %7.3f %7.3f %7.3f %7.3f %14.1f (%10.1f) %12d%s\n", names[i],
				h.Params.Sigma, h.Params.Beta, h.Params.Gamma, h.Base, h.Home, reports[i].LogEvidence, paperEv[i], reports[i].Evaluations, conv)
		}
		fmt.Fprintln(stdout, "(Poisson-OD's base and home are on the log-rate scale; Gaussian-SD has no base.)")
		fmt.Fprintln(stdout)
	} else {
		b, g := pOD.Beta, pOD.Gamma
		fmt.Fprintf(stdout, "These are the paper's settings (Table 1: σ₀ = %.2f, β = %.2f), which are on the wrong scale for goals.\n", pOD.Sigma, b)
		fmt.Fprintf(stdout, "β adds 2β² = %.1f goals² to the variance of each predicted score, so a predicted goal difference\n", 2*b*b)
		fmt.Fprintf(stdout, "spreads over ±%.1f goals (one sd) however well the teams are known: the Gaussian models'\n", math.Sqrt(2*(2*b*b+g*g)))
		fmt.Fprintln(stdout, "predictions are nearly flat, and Poisson-OD's expected goals and draw rates are off (see below).")
		fmt.Fprintln(stdout, "Run without -fit=false to choose σ₀, β, the base score and a home advantage by evidence on the training matches.")
		fmt.Fprintln(stdout)
	}

	teamsT := map[string]trueskill.Rating{}
	getT := func(name string) trueskill.Rating {
		if r, ok := teamsT[name]; ok {
			return r
		}
		return ts.NewRating()
	}
	var tsAhead tally
	for _, m := range trainM {
		h, a := getT(m.Home), getT(m.Away)
		pr, err := ts.Predict([]trueskill.Rating{h}, []trueskill.Rating{a})
		d := pr.Draw
		if err != nil {
			return err
		}
		tsAhead.add(0, 0, d, false)
		res, err := ts.Rate(context.Background(), trueskill.Match{Teams: [][]trueskill.Rating{{h}, {a}}, Ranks: m.Ranks()})
		if err != nil {
			return err
		}
		teamsT[m.Home], teamsT[m.Away] = res.Ratings[0][0], res.Ratings[1][0]
	}

	teams := make([]string, 0, len(god.ratings))
	for n := range god.ratings {
		teams = append(teams, n)
	}
	slices.SortFunc(teams, func(a, b string) int {
		// Strength: offence plus defence (a high defence concedes little).
		ra, rb := god.ratings[a], god.ratings[b]
		return cmp.Or(cmp.Compare(rb.Offence.Mu+rb.Defence.Mu, ra.Offence.Mu+ra.Defence.Mu), cmp.Compare(a, b))
	})
	fmt.Fprintln(stdout, "team               Gaussian-OD off   def    Poisson-OD off   def   Gaussian-SD   TrueSkill μ (σ)")
	for _, n := range teams {
		g, p, s, t := god.get(n), pois.get(n), gsd.get(n), getT(n)
		fmt.Fprintf(stdout, "%-18s %14.2f %6.2f %14.2f %6.2f %12.2f %10.2f (%.2f)\n", n,
			g.Offence.Mu, g.Defence.Mu, p.Offence.Mu, p.Defence.Mu, s.Mu, t.Mu, t.Sigma)
	}

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
	}{{"observed", obs}, {"Poisson-OD", pois.ahead}, {"Gaussian-OD", god.ahead}, {"Gaussian-SD", gsd.ahead}, {"TrueSkill", tsAhead}} {
		n := float64(r.t.n)
		goals := fmt.Sprintf("%10s  %10s", "-", "-")
		if r.t.scores {
			goals = fmt.Sprintf("%10.2f  %10.2f", r.t.home/n, r.t.away/n)
		}
		fmt.Fprintf(stdout, "%-12s  %s  %9.2f\n", r.name, goals, r.t.draw/n)
	}

	fmt.Fprintf(stdout, "\nNext %d fixtures (score: expected goals; W/D/L: probabilities for the home side)\n", len(test))
	for _, m := range test {
		fmt.Fprintf(stdout, "\n%s  %s %d-%d %s\n", m.Date, m.Home, m.HomeScore, m.AwayScore, m.Away)
		pp, err := pois.m.Predict(pois.get(m.Home), pois.get(m.Away))
		if err != nil {
			return err
		}
		gp, err := god.m.Predict(god.get(m.Home), god.get(m.Away))
		if err != nil {
			return err
		}
		sp, err := gsd.m.Predict(gsd.get(m.Home), gsd.get(m.Away))
		if err != nil {
			return err
		}
		tp, err := ts.Predict([]trueskill.Rating{getT(m.Home)}, []trueskill.Rating{getT(m.Away)})
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "  Poisson-OD   score %5.2f-%-5.2f  W %.2f  D %.2f  L %.2f\n", pp.ScoreA, pp.ScoreB, pp.Win, pp.Draw, pp.Loss)
		fmt.Fprintf(stdout, "  Gaussian-OD  score %5.2f-%-5.2f  W %.2f  D %.2f  L %.2f\n", gp.ScoreA, gp.ScoreB, gp.Win, gp.Draw, gp.Loss)
		fmt.Fprintf(stdout, "  Gaussian-SD  diff  %+5.2f        W %.2f  D %.2f  L %.2f\n", sp.Difference, sp.Win, sp.Draw, sp.Loss)
		fmt.Fprintf(stdout, "  TrueSkill                       W %.2f  D %.2f  L %.2f\n", tp.Win, tp.Draw, tp.Loss)
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
