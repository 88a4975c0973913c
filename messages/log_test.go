package messages

import (
	"math"
	"math/big"
	"testing"
)

// ln2Big is log 2 to 60 digits, so that −k·log 2 below is exact to
// float64's precision whatever k.
var ln2Big, _ = new(big.Float).SetPrec(200).SetString("0.693147180559945309417232121458176568075500134360255254120680")

// TestLogSubnormal: Log is correct over the subnormal range, where
// math.Log on amd64 is not, and equals math.Log elsewhere. At x = 2⁻ᵏ
// the log is −k·log 2, formed in big.Float; at other subnormal bit
// patterns it is checked against log(x·2¹¹⁰⁰) − 1100·log 2 (x·2¹¹⁰⁰ is
// exact and normal), a different split from Log's Frexp one.
func TestLogSubnormal(t *testing.T) {
	for k := 1023; k <= 1074; k++ {
		x := math.Ldexp(1, -k)
		want, _ := new(big.Float).Mul(ln2Big, big.NewFloat(float64(-k))).Float64()
		if got := Log(x); !(math.Abs(got-want) <= 2e-16*math.Abs(want)) {
			t.Errorf("Log(2^-%d) = %v, want %v", k, got, want)
		}
	}
	if got, want := Log(5e-324), -744.4400719213812; !(math.Abs(got-want) <= 1e-13) {
		t.Errorf("Log(5e-324) = %v, want %v", got, want)
	}
	shift, _ := new(big.Float).Mul(ln2Big, big.NewFloat(1100)).Float64()
	for b := uint64(1); b < 1<<52; b += 1 + b/64 {
		x := math.Float64frombits(b)
		want := math.Log(math.Ldexp(x, 1100)) - shift
		if got := Log(x); !(math.Abs(got-want) <= 4e-16*math.Abs(want)) {
			t.Fatalf("Log(%v) = %v, want %v", x, got, want)
		}
	}
	for _, x := range []float64{0x1p-1022, 1e-300, 0.5, 1, math.E, 1e300, math.MaxFloat64, 0, math.Inf(1)} {
		if got, want := Log(x), math.Log(x); got != want {
			t.Errorf("Log(%v) = %v, want math.Log's %v", x, got, want)
		}
	}
	for _, x := range []float64{-1, -5e-324, math.Inf(-1), math.NaN()} {
		if got := Log(x); !math.IsNaN(got) {
			t.Errorf("Log(%v) = %v, want NaN", x, got)
		}
	}
}

// TestLogWithinMassSubnormalWidth: for an interval [−ε, ε] so narrow that
// 2ε is subnormal, the mass is 2ε·φ(t) to relative O(ε²), so its log is
// log 2ε − t²/2 − log √(2π), with log 2ε = −k·log 2 for ε = 2^−(k+1)
// (the constants from 40-digit decimal arithmetic).
func TestLogWithinMassSubnormalWidth(t *testing.T) {
	cases := []struct{ t, eps, want float64 }{
		{0, 0x1p-1040, -721.0988591349878492262845039314510718696},
		{3, 0x1p-1040, -721.0988591349878492262845039314510718696 - 4.5},
		{-1, 0x1p-1074, -744.6658632740259897464703960610290751842 - 0.5},
	}
	for _, c := range cases {
		if got := LogWithinMass(c.t, c.eps); !(math.Abs(got-c.want) <= 1e-14*math.Abs(c.want)) {
			t.Errorf("LogWithinMass(%v, %v) = %v, want %v", c.t, c.eps, got, c.want)
		}
	}
}
