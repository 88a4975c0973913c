package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/skillgraph/skillgraph/internal/cli"
)

// subcommand is one of the command's jobs.
type subcommand struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

// prog is the command's name in its messages.
const prog = "skillgraph"

// dispatch runs the subcommand args[0] names with the rest of args;
// "help", "-h" and no arguments list the subcommands, "help NAME" shows
// NAME's flags, and a name not among subs is a usage error suggesting the
// closest ones.
func dispatch(subs []subcommand, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(subs, stderr)
		return cli.Usage
	}
	name, rest := args[0], args[1:]
	switch name {
	case "help", "-h", "-help", "--help":
		if name == "help" && len(rest) > 0 {
			if len(rest) > 1 {
				return cli.Usagef(stderr, prog, "help takes one subcommand, not %d", len(rest))
			}
			if s := find(subs, rest[0]); s != nil {
				return s.run([]string{"-h"}, stdout, stderr)
			}
			return unknown(subs, rest[0], stderr)
		}
		usage(subs, stdout)
		return cli.OK
	}
	if s := find(subs, name); s != nil {
		return runChecked(s, rest, stdout, stderr)
	}
	return unknown(subs, name, stderr)
}

// runChecked runs s with a standard output that remembers its first
// write error: a subcommand that succeeded but whose output could not be
// written (a full disk) fails, in one line.
func runChecked(s *subcommand, args []string, stdout, stderr io.Writer) int {
	out := cli.NewOutput(stdout)
	status := s.run(args, out, stderr)
	if status == cli.OK && out.Err() != nil {
		return cli.Failf(stderr, prog+" "+s.name, "writing the output: %v", out.Err())
	}
	return status
}

// find returns the subcommand called name, or nil.
func find(subs []subcommand, name string) *subcommand {
	for i := range subs {
		if subs[i].name == name {
			return &subs[i]
		}
	}
	return nil
}

// unknown reports a name that is no subcommand, with the closest names.
func unknown(subs []subcommand, name string, stderr io.Writer) int {
	names := make([]string, len(subs))
	for i, s := range subs {
		names[i] = s.name
	}
	if close := cli.Suggest(name, names); len(close) > 0 {
		return cli.Usagef(stderr, prog, "unknown subcommand %q; did you mean %s?", name, strings.Join(close, " or "))
	}
	return cli.Usagef(stderr, prog, "unknown subcommand %q (subcommands: %s)", name, strings.Join(names, ", "))
}

// usage lists the subcommands.
func usage(subs []subcommand, w io.Writer) {
	fmt.Fprintf(w, "usage: %s SUBCOMMAND [flags]\n\nSubcommands:\n", prog)
	width := 0
	for _, s := range subs {
		width = max(width, len(s.name))
	}
	for _, s := range subs {
		fmt.Fprintf(w, "  %-*s  %s\n", width, s.name, s.summary)
	}
	fmt.Fprintf(w, "\nRun %s help SUBCOMMAND (or %s SUBCOMMAND -h) for its flags.\n", prog, prog)
}
