package dot_test

import (
	"fmt"
	"os"

	"github.com/skillgraph/skillgraph/dot"
	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/schedules"
)

// A skill with a prior and a performance, drawn with its two-pass schedule.
func ExampleWrite() {
	b := graph.NewBuilder("skill")
	b.DeclareLayers("priors", "skills", "performance factors", "performances")
	b.Layer("skills")
	s := b.AddVariable("s")
	b.Layer("performances")
	p := b.AddVariable("p")
	b.Layer("priors")
	b.AddFactor(factors.NewPrior(25, 69.44), "", s)
	b.Layer("performance factors")
	b.AddFactor(factors.NewLikelihood(17.36), "", p, s)
	g, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	sched := schedules.Sequence(schedules.Step(0, 0), schedules.Step(1, 0))
	if err := dot.Write(os.Stdout, g, dot.Options{Schedule: sched}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// graph "skill" {
	// 	rankdir="TB";
	// 	ordering=out;
	// 	forcelabels=true;
	// 	nodesep=0.9;
	// 	ranksep=0.5;
	// 	node [fontname="Helvetica", fontsize=11];
	// 	edge [fontname="Helvetica", fontsize=9];
	// 	label="messages numbered in schedule order: grey = downward, blue = iterated loop, black = upward";
	// 	labelloc=b;
	// 	fontname="Helvetica";
	// 	fontsize=10;
	// 	v0 [shape=circle, label="s", style=filled, fillcolor=gray92];
	// 	v1 [shape=circle, label="p", style=filled, fillcolor=gray92];
	// 	f0 [shape=box, style=filled, fillcolor=black, fixedsize=true, width=0.15, height=0.15, label="", xlabel="N(s; 25, 69.44)", tooltip="N(s; 25, 69.44)"];
	// 	f1 [shape=box, style=filled, fillcolor=black, fixedsize=true, width=0.15, height=0.15, label="", xlabel="N(p; s, 17.36)", tooltip="N(p; s, 17.36)"];
	// 	subgraph "layer priors" {
	// 		rank=same;
	// 		f0;
	// 	}
	// 	subgraph "layer skills" {
	// 		rank=same;
	// 		v0;
	// 	}
	// 	subgraph "layer performance factors" {
	// 		rank=same;
	// 		f1;
	// 	}
	// 	subgraph "layer performances" {
	// 		rank=same;
	// 		v1;
	// 	}
	// 	f0 -- v0 [dir=forward, color=gray60, fontcolor=gray60, label="1"];
	// 	f1 -- v1 [dir=forward, color=gray60, fontcolor=gray60, label="2"];
	// 	v0 -- f1;
	// }
}
