#!/usr/bin/env python3
"""Checks the dense-output coefficients of the explicit Runge-Kutta tableaus, as written in
the C++ headers, to every order (check_tableau in C++ stops at the trees of order 4).

For each method with dense output it reads the tableau from
include/cubie/algorithms/explicit/<method>.hpp and verifies, in 50-digit arithmetic:

  * the extra stages' rows are explicit and sum to c_dense;
  * b_i(1) = b_i for the step's stages and 0 for the extra stages;
  * the continuous order conditions sum_i b_i(theta) Phi_i(tau) = theta^rho(tau) / gamma(tau),
    coefficient by coefficient in theta, for every rooted tree tau of order up to
    dense_order;
  * that they fail for some tree of order dense_order + 1, so the stated order is exact.

Residuals are relative to sum_i |b_i,p Phi_i(tau)|: the coefficients are 21-digit decimals
(a few of Tsitouras' 17 digits), so a consistent interpolant leaves residuals far below
1e-15 and a wrong digit leaves them far above.

Verner's 7(6) interpolant, published as order 7, fails twelve of the 48 trees of order 7
(residuals up to 7e-5): vern7.hpp states dense_order 6, and this script shows which order
holds exactly.

Usage: python3 tests/reference/check_dense_output_conditions.py   (exit status 1 on failure)
"""

import pathlib
import re
import sys

from mpmath import mp, mpf

mp.dps = 50
TOLERANCE = mpf("1e-15")
HEADERS = pathlib.Path(__file__).resolve().parents[2] / "include/cubie/algorithms/explicit"
METHODS = ["bogacki_shampine_32", "dormand_prince_54", "tsit5", "vern7", "vern9",
           "dormand_prince_853"]

TOKEN = re.compile(r"\s*(?:(\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)"
                   r"|([A-Za-z_]\w*)\s*\[\s*(\d+)\s*\]|(\S))")


def parse_initializer(text, members):
    """Nested brace lists of expressions (numbers, + - * /, earlier members' elements)."""
    tokens = []
    for number, name, index, symbol in TOKEN.findall(text):
        if number:
            tokens.append(("value", mpf(number)))
        elif name:
            tokens.append(("value", members[name][int(index)]))
        elif symbol:
            tokens.append((symbol, None))
    position = 0

    def peek():
        return tokens[position][0] if position < len(tokens) else None

    def take():
        nonlocal position
        position += 1
        return tokens[position - 1]

    def factor():
        kind, value = take()
        if kind == "-":
            return -factor()
        if kind == "(":
            result = expression()
            take()
            return result
        assert kind == "value", kind
        return value

    def term():
        result = factor()
        while peek() in ("*", "/"):
            result = result * factor() if take()[0] == "*" else result / factor()
        return result

    def expression():
        result = term()
        while peek() in ("+", "-"):
            result = result + term() if take()[0] == "+" else result - term()
        return result

    def item():
        if peek() != "{":
            return expression()
        take()
        items = []
        while peek() != "}":
            items.append(item())
            if peek() == ",":
                take()
        take()
        return items

    return item()


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


def rooted_trees(max_order):
    """Trees as (order, children), children a sorted tuple of earlier tree indices."""
    trees = [(1, ())]
    for order in range(2, max_order + 1):
        smaller = len(trees)

        def forests(remaining, first):
            if remaining == 0:
                yield ()
                return
            for index in range(first, smaller):
                if trees[index][0] <= remaining:
                    for rest in forests(remaining - trees[index][0], index):
                        yield (index,) + rest

        trees.extend((order, children) for children in forests(order - 1, 0))
    return trees


def check(method, trees):
    t = read_tableau(method)
    s, n, q, degree = t["stages"], t["dense_stages"], t["dense_order"], t["dense_degree"]
    a = [list(row) + [mpf(0)] * (n - s) for row in t["a"]] + list(t.get("a_dense", []))
    c = list(t["c"]) + list(t.get("c_dense", []))
    weights = t["b_dense"]
    failures = []

    for i in range(s, n):
        if any(a[i][j] != 0 for j in range(i, n)):
            failures.append(f"extra stage {i} is not explicit")
        if abs(sum(a[i]) - c[i]) > TOLERANCE:
            failures.append(f"extra stage {i}: row sum {sum(a[i])} != c {c[i]}")

    end_residual = max(abs(sum(weights[i]) - (t["b"][i] if i < s else 0)) /
                       max(1, sum(abs(w) for w in weights[i])) for i in range(n))
    if end_residual > TOLERANCE:
        failures.append(f"b_i(1) != b_i (residual {float(end_residual):.1e})")

    phi, a_phi, density = [], [], []
    worst_within, worst_beyond = mpf(0), mpf(0)
    failing_beyond, trees_beyond = 0, 0
    for order, children in trees:
        if order > q + 1:
            break
        vector = [mpf(1)] * n
        gamma = order
        for child in children:
            vector = [vector[i] * a_phi[child][i] for i in range(n)]
            gamma *= density[child]
        phi.append(vector)
        a_phi.append([sum(a[i][j] * vector[j] for j in range(i)) for i in range(n)])
        density.append(gamma)
        fails = False
        for p in range(1, degree + 1):
            terms = [weights[i][p - 1] * vector[i] for i in range(n)]
            expected = mpf(1) / gamma if p == order else mpf(0)
            residual = abs(sum(terms) - expected) / max(1, sum(abs(x) for x in terms))
            if order <= q:
                worst_within = max(worst_within, residual)
            else:
                worst_beyond = max(worst_beyond, residual)
                fails = fails or residual > TOLERANCE
        if order > q:
            trees_beyond += 1
            failing_beyond += fails
    if worst_within > TOLERANCE:
        failures.append(f"continuous order conditions up to order {q} fail "
                        f"(residual {float(worst_within):.1e})")
    if worst_beyond <= TOLERANCE:
        failures.append(f"the interpolant also has order {q + 1}: dense_order is understated")

    trees_checked = sum(1 for order, _ in trees if order <= q)
    print(f"{method:20s} dense_order {q}: {trees_checked:3d} trees x {degree} powers, "
          f"largest residual {float(worst_within):.1e}; b(1) = b to {float(end_residual):.1e}; "
          f"order {q + 1}: {failing_beyond} of {trees_beyond} trees fail, "
          f"up to {float(worst_beyond):.1e}")
    for failure in failures:
        print(f"  FAIL: {failure}")
    return not failures


def main():
    trees = rooted_trees(10)
    results = [check(method, trees) for method in METHODS]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
