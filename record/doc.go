// Package record holds the observed match, the one type every loader,
// command, evaluation, history and server of skillgraph shares, and the
// one reader and writer of its CSV files.
//
// A Match has an ID, a time, two or more teams of players with their
// ranks (lower is better, equal ranks draw), and optionally the teams'
// scores, each player's share of the match (a partial-play weight), where
// it was played (home and away, or on neutral ground) and its season.
//
// Read takes two formats, told apart by the header:
//
//   - the long format, one row per player:
//     match_id,time,team,player,rank[,score][,weight][,season][,venue][,neutral];
//     the rows of one match share its match_id and may lie anywhere in the
//     file;
//   - the scores format, one row per two-team match:
//     time,home,away,home_score,away_score[,neutral][,season][,match_id].
//
// Header names are read without regard to case, surrounding spaces, or
// spaces and hyphens in place of underscores, and with the usual aliases:
// date, datetime or timestamp for time; game_id for match_id; home_team
// and away_team (or visitor) for home and away; home_goals, home_points or
// FTHG for home_score, and the same for away; place for rank. A time is a
// date (2006-01-02), an RFC 3339 timestamp, or a zone-less
// 2006-01-02T15:04:05 or 2006-01-02 15:04:05, which is read as UTC; times
// are returned in UTC.
//
// Names and IDs follow one rule (CheckName): text with no control or
// layout character, not empty, and no space at either end, so that
// "Ann, Bob" cannot make a second Bob.
//
// Matches come back in time order: rows out of order are sorted stably,
// and the Report says how many matches moved, which columns the reader
// did not know, and which format it read. Every problem in a file is a
// *FileError giving the file, line and column, wrapping ErrInput (or
// encoding/csv's error). Sizes are bounded
// (MaxName, MaxID, MaxPlayers), so that no input makes the reader panic,
// hang or hold more than a small multiple of the input in memory.
//
// WriteLong writes matches in the long format; reading its output gives
// back the same matches.
package record
