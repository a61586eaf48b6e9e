#!/usr/bin/env python3
"""Checks the fully implicit Runge-Kutta tableaus, as written in the C++ headers, in 50-digit
arithmetic (check_implicit_runge_kutta_tableau in C++ works in double).

Each header include/cubie/algorithms/implicit_runge_kutta/<method>.hpp holds a collocation
tableau a, b, c, the weights d of y_new = y + sum_i d_i Z_i, the blocks of
Lambda = T^-1 A^-1 T (eigenvalues: {gamma, 0} real, {alpha, beta} a pair alpha +- i beta),
T (transformation) and T^-1 (inverse_transformation), and for an adaptive method the
embedded solution's embedded_order, gamma0 and e. This script verifies:

  * c_i = sum_j a_ij, and the simplifying assumptions B(order) and C(s);
  * the order conditions sum_i b_i Phi_i(tau) = 1 / gamma(tau) for every rooted tree tau up to
    the stated order, and that one of order + 1 fails (Hairer, Norsett & Wanner I, II.2);
  * d = b^T A^-1;
  * T^-1 T = I and T^-1 A^-1 T = Lambda, the blocks as stated;
  * the embedded solution y + h (gamma0 f(t, y) + sum_i b_hat_i f_i), b_hat = b + A^T e, as an
    (s+1)-stage method with an explicit first stage: its order conditions up to
    embedded_order, and a failure at embedded_order + 1;
  * R(inf) = 0 for the methods stated L-stable, |R(inf)| = 1 for the others, R(z) = 1 + z b^T
    (I - z A)^-1 1 at z = -10^30 in 100 digits.

It also prints, for the adaptive methods, how the filtered estimates of Hairer and Wanner
(8.19) and (8.20) compare with the method's true local error on y' = lambda y at
z = h lambda = -10^8 (the stiff limit the choice of gamma0 in radau_iia_3.hpp refers to).

Residuals are relative to the sum of the magnitudes of the terms. The headers give 20
significant digits (or exact fractions), so a consistent tableau leaves residuals below 1e-18
and a wrong digit far above.

Usage: python3 tests/reference/check_implicit_rk_conditions.py   (exit status 1 on failure)
"""

import pathlib
import re
import sys

from mpmath import eye, matrix, mp, mpf, workdps

from check_dense_output_conditions import parse_initializer, rooted_trees
from check_dirk_conditions import as_list, order_residuals

mp.dps = 50
TOLERANCE = mpf("1e-17")
HEADERS = pathlib.Path(__file__).resolve().parents[2] / "include/cubie/algorithms/implicit_runge_kutta"
# Method: stated L-stable (R(inf) = 0; else |R(inf)| = 1).
METHODS = {
    "radau_iia_3": True,
    "radau_iia_5": True,
    "gauss_legendre_2": False,
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


def square(value):
    return matrix([as_list(row) for row in as_list(value)])


def relative(residual, size):
    return abs(residual) / max(1, size)


def lambda_matrix(blocks, s):
    lam = matrix(s, s)
    column = 0
    for re_part, im_part in blocks:
        if im_part == 0:
            lam[column, column] = re_part
            column += 1
        else:
            lam[column, column] = lam[column + 1, column + 1] = re_part
            lam[column, column + 1] = -im_part
            lam[column + 1, column] = im_part
            column += 2
    return lam, column


def worst_entry(difference, size):
    return max(relative(difference[i, j], size) for i in range(difference.rows)
               for j in range(difference.cols))


def stability(z, a, weights, s):
    """R(z) = 1 + z w^T (I - z A)^-1 1 and the stage increments Z = (I - z A)^-1 z A 1."""
    ones = matrix([[1]] * s)
    stages = (eye(s) - z * a) ** -1 * (z * a * ones)
    return 1 + z * (matrix([weights]) * (eye(s) - z * a) ** -1 * ones)[0, 0], stages


def check(method, l_stable, trees):
    t = read_tableau(method)
    s, p = t["stages"], t["order"]
    a = square(t["a"])
    a_rows = [[a[i, j] for j in range(s)] for i in range(s)]
    b, c, d = as_list(t["b"]), as_list(t["c"]), as_list(t["d"])
    T = square(t["transformation"])
    T_inverse = square(t["inverse_transformation"])
    blocks = t["eigenvalues"]
    failures, report = [], []

    sums = max(relative(sum(a_rows[i]) - c[i], sum(abs(x) for x in a_rows[i])) for i in range(s))
    if sums > TOLERANCE:
        failures.append(f"c differs from the row sums (by {float(sums):.1e})")

    b_residual = [relative(sum(b[i] * c[i] ** (k - 1) for i in range(s)) - mpf(1) / k,
                           sum(abs(b[i] * c[i] ** (k - 1)) for i in range(s)))
                  for k in range(1, p + 2)]
    if max(b_residual[:p]) > TOLERANCE:
        failures.append(f"B({p}) fails (residual {float(max(b_residual[:p])):.1e})")
    if b_residual[p] <= TOLERANCE:
        failures.append(f"B({p + 1}) holds: the quadrature's order is understated")
    c_residual = max(relative(sum(a_rows[i][j] * c[j] ** (k - 1) for j in range(s)) - c[i] ** k / k,
                              sum(abs(a_rows[i][j] * c[j] ** (k - 1)) for j in range(s)))
                     for k in range(1, s + 1) for i in range(s))
    if c_residual > TOLERANCE:
        failures.append(f"C({s}) fails (residual {float(c_residual):.1e})")

    worst = order_residuals(b, a_rows, trees, p + 1)
    within = max(worst[order] for order in range(1, p + 1))
    if within > TOLERANCE:
        failures.append(f"order conditions up to order {p} fail (residual {float(within):.1e})")
    if worst[p + 1] <= TOLERANCE:
        failures.append(f"b also has order {p + 1}: its order is understated")
    report.append(f"order {p} to {float(within):.1e}, order {p + 1} off by {float(worst[p + 1]):.1e}"
                  f"; B({p}), C({s}) to {float(max(max(b_residual[:p]), c_residual)):.1e}")

    a_inverse = a ** -1
    d_exact = matrix([b]) * a_inverse
    d_residual = max(relative(d[i] - d_exact[0, i], abs(d_exact[0, i])) for i in range(s))
    if d_residual > TOLERANCE:
        failures.append(f"d is not b^T A^-1 (residual {float(d_residual):.1e})")

    lam, columns = lambda_matrix(blocks, s)
    if columns != s:
        failures.append(f"the eigenvalue blocks fill {columns} columns, not {s}")
    identity = worst_entry(T_inverse * T - eye(s), 1)
    if identity > TOLERANCE:
        failures.append(f"T^-1 T is not I (residual {float(identity):.1e})")
    size = max(abs(x) for x in lam)
    decoupled = worst_entry(T_inverse * a_inverse * T - lam, size)
    if decoupled > TOLERANCE:
        failures.append(f"T^-1 A^-1 T is not the stated block diagonal (residual "
                        f"{float(decoupled):.1e})")
    report.append(f"T^-1 A^-1 T = Lambda to {float(decoupled):.1e}")

    with workdps(100):  # (I - z a)^-1 cancels about 30 digits
        r_inf, _ = stability(-mpf(10) ** 30, a, b, s)
    if l_stable and abs(r_inf) > TOLERANCE:
        failures.append(f"R(inf) = {float(r_inf):.3e}, not 0")
    if not l_stable and abs(abs(r_inf) - 1) > TOLERANCE:
        failures.append(f"|R(inf)| = {float(abs(r_inf)):.3e}, not 1")
    report.append(f"R(inf) = {float(r_inf):.3e}")

    if "e" in t:
        q, gamma0, e = t["embedded_order"], t["gamma0"], as_list(t["e"])
        b_hat = [b[j] + sum(e[i] * a_rows[i][j] for i in range(s)) for j in range(s)]
        extended = [[mpf(0)] * (s + 1)] + [[mpf(0)] + a_rows[i] for i in range(s)]
        worst = order_residuals([gamma0] + b_hat, extended, trees, q + 1)
        within = max(worst[order] for order in range(1, q + 1))
        if within > TOLERANCE:
            failures.append(f"embedded: order conditions up to order {q} fail "
                            f"(residual {float(within):.1e})")
        if worst[q + 1] <= TOLERANCE:
            failures.append(f"embedded also has order {q + 1}: its order is understated")
        report.append(f"embedded order {q} to {float(within):.1e}, order {q + 1} off by "
                      f"{float(worst[q + 1]):.1e}")
        with workdps(100):
            z = -mpf(10) ** 8
            r, increments = stability(z, a, b, s)
            combination = sum(e[i] * increments[i] for i in range(s))
            first = (gamma0 * z + combination) / (1 - gamma0 * z)
            second = (gamma0 * z * (1 + first) + combination) / (1 - gamma0 * z)
            local = mp.exp(z) - r
            report.append(f"stiff limit: |(8.19)| / |error| = {float(abs(first / local)):.3g}, "
                          f"|(8.20)| / |error| = {float(abs(second / local)):.3g}")

    print(f"{method:17s} {s} stages: {'; '.join(report)}")
    for failure in failures:
        print(f"  FAIL: {failure}")
    return not failures


def main():
    trees = rooted_trees(7)
    results = [check(method, l_stable, trees) for method, l_stable in METHODS.items()]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
