// Package peercases reads TrueSkill reference vectors in the schema
// trueskill-peer-vectors/1 (models/trueskill/testdata/peer_cases.json,
// described in peer_cases_schema.md beside it).
package peercases
