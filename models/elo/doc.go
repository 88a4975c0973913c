// Package elo is the Elo rating system with a Gaussian performance model,
// as the TrueSkill paper (Herbrich, Minka, Graepel 2006, section 1 and
// 4.1) uses it as its baseline: player i's performance is N(s_i, β²),
//
//	P(player 1 beats player 2) = Φ((s₁ − s₂)/(√2·β))            (eq. 1)
//
// and after a game with outcome y (+1 win, 0 draw, −1 loss for player 1)
// the ratings move by ±Δ, Δ = αβ√π·((y + 1)/2 − Φ((s₁ − s₂)/(√2·β))),
// K = αβ√π (α = 0.07 is K = 24 on the chess scale β = 200). Teams and games
// of more than two teams use the paper's "duelling" heuristic: each player
// is updated by the average of the Δ's against every player of every other
// team, with the outcome of their two teams.
package elo
