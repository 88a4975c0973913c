package elo_test

import (
	"fmt"

	"github.com/skillgraph/skillgraph/models/elo"
)

// Two equal players; the first wins and takes K/2 = αβ√π/2 from the other.
func ExampleParams_Rate() {
	p := elo.DefaultParams()
	out, err := p.Rate([][]float64{{25}, {25}}, []int{0, 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("K = %.4f: %.4f, %.4f\n", p.K(), out[0][0], out[1][0])
	// Output:
	// K = 0.5170: 25.2585, 24.7415
}
