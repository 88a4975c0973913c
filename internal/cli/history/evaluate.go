package history

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/skillgraph/skillgraph/internal/cli"
	"github.com/skillgraph/skillgraph/internal/maximize"
	"github.com/skillgraph/skillgraph/models/evaluation"
	"github.com/skillgraph/skillgraph/models/fit"
	"github.com/skillgraph/skillgraph/models/throughtime"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

// prediction is one method's forecast of one game, made before the game:
// the log probability of its outcome, and each team's predicted mean
// performance Σμ, which orders the teams.
type prediction struct {
	logP     float64
	strength []float64
}

// result is one method's score over a history.
//
// LogLoss is the mean over games of −log P(outcome): for two teams the
// probability of the win, draw or loss that happened, for more the
// probability of the whole finishing order. Accuracy is over pairs of
// teams that did not finish level: a two-team game is one such pair if it
// was decisive, and a game of n teams has one for every two teams with
// different ranks. A pair is predicted correctly when the better-placed
// team had the strictly higher predicted mean performance, which for two
// teams is having the higher predicted win probability (win = Φ((Δμ −
// ε)/c) exceeds loss = Φ((−Δμ − ε)/c) exactly when Δμ > 0). A tie in
// prediction (equal means, as between two newcomers) counts as an error;
// Ties says how many there were.
type result struct {
	Method   string  `json:"method"`
	Params   string  `json:"params"`
	Games    int     `json:"games"`
	LogLoss  float64 `json:"log_loss"`
	Pairs    int     `json:"pairs"`
	Correct  int     `json:"correct"`
	Ties     int     `json:"ties"`
	Accuracy float64 `json:"accuracy"`
	Seconds  float64 `json:"seconds"`
}

// score sums up one method's predictions of games. Pairs are counted by
// evaluation.PairErrors, once with a predicted tie as an error and once
// as half of one: the difference is half the ties.
func score(method, params string, games []throughtime.Match, preds []prediction, elapsed time.Duration) (result, error) {
	r := result{Method: method, Params: params, Games: len(games), Seconds: elapsed.Seconds()}
	var loss float64
	for k, g := range games {
		loss -= preds[k].logP
		ranks := g.Ranks
		if ranks == nil { // the teams in finishing order
			ranks = make([]int, len(g.Teams))
			for j := range ranks {
				ranks[j] = j
			}
		}
		wrong, pairs, err := evaluation.PairErrors(preds[k].strength, ranks, evaluation.TiesWrong)
		if err != nil {
			return result{}, fmt.Errorf("%s: game %d: %w", method, k, err)
		}
		half, _, err := evaluation.PairErrors(preds[k].strength, ranks, evaluation.TiesHalf)
		if err != nil {
			return result{}, fmt.Errorf("%s: game %d: %w", method, k, err)
		}
		r.Pairs += pairs
		r.Correct += pairs - int(wrong)
		r.Ties += int(2 * (wrong - half))
	}
	r.LogLoss = loss / float64(max(len(games), 1))
	if r.Pairs > 0 {
		r.Accuracy = float64(r.Correct) / float64(r.Pairs)
	}
	return r, nil
}

// checkOrder reports games out of time order: every method predicts them
// in the order given.
func checkOrder(games []throughtime.Match) error {
	for k := 1; k < len(games); k++ {
		if games[k].Time < games[k-1].Time {
			return fmt.Errorf("game %d at time %v comes before game %d at %v: the history must be in time order", k, games[k].Time, k-1, games[k-1].Time)
		}
	}
	return nil
}

// filtering predicts every game by TrueSkill Through Time's forward pass:
// the log probabilities are History.Filtered, and each player's mean is
// their filtered skill after their previous batch (the prior mean before
// their first), since drift leaves means as they are.
func filtering(games []throughtime.Match, p throughtime.Params, opts ...throughtime.Option) ([]prediction, error) {
	h, err := throughtime.New(p, games, opts...)
	if err != nil {
		return nil, err
	}
	lp := h.Filtered()
	curves := map[string][]throughtime.Point{}
	preds := make([]prediction, len(games))
	for k, g := range games {
		preds[k] = prediction{logP: lp[k], strength: make([]float64, len(g.Teams))}
		for j, team := range g.Teams {
			for _, name := range team {
				c, ok := curves[name]
				if !ok {
					c = h.LearningCurve(name)
					curves[name] = c
				}
				mu := p.Mu
				for i := len(c) - 1; i >= 0; i-- {
					if c[i].Time < g.Time {
						mu = c[i].Mu
						break
					}
				}
				preds[k].strength[j] += mu
			}
		}
	}
	return preds, nil
}

// smoothing predicts each batch (the games sharing a time) from a history
// of every earlier batch, smoothed: the batch's games are predicted with
// History.LogProbability and Predictive, then added, and then up to k
// sweeps run (fewer if the history is within tol). With k = 0 it is
// filtering. onBatch, if not nil, is called after each batch.
func smoothing(ctx context.Context, games []throughtime.Match, p throughtime.Params, k int, tol float64, onBatch func(done int), opts ...throughtime.Option) ([]prediction, error) {
	h, err := throughtime.New(p, nil, opts...)
	if err != nil {
		return nil, err
	}
	preds := make([]prediction, len(games))
	for start := 0; start < len(games); {
		end := start
		for end < len(games) && games[end].Time == games[start].Time {
			end++
		}
		for i := start; i < end; i++ {
			g := games[i]
			lp, err := h.LogProbability(g)
			if err != nil {
				return nil, &throughtime.GameError{Index: i, Err: err}
			}
			preds[i] = prediction{logP: lp, strength: make([]float64, len(g.Teams))}
			for j, team := range g.Teams {
				for _, name := range team {
					pt, _, err := h.Predictive(name, g.Time)
					if err != nil {
						return nil, &throughtime.GameError{Index: i, Err: err}
					}
					preds[i].strength[j] += pt.Mu
				}
			}
		}
		if err := h.Add(games[start:end]); err != nil {
			return nil, err
		}
		if k > 0 {
			if _, err := h.Converge(ctx, tol, k); err != nil {
				return nil, err
			}
		}
		if onBatch != nil {
			onBatch(end)
		}
		start = end
	}
	return preds, nil
}

// trueSkill predicts every game by plain online TrueSkill (τ added before
// each game, whatever the time between), rating the games in order: the
// log probability is the evidence Rate reports.
func trueSkill(ctx context.Context, games []throughtime.Match, tp trueskill.Params) ([]prediction, error) {
	ratings := map[string]trueskill.Rating{}
	preds := make([]prediction, len(games))
	for k, g := range games {
		m := trueskill.Match{Teams: make([][]trueskill.Rating, len(g.Teams)), Ranks: g.Ranks, Weights: g.Weights}
		preds[k].strength = make([]float64, len(g.Teams))
		for j, team := range g.Teams {
			for _, name := range team {
				r, ok := ratings[name]
				if !ok {
					r = tp.NewRating()
				}
				m.Teams[j] = append(m.Teams[j], r)
				preds[k].strength[j] += r.Mu
			}
		}
		res, err := tp.Rate(ctx, m)
		if err != nil {
			return nil, &throughtime.GameError{Index: k, Err: err}
		}
		preds[k].logP = res.LogEvidence
		for j, team := range g.Teams {
			for i, name := range team {
				ratings[name] = res.Ratings[j][i]
			}
		}
	}
	return preds, nil
}

// trueSkillEvidence is the sum of TrueSkill's one-step-ahead log
// probabilities over games.
func trueSkillEvidence(ctx context.Context, games []throughtime.Match, tp trueskill.Params) (float64, error) {
	preds, err := trueSkill(ctx, games, tp)
	if err != nil {
		return 0, err
	}
	var lz float64
	for _, p := range preds {
		lz += p.logP
	}
	return lz, nil
}

// fitTrueSkill maximises TrueSkill's one-step-ahead log evidence over σ₀,
// τ and (if start's is positive) the draw probability, β held fixed (the
// evidence depends only on σ₀/β and τ/β when μ₀ = 0), with Nelder–Mead on
// log σ₀, log τ and logit p, unbounded but for the values it leaves
// (σ₀ outside [1e-6β, 1e6β], τ above 1e6β, p above 0.999), where float64
// TrueSkill would have little room to spare. It returns the parameters,
// their evidence and the count of evaluations. onEval, if not nil, is
// called after each evaluation with its count, parameters and evidence.
func fitTrueSkill(ctx context.Context, games []throughtime.Match, start trueskill.Params, onEval func(int, trueskill.Params, float64)) (trueskill.Params, float64, int, error) {
	const tiny = math.SmallestNonzeroFloat64
	params := []maximize.Param[trueskill.Params]{
		{Name: "Sigma", At: func(p *trueskill.Params) *float64 { return &p.Sigma }, Bounds: fit.Bounds{Lo: 1e-6 * start.Beta, Hi: 1e6 * start.Beta}, Log: true, Step: 1},
		{Name: "Tau", At: func(p *trueskill.Params) *float64 { return &p.Tau }, Bounds: fit.Bounds{Lo: tiny, Hi: 1e6 * start.Beta}, Log: true, Step: 1},
	}
	if start.DrawProbability > 0 {
		params = append(params, maximize.Param[trueskill.Params]{Name: "DrawProbability", At: func(p *trueskill.Params) *float64 { return &p.DrawProbability }, Bounds: fit.Bounds{Lo: tiny, Hi: 0.999}, Logit: true, Step: 1})
	}
	var opt fit.Options[trueskill.Params]
	if onEval != nil {
		opt.Progress = func(p fit.Progress[trueskill.Params]) { onEval(p.Evaluation, p.Params, p.LogEvidence) }
	}
	evidence := func(p trueskill.Params) (float64, error) { return trueSkillEvidence(ctx, games, p) }
	search := maximize.Search{Map: maximize.Reject, SimplexSize: 0.3, Tolerance: 1e-3, Iterations: 10 * len(params), MaxEvaluations: 300}
	p, rep, err := maximize.Fit(ctx, start, params, evidence, search, opt)
	if err != nil {
		return start, 0, rep.Evaluations, fmt.Errorf("fitting TrueSkill: %w", err)
	}
	return p, rep.LogEvidence, rep.Evaluations, nil
}

// report is -evaluate's output, also written as JSON.
type report struct {
	Path    string   `json:"path"`
	Games   int      `json:"games"`
	Batches int      `json:"batches"`
	K       int      `json:"k"`
	Results []result `json:"results"`
}

// evaluateCmd runs the three methods on games and prints their table.
func evaluateCmd(ctx context.Context, stdout, stderr io.Writer, games []throughtime.Match, p throughtime.Params, o options) error {
	if err := checkOrder(games); err != nil {
		return err
	}
	tp, err := trueSkillParams(ctx, stdout, stderr, games, p, o)
	if err != nil {
		return err
	}
	fitted := "default"
	if o.fit {
		fitted = "fitted"
	}
	tttParams := fmt.Sprintf("%s: μ=%g σ=%.4g β=%g γ=%.4g/unit p_draw=%.4g", fitted, p.Mu, p.Sigma, p.Beta, p.Gamma, p.DrawProbability)
	tsParams := fmt.Sprintf("%s: μ=%g σ=%.4g β=%g τ=%.4g/game p_draw=%.4g", fitted, tp.Mu, tp.Sigma, tp.Beta, tp.Tau, tp.DrawProbability)
	batches := 0
	for k := range games {
		if k == 0 || games[k].Time != games[k-1].Time {
			batches++
		}
	}
	ev := report{Path: o.path, Games: len(games), Batches: batches, K: o.k}
	for _, m := range []struct {
		what, method, params string
		predict              func(start time.Time) ([]prediction, error)
	}{
		{"filtering", "TTT filtering", tttParams, func(time.Time) ([]prediction, error) { return filtering(games, p, o.model...) }},
		{"smoothing", fmt.Sprintf("TTT smoothing, k=%d", o.k), tttParams, func(start time.Time) ([]prediction, error) {
			prog := cli.NewProgress(stderr, Prog, o.progress)
			return smoothing(ctx, games, p, o.k, o.tol, func(done int) {
				prog.Printf("smoothing: %d of %d games, %v", done, len(games), time.Since(start).Round(time.Second))
			}, o.model...)
		}},
		{"TrueSkill", "TrueSkill", tsParams, func(time.Time) ([]prediction, error) { return trueSkill(ctx, games, tp) }},
	} {
		start := time.Now()
		preds, err := m.predict(start)
		if err != nil {
			return fmt.Errorf("%s: %w", m.what, err)
		}
		r, err := score(m.method, m.params, games, preds, time.Since(start))
		if err != nil {
			return err
		}
		ev.Results = append(ev.Results, r)
	}
	printTable(stdout, ev)
	if o.jsonOut != "" {
		return writeFile(stdout, o.jsonOut, func(w io.Writer) error {
			enc := json.NewEncoder(w)
			enc.SetIndent("", "  ")
			return enc.Encode(ev)
		})
	}
	return nil
}

// trueSkillParams returns the TrueSkill parameters of -evaluate: the
// history's prior, noise and draw probability with -tau's τ (σ/100 by
// default), fitted to the games with -fit.
func trueSkillParams(ctx context.Context, stdout, stderr io.Writer, games []throughtime.Match, p throughtime.Params, o options) (trueskill.Params, error) {
	tp := trueskill.Params{Mu: p.Mu, Sigma: p.Sigma, Beta: p.Beta, Tau: o.tau, DrawProbability: p.DrawProbability}
	if tp.Tau < 0 {
		tp.Tau = p.Sigma / 100
	}
	if !o.fit {
		return tp, nil
	}
	start := time.Now()
	prog := cli.NewProgress(stderr, Prog, o.progress)
	tp, lz, evals, err := fitTrueSkill(ctx, games, tp, func(n int, q trueskill.Params, lz float64) {
		prog.Printf("fit TrueSkill: evaluation %d: σ = %.4g, τ = %.4g, draw probability %.4g: log evidence %.2f", n, q.Sigma, q.Tau, q.DrawProbability, lz)
	})
	if err != nil {
		return tp, err
	}
	cli.Fprintf(stdout, "fit TrueSkill (β = %g fixed): σ = %.4g, τ = %.4g, draw probability = %.4g; log evidence %.2f; %d evaluations in %v\n",
		tp.Beta, tp.Sigma, tp.Tau, tp.DrawProbability, lz, evals, time.Since(start).Round(time.Millisecond))
	return tp, nil
}

// printTable prints the evaluation as a Markdown table.
func printTable(w io.Writer, ev report) {
	fmt.Fprintf(w, "%s: %d games in %d batches, one step ahead\n\n", ev.Path, ev.Games, ev.Batches)
	fmt.Fprintln(w, "| method | parameters | log-loss (nats/game) | accuracy | pairs (ties) | time |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|")
	for _, r := range ev.Results {
		cli.Fprintf(w, "| %s | %s | %.4f | %.4f | %d (%d) | %.1f s |\n", r.Method, r.Params, r.LogLoss, r.Accuracy, r.Pairs, r.Ties, r.Seconds)
	}
}
