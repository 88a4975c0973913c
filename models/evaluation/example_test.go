package evaluation_test

import (
	"fmt"
	"math"

	"github.com/skillgraph/skillgraph/models/evaluation"
	"github.com/skillgraph/skillgraph/record"
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

// homeFavourite is a model of one's own: it learns nothing and gives the
// home side a 45 % chance of winning.
type homeFavourite struct{}

func (homeFavourite) Observe(*record.Match) error { return nil }

func (homeFavourite) Predict(*record.Match) (evaluation.ScorePrediction, error) {
	return evaluation.ScorePrediction{LogWin: math.Log(0.45), LogNotWin: math.Log(0.55)}, nil
}

// Elo and a model of one's own under the score-based paper's protocol, on
// two Premier League seasons, training on the first 80 % of each: any
// Predictor can take part beside the paper's models. The constant forecast
// scores 1 + log₂ 0.45 for a home win, 1 + log₂ 0.55 for an away win and
// 1 + ½ log₂(0.45·0.55) for a draw: −0.0377 bits, the mean over the two
// seasons of 76 test matches each.
func ExampleScoreExperiment() {
	ms, _, err := record.ReadFile("../../examples/data/epl.csv")
	if err != nil {
		fmt.Println(err)
		return
	}
	models, err := evaluation.ScoreModels(evaluation.ScoreConfig{})
	if err != nil {
		fmt.Println(err)
		return
	}
	models = append(models[4:5], evaluation.ScoreModel{Name: "home 45 %", New: func([]record.Match) (evaluation.Predictor, error) {
		return homeFavourite{}, nil
	}})
	res, err := evaluation.ScoreExperiment(ms, []string{"2007-08", "2008-09"}, []float64{0.8}, models, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for mi, name := range res.Models {
		ig, _, err := res.Summary(mi, 0, func(m evaluation.ScoreMetrics) float64 { return m.InfoGain })
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s: %.4f bits per match\n", name, ig)
	}
	// Output:
	// Elo: 0.1339 bits per match
	// home 45 %: -0.0377 bits per match
}
