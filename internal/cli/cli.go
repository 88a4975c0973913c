package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Exit statuses.
const (
	OK    = 0
	Error = 1 // the inputs, the outputs or the work failed
	Usage = 2 // bad flags or arguments
)

// Usagef reports a usage mistake of program prog on stderr, in one line
// with a hint to run -h, and returns Usage.
func Usagef(stderr io.Writer, prog, format string, a ...any) int {
	fmt.Fprintln(stderr, oneLine(prog+": "+fmt.Sprintf(format, a...)+" (run "+prog+" -h for usage)"))
	return Usage
}

// Parse parses args with fs (which must be flag.ContinueOnError) and
// rejects extra arguments. With -h it prints synopsis and the flags on
// stderr. It returns done = true and the status to exit with when the
// program should stop: after -h (OK) or a mistake (Usage).
func Parse(fs *flag.FlagSet, args []string, synopsis string, stderr io.Writer) (status int, done bool) {
	fs.SetOutput(io.Discard) // mistakes are reported in one line below
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stderr, "usage: "+synopsis)
			fs.SetOutput(stderr)
			fs.PrintDefaults()
			return OK, true
		}
		return Usagef(stderr, fs.Name(), "%v", err), true
	}
	if fs.NArg() > 0 {
		return Usagef(stderr, fs.Name(), "unexpected argument %q", fs.Arg(0)), true
	}
	return OK, false
}

// ParseNone is Parse for a program that takes no flags or arguments: -h
// says so.
func ParseNone(prog string, args []string, stderr io.Writer) (status int, done bool) {
	return Parse(flag.NewFlagSet(prog, flag.ContinueOnError), args, prog+" (no flags or arguments)", stderr)
}

// maxLine bounds a one-line report: a message built from a hostile input
// (a huge name, a long line of a file) is cut, not echoed whole.
const maxLine = 1000

// oneLine joins s's lines and cuts it to at most maxLine bytes, at a rune
// boundary, marking the cut with "…".
func oneLine(s string) string {
	s = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
	if len(s) <= maxLine {
		return s
	}
	cut := maxLine - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// Failf reports a failure of program prog on stderr, in one line of at
// most about 1 KB, and returns Error.
func Failf(stderr io.Writer, prog, format string, a ...any) int {
	fmt.Fprintln(stderr, oneLine(prog+": "+fmt.Sprintf(format, a...)))
	return Error
}

// DidYouMean returns `did you mean "a" or "b"?` for the names Suggest
// finds for name among candidates, each quoted as Go quotes a string, or
// "" if it finds none.
func DidYouMean(name string, candidates []string) string {
	close := Suggest(name, candidates)
	if len(close) == 0 {
		return ""
	}
	for i, n := range close {
		close[i] = strconv.Quote(n)
	}
	return "did you mean " + strings.Join(close, " or ") + "?"
}

// Suggest returns the names among candidates closest to name by edit
// distance (Levenshtein, on runes, ignoring case), if any is close enough
// to be a plausible misspelling: at most a third of name's length away
// (and at least 1, so "Brasil" finds "Brazil"). Several at the same
// distance are all returned, sorted.
func Suggest(name string, candidates []string) []string {
	lower := []rune(strings.ToLower(name))
	limit := max(1, len(lower)/3)
	best := limit + 1
	var out []string
	for _, c := range candidates {
		d := editDistance(lower, []rune(strings.ToLower(c)), best)
		switch {
		case d < best:
			best, out = d, []string{c}
		case d == best:
			out = append(out, c)
		}
	}
	if best > limit {
		return nil
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// editDistance is the optimal string alignment distance of a and b (the
// Levenshtein distance with a swap of two neighbouring letters counting
// as one edit, "raet" → "rate"), or bound+1 once it must exceed bound, so
// that a long candidate costs little.
func editDistance(a, b []rune, bound int) int {
	if d := len(a) - len(b); d > bound || -d > bound {
		return bound + 1
	}
	// rows[0], rows[1], rows[2]: the rows of a's prefixes i−2, i−1 and i.
	var rows [3][]int
	for k := range rows {
		rows[k] = make([]int, len(b)+1)
	}
	for j := range rows[1] {
		rows[1][j] = j
	}
	for i := 1; i <= len(a); i++ {
		pp, prev, cur := rows[0], rows[1], rows[2]
		cur[0] = i
		rowMin := i
		for j := 1; j <= len(b); j++ {
			sub := prev[j-1]
			if a[i-1] != b[j-1] {
				sub++
			}
			cur[j] = min(sub, prev[j]+1, cur[j-1]+1)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], pp[j-2]+1)
			}
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > bound {
			return bound + 1
		}
		rows[0], rows[1], rows[2] = prev, cur, pp
	}
	return rows[1][len(b)]
}

// Progress reports a long step's progress on a stream: its lines come at
// most every interval, the first once interval has passed, so that a step
// that ends sooner prints nothing.
type Progress struct {
	w        io.Writer
	prog     string
	interval time.Duration
	next     time.Time
}

// NewProgress returns a Progress writing "prog: …" lines to w every
// interval from now.
func NewProgress(w io.Writer, prog string, interval time.Duration) *Progress {
	return &Progress{w: w, prog: prog, interval: interval, next: time.Now().Add(interval)}
}

// Printf writes a progress line if one is due.
func (p *Progress) Printf(format string, a ...any) {
	if now := time.Now(); !now.Before(p.next) {
		fmt.Fprintln(p.w, oneLine(p.prog+": "+fmt.Sprintf(format, a...)))
		p.next = now.Add(p.interval)
	}
}
