package scorebased_test

import (
	"context"
	"fmt"

	"github.com/skillgraph/skillgraph/models/scorebased"
)

// Two new teams; A wins 3-1. By eq. 20, A's offence moves by
// σ²/(σ² + 2β² + γ² + σ²)·(3 − 0) = 0.396·3 toward the observation, and the
// other three skills likewise.
func ExampleGaussianOD() {
	p := scorebased.DefaultParams()
	p.Gamma = 1.3 // the sample standard deviation of scores in a football season
	m := scorebased.NewGaussianOD(p)
	a, b, err := m.Rate(context.Background(), p.NewTeam(), p.NewTeam(), 3, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("A offence %.3f, defence %.3f\n", a.Offence.Mu, a.Defence.Mu)
	fmt.Printf("B offence %.3f, defence %.3f\n", b.Offence.Mu, b.Defence.Mu)
	pr, _ := m.Predict(a, b)
	fmt.Printf("rematch: %.2f-%.2f, P(A wins) %.3f\n", pr.ScoreA, pr.ScoreB, pr.Win)
	// Output:
	// A offence 26.188, defence 24.604
	// B offence 25.396, defence 23.812
	// rematch: 2.38-0.79, P(A wins) 0.528
}

// The single-skill model only sees the difference of the scores.
func ExampleGaussianSD() {
	p := scorebased.DefaultParams()
	p.Gamma = 1.7
	m := scorebased.NewGaussianSD(p)
	a, b, err := m.Rate(context.Background(), p.NewRating(), p.NewRating(), 3, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	w, _ := m.WinProbability(a, b)
	fmt.Printf("A %.3f, B %.3f, P(A wins next) %.3f\n", a.Mu, b.Mu, w)
	// Output:
	// A 25.787, B 24.213, P(A wins next) 0.557
}

// The Poisson model on the log-rate scale: skills near log(goals per game).
func ExamplePoissonOD() {
	p := scorebased.Params{Mu: 0.3, Sigma: 0.5, Beta: 0.1, Gamma: 1}
	m := scorebased.NewPoissonOD(p)
	a, b, steps, err := m.Rate(context.Background(), p.NewTeam(), p.NewTeam(), 4, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	pr, _ := m.Predict(a, b)
	fmt.Printf("expected score %.2f-%.2f; win %.3f, draw %.3f, loss %.3f (Halley steps: %d)\n",
		pr.ScoreA, pr.ScoreB, pr.Win, pr.Draw, pr.Loss, steps)
	// Output:
	// expected score 2.14-0.67; win 0.714, draw 0.183, loss 0.103 (Halley steps: 1)
}
