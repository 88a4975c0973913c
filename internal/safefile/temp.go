package safefile

import (
	"os"
	"path/filepath"
)

// tempFile is the new contents of a file being written.
type tempFile struct {
	f    *os.File
	name string // its name in the folder; "" while it has none (O_TMPFILE)
}

// tempPrefix is how the temporary files of target's writes begin.
func tempPrefix(target string) string { return "." + filepath.Base(target) + ".tmp-" }

// createNamed creates a named temporary file in dir for target.
func createNamed(dir, target string) (*tempFile, error) {
	f, err := os.CreateTemp(dir, tempPrefix(target)+"*")
	if err != nil {
		return nil, err
	}
	return &tempFile{f: f, name: f.Name()}, nil
}

// abort closes and removes t.
func (t *tempFile) abort() {
	t.f.Close()
	if t.name != "" {
		os.Remove(t.name)
	}
}

// removeStale removes the temporary files that writes of target killed
// before their rename left behind. It runs under target's lock, when no
// locked writer is writing.
func removeStale(target string) {
	stale, _ := filepath.Glob(filepath.Join(filepath.Dir(target), globEscape(tempPrefix(target))+"*"))
	for _, s := range stale {
		os.Remove(s)
	}
}

// globEscape escapes the pattern characters of filepath.Match in s.
func globEscape(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '*', '?', '[', '\\':
			out = append(out, '\\')
		}
		out = append(out, s[i])
	}
	return string(out)
}
