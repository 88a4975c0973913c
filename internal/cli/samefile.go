package cli

import "os"

// SameFile reports whether paths a and b name one existing file, symbolic
// links followed, so that a program can refuse to write an output over an
// input it reads.
func SameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}
