// Package rate is the skillgraph command's rate subcommand: it rates a
// league from a file of games with TrueSkill, and prints its leaderboard,
// a prediction, the fairest next games or one player's history, as a
// table, CSV or JSON.
//
//	skillgraph rate                      (the bundled examples/data/office.csv)
//	skillgraph rate -matches FILE [-state FILE] [-draw p] [-home learn|off] [-format table|csv|json]
//	        [-min-games N] [-rank-by display|conservative]
//	        [-predict A,B | -predict A+B,C+D | -pairings [-top N] | -history PLAYER [-plot FILE.svg|png]]
//
// FILE is in one of two formats, told apart by the header:
//
//   - the long format, match_id,time,team,player,rank[,weight]: one row
//     per player, lower ranks better, equal ranks a draw (any number of
//     teams of any size, partial play as weights);
//   - the scores format, time,home,away,home_score,away_score[,neutral]:
//     one 1v1 game a row, the higher score winning, equal scores a draw.
//     A home advantage is learnt (-home off leaves it out): a skill shift
//     h ~ N(0, β²) before the first game, added to the home side's
//     performance in every row not marked neutral (TRUE, 1 or yes) and
//     updated by each such game as the players are, through the game's
//     factor graph (trueskill.Contest.Bonus); the first lines give it,
//     as its prior while no game at home has informed it.
//     Predictions and pairings are for a neutral venue.
//
// The file is read by package record: header aliases (date or time,
// home_team, …), times as dates, RFC 3339 timestamps or
// "YYYY-MM-DD HH:MM:SS", rows out of time order sorted stably (the first
// lines say how many moved, and which columns were ignored), errors as
// file:line:column. Games are rated in time order, with
// TrueSkill's default parameters (μ₀ = 25, σ₀ = 25/3, β = σ₀/2,
// τ = σ₀/100). The draw probability is not estimated silently: it is
// -draw p if given, else the share of drawn games in the file (of pairs of
// teams adjacent in finishing order, for games of more than two teams),
// and the first lines of the output say which. The leaderboard shows the
// league page's display rating (μ − σ)·48 (800 for a new player) and
// stability 1 − σ²/σ₀² (about 26 % after one even 1v1 game), ranked by
// display rating (or, with -rank-by conservative, by μ − 3σ, shown in a
// column of its own); players with equal scores share a rank. -min-games N
// leaves players with fewer than N games out of the leaderboard and the
// pairings (a new player's rating says little).
//
//	$ skillgraph rate
//	examples/data/office.csv: 89 games (2025-01-06 to 2025-04-29), 11 players
//	TrueSkill μ₀ = 25, σ₀ = 8.333, β = 4.167, τ = 0.08333; draw probability 0.1011 (observed: 9 of 89 games drawn; set it with -draw)
//
//	rank  player  rating      μ      σ  stability  games  last played
//	   1  Kai       1479  34.21   3.39        83%     12  2025-04-23
//	   2  Eli       1373  30.69   2.09        94%     32  2025-04-25
//	   3  Ada       1368  30.77   2.28        93%     23  2025-04-29
//	   …
//	  11  Hana       738  18.33   2.96        87%     16  2025-04-28
//
// The other views, one at a time, print the same first lines, then:
//
//   - -predict A,B: the chances that A wins, that they draw, that B wins,
//     and the match quality (the paper's equation 7: near 1 for two
//     well-known equals, towards 0 for a foregone game). Teams are players
//     joined by "+". Names are trimmed of spaces; a player not in the
//     league is an error that names the closest players by edit distance
//     ("Brasil": did you mean "Brazil"?) (so a name holding "," or "+"
//     cannot be given).
//   - -pairings: the fairest 1v1 games by match quality, highest first,
//     the player higher on the leaderboard first (-top N of them, 10 by
//     default, at most 10,000; 0 for all, if there are at most 10,000,
//     else an error). Only the pairs that can be among the N fairest
//     are computed (league.FairestPairs), so a large league is answered
//     without rating every pair.
//   - -history PLAYER: the player's rating after each of their games;
//     with -plot FILE.svg or FILE.png, also a plot of μ ± σ over the
//     games' dates.
//
// For example (the first lines left out):
//
//	$ skillgraph rate -predict Ada+Hana,Kai+Jun
//	Ada+Hana v Kai+Jun
//	  P(Ada+Hana wins)  0.345
//	  P(draw)           0.081
//	  P(Kai+Jun wins)   0.574
//	  match quality     0.798
//
//	$ skillgraph rate -pairings -top 3
//	The fairest 1v1 games by match quality (3 of 55)
//	   #  game        quality  P(first wins)  P(draw)  P(second wins)
//	   1  Dev v Fay     0.888          0.504    0.090           0.406
//	   2  Eli v Ada     0.885          0.450    0.090           0.460
//	   3  Cleo v Dev    0.884          0.506    0.089           0.404
//
//	$ skillgraph rate -history Kai
//	Kai after each of 12 games
//	   #  date        game  result      μ      σ  rating  stability
//	   1  2025-03-12  g053  won     27.78   7.38     979        22%
//	   2  2025-03-17  g057  won     28.46   7.06    1027        28%
//	   …
//	  12  2025-04-23  g085  won     34.21   3.39    1479        83%
//
// -format csv writes one header row and a row per line of the table, with
// numbers in full precision (stability as a fraction); the table's first
// lines go to stderr.
//
//	$ skillgraph rate -format csv
//	rank,player,display_rating,mu,sigma,stability,games,last_played
//	1,Kai,1479.3193164889003,34.21092064251277,3.3917682156606745,0.8343410805457697,12,2025-04-23
//	…
//
// -format json writes one object: "league" (file, games, players,
// parameters and where the draw probability came from), then the view,
// "leaderboard", "prediction", "pairings" or "history", with the CSV's
// columns as fields.
//
//	$ skillgraph rate -format json -pairings -top 1
//	{
//	  "league": {
//	    "file": "examples/data/office.csv",
//	    …
//	    "draw_probability_source": "observed: 9 of 89 games drawn"
//	  },
//	  "pairings": [
//	    {"rank": 1, "a": "Dev", "b": "Fay", "quality": 0.8882323143015814, "win": 0.5041645368076141, …}
//	  ]
//	}
//
// -state FILE keeps the league in a JSON file, so it can grow: the
// program loads FILE if it exists, rates only the games of the league file
// not yet in it (known by match_id, or in the scores format by date and
// players, "2025-01-08 Ada v Ben", with " #2" for a second game between
// them that day, so a scores file must hold all of a day's games or none),
// and writes it back if anything changed. The league file may hold every
// game so far or only the new ones; the games already rated must come
// first, and no new game may be dated before the last one rated. The draw
// probability and parameters are those the state was started with (a
// different -draw is an error), so adding games in several runs gives the
// same ratings as rating them all at once.
//
//	$ skillgraph rate -state league.json | sed -n 2p
//	state league.json: 0 games rated before, 89 now
//	$ skillgraph rate -state league.json | sed -n 2,3p
//	state league.json: 89 games rated before, 0 now
//	TrueSkill μ₀ = 25, σ₀ = 8.333, β = 4.167, τ = 0.08333; draw probability 0.1011 (state league.json)
//
// The state file is locked for the whole run (flock on FILE.lock beside
// it), so two runs adding games at once both keep their games: the second
// waits (saying so on stderr after 2 seconds, for at most 10 minutes),
// then rates on top of the first. It is written atomically (a file
// with no name in the same folder, flushed to disk, then named and renamed
// over FILE), so a crash or a kill leaves the old state or the new one,
// never half of one, and no temporary file. A FILE that is a symbolic
// link is followed: its target gets the new state and the link stays.
// The state is written before the output, and only once the games are
// rated and the view answered, so a run that fails on its input leaves it
// as it was. A state holding a value the league would not write (a σ of
// 1e-300, a μ whose display rating overflows) is refused in one line.
//
// Rating that takes longer than 2 seconds says how far it has gone on
// stderr every 2 seconds.
//
// Errors are one line, "skillgraph rate: what went wrong", with exit
// status 2 for a usage error and 1 for any other.
package rate
