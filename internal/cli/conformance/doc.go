// Package conformance is the skillgraph command's conformance subcommand:
// it rates every case of a TrueSkill reference-vector file (schema
// trueskill-peer-vectors/1, see models/trueskill/testdata/peer_cases_schema.md)
// with skillgraph's TrueSkill model and compares posteriors, match quality
// and outcome probability with each case's own tolerance. It prints one
// line per failing case and ends with "conformance: N passed, M failed";
// the exit status is 1 if any case failed or the file holds none.
//
//	skillgraph conformance
//
// runs the peers' cases shipped in models/trueskill/testdata (found from
// the working folder up to the module root); -cases FILE checks another
// file of the same schema.
package conformance
