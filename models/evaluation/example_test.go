package evaluation_test

import (
	"fmt"
	"math"

	"github.com/skillgraph/skillgraph/models/evaluation"
)

// Scoring three forecasts of a home win: information gain in bits (the
// Probabilistic Footy Tipping score) from the logs of p and 1 − p:
// (1 + log₂ 0.7) + (1 + log₂ 0.6) + (1 + ½ log₂(0.55·0.45)) = 0.741 over
// three matches; and the AUC. A model with only p can pass math.Log(p) and
// math.Log1p(-p); the models of ScoreModels compute both logs directly.
func ExampleInformationGain() {
	forecasts := []float64{0.7, 0.4, 0.55}
	outcomes := []evaluation.Outcome{evaluation.Win, evaluation.Loss, evaluation.Draw}
	var bits float64
	for i, p := range forecasts {
		g, err := evaluation.InformationGain(math.Log(p), math.Log1p(-p), outcomes[i])
		if err != nil {
			fmt.Println(err)
			return
		}
		bits += g
	}
	fmt.Printf("%.4f bits per match\n", bits/3)
	auc, err := evaluation.AUC([]float64{0.7, 0.4}, []bool{true, false})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("AUC %.2f\n", auc)
	// Output:
	// 0.2471 bits per match
	// AUC 1.00
}
