package safefile_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/skillgraph/skillgraph/internal/safefile"
)

// A counter kept in a file, incremented under the file's lock: runs at
// once never lose an increment, and a crash never leaves half a file.
func ExampleUpdate() {
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "count")
	for range 3 {
		err := safefile.Update(context.Background(), path, func(old []byte, exists bool) ([]byte, error) {
			n := 0
			if exists {
				if n, err = strconv.Atoi(string(old)); err != nil {
					return nil, err
				}
			}
			return []byte(strconv.Itoa(n + 1)), nil
		})
		if err != nil {
			fmt.Println(err)
			return
		}
	}
	b, _ := os.ReadFile(path)
	fmt.Println(string(b))
	// Output: 3
}
