package throughtime_test

import (
	"fmt"

	"github.com/skillgraph/skillgraph/models/throughtime"
)

// Ann has beaten Ben twice; the history predicts their next game, a year
// after the last, and a game of Ann against a newcomer, who has the prior.
func ExampleHistory_Predict() {
	p := throughtime.DefaultParams()
	p.DrawProbability = 0.1
	h, err := throughtime.New(p, []throughtime.Match{
		{Time: 1, Teams: [][]string{{"Ann"}, {"Ben"}}},
		{Time: 2, Teams: [][]string{{"Ann"}, {"Ben"}}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, rival := range []string{"Ben", "Cid"} {
		pr, err := h.Predict(3, []string{"Ann"}, []string{rival})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("Ann v %s: win %.3f, draw %.3f, loss %.3f\n", rival, pr.Win, pr.Draw, pr.Loss)
	}
	lp, err := h.LogProbability(throughtime.Match{Time: 3, Teams: [][]string{{"Cid"}, {"Ann"}, {"Ben"}}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("Cid first, Ann second, Ben third: log probability %.3f\n", lp)
	// Output:
	// Ann v Ben: win 0.912, draw 0.008, loss 0.079
	// Ann v Cid: win 0.714, draw 0.016, loss 0.270
	// Cid first, Ann second, Ben third: log probability -1.512
}
