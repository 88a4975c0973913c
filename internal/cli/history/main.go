package history

import (
	"bytes"
	"cmp"
	"context"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/skillgraph/skillgraph/internal/cli"
	"github.com/skillgraph/skillgraph/internal/plot"
	"github.com/skillgraph/skillgraph/internal/safefile"
	"github.com/skillgraph/skillgraph/internal/tttcases"
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/models/fit"
	"github.com/skillgraph/skillgraph/models/throughtime"
)

// options are the command line's settings for -matches.
type options struct {
	path        string
	p           throughtime.Params
	drawGiven   bool          // -draw was given; otherwise the data's
	unit        time.Duration // one unit of time, which γ is per
	tol         float64
	maxSweeps   int
	out         string
	figure      string // the learning curves' format: svg or png
	top         int
	fit         bool
	fitEvidence throughtime.Objective
	evaluate    bool
	k           int
	tau         float64 // TrueSkill's τ for -evaluate; negative: σ₀/100
	jsonOut     string
	progress    time.Duration // progress lines for steps longer than this
	home        string        // learn or off; "" for learn where the file has venues
	// model holds the options every history is made with: the home
	// advantage's prior when it is learned.
	model []throughtime.Option
}

// homeName is the pseudo-player whose skill is the home advantage, in the
// home team of every home-and-away game not on neutral ground.
const homeName = "(home advantage)"

const synopsis = Prog + " -matches FILE [-unit years] [-draw p] [-fit] [-evaluate [-k 3] [-json FILE]] [-out DIR] [-mu -sigma -beta -gamma] | " + Prog + " -cases FILE"

// Prog is the subcommand's name in its messages.
const Prog = "skillgraph history"

// Summary is the subcommand's one-line description for the command's
// help.
const Summary = "TrueSkill Through Time: smooth a whole history, fit its parameters, evaluate its predictions, draw learning curves"

// Run is the subcommand with its arguments and streams, returning the exit
// status.
func Run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(Prog, flag.ContinueOnError)
	cases := fs.String("cases", "", "reference vectors to check (ttt_cases.json)")
	var o options
	fs.StringVar(&o.path, "matches", "", "history: the long format (match_id,time,team,player,rank) or the scores format (time,home,away,home_score,away_score)")
	unit := fs.String("unit", "years", "unit of time: days, weeks, months, years, or a number of days (γ is per unit)")
	fs.Float64Var(&o.tol, "tol", 1e-6, "stop when no skill's μ or σ moves more than this in a sweep")
	fs.IntVar(&o.maxSweeps, "max", 200, "most sweeps")
	fs.StringVar(&o.out, "out", "", "folder for learning_curves.csv and the learning-curve figure (created if absent)")
	fs.StringVar(&o.figure, "figure", "svg", "format of the learning-curve figure under -out: svg or png")
	fs.IntVar(&o.top, "top", 10, "players to list")
	fs.BoolVar(&o.fit, "fit", false, "fit σ, γ and the draw probability (β fixed) before smoothing")
	fitEvidence := fs.String("fit-evidence", "filtered", "evidence -fit maximises: filtered or smoothed")
	fs.BoolVar(&o.evaluate, "evaluate", false, "compare one-step-ahead predictions of filtering, smoothing and TrueSkill")
	fs.IntVar(&o.k, "k", 3, "sweeps after each batch in -evaluate's smoothing")
	o.tau = -1
	fs.Func("tau", "TrueSkill's τ in -evaluate (default σ/100; fitted with -fit)", func(s string) error {
		t, err := strconv.ParseFloat(s, 64)
		if err != nil || !(t >= 0) {
			return fmt.Errorf("%q is not a number at least 0", s)
		}
		o.tau = t
		return nil
	})
	fs.StringVar(&o.jsonOut, "json", "", "with -evaluate, also write the results as JSON to this file")
	fs.StringVar(&o.home, "home", "", "home advantage in the scores format: learn (the default there) or off; neutral games have none")
	fs.DurationVar(&o.progress, "progress", 2*time.Second, "print progress on stderr for steps that run longer than this")
	o.p = throughtime.DefaultParams()
	fs.Float64Var(&o.p.Mu, "mu", o.p.Mu, "prior mean")
	fs.Float64Var(&o.p.Sigma, "sigma", o.p.Sigma, "prior standard deviation")
	fs.Float64Var(&o.p.Beta, "beta", o.p.Beta, "performance noise")
	fs.Float64Var(&o.p.Gamma, "gamma", o.p.Gamma, "skill drift per unit of time")
	draw := cli.ProbabilityFlag(fs, "draw", "draw probability in [0, 1) (default: the data's share of tied places)")
	if status, done := cli.Parse(fs, args, synopsis, stderr); done {
		return status
	}
	if *draw != nil {
		o.p.DrawProbability, o.drawGiven = **draw, true
	}
	usage := func(format string, a ...any) int { return cli.Usagef(stderr, Prog, format, a...) }
	if err := o.check(*unit, *fitEvidence); err != nil {
		return usage("%v", err)
	}
	// A flag that only means something with another is refused without
	// it, rather than ignored: -json without -evaluate would write nothing.
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	for _, d := range []struct {
		flag, with string
		on         bool
	}{{"json", "evaluate", o.evaluate}, {"k", "evaluate", o.evaluate}, {"tau", "evaluate", o.evaluate}, {"figure", "out", o.out != ""}, {"fit-evidence", "fit", o.fit}} {
		if set[d.flag] && !d.on {
			return usage("-%s goes with -%s", d.flag, d.with)
		}
	}
	fail := func(err error) int { return cli.Failf(stderr, Prog, "%v", err) }
	outputs := []string{o.jsonOut}
	if o.out != "" {
		outputs = append(outputs, filepath.Join(o.out, "learning_curves.csv"), filepath.Join(o.out, "learning_curves."+o.figure))
	}
	for _, out := range outputs {
		if out != "" && cli.SameFile(out, o.path) {
			return usage("%s is the -matches file, which the output would overwrite", out)
		}
	}
	switch {
	case *cases != "" && o.path != "":
		return usage("-cases and -matches: give one")
	case *cases != "":
		passed, err := conformance(stdout, *cases)
		if err != nil {
			return fail(err)
		}
		if !passed {
			return cli.Error
		}
	case o.path != "":
		if err := matches(stdout, stderr, o); err != nil {
			return fail(err)
		}
	default:
		return usage("give -cases or -matches")
	}
	return cli.OK
}

// check reads -unit and -fit-evidence into o and reports a flag out of
// range, by its name.
func (o *options) check(unit, fitEvidence string) error {
	var err error
	if o.unit, err = parseUnit(unit); err != nil {
		return fmt.Errorf("-unit %q: %v", unit, err)
	}
	switch fitEvidence {
	case "filtered":
		o.fitEvidence = throughtime.FilteredEvidence
	case "smoothed":
		o.fitEvidence = throughtime.SmoothedEvidence
	default:
		return fmt.Errorf("-fit-evidence %q: want filtered or smoothed", fitEvidence)
	}
	if err := checkParams(o.p, o.tau); err != nil {
		return err
	}
	switch {
	case !(o.tol > 0) || math.IsInf(o.tol, 1):
		return fmt.Errorf("-tol %v: must be positive and finite", o.tol)
	case o.maxSweeps < 1:
		return fmt.Errorf("-max %d: must be at least 1", o.maxSweeps)
	case o.k < 0:
		return fmt.Errorf("-k %d: must not be negative", o.k)
	case o.top < 0:
		return fmt.Errorf("-top %d: must not be negative", o.top)
	case o.figure != "svg" && o.figure != "png":
		return fmt.Errorf("-figure %q: want svg or png", o.figure)
	case o.home != "" && o.home != "learn" && o.home != "off":
		return fmt.Errorf("-home %q: want learn or off", o.home)
	case o.progress < 0:
		return fmt.Errorf("-progress %v: must not be negative", o.progress)
	}
	return nil
}

// maxScale bounds σ, β, γ and τ (and 1/maxScale bounds σ and β from
// below), so that their squares and the sums of a few of them, the
// variances the model adds, stay within float64.
const maxScale = 1e100

// checkParams reports a prior, noise or drift the flags set out of range,
// by the flag's name; tau is -tau, negative for its default.
func checkParams(p throughtime.Params, tau float64) error {
	for _, f := range []struct {
		name     string
		v        float64
		positive bool
	}{{"mu", p.Mu, false}, {"sigma", p.Sigma, true}, {"beta", p.Beta, true}, {"gamma", p.Gamma, false}, {"tau", tau, false}} {
		switch {
		case math.IsNaN(f.v) || math.IsInf(f.v, 0):
			return fmt.Errorf("-%s %v: must be finite", f.name, f.v)
		case f.positive && !(f.v >= 1/maxScale):
			return fmt.Errorf("-%s %v: must be at least %g", f.name, f.v, 1/maxScale)
		case f.name == "gamma" && f.v < 0:
			return fmt.Errorf("-gamma %v: must not be negative", f.v)
		case f.name != "mu" && f.v > maxScale:
			return fmt.Errorf("-%s %v: must be at most %g", f.name, f.v, maxScale)
		}
	}
	return nil
}

// conformance checks every case of the reference vectors at path and
// reports whether all passed.
func conformance(w io.Writer, path string) (bool, error) {
	f, err := tttcases.Load(path)
	if err != nil {
		return false, err
	}
	if len(f.Cases) == 0 {
		return false, fmt.Errorf("%s: no cases", path)
	}
	passed, failed := 0, 0
	for _, c := range f.Cases {
		res := f.Check(c)
		if len(res.Failures) == 0 {
			passed++
			fmt.Fprintf(w, "ok    %s (%d sweeps; the reference %d)\n", c.Name, res.Sweeps, res.ReferenceSweeps)
			continue
		}
		failed++
		fmt.Fprintf(w, "FAIL  %s\n", c.Name)
		for _, msg := range res.Failures {
			fmt.Fprintf(w, "      %s\n", msg)
		}
	}
	fmt.Fprintf(w, "ttt conformance: %d passed, %d failed\n", passed, failed)
	return failed == 0, nil
}

// matches runs -matches: fit (if asked), evaluate (if asked), else smooth.
// The output folder and files are made sure of before any work.
func matches(stdout, stderr io.Writer, o options) error {
	if o.out != "" {
		if err := os.MkdirAll(o.out, 0o755); err != nil {
			return fmt.Errorf("-out: %w", err)
		}
		if err := canWrite(o.out); err != nil {
			return fmt.Errorf("-out %s: %w", o.out, err)
		}
	}
	if o.jsonOut != "" {
		if err := canWrite(filepath.Dir(o.jsonOut)); err != nil {
			return fmt.Errorf("-json %s: %w", o.jsonOut, err)
		}
	}
	d, err := load(stderr, o.path, o.unit)
	if err != nil {
		return err
	}
	p, err := drawProbability(stdout, d, o)
	if err != nil {
		return err
	}
	if o.home == "learn" || (o.home == "" && d.homeGames > 0) {
		// The home team's performance gains the home advantage, a skill of
		// its own (prior N(0, σ₀²), drifting as skills do, no noise of its
		// own) in a pseudo-player that plays every home game; a player of
		// its name would be merged into it.
		for _, g := range d.games {
			for _, team := range g.Teams {
				if slices.Contains(team, homeName) {
					return fmt.Errorf("%s: a player is named %q, the name of the home advantage's pseudo-player: rename them, or leave the home advantage out with -home off", o.path, homeName)
				}
			}
		}
		for k, g := range d.games {
			if d.home[k] {
				teams := slices.Clone(g.Teams)
				teams[0] = append(slices.Clone(teams[0]), homeName)
				d.games[k].Teams = teams
				if g.Weights != nil {
					w := slices.Clone(g.Weights)
					w[0] = append(slices.Clone(w[0]), 1)
					d.games[k].Weights = w
				}
			}
		}
		o.model = []throughtime.Option{throughtime.WithPriors(map[string]throughtime.Player{homeName: {Mu: 0, Sigma: p.Sigma, Beta: 0, Gamma: p.Gamma}})}
		fmt.Fprintf(stdout, "home advantage learned from %d home games (%d on neutral ground have none; -home off leaves it out)\n", d.homeGames, d.neutral)
	}
	ctx := context.Background()
	if o.fit {
		if p, err = fitParams(ctx, stdout, stderr, d, p, o); err != nil {
			return err
		}
	}
	if o.evaluate {
		return d.explain(evaluateCmd(ctx, stdout, stderr, d.games, p, o), p)
	}
	return smooth(ctx, stdout, stderr, d, p, o)
}

// canWrite reports whether a file can be made in dir, by making one and
// removing it.
func canWrite(dir string) error {
	f, err := os.CreateTemp(dir, ".probe-*")
	if err != nil {
		return err
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// drawProbability returns o's parameters with the draw probability set:
// the data's share of tied places unless -draw gave one, which must allow
// the data's draws. It prints which it is.
func drawProbability(w io.Writer, d data, o options) (throughtime.Params, error) {
	p := o.p
	if !o.drawGiven {
		p.DrawProbability = d.drawShare
		fmt.Fprintf(w, "draw probability %.4g, estimated from the data (the share of tied places; -draw sets it)\n", p.DrawProbability)
		return p, nil
	}
	if p.DrawProbability == 0 && d.draws > 0 {
		games := "games"
		if d.draws == 1 {
			games = "game"
		}
		return p, fmt.Errorf("%s has %d %s with tied places, which a draw probability of 0 (-draw 0) makes impossible: give one above 0, or leave -draw out to estimate it (%.4g)", o.path, d.draws, games, d.drawShare)
	}
	fmt.Fprintf(w, "draw probability %.4g (given; the data's share of tied places is %.4g)\n", p.DrawProbability, d.drawShare)
	return p, nil
}

// fitParams fits the history's parameters from p and prints them, with a
// line on stderr for each evaluation of the evidence once the fit has run
// longer than o.progress.
func fitParams(ctx context.Context, stdout, stderr io.Writer, d data, p throughtime.Params, o options) (throughtime.Params, error) {
	bounds := throughtime.DefaultFitBounds(p)
	// Start strictly inside the fit's bounds: the data's draw share, or
	// a σ or γ given far from β, may lie beyond them.
	for _, f := range []struct {
		v *float64
		b fit.Bounds
	}{{&p.Sigma, bounds.Sigma}, {&p.Gamma, bounds.Gamma}, {&p.DrawProbability, bounds.DrawProbability}} {
		switch {
		case f.b.Fixed():
		case *f.v <= f.b.Lo:
			*f.v = f.b.Lo + (f.b.Hi-f.b.Lo)/100
		case *f.v >= f.b.Hi:
			*f.v = f.b.Hi - (f.b.Hi-f.b.Lo)/100
		}
	}
	start := time.Now()
	prog := cli.NewProgress(stderr, Prog, o.progress)
	var opt fit.Options[throughtime.Params]
	opt.Progress = func(f fit.Progress[throughtime.Params]) {
		q := f.Params
		prog.Printf("fit: evaluation %d: σ = %.4g, γ = %.4g, draw probability %.4g: log evidence %.2f (best %.2f)", f.Evaluation, q.Sigma, q.Gamma, q.DrawProbability, f.LogEvidence, f.Best)
	}
	fitted, rep, err := throughtime.Fit(ctx, p, d.games, bounds, o.fitEvidence, opt, o.model...)
	if err != nil {
		return p, fmt.Errorf("fitting σ, γ and the draw probability: %w", d.explain(err, p))
	}
	cli.Fprintf(stdout, "fit (%s evidence, β = %g fixed): σ = %.4g, γ = %.4g, draw probability = %.4g; log evidence %.2f (start %.2f); %d evaluations in %v, converged %v (%s)\n",
		o.fitEvidence, fitted.Beta, fitted.Sigma, fitted.Gamma, fitted.DrawProbability, rep.LogEvidence, rep.StartLogEvidence,
		rep.Evaluations, time.Since(start).Round(time.Millisecond), rep.Converged, rep.Status)
	if rep.Unconverged > 0 {
		fmt.Fprintf(stdout, "  (%d evaluations stopped smoothing at the sweep cap)\n", rep.Unconverged)
	}
	return fitted, nil
}

// smooth runs the forward pass and sweeps to o.tol, then prints the
// outcome and the strongest players, and writes the curves under o.out.
func smooth(ctx context.Context, stdout, stderr io.Writer, d data, p throughtime.Params, o options) error {
	start := time.Now()
	h, err := throughtime.New(p, d.games, o.model...)
	if err != nil {
		return d.explain(err, p)
	}
	if err := checkEvidence(h.FilteredLogEvidence(), p); err != nil {
		return err
	}
	cli.Fprintf(stdout, "%s: %d games, %d players; forward pass in %v, one-step-ahead log evidence %.1f\n",
		o.path, len(d.games), len(h.Players())-countHome(h, o), time.Since(start).Round(time.Millisecond), h.FilteredLogEvidence())
	start = time.Now()
	prog := cli.NewProgress(stderr, Prog, o.progress)
	var sweeps int
	converged := false
	for sweeps < o.maxSweeps && !converged {
		res, err := h.Converge(ctx, o.tol, 1)
		if err != nil {
			return d.explain(err, p)
		}
		sweeps++
		converged = res.Converged
		prog.Printf("sweep %d: largest move %.3g", sweeps, res.Delta)
	}
	elapsed := time.Since(start)
	_, lz, err := h.LogEvidence()
	if err != nil {
		return d.explain(err, p)
	}
	if !messages.IsFinite(lz) {
		return fmt.Errorf("smoothing: log evidence %v: %w", lz, errPrecision(p))
	}
	cli.Fprintf(stdout, "smoothing: converged %v after %d sweeps to %g in %v (%v a sweep); log evidence %.1f\n",
		converged, sweeps, o.tol, elapsed.Round(time.Millisecond), (elapsed / time.Duration(max(sweeps, 1))).Round(time.Millisecond), lz)

	type best struct {
		name string
		at   throughtime.Point
	}
	var players []best
	for _, name := range h.Players() {
		if name == homeName && len(o.model) > 0 {
			c := h.LearningCurve(name)
			fmt.Fprintf(stdout, "home advantage at the end: μ = %s  σ = %s\n", skill(c[len(c)-1].Mu), skill(c[len(c)-1].Sigma))
			continue
		}
		c := h.LearningCurve(name)
		players = append(players, best{name, c[len(c)-1]})
	}
	slices.SortFunc(players, func(a, b best) int {
		return cmp.Or(cmp.Compare(b.at.Mu-2*b.at.Sigma, a.at.Mu-2*a.at.Sigma), cmp.Compare(a.name, b.name))
	})
	fmt.Fprintf(stdout, "\nhighest final skill (μ − 2σ):\n")
	for _, b := range players[:min(o.top, len(players))] {
		fmt.Fprintf(stdout, "  %-28s μ = %s  σ = %s  (last played %s)\n", b.name, skill(b.at.Mu), skill(b.at.Sigma), d.date(b.at.Time))
	}
	if o.out == "" {
		return nil
	}
	var curves []plot.Curve
	for _, b := range players[:min(6, len(players))] {
		c := plot.Curve{Name: b.name}
		for _, pt := range h.LearningCurve(b.name) {
			c.Points = append(c.Points, plot.CurvePoint{Time: d.clock(pt.Time), Mu: pt.Mu, Sigma: pt.Sigma})
		}
		curves = append(curves, c)
	}
	// The figure is drawn before either file is written, so that a run
	// whose figure fails leaves no output.
	var fig bytes.Buffer
	if err := plot.LearningCurves(&fig, o.figure, curves); err != nil {
		return err
	}
	if err := writeFile(stdout, filepath.Join(o.out, "learning_curves.csv"), func(w io.Writer) error { return writeCurves(w, h, d) }); err != nil {
		return err
	}
	return writeFile(stdout, filepath.Join(o.out, "learning_curves."+o.figure), func(w io.Writer) error {
		_, err := w.Write(fig.Bytes())
		return err
	})
}

// countHome returns 1 if the home advantage's pseudo-player is among h's
// players, which it is only once it has played a game at home, else 0.
func countHome(h *throughtime.History, o options) int {
	if len(o.model) > 0 && slices.Contains(h.Players(), homeName) {
		return 1
	}
	return 0
}

// skill writes a skill or its deviation with two decimals, or with ten
// significant digits when it is large.
func skill(x float64) string {
	if math.Abs(x) < 1e6 {
		return cli.Sprintf("%6.2f", x)
	}
	return fmt.Sprintf("%.10g", x)
}

// checkEvidence rejects a one-step-ahead log evidence that is not the log
// of a probability: positive or not finite, as the forward pass gives
// when the prior mean is so large beside σ and β that float64 cannot
// hold the differences of skill.
func checkEvidence(lz float64, p throughtime.Params) error {
	if messages.IsFinite(lz) && lz <= 0 {
		return nil
	}
	return fmt.Errorf("one-step-ahead log evidence %v is not the log of a probability: %w", lz, errPrecision(p))
}

// numeric replaces an error of messages beyond float64's range, whose
// text shows the message's internals, with errPrecision.
func numeric(err error, p throughtime.Params) error {
	if errors.Is(err, messages.ErrNumerical) {
		return fmt.Errorf("messages beyond float64's range: %w", errPrecision(p))
	}
	return err
}

// errPrecision explains a history whose numbers went wrong: by a prior
// mean far from 0 beside σ and β, which only differences of skill make
// needless, or else by the other parameters, a draw probability so near
// 0 that a draw's probability underflows among them.
func errPrecision(p throughtime.Params) error {
	if math.Abs(p.Mu) > max(p.Sigma, p.Beta) {
		return fmt.Errorf("with -mu %g, -sigma %g and -beta %g the skills' differences are beyond float64's precision; only differences of skill matter, so use a prior mean near 0", p.Mu, p.Sigma, p.Beta)
	}
	return fmt.Errorf("with -sigma %g, -beta %g, -gamma %g and draw probability %g the history's probabilities are beyond float64's precision; move the one furthest from the data's scale", p.Sigma, p.Beta, p.Gamma, p.DrawProbability)
}

// writeCurves writes every learning curve as player,date,mu,sigma.
func writeCurves(f io.Writer, h *throughtime.History, d data) error {
	w := csv.NewWriter(f)
	w.Write([]string{"player", "date", "mu", "sigma"})
	for _, name := range h.Players() {
		for _, pt := range h.LearningCurve(name) {
			w.Write([]string{name, d.date(pt.Time), strconv.FormatFloat(pt.Mu, 'g', 10, 64), strconv.FormatFloat(pt.Sigma, 'g', 10, 64)})
		}
	}
	w.Flush()
	return w.Error()
}

// writeFile writes path atomically (package safefile: a crash leaves the
// old file or the new one, a symbolic link stays a link) and says so on
// log.
func writeFile(log io.Writer, path string, write func(io.Writer) error) error {
	if err := safefile.Write(path, write); err != nil {
		return err
	}
	fmt.Fprintln(log, "wrote", path)
	return nil
}
