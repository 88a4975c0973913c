// Package clitest runs the example programs in-process for their tests and
// checks their one-line error reports.
package clitest
