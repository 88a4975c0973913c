package conformance_test

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/skillgraph/skillgraph/internal/cli/conformance"
)

// The shipped reference vectors, found from any folder of the module: the
// last line counts the cases.
func ExampleRun() {
	var out bytes.Buffer
	code := conformance.Run(nil, &out, os.Stderr)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	fmt.Println(code, lines[len(lines)-1])
	// Output: 0 conformance: 95 passed, 0 failed
}
