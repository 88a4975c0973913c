package throughtime_test

import (
	"context"
	"fmt"

	"github.com/skillgraph/skillgraph/models/throughtime"
)

// Ann beats Ben in year 1, Ben beats Cid in year 2, Cid beats Ann in year
// 3. Filtering rates each game from what came before it, so Ann leads
// after year 1; smoothing lets every game inform every year, and sees the
// cycle: each beat one and lost to one, so all three end level (drift is
// small, γ = 0.03 a year, so a skill hardly changes in three years).
func Example() {
	games := []throughtime.Match{
		{Time: 1, Teams: [][]string{{"Ann"}, {"Ben"}}},
		{Time: 2, Teams: [][]string{{"Ben"}, {"Cid"}}},
		{Time: 3, Teams: [][]string{{"Cid"}, {"Ann"}}},
	}
	h, err := throughtime.New(throughtime.DefaultParams(), games)
	if err != nil {
		fmt.Println(err)
		return
	}
	show := func(stage string) {
		for _, name := range h.Players() {
			fmt.Printf("%s %s:", stage, name)
			for _, pt := range h.LearningCurve(name) {
				fmt.Printf("  year %.0f: %5.2f ± %.2f", pt.Time, pt.Mu, pt.Sigma)
			}
			fmt.Println()
		}
	}
	show("filtered")
	res, err := h.Converge(context.Background(), 1e-6, 100)
	if err != nil {
		fmt.Println(err)
		return
	}
	show("smoothed")
	fmt.Printf("converged %v in %d sweeps; one-step-ahead log evidence %.3f\n", res.Converged, res.Iterations, h.FilteredLogEvidence())
	// Output:
	// filtered Ann:  year 1:  3.34 ± 4.99  year 3: -2.69 ± 3.78
	// filtered Ben:  year 1: -3.34 ± 4.99  year 2:  0.06 ± 4.22
	// filtered Cid:  year 2: -4.92 ± 4.60  year 3:  0.22 ± 3.68
	// smoothed Ann:  year 1:  0.00 ± 2.40  year 3: -0.00 ± 2.40
	// smoothed Ben:  year 1: -0.00 ± 2.40  year 2:  0.00 ± 2.40
	// smoothed Cid:  year 2: -0.00 ± 2.40  year 3:  0.00 ± 2.40
	// converged true in 10 sweeps; one-step-ahead log evidence -3.930
}
