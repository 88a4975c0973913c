#!/usr/bin/env python3
"""Generate messages/mills_table.go, the piecewise polynomials of the inverse
Mills ratio lambda(x) = phi(x)/Phi(x) on [LO, HI) = [-5, 5), and the reference
values messages/testdata/inv_mills_ratio.csv that test them.

Usage (from the repo root):

    python3 messages/testdata/gen_mills.py > messages/mills_table.go && gofmt -w messages/mills_table.go
    python3 messages/testdata/gen_mills.py golden > messages/testdata/inv_mills_ratio.csv

Table
-----
[LO, HI) is cut into N = 80 intervals of width WIDTH = 1/8. On interval k,
[LO + k/8, LO + (k+1)/8], lambda is a polynomial of degree DEG = 10 in

    u = 16x + 79 - 2k = (x - centre_k)/(WIDTH/2)  in [-1, 1],

which Go computes exactly (16x is exact, 79 - 2k a small integer).

Method, at mp.dps = 50: lambda is evaluated with mpmath at M = 40 Chebyshev
nodes of the interval and projected onto T_0 ... T_{M-1} by the discrete
cosine sums; the Chebyshev coefficients are below 1e-45 from degree 30 on, so the
aliasing of this projection is negligible and its first DEG + 1 terms are
the Chebyshev series truncated after degree DEG. That truncation is converted
to the monomial basis in u exactly (the coefficients of T_n are integers);
each monomial coefficient is rounded to the nearest double, and the
rounding error of the constant term c_0 is kept as a last, extra entry
(Go adds the two parts of c_0 at different points, see estrin below).

Checks (the script aborts if one fails): on every interval the discarded
tail of the series, sum |T-coefficient| beyond DEG, is below 2^-57 of
lambda; and the table, evaluated in double precision exactly as Go does it
(estrin below; Go on amd64 does not fuse multiply-adds by default; where
it does, results may differ in the last bit), is within 1.25 ulp of lambda at NPTS + 1 evenly
spaced points of every interval including both ends. The largest errors are
written to stderr: truncation 1.7e-18, evaluation 0.55 ulp on [-5, 0),
0.8 ulp on [0, 2) and 1.06 ulp on [2, 5), where lambda ~ phi(x) changes by a
factor of up to 1.85 across an interval, so the non-constant terms are no
longer small beside c_0.

DEG = 10 is the least degree that meets 2^-57 on every interval (the top
ones need it; below -1 degree 7 would do). Estrin's scheme evaluates any
degree from 8 to 15 with a dependency chain of four multiply-add levels, and
intervals of width 1/4 would need degree 12 and lose up to 1.8 ulp at the
top.

Reference values
----------------
"golden" writes x, lambda(x) for x at every interval edge and the doubles on
either side of it, at every centre, at 8 pseudo-random points per interval
(random.Random(20240611), so the file is reproducible), and on both sides of
the table's range ([-6, -5) and [5, 9]). lambda = phi(x)/Phi(x) with
Phi(x) = erfc(-x/sqrt(2))/2, computed from mpmath's erfc at 60 digits, with
no use of the table or of the series; the script aborts unless a second pass
at 100 digits agrees to 1e-40. Inputs are written with repr(float), so Go
reads back the very double the value was computed at; values are rounded to
25 significant digits.
"""
import math
import random
import sys

import mpmath as mp

LO, HI = -5, 5
WIDTH = mp.mpf(1) / 8
N = int((HI - LO) / WIDTH)
DEG = 10
NPTS = 400  # test points per interval
S = int(2 / WIDTH)
OFF = S * -LO - 1
M = 40


def lam(x):
    return mp.npdf(x) / mp.ncdf(x)


def estrin(c, u):
    """The Go evaluation (invMillsPoly in special.go), in IEEE double: c[0] is
    the high part of the constant term and c[-1] its low part; the rest of
    the polynomial is summed by Estrin's scheme (adjacent pairs combined with
    u, then with u^2, u^4, ...) and c[0] added last."""
    p = [c[-1]] + list(c[1:-1])
    x = u
    while len(p) > 1:
        q = [p[i] + p[i + 1] * x for i in range(0, len(p) - 1, 2)]
        if len(p) % 2:
            q.append(p[-1])
        p, x = q, x * x
    return c[0] + p[0]


def interval(k):
    a = LO + k * WIDTH
    return a, a + WIDTH


def cheb(k):
    a, b = interval(k)
    c, h = (a + b) / 2, (b - a) / 2
    nodes = [mp.cos(mp.pi * (j + mp.mpf(1) / 2) / M) for j in range(M)]
    f = [lam(c + h * u) for u in nodes]
    cs = []
    for n in range(M):
        s = sum(f[j] * mp.cos(mp.pi * n * (j + mp.mpf(1) / 2) / M) for j in range(M))
        cs.append(2 * s / M)
    cs[0] /= 2
    return cs


def monomial(cs):
    """Coefficients a_j with sum cs[n] T_n(u) = sum a_j u^j."""
    t_prev, t = [mp.mpf(1)], [mp.mpf(0), mp.mpf(1)]
    a = [cs[0]] + [mp.mpf(0)] * (len(cs) - 1)
    for j, c in enumerate(t):
        a[j] += cs[1] * c
    for n in range(2, len(cs)):
        t_next = [mp.mpf(0)] * (n + 1)
        for j, c in enumerate(t):
            t_next[j + 1] += 2 * c
        for j, c in enumerate(t_prev):
            t_next[j] -= c
        t_prev, t = t, t_next
        for j, c in enumerate(t):
            a[j] += cs[n] * c
    return a


def table():
    mp.mp.dps = 50
    polys = []
    worst_trunc = 0
    worst_ulp = {}  # by region
    for k in range(N):
        cs = cheb(k)
        a, b = interval(k)
        fmin = min(lam(a), lam(b))
        trunc = sum(abs(c) for c in cs[DEG + 1:]) / fmin
        if trunc > mp.mpf(2) ** -57:
            raise SystemExit("interval %d: truncation error %s" % (k, mp.nstr(trunc, 3)))
        worst_trunc = max(worst_trunc, trunc)
        mono = monomial(cs[:DEG + 1])
        coef = [float(c) for c in mono]
        coef.append(float(mono[0] - coef[0]))
        for i in range(NPTS + 1):
            x = float(a + (b - a) * i / NPTS)
            u = S * x + (OFF - 2 * k)
            got, want = estrin(coef, u), lam(mp.mpf(x))
            e = abs(got - want) / (mp.mpf(2) ** (math.frexp(float(want))[1] - 53))
            if e > 1.25:
                raise SystemExit("interval %d: %.17g off by %s ulp" % (k, x, mp.nstr(e, 3)))
            r = "[-5, 0)" if x < 0 else "[0, 2)" if x < 2 else "[2, 5)"
            worst_ulp[r] = max(worst_ulp.get(r, 0), e)
        polys.append((a, b, coef))
    sys.stderr.write("truncation <= %s relative; evaluation <= %s\n" % (
        mp.nstr(worst_trunc, 3),
        ", ".join("%s ulp on %s" % (mp.nstr(e, 3), r) for r, e in worst_ulp.items())))

    print("// Code generated by testdata/gen_mills.py; DO NOT EDIT.")
    print()
    print("package messages")
    print()
    print("// The table covers [millsLo, millsHi) in millsPerUnit intervals per unit.")
    print("const (")
    print("\tmillsLo      = %d" % LO)
    print("\tmillsHi      = %d" % HI)
    print("\tmillsPerUnit = %d" % int(1 / WIDTH))
    print(")")
    print()
    print("// millsPoly[k] is λ(x) = φ(x)/Φ(x) on [−%d + k/%d, −%d + (k+1)/%d] as"
          % (-LO, int(1 / WIDTH), -LO, int(1 / WIDTH)))
    print("// Σ c_j u^j in u = %dx + %d − 2k ∈ [−1, 1], stored as c_0, c_1, …, c_%d and" % (S, OFF, DEG))
    print("// then the rounding error of c_0 (c_0 − float64(c_0)).")
    print("var millsPoly = [%d][%d]float64{" % (N, DEG + 2))
    for a, b, coef in polys:
        print("\t{ // [%s, %s]" % (mp.nstr(a, 6), mp.nstr(b, 6)))
        for c in coef:
            print("\t\t%s," % repr(c))
        print("\t},")
    print("}")


def golden_points():
    rng = random.Random(20240611)
    xs = set()
    for k in range(N + 1):
        e = float(LO + k * WIDTH)
        xs.update([e, math.nextafter(e, -math.inf), math.nextafter(e, math.inf)])
    for k in range(N):
        a, b = (float(v) for v in interval(k))
        xs.add((a + b) / 2)
        xs.update(a + (b - a) * rng.random() for _ in range(8))
    xs.update(-6 + rng.random() for _ in range(8))
    xs.update(5 + 4 * rng.random() for _ in range(16))
    xs.update([-1.2, 1.2, 6.0, 8.0, 9.0])
    return sorted(xs)


def golden():
    xs = golden_points()
    vals = {}
    for dps in (100, 60):
        mp.mp.dps = dps
        for x in xs:
            X = mp.mpf(x)
            v = mp.npdf(X) / (mp.erfc(-X / mp.sqrt(2)) / 2)
            if x in vals and abs(v / vals[x] - 1) > mp.mpf(10) ** -40:
                raise SystemExit("60- and 100-digit values disagree at %r" % x)
            vals[x] = v
    print("x,phi_over_Phi")
    for x in xs:
        print("%r,%s" % (x, mp.nstr(vals[x], 25, min_fixed=1, max_fixed=0)))


if __name__ == "__main__":
    if sys.argv[1:] == ["golden"]:
        golden()
    elif sys.argv[1:]:
        raise SystemExit("usage: gen_mills.py [golden]")
    else:
        table()
