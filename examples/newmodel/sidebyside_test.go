package main

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/internal/repo"
	"github.com/skillgraph/skillgraph/models/evaluation"
	"github.com/skillgraph/skillgraph/record"
)

// TestSideBySide fits the example's season the three ways and checks the
// relation the printed table shows: on this linear-Gaussian graph joint EP
// is the exact answer (to 1e-9, means in units of σ and σ relatively, for
// every variable), loopy EP has the exact means (Gaussian message passing's
// means are exact at its fixed point; to the schedule's tolerance) but
// spreads that are not, and each printed row carries the three answers.
func TestSideBySide(t *testing.T) {
	data, err := repo.Path("examples/data/epl.csv")
	if err != nil {
		t.Fatal(err)
	}
	all, _, err := record.ReadFile(data)
	if err != nil {
		t.Fatal(err)
	}
	m, err := newModel(evaluation.Season(all, "2008-09"))
	if err != nil {
		t.Fatal(err)
	}
	a, res, err := infer(m)
	if err != nil || !res.Converged || !a.jointConverged {
		t.Fatalf("%v (loopy converged %v, joint %v)", err, res.Converged, a.jointConverged)
	}
	worstJoint, worstLoopyMean, worstLoopySigma := 0.0, 0.0, 0.0
	for v, x := range a.exact {
		if x.IsPointMass() {
			continue
		}
		j, l := a.joint[v], a.loopy[v]
		worstJoint = math.Max(worstJoint, math.Max(math.Abs(j.Mean()-x.Mean())/x.Sigma(), math.Abs(j.Sigma()/x.Sigma()-1)))
		worstLoopyMean = math.Max(worstLoopyMean, math.Abs(l.Mean()-x.Mean())/x.Sigma())
		worstLoopySigma = math.Max(worstLoopySigma, math.Abs(l.Sigma()/x.Sigma()-1))
	}
	t.Logf("largest differences from exact: joint EP %.3g; loopy EP means %.3g σ, σ %.3g relative", worstJoint, worstLoopyMean, worstLoopySigma)
	if !(worstJoint <= 1e-9) {
		t.Errorf("joint EP differs from the exact solve by %.3g", worstJoint)
	}
	if !(worstLoopyMean <= 1e-4) {
		t.Errorf("loopy EP's means differ from the exact ones by %.3g σ", worstLoopyMean)
	}
	if !(worstLoopySigma > 0.05) {
		t.Errorf("loopy EP's σ within %.3g of the exact: the comparison shows nothing", worstLoopySigma)
	}

	var out bytes.Buffer
	rows := sideBySide(m, []string{"Liverpool", "West Brom"})
	printSideBySide(&out, a, rows)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != len(rows)+1 {
		t.Fatalf("%d lines for %d rows:\n%s", len(lines), len(rows), out.String())
	}
	for i, r := range rows {
		for _, g := range [][2]float64{{a.loopy[r.v].Mean(), a.loopy[r.v].Sigma()}, {a.joint[r.v].Mean(), a.joint[r.v].Sigma()}, {a.exact[r.v].Mean(), a.exact[r.v].Sigma()}} {
			if cell := fmt.Sprintf("%+6.3f ± %.4f", g[0], g[1]); !strings.Contains(lines[i+1], cell) {
				t.Errorf("row %q lacks %q: %s", r.name, cell, lines[i+1])
			}
		}
	}
}
