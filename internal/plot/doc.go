// Package plot draws the figures of the skillgraph command (a player's
// rating history, learning curves, evaluation figures) as SVG or PNG with
// gonum.org/v1/plot, in one style: a Figure is lines over a shared x axis
// (numbers, or dates), each line optionally with a shaded band (μ ± σ, say).
//
// Every value is checked before drawing: a NaN, an infinity, a range wider
// than float64 holds, or lines of unequal lengths is an error, never a
// broken or unbounded file. The axis ticks are gonum's, a handful per axis
// whatever the range, so a file's size depends on the number of points
// alone. Save writes atomically (package safefile).
package plot
