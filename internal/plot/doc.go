// Package plot draws the skillgraph command's figures with
// gonum.org/v1/plot, as SVG or PNG: the evaluation figure (Grid, laid out
// like Figure 4 of the score-based paper), learning curves of TrueSkill
// Through Time (LearningCurves), and a player's rating history. Every
// figure's size and work are bounded by its data, whatever the scale of
// its numbers: ticks come from bounded tickers (RoundTicks and whole
// calendar steps), never from a loop that adds a step until it passes an
// end.
package plot
