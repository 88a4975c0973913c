// Package serve is the command `skillgraph serve`: a league's rating page
// (package server) on a league stored in SQLite or PostgreSQL (package
// store).
//
//	skillgraph serve [-db FILE|postgres://…] [-addr 127.0.0.1:8080] [-token TOKEN] [-import CSV] [-draw p]
//
// The token that writes need comes from -token, else from the environment
// variable SKILLGRAPH_TOKEN; with neither, a random one is made and printed
// on stderr. -import adds the matches of a CSV file in either format the
// record package reads (match_id,time,team,player,rank, or
// time,home,away,home_score,away_score) before serving, all or none, in one
// transaction: a match that cannot be stored is named with the line of its
// first row; matches already stored with the same ids are left as they
// are, so an import can be repeated.
// -draw sets the league's draw probability, re-rating every match. The
// server stops on SIGINT or SIGTERM, finishing the requests under way.
package serve
