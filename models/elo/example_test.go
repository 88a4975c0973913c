package elo_test

import (
	"context"
	"fmt"

	"github.com/skillgraph/skillgraph/models/elo"
)

// Two equal players; the first wins and takes K/2 = αβ√π/2 from the other.
func ExampleParams_Rate() {
	p := elo.DefaultParams()
	out, err := p.Rate(context.Background(), [][]float64{{25}, {25}}, []int{0, 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("K = %.4f: %.4f, %.4f\n", p.K(), out[0][0], out[1][0])
	// Output:
	// K = 0.5170: 25.2585, 24.7415
}

// A player rated 30 against one rated 20, on the TrueSkill scale.
func ExampleParams_Predict() {
	p := elo.DefaultParams()
	pr, err := p.Predict(30, 20)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("win %.3f, draw %.0f, loss %.3f\n", pr.Win, pr.Draw, pr.Loss)
	// Output:
	// win 0.955, draw 0, loss 0.045
}
