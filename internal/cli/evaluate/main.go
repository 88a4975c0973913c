package evaluate

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/skillgraph/skillgraph/internal/cli"
	"github.com/skillgraph/skillgraph/internal/cli/input"
	"github.com/skillgraph/skillgraph/internal/plot"
	"github.com/skillgraph/skillgraph/internal/repo"
	"github.com/skillgraph/skillgraph/models/elo"
	"github.com/skillgraph/skillgraph/models/evaluation"
	"github.com/skillgraph/skillgraph/models/trueskill"
	"github.com/skillgraph/skillgraph/record"
)

const synopsis = Prog + ` [-data DIR] [-out DIR] [-json FILE] [-tau1 τ] [-tau τ] [-ties wrong|half] [-draw p]
       ` + Prog + ` -matches FILE [-json FILE] [-tau τ] [-ties wrong|half] [-draw p]

Experiment 1 (score-based paper, section 5): each season of N matches is
tested on its last ⌈0.2·N⌉ matches (the paper says "the last 20 %"; rounding
up keeps the test set apart from the 80 % training set) after training online
on its first ⌊s·N⌋ matches, s = 0.1 … 0.8. Experiment 2 (TrueSkill paper,
section 4.1): every game predicted before it is rated. Data files absent from
-data are left out and named in the output.`

// Prog is the subcommand's name in its messages.
const Prog = "skillgraph evaluate"

// Summary is the subcommand's one-line description for the command's
// help.
const Summary = "both papers' evaluation protocols on the shipped data, a data folder or any long-format file"

// Run is the subcommand with its arguments and streams, returning the exit
// status.
func Run(args []string, stdout, stderr io.Writer) int {
	start := time.Now()
	fs := flag.NewFlagSet(Prog, flag.ContinueOnError)
	var f flags
	fs.StringVar(&f.data, "data", "", "folder with epl.csv, afl.csv and f1_races.csv (default: the repository's examples/data)")
	fs.StringVar(&f.out, "out", "", "folder to write the figure, figure4.svg (or .png), into; created if absent (none if empty)")
	figure := fs.String("figure", "svg", "format of the figure under -out: svg or png")
	prog := fs.Duration("progress", 2*time.Second, "print progress on stderr once the run has taken longer than this")
	fs.StringVar(&f.json, "json", "", "write every number printed, and the per-season values, to this JSON file")
	fs.StringVar(&f.matches, "matches", "", "run only experiment 2 on this multi-team file")
	tau1 := fs.Float64("tau1", 0, "TrueSkill's dynamics τ in experiment 1 (the paper's Table 1 has none)")
	tau := fs.Float64("tau", trueskill.DefaultParams().Tau, "TrueSkill's dynamics τ in experiment 2 (σ₀/100, the TrueSkill paper's standard value)")
	fit := fs.Bool("fit", false, "experiment 1: add the three score models with hyperparameters fitted to each training set (scorebased.Fit)")
	tiesFlag := fs.String("ties", "wrong", "experiment 2: a predicted tie counts as an error (wrong) or half of one (half)")
	drawFlag := cli.ProbabilityFlag(fs, "draw", "experiment 2: TrueSkill's draw probability in [0, 1) (default: the data's share of tied adjacent teams)")
	usage := func(format string, a ...any) int { return cli.Usagef(stderr, Prog, format, a...) }
	if status, done := cli.Parse(fs, args, synopsis, stderr); done {
		return status
	}
	tp := trueskill.DefaultParams()
	tp.Tau = *tau
	// τ² is added to every variance: beyond 1e100 it leaves float64.
	for _, f := range []struct {
		name string
		v    float64
	}{{"tau", *tau}, {"tau1", *tau1}} {
		if !(f.v >= 0 && f.v <= 1e100) {
			return usage("-%s %v: must be finite, not negative and at most 1e100", f.name, f.v)
		}
	}
	var ties evaluation.TieRule
	switch *tiesFlag {
	case "wrong", "error":
	case "half":
		ties = evaluation.TiesHalf
	default:
		return usage("-ties %q: want wrong or half", *tiesFlag)
	}
	if *figure != "svg" && *figure != "png" {
		return usage("-figure %q: want svg or png", *figure)
	}
	if *prog < 0 {
		return usage("-progress %v: must not be negative", *prog)
	}
	// -matches runs experiment 2 alone, which draws no figure: the flags
	// of experiment 1 and of the figure are refused with it, not ignored.
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	for _, name := range []string{"data", "out", "figure", "fit", "tau1"} {
		if set[name] && f.matches != "" {
			return usage("-%s does not go with -matches, which runs experiment 2 alone", name)
		}
	}
	if set["figure"] && f.out == "" {
		return usage("-figure goes with -out")
	}
	inputs := []string{f.matches}
	if f.matches == "" && f.data != "" {
		for _, name := range []string{"epl.csv", "afl.csv", "f1_races.csv"} {
			inputs = append(inputs, filepath.Join(f.data, name))
		}
	}
	for _, in := range inputs {
		if f.json != "" && cli.SameFile(f.json, in) {
			return usage("-json %s is the input %s, which it would overwrite", f.json, in)
		}
	}
	draw := *drawFlag
	cfg := config{tp: tp, tau1: *tau1, ties: ties, draw: draw, fit: *fit, figure: *figure, prog: cli.NewProgress(stderr, Prog, *prog), stderr: stderr}
	rep := &report{
		Command: append([]string{"evaluate"}, args...),
		Settings: settings{
			Confidence: 0.95, TrueSkillTau1: *tau1, TrueSkillTau2: *tau, Ties: ties.String(),
			DrawGiven: num(math.NaN()), TestSetRule: "ceil(0.2*N) last matches of each season",
		},
		LeftOut: []leftOut{},
	}
	if draw != nil {
		rep.Settings.DrawGiven = num(*draw)
	}
	if err := run(stdout, stderr, rep, f, cfg, start); err != nil {
		return fail(stderr, err)
	}
	return cli.OK
}

// flags are the command line's files and folders.
type flags struct {
	data, out, json, matches string
}

// run runs the experiments f asks for into rep and writes their outputs,
// each of which is made sure of, by creating the file it will be renamed
// from, before any work.
func run(stdout, stderr io.Writer, rep *report, f flags, cfg config, start time.Time) error {
	var outs outputs
	defer outs.discard()
	if f.json != "" {
		if err := outs.add("json", f.json); err != nil {
			return err
		}
	}
	if f.matches != "" {
		if err := rankingFile(rep, f.matches, cfg); err != nil {
			return err
		}
	} else {
		if f.out != "" {
			if err := os.MkdirAll(f.out, 0o755); err != nil {
				return fmt.Errorf("-out: %w", err)
			}
			if err := outs.add("figure", filepath.Join(f.out, "figure4."+cfg.figure)); err != nil {
				return fmt.Errorf("-out %s: %w", f.out, err)
			}
		}
		rep.Data = f.data
		if rep.Data == "" {
			rep.Data = shippedData()
		}
		var fig io.Writer
		if file := outs.file("figure"); file != nil {
			fig = file
		}
		if err := experiments(rep, rep.Data, fig, cfg); err != nil {
			return err
		}
	}
	rep.ElapsedSeconds = math.Round(time.Since(start).Seconds()*10) / 10
	printReport(stdout, rep)
	if file := outs.file("json"); file != nil {
		enc := json.NewEncoder(file)
		enc.SetIndent("", " ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
	}
	if err := outs.commit(stderr); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "done in %.1f s\n", rep.ElapsedSeconds)
	return nil
}

// fail reports err in one line and returns the error status.
func fail(stderr io.Writer, err error) int { return cli.Failf(stderr, Prog, "%v", err) }

// config holds the settings the experiments share.
type config struct {
	tp   trueskill.Params // experiment 2's TrueSkill
	tau1 float64          // experiment 1's TrueSkill τ
	ties evaluation.TieRule
	draw *float64 // experiment 2's draw probability, nil for the data's
	fit  bool     // experiment 1 adds the fitted score models
	// figure is the figure's format, svg or png.
	figure string
	// prog prints progress once the run has taken long.
	prog *cli.Progress
	// stderr gets the data reader's notes.
	stderr io.Writer
}

// scored reads a league file, in time order, through the record package.
func (c config) scored(path string) ([]record.Match, error) {
	ms, err := input.Read(c.stderr, Prog, path, record.Scores)
	if err != nil {
		return nil, err
	}
	_, err = input.Scored(path, ms)
	return ms, err
}

// ranked reads a file of either format, in time order, through the record
// package. Experiment 2 rates every player in full, as the TrueSkill
// paper's protocol does: a weight column is said to be ignored.
func (c config) ranked(path string) ([]record.Match, error) {
	ms, err := input.Read(c.stderr, Prog, path, 0)
	for i := range ms {
		if ms[i].Weights() != nil {
			fmt.Fprintf(c.stderr, "%s: %s: ignored the weights of the weight column: the protocol rates every player in full\n", Prog, path)
			break
		}
	}
	return ms, err
}

// shippedData returns the repository's examples/data, looked for from the
// working folder up to the module root, or "examples/data" if it is not
// found (whose absence the run then reports).
func shippedData() string {
	if p, err := repo.Path("examples/data"); err == nil {
		return p
	}
	return filepath.Join("examples", "data")
}

// outputs are files written under a temporary name and renamed into place
// only when the whole run succeeds, so that a failed run leaves nothing
// half-written.
type outputs struct {
	names []string
	tmps  []*os.File
	final []string
}

// add creates the temporary file for path.
// A path that is a symbolic link is followed, so that the link stays a
// link and its target gets the new contents.
func (o *outputs) add(name, path string) error {
	target := path
	if t, err := filepath.EvalSymlinks(path); err == nil {
		target = t
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+"-*")
	if err != nil {
		return err
	}
	o.names, o.tmps, o.final = append(o.names, name), append(o.tmps, tmp), append(o.final, target)
	return nil
}

// file returns the temporary file of the named output, nil if there is
// none.
func (o *outputs) file(name string) *os.File {
	for i, n := range o.names {
		if n == name {
			return o.tmps[i]
		}
	}
	return nil
}

// commit closes every file and renames it into place.
func (o *outputs) commit(stderr io.Writer) error {
	for i, tmp := range o.tmps {
		if err := tmp.Chmod(0o644); err != nil { // CreateTemp's 0600 is for secrets
			return err
		}
		if err := tmp.Close(); err != nil {
			return err
		}
		if err := os.Rename(tmp.Name(), o.final[i]); err != nil {
			return err
		}
		fmt.Fprintln(stderr, "wrote", o.final[i])
	}
	o.tmps = nil
	return nil
}

// discard removes the temporary files of a run that did not commit.
func (o *outputs) discard() {
	for _, tmp := range o.tmps {
		tmp.Close()
		os.Remove(tmp.Name())
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

// league is one data set of experiment 1.
type league struct {
	name, file, credit string
	seasons            []string
	matches            []record.Match
}

// experiments runs both experiments on the data folder, filling rep, and
// draws the figure into fig if it is not nil. Every file is read first; a
// file that does not exist is left out and recorded in rep.LeftOut.
func experiments(rep *report, data string, fig io.Writer, cfg config) error {
	leagues := []league{
		{name: "UK-PL", file: "epl.csv", seasons: seasonRange(1995, 2008, true)},
		{name: "AFL", file: "afl.csv", seasons: seasonRange(2000, 2010, false),
			credit: "not redistributable, so not shipped; run with -data ../shared/data"},
	}
	var ran []league
	for _, l := range leagues {
		ms, err := cfg.scored(filepath.Join(data, l.file))
		if errors.Is(err, os.ErrNotExist) {
			rep.LeftOut = append(rep.LeftOut, leftOut{File: filepath.Join(data, l.file), Parts: "experiment 1, " + l.name, Why: absentWhy(l.credit)})
			continue
		}
		if err != nil {
			return err
		}
		l.matches = ms
		ran = append(ran, l)
	}
	f1Path := filepath.Join(data, "f1_races.csv")
	f1, err := cfg.ranked(f1Path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		rep.LeftOut = append(rep.LeftOut, leftOut{File: f1Path, Parts: "experiment 2, Formula 1", Why: absentWhy("")})
	case err != nil:
		return err
	}
	if len(ran) == 0 && f1 == nil {
		return fmt.Errorf("no data in %s: none of epl.csv, afl.csv, f1_races.csv", data)
	}
	var panels []plot.Panel
	for _, l := range ran {
		res, err := scoreLeagueOf(l, cfg)
		if err != nil {
			return fmt.Errorf("%s: %w", filepath.Join(data, l.file), err)
		}
		rep.Experiment1 = append(rep.Experiment1, res)
		panels = append(panels, res.panels()...)
	}
	if fig != nil && len(panels) > 0 {
		if err := plot.Grid(fig, cfg.figure, panels, 3); err != nil {
			return err
		}
	}
	if f1 != nil {
		if err := ranking(rep, "Formula 1 races ("+f1Path+")", f1, cfg); err != nil {
			return err
		}
	}
	for _, l := range ran {
		if l.file != "epl.csv" {
			continue
		}
		name := fmt.Sprintf("Premier League %s to %s as two-team games", l.matches[0].Season, l.matches[len(l.matches)-1].Season)
		if err := ranking(rep, name, l.matches, cfg); err != nil {
			return err
		}
	}
	return nil
}

// absentWhy says why a file is left out.
func absentWhy(credit string) string {
	if credit != "" {
		return "file absent (" + credit + ")"
	}
	return "file absent"
}

// comparisons are the paired tests of experiment 1: the orderings the
// paper states (section 5.3), model A − model B per season.
var comparisons = []struct {
	metric string
	a, b   string
}{
	{"information gain", "Gaussian-OD", "TrueSkill"},
	{"information gain", "Gaussian-SD", "TrueSkill"},
	{"information gain", "Gaussian-OD", "Poisson-OD"},
	{"information gain", "Gaussian-SD", "Poisson-OD"},
	{"information gain", "Gaussian-OD", "Gaussian-SD"},
	{"AUC", "Gaussian-OD", "Gaussian-SD"},
	{"AUC", "Gaussian-SD", "TrueSkill"},
	{"AUC", "TrueSkill", "Poisson-OD"},
	{"AUC", "Gaussian-OD", "TrueSkill"},
	{"score MAE", "Gaussian-OD", "Poisson-OD"},
}

// metrics are experiment 1's metrics, by the names comparisons use.
var metrics = []struct {
	name, label string
	f           func(evaluation.ScoreMetrics) float64
}{
	{"information gain", "information gain (bits per match)", func(m evaluation.ScoreMetrics) float64 { return m.InfoGain }},
	{"AUC", "win/no-win AUC", func(m evaluation.ScoreMetrics) float64 { return m.AUC }},
	{"score MAE", "score MAE", func(m evaluation.ScoreMetrics) float64 { return m.MAE }},
}

// scoreLeagueOf runs experiment 1 on one league.
func scoreLeagueOf(l league, cfg config) (scoreLeague, error) {
	models, err := evaluation.ScoreModels(evaluation.ScoreConfig{TrueSkillTau: cfg.tau1, Fitted: cfg.fit})
	if err != nil {
		return scoreLeague{}, err
	}
	done := 0
	res, err := evaluation.ScoreExperiment(l.matches, l.seasons, evaluation.TrainShares(), models,
		func(s string) {
			done++
			cfg.prog.Printf("experiment 1, %s: season %s (%d of %d)", l.name, s, done, len(l.seasons))
		})
	if err != nil {
		return scoreLeague{}, err
	}
	out := scoreLeague{League: l.name, Seasons: res.Seasons, Shares: res.Shares, Models: res.Models}
	for _, s := range res.Seasons {
		n := len(evaluation.Season(l.matches, s))
		out.SeasonMatches = append(out.SeasonMatches, n)
		out.TestMatches = append(out.TestMatches, evaluation.TestSize(n))
	}
	index := map[string]int{}
	for mi, name := range res.Models {
		index[name] = mi
	}
	for _, met := range metrics {
		tab := metricTable{Metric: met.name, Label: met.label}
		for mi, name := range res.Models {
			row := metricRow{Model: name}
			for si := range res.Shares {
				mean, half, err := res.Summary(mi, si, met.f)
				switch {
				case errors.Is(err, evaluation.ErrNoData):
					mean, half = math.NaN(), math.NaN() // a gap in the table and the figure
				case err != nil:
					return scoreLeague{}, fmt.Errorf("%s, %s: %w", l.name, met.name, err)
				}
				row.Cells = append(row.Cells, cell{Mean: num(mean), Half: num(half)})
				var seasons []num
				for ki := range res.Seasons {
					seasons = append(seasons, num(met.f(res.Metrics[mi][si][ki])))
				}
				row.PerSeason = append(row.PerSeason, seasons)
			}
			tab.Rows = append(tab.Rows, row)
		}
		out.Metrics = append(out.Metrics, tab)
	}
	for _, c := range comparisons {
		var f func(evaluation.ScoreMetrics) float64
		for _, met := range metrics {
			if met.name == c.metric {
				f = met.f
			}
		}
		ai, aok := index[c.a]
		bi, bok := index[c.b]
		if !aok || !bok {
			continue
		}
		row := pairedRow{Metric: c.metric, A: c.a, B: c.b}
		for si := range res.Shares {
			var a, b []float64
			for ki := range res.Seasons {
				x, y := f(res.Metrics[ai][si][ki]), f(res.Metrics[bi][si][ki])
				if !math.IsNaN(x) && !math.IsNaN(y) { // a season without the metric is left out of the pairs
					a, b = append(a, x), append(b, y)
				}
			}
			d, h, p, err := evaluation.PairedTest(a, b)
			if err != nil && !errors.Is(err, evaluation.ErrInput) {
				return scoreLeague{}, fmt.Errorf("%s, %s − %s: %w", l.name, c.a, c.b, err)
			}
			row.Cells = append(row.Cells, testCell{Diff: num(d), Half: num(h), P: num(p), Seasons: len(a)})
		}
		out.Tests = append(out.Tests, row)
	}
	return out, nil
}

// panels returns the league's row of the figure.
func (s scoreLeague) panels() []plot.Panel {
	var out []plot.Panel
	for _, tab := range s.Metrics {
		p := plot.Panel{Title: s.League + ": " + tab.Metric, XLabel: "proportion of data used for training", YLabel: tab.Label, X: s.Shares}
		for _, row := range tab.Rows {
			l := plot.Line{Name: row.Model}
			for _, c := range row.Cells {
				half := float64(c.Half)
				if math.IsNaN(half) {
					half = 0
				}
				l.Mean, l.Half = append(l.Mean, float64(c.Mean)), append(l.Half, half)
			}
			p.Lines = append(p.Lines, l)
		}
		out = append(out, p)
	}
	return out
}

// rankingFile runs experiment 2 on a multi-team file.
func rankingFile(rep *report, path string, cfg config) error {
	ms, err := cfg.ranked(path)
	if err != nil {
		return err
	}
	return ranking(rep, path, ms, cfg)
}

// ranking runs experiment 2 on ms, labelled name, and adds it to rep.
func ranking(rep *report, name string, ms []record.Match, cfg config) error {
	res, err := evaluation.RankingExperiment(context.Background(), ms, cfg.tp, elo.DefaultParams(), evaluation.RankingConfig{
		Ties: cfg.ties, DrawProbability: cfg.draw,
		Progress: func(done, total int) { cfg.prog.Printf("experiment 2, %s: %d of %d games", name, done, total) },
	})
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	maxTeams := 0
	for _, m := range ms {
		maxTeams = max(maxTeams, len(m.Teams))
	}
	rep.Experiment2 = append(rep.Experiment2, rankingSet{
		Name: name, Games: res.Games, MaxTeams: maxTeams, Pairs: res.Pairs,
		EmpiricalDraw: res.EmpiricalDrawProbability, Draw: res.DrawProbability, DrawGiven: cfg.draw != nil,
		Ties: res.Ties.String(), ChallengedGames: res.ChallengedGames,
		EloFull: pct(res.EloFull, res.EloFullHalf), TrueSkillFull: pct(res.TrueSkillFull, res.TrueSkillFullHalf),
		EloChallenged: pct(res.EloChallenged, res.EloChallengedHalf), TrueSkillChallenged: pct(res.TrueSkillChallenged, res.TrueSkillChallengedHalf),
		FullDifference: pct(res.FullDifference, res.FullDifferenceHalf), FullDifferenceP: res.FullDifferenceP,
	})
	return nil
}

// pct returns a share and its half-width in percent.
func pct(x, half float64) cell { return cell{Mean: num(100 * x), Half: num(100 * half)} }
