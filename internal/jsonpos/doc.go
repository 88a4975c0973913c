// Package jsonpos says where in a JSON text encoding/json found an error,
// as a line and column, so that a state or vectors file that does not
// decode is reported at its place, as the data files are.
package jsonpos
