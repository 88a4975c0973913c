// Package sharedtest locates the project's reference data in ../shared for
// tests: a test that needs it is skipped when the folder is absent, and fails
// when the CI environment variable is set.
package sharedtest
