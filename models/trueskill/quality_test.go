package trueskill_test

import (
	"math"
	"math/big"
	"testing"

	"github.com/skillgraph/skillgraph/models/trueskill"
)

// exactQuality is Quality's k-team formula, √(det(β²AᵀA)/det(M))·
// exp(−½ μᵀA M⁻¹ Aᵀμ) with M = Aᵀ(β² + Σ)A over the players (A holds ±w
// for the differences of adjacent teams), evaluated in 600-bit arithmetic
// by Gaussian elimination on the matrices as written, so that no
// cancellation in forming or factorising M costs a digit; only the last
// square root and exponential are float64's.
func exactQuality(p trueskill.Params, teams [][]trueskill.Rating, weights [][]float64) float64 {
	k := len(teams) - 1
	f := func(x float64) *big.Float { return new(big.Float).SetPrec(600).SetFloat64(x) }
	zero := func() *big.Float { return f(0) }
	mat := func() [][]*big.Float {
		m := make([][]*big.Float, k)
		for i := range m {
			m[i] = make([]*big.Float, k)
			for j := range m[i] {
				m[i][j] = zero()
			}
		}
		return m
	}
	base, full := mat(), mat()
	atmu := make([]*big.Float, k)
	for i := range atmu {
		atmu[i] = zero()
	}
	b2 := new(big.Float).Mul(f(p.Beta), f(p.Beta))
	for j, team := range teams {
		for i, r := range team {
			w := 1.0
			if weights != nil {
				w = weights[j][i]
			}
			col := map[int]float64{}
			if j < k {
				col[j] = w
			}
			if j > 0 {
				col[j-1] = -w
			}
			v := new(big.Float).Add(b2, new(big.Float).Mul(f(r.Sigma), f(r.Sigma)))
			for a, x := range col {
				atmu[a].Add(atmu[a], new(big.Float).Mul(f(x), f(r.Mu)))
				for b, y := range col {
					xy := new(big.Float).Mul(f(x), f(y))
					base[a][b].Add(base[a][b], new(big.Float).Mul(xy, b2))
					full[a][b].Add(full[a][b], new(big.Float).Mul(xy, v))
				}
			}
		}
	}
	// det and, for full, the solution of full·x = atmu, by elimination.
	solve := func(m [][]*big.Float, rhs []*big.Float) (*big.Float, []*big.Float) {
		det := f(1)
		for c := range k {
			det.Mul(det, m[c][c])
			for r := c + 1; r < k; r++ {
				factor := new(big.Float).Quo(m[r][c], m[c][c])
				for cc := c; cc < k; cc++ {
					m[r][cc].Sub(m[r][cc], new(big.Float).Mul(factor, m[c][cc]))
				}
				if rhs != nil {
					rhs[r].Sub(rhs[r], new(big.Float).Mul(factor, rhs[c]))
				}
			}
		}
		if rhs == nil {
			return det, nil
		}
		x := make([]*big.Float, k)
		for r := k - 1; r >= 0; r-- {
			s := new(big.Float).Copy(rhs[r])
			for cc := r + 1; cc < k; cc++ {
				s.Sub(s, new(big.Float).Mul(m[r][cc], x[cc]))
			}
			x[r] = s.Quo(s, m[r][r])
		}
		return det, x
	}
	rhs := make([]*big.Float, k)
	for i := range rhs {
		rhs[i] = new(big.Float).Copy(atmu[i])
	}
	detB, _ := solve(base, nil)
	detM, x := solve(full, rhs)
	quad := zero()
	for i := range k {
		quad.Add(quad, new(big.Float).Mul(atmu[i], x[i]))
	}
	ratio, _ := new(big.Float).Quo(detB, detM).Float64()
	qf, _ := quad.Float64()
	return math.Sqrt(ratio) * math.Exp(-0.5*qf)
}

// TestQualityIllConditioned checks the k-team quality against the formula
// evaluated exactly, across the domain: σ of 1e9 beside β of 1 or 1e-9
// (where M's entries are 1e18 apart from what its determinant keeps), σ
// of 0, weights of 1e-9 and 1e9, a team whose weights are all 0, and large
// means.
func TestQualityIllConditioned(t *testing.T) {
	for _, c := range []struct {
		beta    float64
		teams   [][]trueskill.Rating
		weights [][]float64
	}{
		{1, [][]trueskill.Rating{{r(0, 1e-9)}, {r(0, 1e9)}, {r(0, 0)}}, nil},
		{1, [][]trueskill.Rating{{r(1, 1e-9)}, {r(0, 1e9)}, {r(-1, 0)}}, nil},
		{1e-9, [][]trueskill.Rating{{r(0, 1e-9)}, {r(0, 1e9)}, {r(0, 0)}}, nil},
		{1, [][]trueskill.Rating{{r(3, 1e9), r(2, 1e-9)}, {r(1, 0)}, {r(0, 1e9)}, {r(2, 1)}}, nil},
		{4, [][]trueskill.Rating{{r(25, 8), r(30, 4)}, {r(27, 5)}, {r(20, 3), r(22, 6), r(24, 2)}}, [][]float64{{1, 0.5}, {1}, {0.8, 1, 1}}},
		{4, [][]trueskill.Rating{{r(25, 8)}, {r(27, 5)}, {r(20, 3)}, {r(26, 1)}}, [][]float64{{1e-9}, {1e9}, {1}, {0.5}}},
		{4, [][]trueskill.Rating{{r(25, 8)}, {r(27, 5)}, {r(20, 3)}}, [][]float64{{1}, {0}, {1}}},
		{4, [][]trueskill.Rating{{r(1e12, 1e9)}, {r(1e12-3e9, 1e9)}, {r(1e12-1e9, 5e8)}}, nil},
	} {
		p := trueskill.DefaultParams()
		p.Beta = c.beta
		want := exactQuality(p, c.teams, c.weights)
		got, err := p.Quality(c.teams, c.weights)
		if err != nil || relErr(got, want) > 1e-12 {
			t.Errorf("β = %v, %v (weights %v): %.17g, %v; want %.17g", c.beta, c.teams, c.weights, got, err, want)
		}
	}
}
