package evaluation_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/skillgraph/skillgraph/internal/sharedtest"
)

func writeFile(path, data string) error { return os.WriteFile(path, []byte(data), 0o644) }

// repoFile returns the path of a file shipped in the repository, given
// relative to the module root. The data the tests read is in the
// repository, so a missing file is a failure, not a skip.
func repoFile(t *testing.T, rel string) string {
	t.Helper()
	return filepath.Join(sharedtest.Root(t), filepath.FromSlash(rel))
}
