//go:build !linux

package safefile

import "os"

// createTemp creates a named temporary file in dir for target.
func createTemp(dir, target string) (*tempFile, error) { return createNamed(dir, target) }

// commit renames t over target.
func (t *tempFile) commit(target string) error {
	if err := t.f.Close(); err != nil {
		return err
	}
	return os.Rename(t.name, target)
}
