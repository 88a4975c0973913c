// Command conformance rates every case of a TrueSkill reference-vector file
// (schema trueskill-peer-vectors/1, see
// models/trueskill/testdata/peer_cases_schema.md) with
// skillgraph's TrueSkill model and compares posteriors, match quality and
// outcome probability with each case's own tolerance. It prints one line per
// failing case and ends with "conformance: N passed, M failed";
// the exit status is 1 if any case failed, or if the file holds no case
// (nothing was checked), and 2 for bad flags.
//
//	go run ./examples/conformance
//
// runs the peers' cases shipped in models/trueskill/testdata (found from
// anywhere inside the repository); -cases FILE checks another file of the
// same schema.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/skillgraph/skillgraph/internal/cli"
	"github.com/skillgraph/skillgraph/internal/conformance"
	"github.com/skillgraph/skillgraph/internal/peercases"
	"github.com/skillgraph/skillgraph/internal/repo"
)

const shipped = "models/trueskill/testdata/peer_cases.json"

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("conformance", flag.ContinueOnError)
	cases := fs.String("cases", "", "reference vectors (JSON); default: the peers' cases shipped in "+shipped)
	verbose := fs.Bool("v", false, "print every case with its largest error")
	if status, done := cli.Parse(fs, args, "conformance [-cases FILE] [-v]", stderr); done {
		return status
	}
	path := *cases
	if path == "" {
		var err error
		if path, err = repo.Path(shipped); err != nil {
			fmt.Fprintln(stderr, "conformance:", err)
			return cli.Error
		}
	}
	file, err := peercases.Load(path)
	if err != nil {
		fmt.Fprintln(stderr, "conformance:", err)
		return cli.Error
	}
	if len(file.Cases) == 0 {
		// Passing zero cases checks nothing: an empty or mistyped file must
		// not read as conformance.
		fmt.Fprintf(stderr, "conformance: %s holds no cases: nothing to check\n", path)
		return cli.Error
	}
	var pass, fail int
	for _, c := range file.Cases {
		o := conformance.Check(c)
		switch o.Status {
		case conformance.Fail:
			fail++
			fmt.Fprintf(stdout, "FAIL %s: %s\n", o.Name, o.Detail)
		default:
			pass++
			if *verbose {
				fmt.Fprintf(stdout, "ok   %s: worst %.2f of tolerance (%s)\n", o.Name, o.Worst, o.What)
			}
		}
	}
	fmt.Fprintf(stdout, "conformance: %d passed, %d failed\n", pass, fail)
	if fail > 0 {
		return cli.Error
	}
	return cli.OK
}
