#!/usr/bin/env python3
"""Generate high-precision reference values for the TrueSkill special functions.

Usage (from the repo root):

    python3 messages/testdata/gen_special.py > messages/testdata/special_functions.csv

Method
------
All values are computed with mpmath (arbitrary-precision floating point with
unbounded exponent range), independently of the Go implementation.  Every
input t, eps is a Python float (IEEE double); it is converted exactly with
mpmath.mpf(float), so the reference value is the true function value at the
very double that Go's strconv.ParseFloat reads back from the CSV (inputs are
written with repr(float), which round-trips exactly).

Definitions (phi = standard normal pdf, Phi = standard normal cdf):

    phi(x)   = exp(-x^2/2) / sqrt(2*pi)
    Phi(x)   = erfc(-x/sqrt(2)) / 2
    Phic(x)  = 1 - Phi(x) = erfc(x/sqrt(2)) / 2        (upper tail, no cancellation)

    Phi(t)                 Phi(t)
    logPhi(t)              log(Phi(t)) for t < 0;  log1p(-Phic(t)) for t >= 0
                           (so log Phi(t) ~ -Phic(t) is resolved for large t
                           instead of rounding to log(1) = 0)
    phi_over_Phi(t)        phi(t) / Phi(t)
    v_win(t, eps)          V = phi(x)/Phi(x),  x = t - eps
    w_win(t, eps)          W = V * (V + x)
    one_minus_w_win        1 - W
    v_draw(t, eps)         V = (phi(-eps-t) - phi(eps-t)) / D
    w_draw(t, eps)         W = V^2 + ((eps-t)*phi(eps-t) + (eps+t)*phi(eps+t)) / D
    one_minus_w_draw       1 - W
    log_mass_draw(t, eps)  log(D)   (narrow grid only, see below)
      where D = Phi(eps-t) - Phi(-eps-t)
    (Herbrich, Minka, Graepel 2006, "TrueSkill", below Table 1.)

The draw denominator D = Phi(a) - Phi(b), a = eps-t > b = -eps-t, is evaluated
as Phi(a) - Phi(b) when b < 0, and as Phic(b) - Phic(a) when b >= 0, i.e.
always as a difference of two quantities on the same (small) side of the
distribution.  This bounds the relative cancellation to about
log10(1/(1 - exp(-2*eps*|a+b|))) + log10(1/eps) digits (at most ~25 digits on
this grid) instead of the catastrophic loss of ~t^2/2/ln(10) digits that
Phi(a) - Phi(b) would suffer for t << 0.  The remaining cancellations
(e.g. 1 - W_draw ~ eps^2/3 for tiny eps, V + x for x << 0) cost at most a few
dozen digits, far less than the working precision.

Precision cross-check
---------------------
The whole table is computed twice, at mp.dps = 120 and at mp.dps = 200
(decimal digits of working precision).  The script aborts (non-zero exit, no
output) unless every value agrees between the two passes to a relative
difference below 1e-25 (values that are exactly zero in one pass must be
exactly zero in the other).  Lost digits from any cancellation would show up
as a disagreement between the two passes.  As an additional check of the
special-function implementation itself, every upper tail Phic(x) (x >= 0)
used in the 200-digit pass is compared to the independent formula
Phic(x) = Gamma(1/2, x^2/2) / (2*sqrt(pi)) (mpmath.gammainc), again to
relative 1e-25.  The values written are those from the 200-digit pass,
rounded to 30 significant digits in scientific notation; exact zeros are
written as "0".  Values far outside the double range (e.g. ~1e-21714729) are
written with their true exponent; the consumer decides about underflow.

Narrow grid
-----------
The draw factor's common case in TrueSkill is a narrow interval (eps <= 1/2,
typically 0.05 to 0.3) with |t*eps| small.  NARROW_EPS x narrow_ts(eps)
covers it densely: t at fixed multiples of eps on both sides of 0 and of
+-eps (including t = eps, where the near end is at the mean), fixed t out to
20, and t on both sides of p = t*eps = 2 (where the Go code switches from its
series to quadrature).  These points also get log_mass_draw.

CSV format: header "func,t,eps,value"; eps is empty for one-argument
functions.  Output is deterministic (fixed grids, fixed order, no randomness).
"""

import sys

import mpmath
from mpmath import mp, mpf

T1 = [-1e4, -5000.0, -1000.0, -500.0, -200.0, -100.0, -60.0, -50.0, -40.0,
      -39.0, -38.5, -38.0, -37.5, -37.0, -35.0, -30.0, -27.0, -25.0, -20.0,
      -15.0, -10.0, -8.0, -7.0, -6.0, -5.5, -5.0, -4.5, -4.0, -3.0, -2.5, -2.0,
      -1.5, -1.0, -0.75, -0.5, -0.25, -0.1, -1e-3, -1e-8, 0.0, 1e-8, 1e-3,
      0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 8.5, 9.0,
      10.0, 15.0, 20.0, 30.0, 37.0, 38.0, 39.0, 40.0, 50.0, 100.0, 1000.0,
      1e4]

T2 = [-1e4, -1000.0, -200.0, -100.0, -60.0, -40.0, -39.0, -38.0, -30.0,
      -25.0, -20.0, -10.0, -8.0, -6.0, -5.0, -3.0, -2.0, -1.0, -0.5, -0.1,
      0.0, 0.1, 0.5, 1.0, 2.0, 3.0, 5.0, 6.0, 8.0, 10.0, 20.0, 30.0, 38.0,
      40.0, 60.0, 100.0, 1000.0, 1e4]

EPS = [1e-12, 1e-10, 1e-8, 1e-6, 1e-4, 1e-3, 0.01, 0.1, 0.5, 1.0, 2.0, 5.0,
       10.0, 20.0, 50.0]

EXTRA = [(0.749559191528005, 0.0631282276750071)]

# A denser patch where the draw corrections switch between quadrature rules
# (interval widths up to 1, near ends up to 40 standard deviations out).
DENSE_T = [0.01, 0.3, 0.7, 1.5, 2.5, 4.0, 4.5, 5.5, 7.0, 12.0, 15.0, 25.0]
DENSE_EPS = [0.05, 0.2, 0.35, 0.45, 0.5, 0.7, 1.2, 2.0, 3.0, 4.4, 6.0]

# The narrow-interval regime (width 2*eps <= 1), densely.
NARROW_EPS = [1e-12, 1e-9, 1e-6, 1e-4, 1e-3, 0.01, 0.03, 0.05, 0.08, 0.1,
              0.15, 0.2, 0.25, 0.3, 0.4, 0.49, 0.5]
NARROW_MULT = [0.0, 1e-3, 0.3, 0.7, 0.99, 1.0, 1.01, 1.5, 3.0, -0.3, -0.99,
               -1.0, -1.5]
NARROW_T = [1e-8, 0.03, 0.2, 0.5, 1.0, 2.0, 3.0, 5.0, 8.0, 20.0, -1.0, -3.0]


def narrow_ts(e):
    ts = [m * e for m in NARROW_MULT] + NARROW_T
    ts += [2.0 / e * (1 - 1e-9), 2.0 / e * (1 + 1e-9), -2.0 / e * (1 - 1e-9)]
    out = []
    for t in ts:
        if t not in out:
            out.append(t)
    return out


ONE_ARG = ["Phi", "logPhi", "phi_over_Phi"]
TWO_ARG = ["v_win", "w_win", "one_minus_w_win",
           "v_draw", "w_draw", "one_minus_w_draw"]

REL_TOL_EXP = 25  # required agreement: relative difference < 10**-25


def points():
    """Deterministic list of (func, t, eps) with eps None for 1-arg funcs."""
    pts = []
    for f in ONE_ARG:
        for t in T1:
            pts.append((f, t, None))
    pairs = [(t, e) for t in T2 for e in EPS] + EXTRA
    pairs += [(t, e) for t in DENSE_T for e in DENSE_EPS]
    for f in TWO_ARG:
        for t, e in pairs:
            pts.append((f, t, e))
    narrow = [(t, e) for e in NARROW_EPS for t in narrow_ts(e)]
    for f in TWO_ARG + ["log_mass_draw"]:
        for t, e in narrow:
            pts.append((f, t, e))
    return pts


class Funcs:
    """Special functions at the current mp.dps.  If check_tails is set, every
    upper tail is cross-checked against the incomplete-gamma formula."""

    def __init__(self, check_tails):
        self.check_tails = check_tails
        self.tail_cache = {}

    def phi(self, x):
        return mpmath.exp(-x * x / 2) / mpmath.sqrt(2 * mpmath.pi)

    def Phi(self, x):
        return mpmath.erfc(-x / mpmath.sqrt(2)) / 2

    def Phic(self, x):
        v = mpmath.erfc(x / mpmath.sqrt(2)) / 2
        if self.check_tails and x >= 0:
            key = x
            if key not in self.tail_cache:
                g = mpmath.gammainc(mpf(1) / 2, x * x / 2) / (2 * mpmath.sqrt(mpmath.pi))
                if not rel_close(v, g):
                    raise SystemExit("tail cross-check failed at x=%s: erfc=%s gammainc=%s"
                                     % (mpmath.nstr(x, 20), mpmath.nstr(v, 30), mpmath.nstr(g, 30)))
                self.tail_cache[key] = True
        return v

    def logPhi(self, t):
        if t < 0:
            return mpmath.log(self.Phi(t))
        return mpmath.log1p(-self.Phic(t))

    def win(self, t, e):
        x = t - e
        # For x >= 0 use 1 - Phic to exercise the tail path; identical math.
        P = self.Phi(x) if x < 0 else 1 - self.Phic(x)
        V = self.phi(x) / P
        W = V * (V + x)
        return V, W, 1 - W

    def draw(self, t, e):
        a = e - t
        b = -e - t
        if b < 0:
            D = self.Phi(a) - self.Phi(b)
        else:
            D = self.Phic(b) - self.Phic(a)
        if not D > 0:
            raise SystemExit("non-positive draw denominator at t=%r eps=%r" % (t, e))
        V = (self.phi(b) - self.phi(a)) / D
        W = V * V + (a * self.phi(a) + (e + t) * self.phi(e + t)) / D
        return V, W, 1 - W, mpmath.log(D)


def compute(dps, pts, check_tails):
    mp.dps = dps
    F = Funcs(check_tails)
    out = []
    cache = {}
    for f, t, e in pts:
        T = mpf(t)
        if e is None:
            if f == "Phi":
                v = F.Phi(T)
            elif f == "logPhi":
                v = F.logPhi(T)
            elif f == "phi_over_Phi":
                v = F.phi(T) / F.Phi(T)
            else:
                raise AssertionError(f)
        else:
            E = mpf(e)
            kind = "win" if f.endswith("_win") else "draw"
            key = (kind, t, e)
            if key not in cache:
                cache[key] = F.win(T, E) if kind == "win" else F.draw(T, E)
            if kind == "win":
                V, W, OMW = cache[key]
                L = None
            else:
                V, W, OMW, L = cache[key]
            v = {"v": V, "w": W, "one": OMW, "log": L}[f.split("_")[0]]
        out.append(+v)
    return out


def rel_close(a, b):
    if a == 0 or b == 0:
        return a == 0 and b == 0
    return abs(a - b) <= mpf(10) ** (-REL_TOL_EXP) * abs(b)


def fmt_value(v):
    if v == 0:
        return "0"
    # 30 significant digits, always scientific notation.
    return mpmath.libmp.to_str(v._mpf_, 30, strip_zeros=False,
                               min_fixed=1, max_fixed=0)


def main():
    pts = points()
    lo = compute(120, pts, check_tails=False)
    hi = compute(200, pts, check_tails=True)
    bad = 0
    for (f, t, e), a, b in zip(pts, lo, hi):
        if not rel_close(a, b):
            bad += 1
            sys.stderr.write("precision check failed: %s t=%r eps=%r dps120=%s dps200=%s\n"
                             % (f, t, e, mpmath.nstr(a, 40), mpmath.nstr(b, 40)))
    if bad:
        raise SystemExit("%d values failed the 120- vs 200-digit cross-check" % bad)
    lines = ["func,t,eps,value"]
    mp.dps = 200
    for (f, t, e), v in zip(pts, hi):
        lines.append("%s,%s,%s,%s" % (f, repr(t), "" if e is None else repr(e), fmt_value(v)))
    sys.stdout.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
