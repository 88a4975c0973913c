package vectors

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/skillgraph/skillgraph/internal/jsonpos"
)

// Load reads the JSON file at path into a new T. A file that cannot be
// read returns os's error, which names the path; a file that is not T's
// JSON returns json's error prefixed with the path and, where json says
// where, the line and column: "path:3:14: ".
func Load[T any](path string) (*T, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		if line, col, ok := jsonpos.Place(b, err); ok {
			return nil, fmt.Errorf("%s:%d:%d: %w", path, line, col, err)
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &v, nil
}
