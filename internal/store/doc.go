// Package store keeps a league's record: its matches, in the order they
// were played, and the TrueSkill ratings that follow from them.
//
// Matches are the record. Each write (a new match, a correction, a
// deletion) runs in one transaction that also updates the ratings: a match
// later than every stored one is rated on top of the stored ratings, and a
// match that lands in the past (or a correction or deletion of one)
// re-rates every match from that point on. The ratings are therefore
// always those of rating the stored matches one by one in their stored
// order, by time and then by arrival, with trueskill.Params.Rate at the
// league's parameters (the default TrueSkill parameters and a draw
// probability kept as a league setting).
//
// Two databases hold a league: SQLite through modernc.org/sqlite (a file,
// created on first open, no cgo), and PostgreSQL through
// github.com/jackc/pgx/v5, which lets several servers share one league:
// every write takes a transaction-scoped advisory lock, so writes from all
// servers are serialised.
package store
