package exact_test

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/exact"
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/schedules"
)

// Three teams' strengths and the margins of the three games between them:
// a loop. Message passing finds the exact means; its variances come out
// too small, and Solve shows by how much.
func ExampleSolve() {
	b := graph.NewBuilder("three teams")
	var x [3]graph.VarID
	for i := range x {
		x[i] = b.AddVariable(fmt.Sprintf("team%d", i+1))
		b.AddFactor(factors.NewPrior(0, 4), "", x[i])
	}
	margins := []float64{1.5, 0.5, -2}
	for i := range x {
		// margin ~ N(x_i − x_{i+1}, 1)
		b.AddFactor(factors.NewLinearGaussian([]float64{1, -1}, 0, margins[i], 1), "", x[i], x[(i+1)%3])
	}
	g, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := schedules.Derive(g, schedules.WithLoop(schedules.Tolerance(1e-12)))
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := schedules.Run(context.Background(), g, s); err != nil {
		fmt.Println(err)
		return
	}
	sol, err := exact.Solve(g)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, v := range x {
		m, e := g.Marginal(v), sol.Marginals[v]
		fmt.Printf("%s: mean %.4f (exact %.4f), variance %.4f (exact %.4f)\n", g.VariableName(v), m.Mean(), e.Mean(), m.Variance(), e.Variance())
	}
	fmt.Printf("log evidence %.4f\n", sol.LogEvidence)
	// Output:
	// team1: mean 1.0769 (exact 1.0769), variance 0.9701 (exact 1.5385)
	// team2: mean -0.3077 (exact -0.3077), variance 0.9701 (exact 1.5385)
	// team3: mean -0.7692 (exact -0.7692), variance 0.9701 (exact 1.5385)
	// log evidence -5.5718
}

// A round robin of three players in which each beat the next: a loop of
// wins. Joint EP refines one Gaussian over all three skills; loopy EP,
// with one Gaussian per variable, finds close means but smaller standard
// deviations.
func ExampleEP() {
	b := graph.NewBuilder("cycle of wins")
	var skill [3]graph.VarID
	for i := range skill {
		skill[i] = b.AddVariable(fmt.Sprintf("s%d", i+1))
		b.AddFactor(factors.NewPrior(25, 69.4), "", skill[i])
	}
	for i := range skill {
		// Game i: player i beats player i+1 (mod 3).
		w, l, d := b.AddVariable(fmt.Sprintf("w%d", i)), b.AddVariable(fmt.Sprintf("l%d", i)), b.AddVariable(fmt.Sprintf("d%d", i))
		b.AddFactor(factors.NewLikelihood(17.4), "", w, skill[i])
		b.AddFactor(factors.NewLikelihood(17.4), "", l, skill[(i+1)%3])
		b.AddFactor(factors.NewDifference(), "", d, w, l)
		b.AddFactor(factors.NewGreaterThan(0), "", d)
	}
	g, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	sol, err := exact.EP(context.Background(), g, exact.Tolerance(1e-9))
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := schedules.Derive(g, schedules.WithLoop(schedules.Tolerance(1e-9)))
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := schedules.Run(context.Background(), g, s); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("converged %v\n", sol.Converged)
	for _, v := range skill {
		j, l := sol.Marginals[v], g.Marginal(v)
		fmt.Printf("%s: joint EP %.2f ± %.2f, loopy EP %.2f ± %.2f\n", g.VariableName(v), j.Mean(), j.Sigma(), l.Mean(), l.Sigma())
	}
	fmt.Printf("log evidence %.4f\n", sol.LogEvidence)
	// Output:
	// converged true
	// s1: joint EP 25.00 ± 5.78, loopy EP 25.00 ± 5.42
	// s2: joint EP 25.00 ± 5.78, loopy EP 25.00 ± 5.42
	// s3: joint EP 25.00 ± 5.78, loopy EP 25.00 ± 5.42
	// log evidence -3.6166
}

// beats is a user's factor I(x > y) that gives EP its tilted moments
// under a joint Gaussian cavity over (x, y), so that EP keeps one joint
// site for it: d = x − y is N(m, v), m = μx − μy, v = aᵀΣa for
// a = (1, −1), truncated at 0 (messages.GreaterThan's V and W), and
// (x, y) follow d by regression: mean μ + Σa·V/√v, covariance
// Σ − Σa·aᵀΣ·W/v.
type beats struct{}

func (beats) Arity() int { return 2 }

// Message is what message passing would use; EP uses TiltedMoments.
func (beats) Message(int, graph.Edges) (messages.Gaussian, error) {
	return messages.Gaussian{}, errors.New("beats: written for joint EP only")
}

func (beats) TiltedMoments(mean, cov []float64) (float64, []float64, []float64, error) {
	sa := []float64{cov[0] - cov[1], cov[2] - cov[3]} // Σa
	v := sa[0] - sa[1]
	if !(v > 0) {
		return 0, nil, nil, errors.New("beats: x − y has no variance")
	}
	sd := math.Sqrt(v)
	t := (mean[0] - mean[1]) / sd
	tr := messages.GreaterThan(t, 0)
	post := []float64{mean[0] + sa[0]*tr.V/sd, mean[1] + sa[1]*tr.V/sd}
	c := make([]float64, 4)
	for i := range 2 {
		for j := range 2 {
			c[2*i+j] = cov[2*i+j] - sa[i]*sa[j]*tr.W/v
		}
	}
	return messages.LogNormCDF(t), post, c, nil
}

// A user's factor with tilted moments (exact.Tilted) gets one joint site
// over its variables: three players who each beat the next, a cycle, and
// the first beat the third again, fitted with the user's factor on the
// performances and with factors.ExceedsMargin, which implements the same
// method.
func ExampleTilted() {
	fit := func(f func() graph.Factor) ([]messages.Gaussian, error) { // the skills' marginals
		b := graph.NewBuilder("cycle of wins")
		var skill [3]graph.VarID
		for i := range skill {
			skill[i] = b.AddVariable(fmt.Sprintf("s%d", i+1))
			b.AddFactor(factors.NewPrior(0.1*float64(i), 1), "", skill[i])
		}
		for k, game := range [][2]int{{0, 1}, {1, 2}, {2, 0}, {0, 2}} {
			// Game k: the first player's performance beats the second's.
			w, l := b.AddVariable(fmt.Sprintf("w%d", k)), b.AddVariable(fmt.Sprintf("l%d", k))
			b.AddFactor(factors.NewLikelihood(0.5), "", w, skill[game[0]])
			b.AddFactor(factors.NewLikelihood(0.5), "", l, skill[game[1]])
			b.AddFactor(f(), "", w, l)
		}
		g, err := b.Build()
		if err != nil {
			return nil, err
		}
		sol, err := exact.EP(context.Background(), g, exact.Tolerance(1e-12))
		if err != nil {
			return nil, err
		}
		return sol.Marginals[:3], nil
	}
	user, err := fit(func() graph.Factor { return beats{} })
	if err != nil {
		fmt.Println(err)
		return
	}
	library, err := fit(func() graph.Factor { return factors.NewExceedsMargin() })
	if err != nil {
		fmt.Println(err)
		return
	}
	for i := range user {
		fmt.Printf("s%d: N(%.4f, %.4f²), ExceedsMargin N(%.4f, %.4f²)\n", i+1, user[i].Mean(), user[i].Sigma(), library[i].Mean(), library[i].Sigma())
	}
	// Output:
	// s1: N(0.2918, 0.7228²), ExceedsMargin N(0.2918, 0.7228²)
	// s2: N(0.1000, 0.7643²), ExceedsMargin N(0.1000, 0.7643²)
	// s3: N(-0.0918, 0.7228²), ExceedsMargin N(-0.0918, 0.7228²)
}
