// Command conformance rates every case of a TrueSkill reference-vector file
// (schema trueskill-peer-vectors/1, see
// models/trueskill/testdata/peer_cases_schema.md) with
// skillgraph's TrueSkill model and compares posteriors, match quality and
// outcome probability with each case's own tolerance. It prints one line per
// failing case and ends with "conformance: N passed, M failed";
// the exit status is 1 if any case failed.
//
//	go run ./examples/conformance
//
// runs the peers' cases shipped in models/trueskill/testdata (from the
// repository root); -cases FILE checks another file of the same schema.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/skillgraph/skillgraph/internal/conformance"
	"github.com/skillgraph/skillgraph/internal/peercases"
)

func main() {
	cases := flag.String("cases", "models/trueskill/testdata/peer_cases.json", "reference vectors (JSON)")
	verbose := flag.Bool("v", false, "print every case with its largest error")
	flag.Parse()
	file, err := peercases.Load(*cases)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var pass, fail int
	for _, c := range file.Cases {
		o := conformance.Check(c)
		switch o.Status {
		case conformance.Fail:
			fail++
			fmt.Printf("FAIL %s: %s\n", o.Name, o.Detail)
		default:
			pass++
			if *verbose {
				fmt.Printf("ok   %s: worst %.2f of tolerance (%s)\n", o.Name, o.Worst, o.What)
			}
		}
	}
	fmt.Printf("conformance: %d passed, %d failed\n", pass, fail)
	if fail > 0 {
		os.Exit(1)
	}
}
