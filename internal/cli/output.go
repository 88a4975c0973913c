package cli

import (
	"io"
	"sync"
)

// Output is a program's standard output that remembers the first error
// writing to it: a table printed line by line with fmt.Fprintf, whose
// errors nobody checks, still makes the program fail when the disk is
// full. After an error it writes nothing more and returns that error.
// It is safe for concurrent use.
type Output struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

// NewOutput returns an Output writing to w.
func NewOutput(w io.Writer) *Output { return &Output{w: w} }

// Write writes p to the underlying writer unless an earlier write failed.
func (o *Output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.err != nil {
		return 0, o.err
	}
	n, err := o.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	o.err = err
	return n, err
}

// Err returns the first error writing to o, or nil.
func (o *Output) Err() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.err
}
