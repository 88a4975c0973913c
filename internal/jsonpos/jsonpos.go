package jsonpos

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// Place returns the line and column (from 1, the column in bytes, as
// encoding/csv counts them) of the byte of data where decoding it gave
// err, and whether err has a place: a syntax error is at the byte it
// names; a value of the wrong type at its last byte, or at the opening
// bracket of an array or object; a text that ends too soon
// (io.ErrUnexpectedEOF) at its end.
func Place(data []byte, err error) (line, col int, ok bool) {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var at int64
	switch {
	case errors.As(err, &syntax):
		at = syntax.Offset - 1
	case errors.As(err, &typ):
		at = typ.Offset - 1
	case errors.Is(err, io.ErrUnexpectedEOF):
		at = int64(len(data))
	default:
		return 0, 0, false
	}
	before := data[:max(0, min(at, int64(len(data))))]
	line = 1 + bytes.Count(before, []byte("\n"))
	col = len(before) - bytes.LastIndexByte(before, '\n')
	return line, col, true
}
