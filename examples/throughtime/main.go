// Command throughtime smooths a whole history of games with TrueSkill
// Through Time (package models/throughtime), or checks the package against
// the reference vectors of TrueSkillThroughTime.py.
//
//	go run ./examples/throughtime -matches examples/data/f1_races.csv -draw 0.1 -out DIR
//	go run ./examples/throughtime -cases models/throughtime/testdata/ttt_cases.json
//
// With -matches it reads the long format match_id,date,team,player,rank
// (one row per player; dates as YYYY-MM-DD, counted in -unit days), runs
// the forward pass and then sweeps to -tol, showing progress on stderr, and
// prints whether it converged, after how many sweeps and how long, the
// evidence, and the players with the highest final skill; -out writes every
// learning curve as CSV and the top players' curves as SVG. With -cases its last line is "ttt conformance: N
// passed, M failed", and it exits 1 if any failed.
package main

import (
	"cmp"
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/skillgraph/skillgraph/internal/tttcases"
	"github.com/skillgraph/skillgraph/models/evaluation"
	"github.com/skillgraph/skillgraph/models/throughtime"
)

func main() {
	log.SetFlags(0)
	cases := flag.String("cases", "", "reference vectors to check (ttt_cases.json)")
	matches := flag.String("matches", "", "history in the long format match_id,date,team,player,rank")
	unit := flag.Float64("unit", 365.25, "days in one unit of time (γ is per unit)")
	tol := flag.Float64("tol", 1e-6, "stop when no skill's μ or σ moves more than this in a sweep")
	maxSweeps := flag.Int("max", 200, "most sweeps")
	out := flag.String("out", "", "directory for learning_curves.csv")
	top := flag.Int("top", 10, "players to list")
	p := throughtime.DefaultParams()
	flag.Float64Var(&p.Mu, "mu", p.Mu, "prior mean")
	flag.Float64Var(&p.Sigma, "sigma", p.Sigma, "prior standard deviation")
	flag.Float64Var(&p.Beta, "beta", p.Beta, "performance noise")
	flag.Float64Var(&p.Gamma, "gamma", p.Gamma, "skill drift per unit of time")
	flag.Float64Var(&p.DrawProbability, "draw", p.DrawProbability, "draw probability")
	flag.Parse()
	switch {
	case *cases != "":
		conformance(*cases)
	case *matches != "":
		if err := smooth(*matches, p, *unit, *tol, *maxSweeps, *out, *top); err != nil {
			log.Fatal(err)
		}
	default:
		flag.Usage()
		os.Exit(2)
	}
}

func conformance(path string) {
	f, err := tttcases.Load(path)
	if err != nil {
		log.Fatal(err)
	}
	passed, failed := 0, 0
	for _, c := range f.Cases {
		res := f.Check(c)
		if len(res.Failures) == 0 {
			passed++
			fmt.Printf("ok    %s (%d sweeps; the reference %d)\n", c.Name, res.Sweeps, res.ReferenceSweeps)
			continue
		}
		failed++
		fmt.Printf("FAIL  %s\n", c.Name)
		for _, msg := range res.Failures {
			fmt.Printf("      %s\n", msg)
		}
	}
	fmt.Printf("ttt conformance: %d passed, %d failed\n", passed, failed)
	if failed > 0 {
		os.Exit(1)
	}
}

func smooth(path string, p throughtime.Params, unit, tol float64, maxSweeps int, out string, top int) error {
	ranked, err := evaluation.LoadRanked(path)
	if err != nil {
		return err
	}
	games := make([]throughtime.Game, len(ranked))
	for k, m := range ranked {
		day, err := time.Parse(time.DateOnly, m.Date)
		if err != nil {
			return fmt.Errorf("match %s: date %q: %w", m.ID, m.Date, err)
		}
		games[k] = throughtime.Game{Time: float64(day.Unix()) / 86400 / unit, Teams: m.Teams, Ranks: m.Ranks}
	}
	start := time.Now()
	h, err := throughtime.New(p, games)
	if err != nil {
		return err
	}
	fmt.Printf("%s: %d games, %d players; forward pass in %v, one-step-ahead log evidence %.1f\n",
		path, len(games), len(h.Players()), time.Since(start).Round(time.Millisecond), h.FilteredLogEvidence())
	start = time.Now()
	ctx := context.Background()
	var sweeps int
	converged := false
	for sweeps < maxSweeps && !converged {
		res, err := h.Converge(ctx, tol, 1)
		if err != nil {
			return err
		}
		sweeps++
		converged = res.Converged
		fmt.Fprintf(os.Stderr, "\rsweep %d: largest move %.3g   ", sweeps, res.Delta)
	}
	fmt.Fprintln(os.Stderr)
	elapsed := time.Since(start)
	_, lz, err := h.LogEvidence()
	if err != nil {
		return err
	}
	fmt.Printf("smoothing: converged %v after %d sweeps to %g in %v (%v a sweep); log evidence %.1f\n",
		converged, sweeps, tol, elapsed.Round(time.Millisecond), (elapsed / time.Duration(max(sweeps, 1))).Round(time.Millisecond), lz)

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
	fmt.Printf("\nhighest final skill (μ − 2σ):\n")
	for _, b := range players[:min(top, len(players))] {
		last := time.Unix(int64(b.at.Time*unit*86400), 0).UTC()
		fmt.Printf("  %-28s μ = %6.2f  σ = %.2f  (last played %s)\n", b.name, b.at.Mu, b.at.Sigma, last.Format(time.DateOnly))
	}
	if out == "" {
		return nil
	}
	if err := writeCurves(filepath.Join(out, "learning_curves.csv"), h); err != nil {
		return err
	}
	var curves []curve
	for _, b := range players[:min(6, len(players))] {
		curves = append(curves, curve{b.name, h.LearningCurve(b.name)})
	}
	toYear := func(t float64) float64 { return 1970 + t*unit/365.25 }
	return writeFile(filepath.Join(out, "learning_curves.svg"), func(w io.Writer) error { return writeCurvesSVG(w, curves, toYear) })
}

// writeCurves writes every learning curve as player,time,mu,sigma.
func writeCurves(path string, h *throughtime.History) error {
	return writeFile(path, func(f io.Writer) error {
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
// that a crash never leaves half a file.
func writeFile(path string, write func(io.Writer) error) error {
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
	fmt.Println("wrote", path)
	return nil
}
