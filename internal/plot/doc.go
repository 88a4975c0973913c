// Package plot draws the figures of the skillgraph command as SVG or PNG
// with gonum.org/v1/plot:
//
//   - Figure: lines over a shared x axis (numbers, or dates), each line
//     optionally with a shaded band (μ ± σ, say), as a player's rating
//     history; Save writes it atomically (package safefile);
//   - LearningCurves: TrueSkill Through Time's learning curves, μ ± σ by
//     date, the names beside the plot: a Figure drawn with a look of its
//     own (palette, faint outlined bands, calendar ticks, a legend column);
//   - Grid: the evaluation figure, panels of a metric by training share
//     with their 95 % intervals, laid out like Figure 4 of the score-based
//     paper.
//
// Every value is checked before drawing: a NaN, an infinity, a range wider
// than float64 holds, lines of unequal lengths or text that is not
// printable is an error (messages.ErrInput), never a broken or
// unbounded file. The axis ticks come from tickers whose work is bounded
// whatever the range (gonum's, RoundTicks, whole calendar steps), so a
// file's size depends on the number of points alone.
package plot
