// Package scorebased implements the score-based skill models of Guo,
// Sanner, Graepel and Buntine, "Score-Based Bayesian Skill Learning" (ECML
// 2012), as graph builders on the skillgraph engine:
//
//   - GaussianOD (their Figure 2 N): offence and defence skills per team;
//     A's score is N(s_A; p_oA − p_dB, γ²). Exact Gaussian messages; equal
//     to the closed form of eq. 20 (tested to 1e-12).
//   - GaussianSD (Figure 3): one skill per team; the score difference is
//     N(s_A − s_B; p_A − p_B, γ²). Exact; equal to eqs. 22-23.
//   - PoissonOD (Figure 2 P): A's score is Poisson(s_A; exp(p_oA − p_dB)),
//     the score factor's message the variational fixed point of Lemma 1
//     (factors.Poisson), solved from a tabulated start in one or two Halley
//     steps.
//
// Each model's Rate(ctx, a, b, scoreA, scoreB) updates ratings from a
// match's two scores (with optional dynamics τ), the same verb, with a
// context, as trueskill's and elo's Rate; Predict forecasts a match: predicted scores, and win, draw and
// loss probabilities (Skellam for the Poisson model, in log space with as
// many terms as the rates need; Gaussian differences with a ±½ draw band
// for the Gaussian models). The printed win probabilities of eqs. 21 and 24
// have typos, corrected and documented on WinProbability. EstimateGammaOD
// and EstimateGammaSD set γ from training data as the paper does; eq. 11,
// TrueSkill's win probability, is trueskill.Params.WinProbability.
//
// The paper's settings (DefaultParams) are on TrueSkill's scale, which on
// a goal scale makes the Gaussian models' predictions nearly flat and
// Poisson-OD's rates far too small. Fit sets a model's hyperparameters
// from training matches instead: it maximises their one-step-ahead log
// evidence (Learn) over σ₀, β, the prior's expected score (Hyper.Base)
// and a home advantage (Hyper.Home, added to the first team's side),
// within bounds, with the search and the types of package models/fit
// that throughtime.Fit shares. The fitted model is an Online model
// (OnlineGaussianOD, OnlinePoissonOD, OnlineGaussianSD), which rates,
// predicts and scores matches with the home advantage included.
//
// Every Game (graph and schedule) can be drawn with package dot, which
// gives the paper's Figures 2 and 3.
package scorebased
