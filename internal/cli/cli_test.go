package cli

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestSuggest(t *testing.T) {
	teams := []string{"Brazil", "Bahrain", "Belarus", "Burundi", "France", "Iran", "Iraq", "Oman", "Peru"}
	for _, c := range []struct {
		name string
		want []string
	}{
		{"Brasil", []string{"Brazil"}},
		{"brazil", []string{"Brazil"}},
		{"Farnce", []string{"France"}}, // a swap is one edit
		{"Ira", []string{"Iran", "Iraq"}},
		{"Germany", nil},
		{"", nil},
		{strings.Repeat("x", 10000), nil},
	} {
		if got := Suggest(c.name, teams); !slices.Equal(got, c.want) {
			t.Errorf("Suggest(%.20q) = %q, want %q", c.name, got, c.want)
		}
	}
	// The distance against a brute-force definition on short words.
	words := []string{"", "a", "ab", "ba", "abc", "acb", "bca", "abcd", "xyz"}
	for _, a := range words {
		for _, b := range words {
			if got, want := editDistance([]rune(a), []rune(b), 10), osa(a, b); got != want {
				t.Errorf("distance(%q, %q) = %d, want %d", a, b, got, want)
			}
		}
	}
}

// osa is the optimal string alignment distance by its recursive
// definition.
func osa(a, b string) int {
	if a == "" || b == "" {
		return len(a) + len(b)
	}
	cost := 1
	if a[len(a)-1] == b[len(b)-1] {
		cost = 0
	}
	d := min(osa(a[:len(a)-1], b)+1, osa(a, b[:len(b)-1])+1, osa(a[:len(a)-1], b[:len(b)-1])+cost)
	if len(a) > 1 && len(b) > 1 && a[len(a)-1] == b[len(b)-2] && a[len(a)-2] == b[len(b)-1] {
		d = min(d, osa(a[:len(a)-2], b[:len(b)-2])+1)
	}
	return d
}

func TestFailf(t *testing.T) {
	var buf bytes.Buffer
	if code := Failf(&buf, "p", "bad\nname %s", strings.Repeat("é", 2000)); code != Error {
		t.Errorf("exit %d", code)
	}
	out := buf.String()
	if strings.Count(out, "\n") != 1 || len(out) > 1024 || !strings.HasPrefix(out, "p: bad name é") || !strings.HasSuffix(out, "…\n") {
		t.Errorf("report of %d bytes, %d lines: %.60q", len(out), strings.Count(out, "\n"), out)
	}
}

func TestProgress(t *testing.T) {
	var buf bytes.Buffer
	p := NewProgress(&buf, "p", time.Hour)
	p.Printf("step %d", 1)
	if buf.Len() != 0 {
		t.Errorf("a line before the interval: %q", buf.String())
	}
	p = NewProgress(&buf, "p", 0)
	p.Printf("step %d", 1)
	p.Printf("step\n%d", 2)
	if got := buf.String(); got != "p: step 1\np: step 2\n" {
		t.Errorf("lines %q", got)
	}
}

// TestOutput: an Output passes writes through until one fails, then
// writes nothing more and keeps returning that error; a short write is
// an error too.
func TestOutput(t *testing.T) {
	var b bytes.Buffer
	o := NewOutput(&b)
	if n, err := o.Write([]byte("ab")); n != 2 || err != nil || o.Err() != nil || b.String() != "ab" {
		t.Fatalf("write: %d, %v, %v, %q", n, err, o.Err(), b.String())
	}
	short := NewOutput(writerFunc(func(p []byte) (int, error) { return len(p) - 1, nil }))
	if _, err := short.Write([]byte("xyz")); err != io.ErrShortWrite || short.Err() != io.ErrShortWrite {
		t.Errorf("short write: %v, %v; want io.ErrShortWrite", err, short.Err())
	}
	calls := 0
	failing := NewOutput(writerFunc(func(p []byte) (int, error) { calls++; return 0, io.ErrClosedPipe }))
	for range 3 {
		if _, err := failing.Write([]byte("x")); err != io.ErrClosedPipe {
			t.Errorf("write after a failure: %v, want io.ErrClosedPipe", err)
		}
	}
	if calls != 1 || failing.Err() != io.ErrClosedPipe {
		t.Errorf("%d writes reached the writer, error %v; want 1 and io.ErrClosedPipe", calls, failing.Err())
	}
}

// writerFunc is a function that is an io.Writer.
type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// TestSameFile: one file under two names, a symbolic link included, is
// the same file; two files, or a file and a name of nothing, are not.
func TestSameFile(t *testing.T) {
	dir := t.TempDir()
	a, b, link := filepath.Join(dir, "a.csv"), filepath.Join(dir, "b.csv"), filepath.Join(dir, "link.csv")
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(a, link); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		x, y string
		want bool
	}{
		{a, a, true}, {a, filepath.Join(dir, ".", "a.csv"), true}, {link, a, true},
		{a, b, false}, {a, filepath.Join(dir, "none.csv"), false}, {filepath.Join(dir, "none.csv"), filepath.Join(dir, "none.csv"), false},
	} {
		if got := SameFile(c.x, c.y); got != c.want {
			t.Errorf("SameFile(%s, %s) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
}
