// Package draw is the skillgraph command's draw subcommand: the factor
// graph of one game of a league file, or of a slice of its season around a
// player, as Graphviz DOT or SVG.
//
//	skillgraph draw [-matches FILE] [-game KEY | -player NAME [-depth D] [-max-games N]]
//	        [-draw p] [-values] [-o FILE.dot|FILE.svg]
//
// The league file is read as skillgraph rate reads it (the bundled
// examples/data/office.csv by default) and rated in order with rate's
// model (league.Setup: the draw probability, and in the scores format a
// home advantage), so that each player's prior is their rating before the
// games drawn. A game at home is drawn with the home advantage h added to
// the home team's performance (league.DeclareHome), under its prior
// before the first game at home drawn; a season holds one h for all its
// games at home, as rate's model has.
//
//   - -game KEY draws one game's TrueSkill graph, Figure 1 of the paper:
//     priors, skills, performances, team performances, differences and
//     comparisons, with the schedule's messages numbered. Without -game
//     or -player, the file's last game is drawn.
//   - -player NAME draws the season around NAME: their games (-depth 1),
//     and with -depth 2 the other games of the players they met, and so
//     on, the latest -max-games of them (30 by default). Each player's
//     skill is a chain through their games, one skill per game linked by
//     the dynamics N(sₜ; sₜ₋₁, τ²), below a prior; each game is TrueSkill's
//     graph below its players' skills. Its rows are derived from the
//     graph's structure (dot.StructuralLayers), so a long season grows
//     downwards, not into one enormous row.
//
// -values runs inference first (the game's schedule, or for a season a
// derived loopy schedule) and labels each variable with its marginal.
// -o FILE.svg renders with Graphviz's dot, which must be installed;
// -o FILE.dot, or no -o (standard output), writes the DOT text.
//
// Errors are one line, "skillgraph draw: what went wrong", with exit
// status 2 for a usage error and 1 for any other.
package draw
