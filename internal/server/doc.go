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
// whose text says what is wrong, and changes nothing; a body over MaxBody
// bytes is a 413, and a valid match that cannot be rated at the league's
// setting a 422. The API answers every error, a wrong method or path
// included, as JSON {"error": "…"}. The entry form carries a match id, so
// that a form sent twice stores its match once; in its team fields, and
// the match-up page's, a name holding a comma or a quote is written in
// double quotes, as in CSV.
//
// The pages:
//
//	GET  /                      the leaderboard
//	GET  /players/{name}        a player's rating history, recent matches, head-to-heads
//	GET  /matchup?a=A,B&b=C     win, draw and loss chances and match quality; the fairest 1-v-1 games
//	GET  /matches               the latest matches (with delete buttons when logged in)
//	GET  /matches/new           the form to enter a match (POST /matches)
//	GET  /login                 log in with the token (POST /login, POST /logout)
//
// The API (writes with "Authorization: Bearer TOKEN"):
//
//	GET    /api/leaderboard     the parameters and the leaderboard
//	GET    /api/players/{name}  a player's row, history and head-to-heads
//	POST   /api/matches         add {"id", "time" (RFC 3339), "teams", "ranks"}: 201, or 200 for a retry
//	PUT    /api/matches/{id}    correct a match
//	DELETE /api/matches/{id}    delete a match
//	GET    /api/matches.csv     every match in the long format of package record
//
// The handler holds no state of its own (sessions are signed with the
// token, not remembered), so several servers on one PostgreSQL league
// accept each other's sessions when they share the token.
package server
