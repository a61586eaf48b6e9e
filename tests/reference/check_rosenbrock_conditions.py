#!/usr/bin/env python3
"""Checks the Rosenbrock tableaus, as written in the C++ headers, in 50-digit arithmetic
(check_rosenbrock_tableau in C++ stops at the trees of order 4).

Each header include/cubie/algorithms/rosenbrock/<method>.hpp holds the transformed form of
Hairer & Wanner (Solving ODEs II, IV.7, (7.25)): gamma, a, c, alpha, gamma_sum, m, m_hat. This
script converts it back to the original form,

    Gamma = (diag(1/gamma) - c)^-1,   (alpha_ij) = a Gamma,   b = m Gamma,   b_hat = m_hat Gamma,

and verifies:

  * a and c are strictly lower triangular and gamma > 0;
  * alpha_i = sum_j alpha_ij and gamma_sum_i = sum_j gamma_ij;
  * the order conditions sum_i b_i Phi_i(tau) = 1 / gamma(tau) for every rooted tree tau up to
    the stated order, for b and for b_hat up to the embedded order (Hairer & Wanner IV.7,
    Table 7.1: Phi takes beta_ij = alpha_ij + gamma_ij, diagonal included, at a vertex with
    one son and alpha_ij at a vertex with several);
  * that some condition one order beyond fails, so the stated orders are exact;
  * R(inf) = 1 - b^T B^-1 1 = 0 (B = (beta_ij)) for the methods stated L-stable, R being the
    stability function of y' = lambda y.

Residuals are relative to sum_i |b_i Phi_i(tau)|. The sources give 16 or 17 significant
digits, so a consistent tableau leaves residuals below 1e-14 and a wrong digit far above.

Usage: python3 tests/reference/check_rosenbrock_conditions.py   (exit status 1 on failure)
"""

import pathlib
import re
import sys

from mpmath import matrix, mp, mpf

from check_dense_output_conditions import parse_initializer, rooted_trees

mp.dps = 50
TOLERANCE = mpf("1e-13")
HEADERS = pathlib.Path(__file__).resolve().parents[2] / "include/cubie/algorithms/rosenbrock"
# Method and whether it is stated L-stable (R(inf) = 0).
METHODS = {"ros3p": False, "rodas3p": True, "rodas4": True, "rodas5p": True}


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


def original_form(t):
    s, gamma = t["stages"], t["gamma"]
    inverse = matrix(s, s)
    for i in range(s):
        for j in range(s):
            inverse[i, j] = (1 / gamma if i == j else 0) - t["c"][i][j]
    big_gamma = inverse ** -1
    a = matrix(t["a"])
    alpha = a * big_gamma
    b = [sum(t["m"][k] * big_gamma[k, j] for k in range(s)) for j in range(s)]
    b_hat = [sum(t["m_hat"][k] * big_gamma[k, j] for k in range(s)) for j in range(s)]
    return big_gamma, alpha, b, b_hat


def order_residuals(weights, alpha, beta, trees, max_order):
    """Largest residual among the trees of each order up to max_order."""
    s = len(weights)
    phi, density, worst = [], [], {}
    for order, children in trees:
        if order > max_order:
            break
        if not children:
            vector, gamma = [mpf(1)] * s, 1
        elif len(children) == 1:
            child = children[0]
            vector = [sum(beta[i, j] * phi[child][j] for j in range(s)) for i in range(s)]
            gamma = order * density[child]
        else:
            vector, gamma = [mpf(1)] * s, order
            for child in children:
                vector = [vector[i] * sum(alpha[i, j] * phi[child][j] for j in range(s))
                          for i in range(s)]
                gamma *= density[child]
        phi.append(vector)
        density.append(gamma)
        terms = [weights[i] * vector[i] for i in range(s)]
        residual = abs(sum(terms) - mpf(1) / gamma) / max(1, sum(abs(x) for x in terms))
        worst[order] = max(worst.get(order, mpf(0)), residual)
    return worst


def check(method, l_stable, trees):
    t = read_tableau(method)
    s, p, q = t["stages"], t["order"], t["embedded_order"]
    failures = []
    if not t["gamma"] > 0:
        failures.append("gamma is not positive")
    if any(t[name][i][j] != 0 for name in ("a", "c") for i in range(s) for j in range(i, s)):
        failures.append("a or c is not strictly lower triangular")

    big_gamma, alpha, b, b_hat = original_form(t)
    beta = alpha + big_gamma
    sums = max(max(abs(sum(alpha[i, j] for j in range(s)) - t["alpha"][i]),
                   abs(sum(big_gamma[i, j] for j in range(s)) - t["gamma_sum"][i]))
               for i in range(s))
    if sums > TOLERANCE:
        failures.append(f"alpha or gamma_sum differ from the row sums (by {float(sums):.1e})")

    report = []
    for label, weights, stated in (("b", b, p), ("b_hat", b_hat, q)):
        worst = order_residuals(weights, alpha, beta, trees, stated + 1)
        within = max(worst[order] for order in range(1, stated + 1))
        if within > TOLERANCE:
            failures.append(f"{label}: order conditions up to order {stated} fail "
                            f"(residual {float(within):.1e})")
        if worst[stated + 1] <= TOLERANCE:
            failures.append(f"{label} also has order {stated + 1}: its order is understated")
        report.append(f"{label} order {stated} to {float(within):.1e}, "
                      f"order {stated + 1} off by {float(worst[stated + 1]):.1e}")

    ones = matrix([[1]] * s)
    r_inf = 1 - (matrix([b]) * (beta ** -1) * ones)[0, 0]
    if l_stable and abs(r_inf) > TOLERANCE:
        failures.append(f"R(inf) = {float(r_inf):.3e}, not 0")

    print(f"{method:8s} {s} stages: {'; '.join(report)}; R(inf) = {float(r_inf):.3e}")
    for failure in failures:
        print(f"  FAIL: {failure}")
    return not failures


def main():
    trees = rooted_trees(6)
    results = [check(method, l_stable, trees) for method, l_stable in METHODS.items()]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
