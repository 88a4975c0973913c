package vectors

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoad: a file is decoded into T; a missing file is fs.ErrNotExist
// and a file that is not JSON names its path.
func TestLoad(t *testing.T) {
	type file struct {
		Cases []struct {
			Name string  `json:"name"`
			X    float64 `json:"x"`
		} `json:"cases"`
	}
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "good.json"), filepath.Join(dir, "bad.json")
	if err := os.WriteFile(good, []byte(`{"cases": [{"name": "a", "x": 1.5}, {"name": "b", "x": -2}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte(`{"cases": [`), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := Load[file](good)
	if err != nil || len(f.Cases) != 2 || f.Cases[0].Name != "a" || f.Cases[0].X != 1.5 || f.Cases[1].X != -2 {
		t.Errorf("good: %+v, %v", f, err)
	}
	if _, err := Load[file](filepath.Join(dir, "none.json")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: %v, want fs.ErrNotExist", err)
	}
	if _, err := Load[file](bad); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("bad: %v, want an error naming %s", err, bad)
	}
	// A wrong value is placed at its line and column: "x" on line 3 is a
	// string whose closing quote is at column 10.
	wrong := filepath.Join(dir, "wrong.json")
	if err := os.WriteFile(wrong, []byte("{\"cases\": [\n {\"name\": \"a\",\n  \"x\": \"1\"}]}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load[file](wrong); err == nil || !strings.HasPrefix(err.Error(), wrong+":3:10: ") {
		t.Errorf("wrong: %v, want an error starting %s:3:10: ", err, wrong)
	}
}
