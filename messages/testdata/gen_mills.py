#!/usr/bin/env python3
"""Generate messages/mills_table.go, the piecewise polynomials of the inverse
Mills ratio lambda(x) = phi(x)/Phi(x) on [LO, HI) = [-5, 5), and the reference
values messages/testdata/inv_mills_ratio.csv that test them; the same for
log Phi(x) (messages/log_phi_table.go, messages/testdata/log_phi.csv); and
the left-tail tables below LO (mills_tail_table.go, mills_tail.csv).

Usage (from the repo root):

    python3 messages/testdata/gen_mills.py > messages/mills_table.go && gofmt -w messages/mills_table.go
    python3 messages/testdata/gen_mills.py golden > messages/testdata/inv_mills_ratio.csv
    python3 messages/testdata/gen_mills.py tail > messages/mills_tail_table.go && gofmt -w messages/mills_tail_table.go
    python3 messages/testdata/gen_mills.py tailgolden > messages/testdata/mills_tail.csv
    python3 messages/testdata/gen_mills.py logphi > messages/log_phi_table.go && gofmt -w messages/log_phi_table.go
    python3 messages/testdata/gen_mills.py logphigolden > messages/testdata/log_phi.csv

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

log Phi table
-------------
"logphi" fits log Phi(x) on the same N intervals, with the same degree, u,
layout and checks as lambda (fit below), so that Go evaluates both tables
with one function (tablePoly in special.go). It is tabulated directly, not
as -x^2/2 - log sqrt(2 pi) - log lambda(x), because that identity needs a
logarithm at run time. log Phi has no real zero and each interval's
polynomial is fitted to its own values, so the relative accuracy holds where
log Phi(x) ~ -Phi(-x) is tiny (-2.9e-7 at x = 5) without rescaling. Its
singularities nearest the real axis are the branch points at the zeros of
Phi, x ~ 1.92 +- 2.82i, where lambda has its poles, and it needs the same
degree: 10 on the top 12 intervals, 6 to 9 elsewhere. The reference is
log(erfc(-x/sqrt(2))/2) for x <= 0 and log1p(-erfc(x/sqrt(2))/2) for x > 0,
from mpmath with 20 guard digits (log_phi below). The script aborts beyond
LOGPHI_LIMIT = 1.25 ulp; it measures truncation 1.1e-18, evaluation 0.59
ulp on [-5, 0), 0.85 ulp on [0, 2) and 0.97 ulp on [2, 5).

"logphigolden" writes x, log Phi(x) at every interval edge, the two doubles
on either side of it and points 1e-9 relative away, every centre, 8 random
points per interval (random.Random(20240613)), +-1e-300 and +-1e-9, and
beyond the table: 16 random points in each of [-6, -5) and [5, 9], and
x from -1e4 to 40 (where log Phi ~ -3.7e-350). Values come from log_phi at
60 and 100 digits, which must agree to 1e-40, never from the table.

Tail table (x < LO)
-------------------
Below LO, with y = -x > 5, s = 1/y and z = s^2 in (0, 1/25), Go computes

    g1 = lambda(x) - y = s * P(z),      1 - W = 1 - lambda*(lambda - y) = z * Q(z),

W being the variance correction of the win factor at x. P(z) = y*g1 and
Q(z) = y^2*(1 - W) lie in [0.8, 1] and tend to 1 as z -> 0 (y -> infinity):
g1 ~ 1/y - 2/y^3 + 10/y^5 - ... and 1 - W ~ 1/y^2 - 6/y^4 + ... are
Laplace's asymptotic series, divergent but smooth at z = 0 (P is the Stieltjes
continued fraction 1/(1 + 2z/(1 + 3z/(1 + 4z/...))) of the Mills ratio,
analytic off the negative axis), so polynomials in z converge on [0, z0]
without any special case for large y. [0, TAIL_N/512) is cut into TAIL_N = 21
intervals of width 1/512 (interval k holds z in [k/512, (k+1)/512], i.e. y
from sqrt(512/(k+1)) to sqrt(512/k)); on each, P and Q are polynomials of
degree TAIL_DEG = 7 in u = 1024z - (2k + 1), exact in double. They are fitted
exactly as the main table (Chebyshev projection at M nodes, truncation,
monomial basis, c_0 split into high and low parts), with the reference
lambda computed from mpmath's erfc with 4*log10(y) guard digits (lambda - y
and 1 - lambda*(lambda - y) cancel about 2*log10(y) digits each).

Checks: the discarded Chebyshev tail is below 2^-57 of P and of Q on every
interval (degree 7 is the least that meets it on all 21 intervals: P would
do with degree 6 from z = 6/512 on, Q needs 7 on all but the last; Estrin's
scheme sums degree 7 in three levels); and lambda = y + s*P, 1 - W = z*Q and
W = 1 - z*Q, evaluated in double exactly as Go does (tail_eval below), are
compared with mpmath at NPTS + 1 values of y per interval (evenly spaced in
z, each end included). The script aborts beyond 0.75 ulp for lambda, 3 ulp
for 1 - W and 0.75 ulp for W, and writes the worst errors to stderr: 0.54,
2.9 and 0.57 ulp. 1 - W = z*Q inherits the rounding of z = (1/y)^2, up to
1.5 ulp; lambda and W are within 0.1 ulp of correct rounding.

"tailgolden" writes x, lambda(x), W(x) and 1 - W(x) for x = -y at: 200
evenly spaced and 100 random y in (5, 6], every table edge sqrt(512/k) with
the doubles two on either side and points 1e-9 relative away, 8 random
points per table interval, and large y (10 ... 1e300 and the largest double).
Up to y = 1e15 the values come from mpmath's erfc (lambda = phi(x)/Phi(x));
beyond it (where mpmath's erfc fails) from the asymptotic series
Phi(-y)/phi(y) = sum (-1)^n (2n-1)!!/y^(2n+1), alternating with remainder
below its first omitted term, summed to the working precision; the two agree
to 1e-40 at y = 1e4, 1e6, 1e8, 1e10, 1e12 and 1e15 (checked). Each value is computed at two
precisions, which must agree to 1e-40. 1 - W is written with its true
exponent even where it underflows the double range (y > 1.3e154).
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
LOGPHI_LIMIT = 1.25
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


def cheb(k, fn=lam):
    a, b = interval(k)
    c, h = (a + b) / 2, (b - a) / 2
    nodes = [mp.cos(mp.pi * (j + mp.mpf(1) / 2) / M) for j in range(M)]
    f = [fn(c + h * u) for u in nodes]
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


def fit(fn, limit):
    """The table of fn on [LO, HI): per interval, the Chebyshev projection,
    its truncation checked against 2^-57 of |fn|, and the monomial
    coefficients in double with the low part of c_0 appended; aborts if the
    evaluation (estrin) is more than limit ulp off at any test point."""
    polys = []
    worst_trunc = 0
    worst_ulp = {}  # by region
    for k in range(N):
        cs = cheb(k, fn)
        a, b = interval(k)
        fmin = min(abs(fn(a)), abs(fn(b)))
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
            got, want = estrin(coef, u), fn(mp.mpf(x))
            e = abs(got - want) / (mp.mpf(2) ** (math.frexp(float(want))[1] - 53))
            if e > limit:
                raise SystemExit("interval %d: %.17g off by %s ulp" % (k, x, mp.nstr(e, 3)))
            r = "[-5, 0)" if x < 0 else "[0, 2)" if x < 2 else "[2, 5)"
            worst_ulp[r] = max(worst_ulp.get(r, 0), e)
        polys.append((a, b, coef))
    sys.stderr.write("truncation <= %s relative; evaluation <= %s\n" % (
        mp.nstr(worst_trunc, 3),
        ", ".join("%s ulp on %s" % (mp.nstr(e, 3), r) for r, e in worst_ulp.items())))
    return polys


def table():
    mp.mp.dps = 50
    polys = fit(lam, 1.25)

    preamble("")
    print("// The table covers [millsLo, millsHi) in millsPerUnit intervals per unit.")
    print("const (")
    print("\tmillsLo      = %d" % LO)
    print("\tmillsHi      = %d" % HI)
    print("\tmillsPerUnit = %d" % int(1 / WIDTH))
    print(")")
    print()
    poly_comment("millsPoly", "λ(x) = φ(x)/Φ(x)")
    print("// then the rounding error of c_0 (c_0 − float64(c_0)).")
    print("var millsPoly = [%d][%d]float64{" % (N, DEG + 2))
    print_rows(polys)


def preamble(mode):
    """Print the head of the Go file that `gen_mills.py mode` writes."""
    print("// Code generated by testdata/gen_mills.py%s; DO NOT EDIT." % (" " + mode if mode else ""))
    print()
    print("package messages")
    print()


def poly_comment(name, what):
    """Print the first lines of the comment on a table fitted on [LO, HI)."""
    print("// %s[k] is %s on [−%d + k/%d, −%d + (k+1)/%d] as"
          % (name, what, -LO, int(1 / WIDTH), -LO, int(1 / WIDTH)))
    print("// Σ c_j u^j in u = %dx + %d − 2k ∈ [−1, 1], stored as c_0, c_1, …, c_%d and" % (S, OFF, DEG))


def print_rows(polys):
    """Print the rows of a fitted table, one interval each, and close it."""
    for a, b, coef in polys:
        print("\t{ // [%s, %s]" % (mp.nstr(a, 6), mp.nstr(b, 6)))
        for c in coef:
            print("\t\t%s," % repr(c))
        print("\t},")
    print("}")


def log_phi(x):
    """log Phi(x) from mpmath's erfc, with 20 guard digits; for x > 0 as
    log1p(-Phi(-x)), so that the small negative value keeps its digits."""
    with mp.workdps(mp.mp.dps + 20):
        X = mp.mpf(x)
        if X > 0:
            v = mp.log1p(-mp.erfc(X / mp.sqrt(2)) / 2)
        else:
            v = mp.log(mp.erfc(-X / mp.sqrt(2)) / 2)
    return +v


def logphi_table():
    mp.mp.dps = 50
    polys = fit(log_phi, LOGPHI_LIMIT)

    preamble("logphi")
    poly_comment("logPhiPoly", "log Φ(x)")
    print("// then the rounding error of c_0 (c_0 − float64(c_0)). It covers")
    print("// [millsLo, millsHi) in millsPerUnit intervals per unit, as millsPoly does.")
    print("var logPhiPoly = [%d][%d]float64{" % (N, DEG + 2))
    print_rows(polys)


def add_interval_points(xs, rng):
    """Add to xs each interval's midpoint and 8 points drawn from rng."""
    for k in range(N):
        a, b = (float(v) for v in interval(k))
        xs.add((a + b) / 2)
        xs.update(a + (b - a) * rng.random() for _ in range(8))


def golden_points():
    rng = random.Random(20240611)
    xs = set()
    for k in range(N + 1):
        e = float(LO + k * WIDTH)
        xs.update([e, math.nextafter(e, -math.inf), math.nextafter(e, math.inf)])
    add_interval_points(xs, rng)
    xs.update(-6 + rng.random() for _ in range(8))
    xs.update(5 + 4 * rng.random() for _ in range(16))
    xs.update([-1.2, 1.2, 6.0, 8.0, 9.0])
    return sorted(xs)


def golden_csv(header, xs, exact, row=lambda x, v: (x,) + v):
    """Prints the CSV of exact (a tuple of values) at each of xs: computed
    at 100 and at 60 digits, which must agree to 1e-40 relative, and
    written from the 60-digit values, each row being row(x, values) (the
    first column as Python writes a float, the others to 25 digits)."""
    vals = {}
    for dps in (100, 60):
        mp.mp.dps = dps
        for x in xs:
            v = exact(x)
            if x in vals and any(abs(a / b - 1) > mp.mpf(10) ** -40 for a, b in zip(v, vals[x])):
                raise SystemExit("60- and 100-digit values disagree at %r" % x)
            vals[x] = v
    print(header)
    for x in xs:
        first, *rest = row(x, vals[x])
        print(",".join(["%r" % first] + [mp.nstr(c, 25, min_fixed=1, max_fixed=0) for c in rest]))


def golden():
    def exact(x):
        X = mp.mpf(x)
        return (mp.npdf(X) / (mp.erfc(-X / mp.sqrt(2)) / 2),)
    golden_csv("x,phi_over_Phi", golden_points(), exact)


def logphi_golden_points():
    rng = random.Random(20240613)
    xs = set()
    for k in range(N + 1):
        e = float(LO + k * WIDTH)
        xs.add(e)
        lo = hi = e
        for _ in range(2):
            lo, hi = math.nextafter(lo, -math.inf), math.nextafter(hi, math.inf)
            xs.update([lo, hi])
        if e != 0:
            xs.update([e - abs(e) * 1e-9, e + abs(e) * 1e-9])
    add_interval_points(xs, rng)
    xs.update(-6 + rng.random() for _ in range(16))
    xs.update(5 + 4 * rng.random() for _ in range(16))
    xs.update([1e-300, -1e-300, 1e-9, -1e-9])
    xs.update([-5.5, -6.0, -7.0, -8.0, -10.0, -20.0, -30.0, -38.0, -40.0, -100.0, -1e3, -1e4,
               5.5, 6.0, 7.0, 8.0, 10.0, 15.0, 20.0, 30.0, 37.0, 38.0, 38.5, 40.0])
    return sorted(xs)


def logphi_golden():
    golden_csv("x,log_Phi", logphi_golden_points(), lambda x: (log_phi(x),))


TAIL_PER_UNIT = 512  # intervals per unit of z = 1/y^2
TAIL_N = 21
TAIL_DEG = 7


def tail_exact(y, extra=0):
    """lambda(-y), g1 = lambda - y and 1 - W at the double y > 0, from
    mpmath's erfc up to 1e15 and from the asymptotic series beyond."""
    Y = mp.mpf(y)
    guard = int(4 * mp.log10(Y)) + 10 + extra
    with mp.workdps(mp.mp.dps + guard):
        if Y <= 10**15:
            lam = mp.npdf(-Y) / (mp.erfc(Y / mp.sqrt(2)) / 2)
        else:
            lam = 1 / mills_series(Y)
        g = lam - Y
        omw = 1 - lam * g
    return +lam, +g, +omw


def mills_series(Y):
    """Phi(-Y)/phi(Y) = sum_n (-1)^n (2n-1)!!/Y^(2n+1) for large Y: the
    series is enveloping (the remainder is below the first omitted term and
    has its sign), so stopping below the working precision is exact to it."""
    z = 1 / (Y * Y)
    term, total, n = 1 / Y, mp.mpf(0), 0
    while abs(term) > mp.eps * abs(total) or n == 0:
        total += term
        n += 1
        term = -term * (2 * n - 1) * z
        if n > 1000:
            raise SystemExit("series did not converge at %s" % mp.nstr(Y, 5))
    return total


def tail_pq(z):
    if z == 0:
        return mp.mpf(1), mp.mpf(1)
    y = 1 / mp.sqrt(z)
    with mp.workdps(mp.mp.dps + int(4 * mp.log10(y)) + 10):
        lam = mp.npdf(-y) / (mp.erfc(y / mp.sqrt(2)) / 2)
        g = lam - y
        return +(y * g), +(y * y * (1 - lam * g))


def tail_cheb(k):
    a = mp.mpf(k) / TAIL_PER_UNIT
    h = mp.mpf(1) / (2 * TAIL_PER_UNIT)
    c = a + h
    nodes = [mp.cos(mp.pi * (j + mp.mpf(1) / 2) / M) for j in range(M)]
    f = [tail_pq(c + h * u) for u in nodes]
    out = []
    for w in (0, 1):
        cs = []
        for n in range(M):
            s = sum(f[j][w] * mp.cos(mp.pi * n * (j + mp.mpf(1) / 2) / M) for j in range(M))
            cs.append(2 * s / M)
        cs[0] /= 2
        out.append(cs)
    return out


def tail_eval(cp, cq, y):
    """The Go evaluation (millsTail in special.go) in IEEE double: lambda,
    W and 1 - W at x = -y."""
    s = 1.0 / y
    z = s * s
    k = min(int(z * TAIL_PER_UNIT), TAIL_N - 1)
    u = 2 * TAIL_PER_UNIT * z - (2 * k + 1)
    p, q = estrin(cp[k], u), estrin(cq[k], u)
    omw = z * q
    return y + s * p, 1 - omw, omw


def ulps(got, want):
    e = math.frexp(float(want))[1] if want != 0 else -1074
    return abs(mp.mpf(got) - want) / (mp.mpf(2) ** max(e - 53, -1074))


def tail_table():
    mp.mp.dps = 50
    cp, cq = [], []
    worst_trunc = 0
    for k in range(TAIL_N):
        chebs = tail_cheb(k)
        coefs = []
        for w, cs in enumerate(chebs):
            trunc = sum(abs(c) for c in cs[TAIL_DEG + 1:]) / min(tail_pq(mp.mpf(k + j) / TAIL_PER_UNIT)[w] for j in (0, 1))
            if trunc > mp.mpf(2) ** -57:
                raise SystemExit("tail interval %d, %s: truncation error %s" % (k, "PQ"[w], mp.nstr(trunc, 3)))
            worst_trunc = max(worst_trunc, trunc)
            mono = monomial(cs[:TAIL_DEG + 1])
            coef = [float(c) for c in mono]
            coef.append(float(mono[0] - coef[0]))
            coefs.append(coef)
        cp.append(coefs[0])
        cq.append(coefs[1])
    worst = [0, 0, 0]
    limit = [0.75, 0.75, 3]
    for k in range(TAIL_N):
        for i in range(NPTS + 1):
            z = (k + mp.mpf(i) / NPTS) / TAIL_PER_UNIT
            if z == 0:
                continue
            y = float(1 / mp.sqrt(z))
            if y <= 5:
                continue
            got = tail_eval(cp, cq, y)
            lam, g, omw = tail_exact(y)
            for j, want in enumerate((lam, 1 - omw, omw)):
                e = ulps(got[j], want)
                if e > limit[j]:
                    raise SystemExit("tail interval %d: y = %r: %s off by %s ulp" % (k, y, ("lambda", "W", "1-W")[j], mp.nstr(e, 3)))
                worst[j] = max(worst[j], e)
    sys.stderr.write("tail: truncation <= %s relative; evaluation <= %s ulp (lambda), %s ulp (W), %s ulp (1 - W)\n" % (
        mp.nstr(worst_trunc, 3), mp.nstr(worst[0], 3), mp.nstr(worst[1], 3), mp.nstr(worst[2], 3)))

    preamble("tail")
    print("// millsTailPerUnit is the number of intervals of millsTailP and millsTailQ per")
    print("// unit of z = 1/y²; they cover z ∈ [0, %d/%d)." % (TAIL_N, TAIL_PER_UNIT))
    print("const millsTailPerUnit = %d" % TAIL_PER_UNIT)
    for name, what, tab in (("millsTailP", "P(z) = y·g₁ = y·(λ(−y) − y)", cp),
                            ("millsTailQ", "Q(z) = y²·(1 − W(−y))", cq)):
        print()
        print("// %s[k] is %s on z = 1/y² ∈ [k/%d, (k+1)/%d] as" % (name, what, TAIL_PER_UNIT, TAIL_PER_UNIT))
        print("// Σ c_j u^j in u = %dz − (2k + 1) ∈ [−1, 1], stored as c_0, c_1, …, c_%d and" % (2 * TAIL_PER_UNIT, TAIL_DEG))
        print("// then the rounding error of c_0 (c_0 − float64(c_0)).")
        print("var %s = [%d][%d]float64{" % (name, TAIL_N, TAIL_DEG + 2))
        for k, coef in enumerate(tab):
            print("\t{ // z ∈ [%d/%d, %d/%d]" % (k, TAIL_PER_UNIT, k + 1, TAIL_PER_UNIT))
            for c in coef:
                print("\t\t%s," % repr(c))
            print("\t},")
        print("}")


def tail_golden_points():
    rng = random.Random(20240612)
    ys = set()
    ys.update(5 + i / 200 for i in range(1, 201))
    ys.update(5 + rng.random() for _ in range(100))
    for k in range(1, TAIL_N):
        e = math.sqrt(TAIL_PER_UNIT / k)
        ys.update([e, e * (1 - 1e-9), e * (1 + 1e-9)])
        lo = hi = e
        for _ in range(2):
            lo, hi = math.nextafter(lo, 0), math.nextafter(hi, math.inf)
            ys.update([lo, hi])
    for k in range(TAIL_N):
        for _ in range(8):
            z = (k + rng.random()) / TAIL_PER_UNIT
            ys.add(1 / math.sqrt(z))
    ys.update([10.0, 30.0, 100.0, 1e3, 1e4, 1e5, 1e6, 1e8, 1e10, 1e12, 1e15, 1e16, 1e20,
               1e50, 1e100, 1e150, 1.3e154, 1e155, 1e160, 1e200, 1e300, sys.float_info.max])
    return sorted(y for y in ys if y > 5)


def tail_golden():
    ys = tail_golden_points()
    for y in (1e4, 1e6, 1e8, 1e10, 1e12, 1e15):
        mp.mp.dps = 60
        Y = mp.mpf(y)
        with mp.workdps(200):
            a = mp.npdf(-Y) / (mp.erfc(Y / mp.sqrt(2)) / 2)
            b = 1 / mills_series(Y)
            if abs(a / b - 1) > mp.mpf(10) ** -40:
                raise SystemExit("erfc and the asymptotic series disagree at %r" % y)
    # A row is x = −y, λ(x), W = λ·g₁ and 1 − W.
    golden_csv("x,phi_over_Phi,w,one_minus_w", ys, tail_exact,
               lambda y, v: (-y, v[0], v[0] * v[1], v[2]))


if __name__ == "__main__":
    if sys.argv[1:] == ["golden"]:
        golden()
    elif sys.argv[1:] == ["logphi"]:
        logphi_table()
    elif sys.argv[1:] == ["logphigolden"]:
        logphi_golden()
    elif sys.argv[1:] == ["tail"]:
        tail_table()
    elif sys.argv[1:] == ["tailgolden"]:
        tail_golden()
    elif sys.argv[1:]:
        raise SystemExit("usage: gen_mills.py [golden | tail | tailgolden | logphi | logphigolden]")
    else:
        table()
