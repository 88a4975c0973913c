package messages_test

import (
	"fmt"

	"github.com/skillgraph/skillgraph/messages"
)

// A cavity is a marginal divided by a message; multiplying the message back
// restores the marginal.
func ExampleGaussian() {
	marginal := messages.NewGaussian(25, 36)
	message := messages.NewGaussian(30, 100)
	cavity := marginal.Div(message)
	fmt.Println(cavity)
	fmt.Println(cavity.Mul(message))
	// Output:
	// N(22.1875, 56.25)
	// N(25, 36)
}

// The win correction stays exact in the far tail, where φ(t)/Φ(t) computed
// naively is 0/0.
func ExampleGreaterThan() {
	for _, t := range []float64{0, -10, -1000} {
		tr := messages.GreaterThan(t, 0)
		fmt.Printf("t = %6g: V = %.10g, 1 − W = %.6g\n", t, tr.V, tr.OneMinusW)
	}
	// Output:
	// t =      0: V = 0.7978845608, 1 − W = 0.36338
	// t =    -10: V = 10.09809323, 1 − W = 0.00944538
	// t =  -1000: V = 1000.001, 1 − W = 9.99994e-07
}

// A draw with a tiny margin: the truncated variance 1 − W ≈ ε²/3 is resolved,
// where the printed formula gives a negative number.
func ExampleWithin() {
	tr := messages.Within(0.5, 1e-6)
	fmt.Printf("V = %.6g, 1 − W = %.6g\n", tr.V, tr.OneMinusW)
	// Output:
	// V = -0.5, 1 − W = 3.33333e-13
}
