package conformance

import (
	"flag"
	"fmt"
	"io"

	"github.com/skillgraph/skillgraph/internal/cli"
	"github.com/skillgraph/skillgraph/internal/conformance"
	"github.com/skillgraph/skillgraph/internal/peercases"
	"github.com/skillgraph/skillgraph/internal/repo"
)

// shipped is the peers' reference vectors, from the module root.
const shipped = "models/trueskill/testdata/peer_cases.json"

// Prog is the subcommand's name in its messages.
const Prog = "skillgraph conformance"

// Summary is the subcommand's one-line description for the command's
// help.
const Summary = "check the TrueSkill model against other implementations' reference vectors"

// Run is the subcommand with its arguments and streams; it returns the
// exit status.
func Run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(Prog, flag.ContinueOnError)
	cases := fs.String("cases", "", "reference vectors (JSON; default: the shipped "+shipped+")")
	verbose := fs.Bool("v", false, "print every case with its largest error")
	if status, done := cli.Parse(fs, args, Prog+" [-cases FILE] [-v]", stderr); done {
		return status
	}
	path := *cases
	if path == "" {
		p, err := repo.Path(shipped)
		if err != nil {
			return cli.Failf(stderr, Prog, "no -cases given and the shipped cases are not found: %v", err)
		}
		path = p
	}
	file, err := peercases.Load(path)
	if err != nil {
		return cli.Failf(stderr, Prog, "%v", err)
	}
	if len(file.Cases) == 0 {
		// Passing zero cases checks nothing: an empty or mistyped file must
		// not read as conformance.
		return cli.Failf(stderr, Prog, "%s holds no cases: nothing to check", path)
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
