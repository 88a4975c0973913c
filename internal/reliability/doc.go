// Package reliability holds the cross-package tests of bad input; it has no
// code of its own.
//
// reliability_test.go lists bad inputs and the typed error each returns,
// matchable with errors.Is or errors.As. The *_api_test.go files hold the
// property over the exported API of messages, graph, factors, schedules,
// models/scorebased and models/elo: every exported function and method,
// called with arguments drawn (from a fixed seed) among extremes (±0,
// subnormals, ±1e308, the largest float64, NaN, ±Inf, empty and nil
// slices, nil pointers, nil options, IDs out of range, cancelled and nil
// contexts), returns within a second, without panicking, with finite
// numbers or an error of its package's; package messages, which returns no
// errors, answers every call in its domain with finite numbers. Each table
// of probes is checked against its package's exports, parsed from the
// sources, so a new export without a probe fails the test.
package reliability
