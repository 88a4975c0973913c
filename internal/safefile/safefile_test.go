package safefile

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/messages"
)

// writeString returns a write function writing s.
func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

// readString reads path, failing t on error.
func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// entries lists the names in dir.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	if err := Write(path, writeString("one")); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, path); got != "one" {
		t.Fatalf("got %q", got)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
		t.Errorf("new file mode %v, want 0644", fi.Mode().Perm())
	}
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, writeString("two")); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v after a write, want the old 0600", fi.Mode().Perm())
	}
	// A failing write leaves the old contents and nothing else.
	boom := errors.New("boom")
	err := Write(path, func(w io.Writer) error { io.WriteString(w, "half"); return boom })
	if !errors.Is(err, boom) {
		t.Fatalf("err %v, want boom", err)
	}
	if got := readString(t, path); got != "two" {
		t.Errorf("after a failed write: %q, want the old %q", got, "two")
	}
	if got := entries(t, dir); !slices.Equal(got, []string{"state.json"}) {
		t.Errorf("folder holds %q, want only state.json", got)
	}
	if err := Write(filepath.Join(dir, "missing", "x"), writeString("x")); err == nil {
		t.Error("a write into a missing folder succeeded")
	}
}

func TestSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "data", "league.json")
	if err := os.Mkdir(filepath.Dir(real), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	// A relative link whose target does not exist yet: the first write
	// creates the target and keeps the link.
	if err := os.Symlink(filepath.Join("data", "league.json"), link); err != nil {
		t.Fatal(err)
	}
	chain := filepath.Join(dir, "chain.json") // a link to the link
	if err := os.Symlink("link.json", chain); err != nil {
		t.Fatal(err)
	}
	for i, p := range []string{link, chain} {
		want := fmt.Sprint("v", i)
		if err := Update(context.Background(), p, func([]byte, bool) ([]byte, error) { return []byte(want), nil }); err != nil {
			t.Fatal(err)
		}
		for _, l := range []string{link, chain} {
			fi, err := os.Lstat(l)
			if err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Fatalf("%s is no longer a symbolic link (%v)", l, err)
			}
		}
		if got := readString(t, real); got != want {
			t.Errorf("the link's target holds %q, want %q", got, want)
		}
	}
	if lp, _ := LockPath(chain); lp != real+".lock" {
		t.Errorf("lock of the chain %s, want beside the target %s", lp, real+".lock")
	}
	loop := filepath.Join(dir, "loop")
	if err := os.Symlink("loop", loop); err != nil {
		t.Fatal(err)
	}
	if err := Write(loop, writeString("x")); !errors.Is(err, messages.ErrInput) || !strings.Contains(err.Error(), "too many levels of symbolic links") {
		t.Errorf("a link to itself: err %v, want messages.ErrInput saying so", err)
	}
}

// appendLine adds line to the file at path under its lock, as a league
// run adds its games to a state.
func appendLine(path, line string) error {
	return Update(context.Background(), path, func(old []byte, _ bool) ([]byte, error) {
		return append(old, line+"\n"...), nil
	})
}

// checkLines fails t unless path holds each of want exactly once.
func checkLines(t *testing.T, path string, want []string) {
	t.Helper()
	got := strings.Fields(readString(t, path))
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("%d lines, want %d: lost or repeated writes", len(got), len(want))
	}
}

func TestConcurrentGoroutines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state")
	const workers, each = 8, 40
	var wg sync.WaitGroup
	var want []string
	errs := make(chan error, workers*each)
	for w := range workers {
		for i := range each {
			want = append(want, fmt.Sprintf("w%d-%d", w, i))
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				errs <- appendLine(path, fmt.Sprintf("w%d-%d", w, i))
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	checkLines(t, path, want)
	if got := entries(t, filepath.Dir(path)); !slices.Equal(got, []string{"state", "state.lock"}) {
		t.Errorf("folder holds %q", got)
	}
}

// The helper processes: the test binary run again with SAFEFILE_HELPER
// set, doing one job and exiting.
func TestMain(m *testing.M) {
	switch os.Getenv("SAFEFILE_HELPER") {
	case "":
		os.Exit(m.Run())
	case "append":
		path, id := os.Getenv("SAFEFILE_PATH"), os.Getenv("SAFEFILE_ID")
		n, _ := strconv.Atoi(os.Getenv("SAFEFILE_N"))
		for i := range n {
			if err := appendLine(path, fmt.Sprintf("%s-%d", id, i)); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		os.Exit(0)
	case "hang":
		// Write half a file, say so, and wait to be killed.
		err := Update(context.Background(), os.Getenv("SAFEFILE_PATH"), func([]byte, bool) ([]byte, error) { return nil, nil })
		if err != nil {
			os.Exit(1)
		}
		l, err := Lock(context.Background(), os.Getenv("SAFEFILE_PATH"))
		if err != nil {
			os.Exit(1)
		}
		l.Write(func(w io.Writer) error {
			io.WriteString(w, strings.Repeat("half ", 1000))
			fmt.Println("ready")
			time.Sleep(time.Minute)
			return nil
		})
		os.Exit(1)
	}
}

// helper starts the test binary as a helper process doing job.
func helper(t *testing.T, job string, env ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), append([]string{"SAFEFILE_HELPER=" + job}, env...)...)
	cmd.Stderr = os.Stderr
	return cmd
}

func TestConcurrentProcesses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state")
	const procs, each = 4, 25
	var cmds []*exec.Cmd
	var want []string
	for p := range procs {
		id := fmt.Sprint("p", p)
		for i := range each {
			want = append(want, fmt.Sprintf("%s-%d", id, i))
		}
		cmd := helper(t, "append", "SAFEFILE_PATH="+path, "SAFEFILE_ID="+id, fmt.Sprint("SAFEFILE_N=", each))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	checkLines(t, path, want)
}

// TestKilled: a process killed in the middle of a write, by SIGTERM or
// SIGKILL, leaves the old file whole, its lock free, and no temporary file.
func TestKilled(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "state")
			if err := Write(path, writeString("old")); err != nil {
				t.Fatal(err)
			}
			cmd := helper(t, "hang", "SAFEFILE_PATH="+path)
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			line, _ := bufio.NewReader(out).ReadString('\n')
			if line != "ready\n" {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("helper said %q", line)
			}
			cmd.Process.Signal(sig)
			cmd.Wait()
			if got := readString(t, path); got != "old" {
				t.Errorf("after the kill: %q, want the old contents", got)
			}
			if got := entries(t, dir); !slices.Equal(got, []string{"state", "state.lock"}) {
				t.Errorf("folder holds %q after the kill, want state and its lock", got)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			l, err := Lock(ctx, path)
			if err != nil {
				t.Fatalf("the lock was not released by the kill: %v", err)
			}
			l.Unlock()
		})
	}
}

// TestStale: a temporary file left by a writer killed between naming its
// file and renaming it (or on a system without unnamed files) is removed
// by the next locked writer.
func TestStale(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "st[a]te")
	stale := filepath.Join(dir, tempPrefix(path)+"123")
	if err := os.WriteFile(stale, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := appendLine(path, "a"); err != nil {
		t.Fatal(err)
	}
	if got := entries(t, dir); !slices.Equal(got, []string{"st[a]te", "st[a]te.lock"}) {
		t.Errorf("folder holds %q", got)
	}
}

func TestLockContext(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state")
	l, err := Lock(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := Lock(ctx, path); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a second lock: err %v, want the context's deadline", err)
	}
}

// TestMissingFolder: a write into a folder that does not exist fails
// naming the file asked for and its folder, not the temporary file it
// could not create, and is still os.ErrNotExist.
func TestMissingFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "missing")
	path := filepath.Join(dir, "plot.svg")
	err := Write(path, writeString("x"))
	if !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("error %v, want os.ErrNotExist", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "write "+path+": cannot create a file in "+dir+": ") || strings.Contains(msg, tempPrefix(path)) {
		t.Errorf("error %q, want one naming %s and its folder, not a temporary file", msg, path)
	}
}
