#!/usr/bin/env python3
"""Checks the DIRK tableaus, as written in the C++ headers, in 50-digit arithmetic
(check_dirk_tableau in C++ stops at the trees of order 4).

Each header include/cubie/algorithms/dirk/<method>.hpp holds a Butcher tableau a, b, c with
gamma on the diagonal of a (but a zero a_11 of an ESDIRK), and where it has an embedded
solution embedded_order and b_hat. This script verifies:

  * a is lower triangular with gamma > 0 on its diagonal, a_11 = 0 allowed;
  * c_i = sum_j a_ij;
  * the order conditions sum_i b_i Phi_i(tau) = 1 / gamma(tau) for every rooted tree tau up to
    the stated order, for b and for b_hat up to the embedded order (Hairer, Norsett & Wanner
    I, II.2);
  * that some condition one order beyond fails, so the stated orders are exact;
  * b equals the last row of a for the methods stated stiffly accurate;
  * R(inf) = 0 for the methods stated L-stable, R(z) = 1 + z b^T (I - z a)^-1 1 being the
    stability function of y' = lambda y, evaluated at z = -10^30 in 100 digits.

Residuals are relative to sum_i |b_i Phi_i(tau)|. The sources give 16 or 17 significant
digits, so a consistent tableau leaves residuals below 1e-14 and a wrong digit far above.

Usage: python3 tests/reference/check_dirk_conditions.py   (exit status 1 on failure)
"""

import pathlib
import re
import sys

from mpmath import eye, matrix, mp, mpf, workdps

from check_dense_output_conditions import parse_initializer, rooted_trees

mp.dps = 50
TOLERANCE = mpf("1e-13")
HEADERS = pathlib.Path(__file__).resolve().parents[2] / "include/cubie/algorithms/dirk"
# Method: (stated L-stable, stated stiffly accurate).
METHODS = {
    "backward_euler": (True, True),
    "implicit_midpoint": (False, False),
    "sdirk2": (True, True),
    "kvaerno3": (True, True),
    "kvaerno5": (True, True),
    "sdirk3": (True, True),
    "hairer_wanner_sdirk4": (True, True),
    "trapezoid": (False, True),
}


def read_tableau(method):
    source = (HEADERS / f"{method}.hpp").read_text()
    body = re.search(rf"struct {method}_tableau {{(.*?)\n}};", source, re.S).group(1)
    body = re.sub(r"//[^\n]*", "", body)
    members = {}
    for kind, name, initializer in re.findall(
            r"static constexpr (int|double) (\w+)(?:\[\d+\])* = (.*?);", body, re.S):
        value = parse_initializer(initializer, members)
        members[name] = int(value) if kind == "int" else value
    return members


def as_list(value):
    return value if isinstance(value, list) else [value]


def order_residuals(weights, a, trees, max_order):
    """Largest residual among the trees of each order up to max_order."""
    s = len(weights)
    phi, density, worst = [], [], {}
    for order, children in trees:
        if order > max_order:
            break
        vector, gamma = [mpf(1)] * s, order
        for child in children:
            vector = [vector[i] * sum(a[i][j] * phi[child][j] for j in range(s))
                      for i in range(s)]
            gamma *= density[child]
        phi.append(vector)
        density.append(gamma)
        terms = [weights[i] * vector[i] for i in range(s)]
        residual = abs(sum(terms) - mpf(1) / gamma) / max(1, sum(abs(x) for x in terms))
        worst[order] = max(worst.get(order, mpf(0)), residual)
    return worst


def check(method, l_stable, stiffly_accurate, trees):
    t = read_tableau(method)
    s, p, gamma = t["stages"], t["order"], t["gamma"]
    a = [as_list(row) for row in as_list(t["a"])]
    b, c = as_list(t["b"]), as_list(t["c"])
    failures = []
    if not gamma > 0:
        failures.append("gamma is not positive")
    if any(a[i][j] != 0 for i in range(s) for j in range(i + 1, s)):
        failures.append("a is not lower triangular")
    if any(a[i][i] != gamma and not (i == 0 and a[0][0] == 0 and s > 1) for i in range(s)):
        failures.append("the diagonal of a is not gamma (a_11 = 0 apart)")
    sums = max(abs(sum(a[i]) - c[i]) for i in range(s))
    if sums > TOLERANCE:
        failures.append(f"c differs from the row sums (by {float(sums):.1e})")

    report = []
    solutions = [("b", b, p)]
    if "b_hat" in t:
        solutions.append(("b_hat", as_list(t["b_hat"]), t["embedded_order"]))
    for label, weights, stated in solutions:
        worst = order_residuals(weights, a, trees, stated + 1)
        within = max(worst[order] for order in range(1, stated + 1))
        if within > TOLERANCE:
            failures.append(f"{label}: order conditions up to order {stated} fail "
                            f"(residual {float(within):.1e})")
        if worst[stated + 1] <= TOLERANCE:
            failures.append(f"{label} also has order {stated + 1}: its order is understated")
        report.append(f"{label} order {stated} to {float(within):.1e}, "
                      f"order {stated + 1} off by {float(worst[stated + 1]):.1e}")

    if stiffly_accurate and any(b[j] != a[s - 1][j] for j in range(s)):
        failures.append("b is not the last row of a: not stiffly accurate")
    with workdps(100):  # (I - z a)^-1 cancels about 30 digits
        z = -mpf(10) ** 30
        ones = matrix([[1]] * s)
        r_inf = 1 + z * (matrix([b]) * (eye(s) - z * matrix(a)) ** -1 * ones)[0, 0]
    if l_stable and abs(r_inf) > TOLERANCE:
        failures.append(f"R(inf) = {float(r_inf):.3e}, not 0")

    print(f"{method:20s} {s} stages: {'; '.join(report)}; R(inf) = {float(r_inf):.3e}")
    for failure in failures:
        print(f"  FAIL: {failure}")
    return not failures


def main():
    trees = rooted_trees(6)
    results = [check(method, *claims, trees) for method, claims in METHODS.items()]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
