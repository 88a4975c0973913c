package jsonpos

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestPlace: each error is placed at the first byte of the case's mark,
// found here by searching the text (the end of a text cut short); errors
// without a place have none.
func TestPlace(t *testing.T) {
	type doc struct {
		Name  string    `json:"name"`
		Sizes []float64 `json:"sizes"`
	}
	for _, c := range []struct {
		name, text, mark string
		decoder          bool // decode with a json.Decoder, not Unmarshal
	}{
		{"syntax", "{\n \"name\": \"a\",\n \"sizes\": [1, 2 @]\n}", "@", false},
		{"syntax on line 1", `{"name" "a"}`, `"a"`, false},
		{"type", "{\n \"name\": \"a\",\n \"sizes\": [1, \"two\"]\n}", `"]`, false},
		{"array for an object", "\n\n  [1]", "[", false},
		{"cut short", "{\n \"name\": \"a\",\n \"siz", "", true},
	} {
		var d doc
		var err error
		if c.decoder {
			err = json.NewDecoder(strings.NewReader(c.text)).Decode(&d)
		} else {
			err = json.Unmarshal([]byte(c.text), &d)
		}
		at := len(c.text) // the end, for a text cut short
		if c.mark != "" {
			at = strings.Index(c.text, c.mark)
		}
		wantLine := 1 + strings.Count(c.text[:at], "\n")
		wantCol := at - strings.LastIndex(c.text[:at], "\n")
		line, col, ok := Place([]byte(c.text), err)
		if !ok || line != wantLine || col != wantCol {
			t.Errorf("%s: %v placed at %d:%d (%v), want %d:%d", c.name, err, line, col, ok, wantLine, wantCol)
		}
	}
	for _, err := range []error{nil, errors.New("json: unknown field \"x\""), &json.UnsupportedTypeError{}} {
		if line, col, ok := Place([]byte("{}"), err); ok {
			t.Errorf("%v placed at %d:%d", err, line, col)
		}
	}
}
