package dot_test

import (
	"fmt"
	"os"
	"strings"

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
	// 	newrank=true;
	// 	ordering=out;
	// 	forcelabels=true;
	// 	nodesep=0.9;
	// 	ranksep=0.5;
	// 	node [fontname="Helvetica", fontsize=11];
	// 	edge [fontname="Helvetica", fontsize=9];
	// 	label="messages in schedule order: grey = down, black = up; in an iterated loop light blue = down, dark blue = up";
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
	// 	f0 -- v0 [style=invis];
	// 	subgraph "layer performance factors" {
	// 		rank=same;
	// 		f1;
	// 	}
	// 	v0 -- f1 [style=invis];
	// 	subgraph "layer performances" {
	// 		rank=same;
	// 		v1;
	// 	}
	// 	f1 -- v1 [style=invis];
	// 	f0 -- v0 [dir=forward, color=gray60, fontcolor=gray60, label="1"];
	// 	f1 -- v1 [dir=forward, color=gray60, fontcolor=gray60, label="2"];
	// 	v0 -- f1;
	// }
}

// A two-step history of two players, each boxed as a cluster, drawn with
// the direction of its messages but without their numbers: the lines that
// make the clusters, and the messages.
func ExampleOptions_clusters() {
	b := graph.NewBuilder("history")
	b.DeclareLayers("priors", "time 0", "drift", "time 1")
	for _, player := range []string{"ann", "ben"} {
		b.Group(player)
		b.Layer("time 0")
		s0 := b.AddVariable(player + "@0")
		b.Layer("time 1")
		s1 := b.AddVariable(player + "@1")
		b.Layer("priors")
		b.AddFactor(factors.NewPrior(25, 64), "", s0)
		b.Layer("drift")
		b.AddFactor(factors.NewLikelihood(0.1), "", s1, s0)
	}
	g, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := schedules.Tree(g)
	if err != nil {
		fmt.Println(err)
		return
	}
	text, err := dot.Marshal(g, dot.Options{Schedule: s, HideNumbers: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	inCluster := false
	for _, line := range strings.Split(string(text), "\n") {
		inCluster = inCluster || strings.Contains(line, "cluster")
		if inCluster || strings.Contains(line, "[dir=") {
			fmt.Println(strings.TrimSpace(line))
		}
		inCluster = inCluster && line != "\t}"
	}
	// Output:
	// subgraph "cluster1" {
	// label="ann";
	// style=rounded;
	// color=gray70;
	// fontname="Helvetica";
	// fontsize=10;
	// v0; v1; f0; f1;
	// }
	// subgraph "cluster2" {
	// label="ben";
	// style=rounded;
	// color=gray70;
	// fontname="Helvetica";
	// fontsize=10;
	// v2; v3; f2; f3;
	// }
	// f0 -- v0 [dir=forward, color=gray60];
	// f1 -- v1 [dir=forward, color=gray60];
	// v0 -- f1 [dir=back, color=black];
	// f2 -- v2 [dir=forward, color=gray60];
	// f3 -- v3 [dir=forward, color=gray60];
	// v2 -- f3 [dir=back, color=black];
}
