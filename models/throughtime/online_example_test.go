package throughtime_test

import (
	"context"
	"fmt"

	"github.com/skillgraph/skillgraph/models/throughtime"
)

// A league adds each week's games to its history and smooths a few sweeps
// (the online mode); Posterior then reads a skill at any time, here the
// week after the last games, when drift has widened it.
func ExampleHistory_Add() {
	weeks := [][]throughtime.Match{
		{{Time: 1, Teams: [][]string{{"Ann"}, {"Ben"}}}, {Time: 1, Teams: [][]string{{"Cid"}, {"Dee"}}}},
		{{Time: 2, Teams: [][]string{{"Ann"}, {"Cid"}}}, {Time: 2, Teams: [][]string{{"Dee"}, {"Ben"}}}},
		{{Time: 3, Teams: [][]string{{"Ann"}, {"Dee"}}}},
	}
	p := throughtime.DefaultParams()
	p.Gamma = 0.5 // skills drift by 0.5 a week
	h, err := throughtime.New(p, weeks[0])
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	for _, games := range weeks[1:] {
		if err := h.Add(games); err != nil {
			fmt.Println(err)
			return
		}
		if _, err := h.Converge(ctx, 1e-6, 3); err != nil {
			fmt.Println(err)
			return
		}
	}
	for _, name := range h.Players() {
		now, err := h.Posterior(name, 3)
		if err != nil {
			fmt.Println(err)
			return
		}
		next, _ := h.Posterior(name, 4)
		fmt.Printf("%s: week 3 %5.2f ± %.2f, week 4 ± %.2f\n", name, now.Mu, now.Sigma, next.Sigma)
	}
	// Output:
	// Ann: week 3  6.43 ± 3.95, week 4 ± 3.98
	// Ben: week 3 -6.16 ± 4.17, week 4 ± 4.20
	// Cid: week 3  1.69 ± 3.65, week 4 ± 3.68
	// Dee: week 3 -1.96 ± 3.51, week 4 ± 3.54
}
