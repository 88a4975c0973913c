package trueskill

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/skillgraph/skillgraph/messages"
)

// Result is the outcome of rating a match.
type Result struct {
	// Ratings are the posterior ratings, in the caller's team and player order.
	Ratings [][]Rating `json:"ratings"`
	// LogEvidence is the log probability of the observed outcome given the
	// ratings before the game (with τ applied).
	LogEvidence float64 `json:"log_evidence"`
	// Iterations counts the passes over the chain of team differences (0 for
	// two teams, where one pass is exact).
	Iterations int `json:"iterations"`
	// Converged is false if the chain hit Params.MaxIterations first.
	Converged bool `json:"converged"`
	// ClosedForm reports that the two-team closed form was used.
	ClosedForm bool `json:"closed_form"`
}

// Rate updates the ratings of every player in m. Two-team matches use the
// closed form of the update (the same numbers as the factor graph, which is
// then a tree with one approximate factor); matches of three or more teams
// run the Figure 1 graph. ctx cancels the iteration of large games. Rate is
// safe for concurrent use: graph matches reuse the graph of an earlier
// match of the same shape from a pool, so the only allocations are the
// returned ratings (two). A Rater avoids those too.
//
// Rate honours ctx for the whole call: if ctx is cancelled or its deadline
// has passed when the work is finished (for the graph, when its run ends,
// after which only the posteriors and the evidence are read), or the
// iteration is stopped by it, Rate returns ctx's error, wrapped (context.DeadlineExceeded for a
// deadline, even one whose timer has not fired yet), and no result, so an
// expired context always fails, even for a two-team match that needs no
// iteration.
func (p Params) Rate(ctx context.Context, m Match) (Result, error) {
	if err := p.check(&m); err != nil {
		return Result{}, err
	}
	if len(m.Teams) != 2 {
		return p.rateGraphPooled(ctx, &m)
	}
	res, err := p.rateTwoTeams(m, newRatings(m.Teams))
	return finish(ctx, res, err)
}

// RateGraph rates m by running the factor graph, whatever its size (see
// Rate).
func (p Params) RateGraph(ctx context.Context, m Match) (Result, error) {
	if err := p.check(&m); err != nil {
		return Result{}, err
	}
	return p.rateGraphPooled(ctx, &m)
}

// finish returns res and err, unless err is nil and ctx is done: then it is
// ctx's error (see Rate). The closed form needs it; the graph path does
// not, its run ending with the same check (schedules.Runner.Run), after
// which only the ratings and the evidence are read. The deadline is compared with the clock as well
// as read from Err, which reports it only once the context's timer has
// fired, a moment after it passed.
func finish(ctx context.Context, res Result, err error) (Result, error) {
	if err != nil || ctx == nil {
		return res, err
	}
	if cerr := ctx.Err(); cerr != nil {
		return Result{}, fmt.Errorf("trueskill: %w", cerr)
	}
	if d, ok := ctx.Deadline(); ok && !time.Now().Before(d) {
		return Result{}, fmt.Errorf("trueskill: %w", context.DeadlineExceeded)
	}
	return res, nil
}

// checkPairs rejects teams that took no part (checkAbsent) and a draw
// checkDraws rejects.
func checkPairs(p *Params, m *Match) error {
	if m.Weights != nil {
		if err := checkAbsent(len(m.Teams), m.played); err != nil {
			return err
		}
	}
	return p.checkDraws(m.Ranks)
}

// checkAbsent rejects, of n teams, one that took no part (played false:
// every weight 0, and nothing else added to its performance) except one
// facing a single opponent who did: such a team's performance is exactly
// 0, and between two other teams it can make the ranking impossible
// (0 > t + ε and t > 0 + ε), as two such teams make any outcome but a
// draw. It is the rule of Rate, NewGame and Declare alike.
func checkAbsent(n int, played func(j int) bool) error {
	for j := range n {
		if !played(j) && (n > 2 || !played(1-j)) {
			return inputErr("Weights", "all weights of a team are 0: such a team can only face one other team, and one that took part", 0, j)
		}
	}
	return nil
}

// checkDraws rejects (ErrImpossible) a draw among ranks when p's draw
// margin is 0: the draw factor I(|d| ≤ ε) then has probability zero. The
// margin is read as Margin computes it, so a draw probability so small
// that the margin underflows to 0 counts too; Margin(1, 1) is the
// smallest margin of any pair (it grows with √n). It is the check of
// this for Rate, NewGame and Declare alike (Declare also checks the
// margins of players' own β; Rate1v1 applies the rule to the margin it
// computes anyway, with the same error, impossibleDraw).
func (p *Params) checkDraws(ranks []int) error {
	if p.DrawMargin > 0 {
		return nil
	}
	for j := range ranks {
		for k := range j {
			if ranks[k] == ranks[j] {
				if p.Margin(1, 1) > 0 {
					return nil // every pair's margin is positive
				}
				return impossibleDraw(j, ranks[j])
			}
		}
	}
	return nil
}

// impossibleDraw is the error of a draw, at Ranks[j] = rank, whose draw
// margin is 0.
func impossibleDraw(j, rank int) error {
	return &InputError{Field: "Ranks", Index: []int{j}, Value: float64(rank),
		Err: fmt.Errorf("a draw is observed but the draw margin is 0 (DrawProbability 0, or too small for a positive margin): %w", ErrImpossible)}
}

// difference is the performance difference d = t_A − t_B of two teams
// (paper, Figure 1 and section 3): with team performances t = Σ wᵢpᵢ,
// pᵢ ~ N(sᵢ, β²) and skills sᵢ ~ N(μᵢ, σᵢ² + τ²), d ~ N(mu, c2) with
// mu = Σ_A wμ − Σ_B wμ and c2 = Σ w²(σ² + τ² + β²) over both teams; w2 is
// Σ w² and skills Σ w²(σ² + τ²), the parts of c2 that Quality takes apart.
type difference struct{ mu, w2, skills, c2 float64 }

// differenceOf returns the difference of teams a and b with weights wa and
// wb (nil: all 1) and dynamics τ² = tau2.
func (p Params) differenceOf(a, b []Rating, wa, wb []float64, tau2 float64) difference {
	var d difference
	b2 := p.Beta * p.Beta
	for k, team := range [2][]Rating{a, b} {
		sign, ws := 1.0, wa
		if k == 1 {
			sign, ws = -1, wb
		}
		for i, r := range team {
			w := 1.0
			if ws != nil {
				w = ws[i]
			}
			v := r.Sigma*r.Sigma + tau2
			d.mu += sign * w * r.Mu
			d.w2 += w * w
			d.skills += w * w * v
			d.c2 += w * w * (v + b2)
		}
	}
	return d
}

// twoTeams is the exact update of a match between team A (ranked first) and
// team B, the one two-team update of the package. With the difference d of
// the two teams, truncating it to d > ε (or |d| ≤ ε for a draw) gives V and
// W at (μ_d/c, ε/c) (paper, Table 1 and Figure 2), and Gaussian
// conditioning through Cov(s_i, d) = ±w_i σ_i² gives
//
//	μ_i' = μ_i ± w_i σ_i²/c · V,   σ_i'² = σ_i² (1 − w_i² σ_i²/c² · W),
//
// the two-player formulas of a league's rating page ("Your rating,
// explained"), extended to teams, weights and draws. The evidence is
// Φ((μ_d − ε)/c), or the mass of [−ε, ε].
type twoTeams struct {
	tr      messages.Truncation
	c, c2   float64
	logEvid float64
	tau2    float64
}

func (p Params) newTwoTeams(mu, c2, eps float64, drawn, evidence bool) twoTeams {
	c := math.Sqrt(c2)
	tt := twoTeams{c: c, c2: c2, tau2: p.Tau * p.Tau}
	switch {
	case drawn:
		tt.tr = messages.Within(mu/c, eps/c)
		if evidence {
			tt.logEvid = messages.LogWithinMass(mu/c, eps/c)
		}
	default:
		tt.tr = messages.GreaterThan(mu/c, eps/c)
		if evidence {
			tt.logEvid = messages.LogNormCDF(mu/c - eps/c)
		}
	}
	return tt
}

// update returns a player's posterior; sign is +1 on team A, −1 on B, and
// rest(), called only when needed, sums c²'s terms other than the player's
// own w²σ².
func (tt twoTeams) update(r Rating, w, sign float64, rest func() float64) Rating {
	v := r.Sigma*r.Sigma + tt.tau2
	// 1 − x·W/c², x = w²σ², written as (rest + x·(1 − W))/c² with
	// rest = c² − x, so that an upset (W → 1) of a player who carries most of
	// the uncertainty keeps its accuracy.
	x := w * w * v
	other := tt.c2 - x
	if x > other {
		other = rest()
	}
	shrink := (other + x*tt.tr.OneMinusW) / tt.c2
	return Rating{Mu: r.Mu + sign*w*v/tt.c*tt.tr.V, Sigma: math.Sqrt(v * shrink)}
}

// rateTwoTeams writes the two-team update of m into out.
func (p Params) rateTwoTeams(m Match, out [][]Rating) (Result, error) {
	a, b := 0, 1
	if m.Ranks != nil && m.Ranks[1] < m.Ranks[0] {
		a, b = 1, 0
	}
	tau2 := p.Tau * p.Tau
	d := p.differenceOf(m.Teams[a], m.Teams[b], m.weightsOf(a), m.weightsOf(b), tau2)
	drawn := m.Ranks != nil && m.Ranks[0] == m.Ranks[1]
	tt := p.newTwoTeams(d.mu, d.c2, p.Margin(len(m.Teams[a]), len(m.Teams[b])), drawn, true)
	for k, j := range [2]int{a, b} {
		sign := 1.0 - 2*float64(k)
		for i, r := range m.Teams[j] {
			w := m.weight(j, i)
			out[j][i] = tt.update(r, w, sign, func() float64 {
				// c² without this player's w²(σ² + τ²), summed afresh.
				sum := w * w * p.Beta * p.Beta
				for _, tj := range [2]int{a, b} {
					for ti, o := range m.Teams[tj] {
						if tj != j || ti != i {
							wo := m.weight(tj, ti)
							sum += wo * wo * (o.Sigma*o.Sigma + tau2 + p.Beta*p.Beta)
						}
					}
				}
				return sum
			})
			if err := checkResult(out[j][i], r, j, i); err != nil {
				return Result{}, err
			}
		}
	}
	if err := checkEvidence(tt.logEvid); err != nil {
		return Result{}, err
	}
	return Result{Ratings: out, LogEvidence: tt.logEvid, Converged: true, ClosedForm: true}, nil
}

// Rate1v1 is Rate for two players: it returns the new ratings of a winner
// and a loser, or of two players who drew. It allocates nothing.
func (p Params) Rate1v1(winner, loser Rating, drawn bool) (Rating, Rating, error) {
	if err := p.Validate(); err != nil {
		return Rating{}, Rating{}, err
	}
	if !ratingOK(winner, false) || !ratingOK(loser, false) {
		for k, r := range [2]Rating{winner, loser} {
			if err := checkRating(r, false, k, 0); err != nil {
				return Rating{}, Rating{}, err
			}
		}
	}
	eps := p.Margin(1, 1)
	if drawn && eps == 0 { // checkDraws' rule, on the margin already at hand
		return Rating{}, Rating{}, impossibleDraw(1, 0)
	}
	tau2, b2 := p.Tau*p.Tau, p.Beta*p.Beta
	vw, vl := winner.Sigma*winner.Sigma+tau2, loser.Sigma*loser.Sigma+tau2
	tt := p.newTwoTeams(winner.Mu-loser.Mu, vw+vl+2*b2, eps, drawn, false) // no evidence to return
	w := tt.update(winner, 1, 1, func() float64 { return vl + 2*b2 })
	l := tt.update(loser, 1, -1, func() float64 { return vw + 2*b2 })
	if !resultOK(w) || !resultOK(l) {
		if err := checkResult(w, winner, 0, 0); err != nil {
			return Rating{}, Rating{}, err
		}
		return Rating{}, Rating{}, checkResult(l, loser, 1, 0)
	}
	return w, l, nil
}
