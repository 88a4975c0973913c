// Package peercases reads the TrueSkill reference vectors of
// ../shared/vectors/peer_cases.json (schema trueskill-peer-vectors/1,
// described in SCHEMA.md beside it).
package peercases
