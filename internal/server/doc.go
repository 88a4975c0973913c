// Package server is a league's rating page over HTTP: server-rendered
// HTML (the leaderboard, each player's page with the history of their
// rating drawn in SVG, a form to enter a match, a match-up page) and a
// JSON API over the same record, both on a store.Store.
//
// Reads are public. Writes need the league's token: an API request sends
// it as "Authorization: Bearer TOKEN", and a browser logs in with it once,
// receiving a session cookie (SameSite=Strict, HttpOnly) whose forms also
// carry a token bound to the session; http.CrossOriginProtection refuses
// cross-site form posts besides. Tokens are compared in constant time.
// Every write is checked before it reaches the store: bad input gets a 400
// whose text says what is wrong, and changes nothing.
//
// The handler holds no state of its own (sessions are signed with the
// token, not remembered), so several servers on one PostgreSQL league
// accept each other's sessions when they share the token.
package server
