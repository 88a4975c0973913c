package history

import (
	"cmp"
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/skillgraph/skillgraph/internal/cli"
	"github.com/skillgraph/skillgraph/internal/tttcases"
	"github.com/skillgraph/skillgraph/models/throughtime"
)

// options are the command line's settings for -matches.
type options struct {
	path        string
	p           throughtime.Params
	unit        float64 // days in one unit of time
	tol         float64
	maxSweeps   int
	out         string
	top         int
	fit         bool
	fitEvidence throughtime.Evidence
	evaluate    bool
	k           int
	tau         float64 // TrueSkill's τ for -evaluate; negative: σ₀/100
	jsonOut     string
}

// Run is the subcommand with its arguments and streams, returning the exit
// status.
func Run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("history", flag.ContinueOnError)
	cases := fs.String("cases", "", "reference vectors to check (ttt_cases.json)")
	var o options
	fs.StringVar(&o.path, "matches", "", "history: match_id,date,team,player,rank or date,season,home,away,home_score,away_score")
	unit := fs.String("unit", "years", "unit of time: days, weeks, months, years, or a number of days (γ is per unit)")
	fs.Float64Var(&o.tol, "tol", 1e-6, "stop when no skill's μ or σ moves more than this in a sweep")
	fs.IntVar(&o.maxSweeps, "max", 200, "most sweeps")
	fs.StringVar(&o.out, "out", "", "directory for learning_curves.csv and learning_curves.svg")
	fs.IntVar(&o.top, "top", 10, "players to list")
	fs.BoolVar(&o.fit, "fit", false, "fit σ, γ and the draw probability (β fixed) before smoothing")
	fitEvidence := fs.String("fit-evidence", "filtered", "evidence -fit maximises: filtered or smoothed")
	fs.BoolVar(&o.evaluate, "evaluate", false, "compare one-step-ahead predictions of filtering, smoothing and TrueSkill")
	fs.IntVar(&o.k, "k", 3, "sweeps after each batch in -evaluate's smoothing")
	fs.Float64Var(&o.tau, "tau", -1, "TrueSkill's τ in -evaluate (default σ/100; fitted with -fit)")
	fs.StringVar(&o.jsonOut, "json", "", "with -evaluate, also write the results as JSON to this file")
	o.p = throughtime.DefaultParams()
	fs.Float64Var(&o.p.Mu, "mu", o.p.Mu, "prior mean")
	fs.Float64Var(&o.p.Sigma, "sigma", o.p.Sigma, "prior standard deviation")
	fs.Float64Var(&o.p.Beta, "beta", o.p.Beta, "performance noise")
	fs.Float64Var(&o.p.Gamma, "gamma", o.p.Gamma, "skill drift per unit of time")
	fs.Float64Var(&o.p.DrawProbability, "draw", o.p.DrawProbability, "draw probability")
	const synopsis = "history -cases FILE | -matches FILE [-unit years] [-tol 1e-6] [-max N] [-out DIR] [-fit] [-evaluate [-k 3] [-json FILE]] [-mu -sigma -beta -gamma -draw]"
	if status, done := cli.Parse(fs, args, synopsis, stderr); done {
		return status
	}
	usage := func(format string, a ...any) int { return cli.Usagef(stderr, "history", format, a...) }
	var err error
	if o.unit, err = parseUnit(*unit); err != nil {
		return usage("-unit %q: %v", *unit, err)
	}
	switch *fitEvidence {
	case "filtered":
		o.fitEvidence = throughtime.FilteredEvidence
	case "smoothed":
		o.fitEvidence = throughtime.SmoothedEvidence
	default:
		return usage("-fit-evidence %q: want filtered or smoothed", *fitEvidence)
	}
	switch {
	case !(o.tol > 0):
		return usage("-tol %v: must be positive", o.tol)
	case o.maxSweeps < 1:
		return usage("-max %d: must be at least 1", o.maxSweeps)
	case o.k < 0:
		return usage("-k %d: must not be negative", o.k)
	case o.top < 0:
		return usage("-top %d: must not be negative", o.top)
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "history: %v\n", err)
		return cli.Error
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

// conformance checks every case of the reference vectors at path and
// reports whether all passed.
func conformance(w io.Writer, path string) (bool, error) {
	f, err := tttcases.Load(path)
	if err != nil {
		return false, err
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
func matches(stdout, stderr io.Writer, o options) error {
	games, err := loadGames(o.path, o.unit)
	if err != nil {
		return err
	}
	ctx := context.Background()
	p := o.p
	if o.fit {
		if p, err = fitParams(ctx, stdout, games, p, o.fitEvidence); err != nil {
			return err
		}
	}
	if o.evaluate {
		return evaluateCmd(ctx, stdout, stderr, games, p, o)
	}
	return smooth(ctx, stdout, stderr, games, p, o)
}

// fitParams fits the history's parameters from p and prints them.
func fitParams(ctx context.Context, w io.Writer, games []throughtime.Game, p throughtime.Params, ev throughtime.Evidence) (throughtime.Params, error) {
	opt := throughtime.DefaultFitOptions(p)
	opt.Evidence = ev
	start := time.Now()
	res, err := throughtime.Fit(ctx, p, games, opt)
	if err != nil {
		return p, err
	}
	fmt.Fprintf(w, "fit (%s evidence, β = %g fixed): σ = %.4g, γ = %.4g, draw probability = %.4g; log evidence %.2f (start %.2f); %d evaluations in %v, converged %v (%s)\n",
		ev, res.Params.Beta, res.Params.Sigma, res.Params.Gamma, res.Params.DrawProbability, res.LogEvidence, res.Start,
		res.Evaluations, time.Since(start).Round(time.Millisecond), res.Converged, res.Status)
	if res.Unconverged > 0 {
		fmt.Fprintf(w, "  (%d evaluations stopped smoothing at the sweep cap)\n", res.Unconverged)
	}
	return res.Params, nil
}

// smooth runs the forward pass and sweeps to o.tol, then prints the
// outcome and the strongest players, and writes the curves under o.out.
func smooth(ctx context.Context, stdout, stderr io.Writer, games []throughtime.Game, p throughtime.Params, o options) error {
	start := time.Now()
	h, err := throughtime.New(p, games)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d games, %d players; forward pass in %v, one-step-ahead log evidence %.1f\n",
		o.path, len(games), len(h.Players()), time.Since(start).Round(time.Millisecond), h.FilteredLogEvidence())
	start = time.Now()
	var sweeps int
	converged := false
	for sweeps < o.maxSweeps && !converged {
		res, err := h.Converge(ctx, o.tol, 1)
		if err != nil {
			return err
		}
		sweeps++
		converged = res.Converged
		fmt.Fprintf(stderr, "\rsweep %d: largest move %.3g   ", sweeps, res.Delta)
	}
	fmt.Fprintln(stderr)
	elapsed := time.Since(start)
	_, lz, err := h.LogEvidence()
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "smoothing: converged %v after %d sweeps to %g in %v (%v a sweep); log evidence %.1f\n",
		converged, sweeps, o.tol, elapsed.Round(time.Millisecond), (elapsed / time.Duration(max(sweeps, 1))).Round(time.Millisecond), lz)

	type best struct {
		name string
		at   throughtime.Point
	}
	var players []best
	for _, name := range h.Players() {
		c := h.LearningCurve(name)
		players = append(players, best{name, c[len(c)-1]})
	}
	slices.SortFunc(players, func(a, b best) int { return cmp.Compare(b.at.Mu-2*b.at.Sigma, a.at.Mu-2*a.at.Sigma) })
	fmt.Fprintf(stdout, "\nhighest final skill (μ − 2σ):\n")
	for _, b := range players[:min(o.top, len(players))] {
		last := time.Unix(int64(b.at.Time*o.unit*86400), 0).UTC()
		fmt.Fprintf(stdout, "  %-28s μ = %6.2f  σ = %.2f  (last played %s)\n", b.name, b.at.Mu, b.at.Sigma, last.Format(time.DateOnly))
	}
	if o.out == "" {
		return nil
	}
	if err := writeCurves(stdout, filepath.Join(o.out, "learning_curves.csv"), h); err != nil {
		return err
	}
	var curves []curve
	for _, b := range players[:min(6, len(players))] {
		curves = append(curves, curve{b.name, h.LearningCurve(b.name)})
	}
	toYear := func(t float64) float64 { return 1970 + t*o.unit/365.25 }
	return writeFile(stdout, filepath.Join(o.out, "learning_curves.svg"), func(w io.Writer) error { return writeCurvesSVG(w, curves, toYear) })
}

// writeCurves writes every learning curve as player,time,mu,sigma.
func writeCurves(log io.Writer, path string, h *throughtime.History) error {
	return writeFile(log, path, func(f io.Writer) error {
		w := csv.NewWriter(f)
		w.Write([]string{"player", "time", "mu", "sigma"})
		for _, name := range h.Players() {
			for _, pt := range h.LearningCurve(name) {
				w.Write([]string{name, strconv.FormatFloat(pt.Time, 'g', -1, 64), strconv.FormatFloat(pt.Mu, 'g', 10, 64), strconv.FormatFloat(pt.Sigma, 'g', 10, 64)})
			}
		}
		w.Flush()
		return w.Error()
	})
}

// writeFile writes path through a temporary file renamed into place, so
// that a crash never leaves half a file, and says so on log.
func writeFile(log io.Writer, path string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	fmt.Fprintln(log, "wrote", path)
	return nil
}
