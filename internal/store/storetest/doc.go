// Package storetest helps the tests of the league's store and server: a
// throwaway PostgreSQL database, and the ratings of a list of matches
// worked out without the store.
package storetest
