#!/usr/bin/env python3
"""Writes stiff_reference.csv: final states of the stiff problems that tests/rosenbrock_stiff.cpp
solves with the Rosenbrock methods.

  robertson    Robertson's reaction (k1 = 0.04, k2 = 3e7, k3 = 1e4), y(0) = (1, 0, 0), at
               t = 1e5 and t = 1e11
  van_der_pol  x' = v, v' = mu (1 - x^2) v - x with mu = 1e3, (x, v)(0) = (2, 0), at t = 2000
               (on the slow branch after two fast transitions)

Each is solved by SciPy's Radau (order 5) at rtol = 1e-12 with the analytic Jacobian, and
again by LSODA at rtol = 1e-12; the script prints their largest difference relative to
atol + rtol |y| of the tests' tightest tolerance (rtol = 1e-8), which must be far below 1 for
the reference to be exact enough, and fails otherwise.

Rows: problem,t_end,index,value (17 significant digits).

Usage: python3 tests/reference/make_stiff_reference.py   (rewrites the CSV beside it)
"""

import pathlib
import sys

import numpy as np
from scipy.integrate import solve_ivp

OUTPUT = pathlib.Path(__file__).resolve().parent / "stiff_reference.csv"
TEST_RTOL = 1e-8  # the tightest tolerance the tests ask of the methods
TEST_ATOL = {"robertson": 1e-14, "van_der_pol": 1e-8}


def robertson(t, y):
    k1, k2, k3 = 0.04, 3e7, 1e4
    s0 = k3 * y[1] * y[2] - k1 * y[0]
    s1 = k2 * y[1] ** 2
    return [s0, -(s0 + s1), s1]


def robertson_jacobian(t, y):
    k1, k2, k3 = 0.04, 3e7, 1e4
    return [[-k1, k3 * y[2], k3 * y[1]],
            [k1, -k3 * y[2] - 2 * k2 * y[1], -k3 * y[1]],
            [0, 2 * k2 * y[1], 0]]


MU = 1e3


def van_der_pol(t, y):
    return [y[1], MU * (1 - y[0] ** 2) * y[1] - y[0]]


def van_der_pol_jacobian(t, y):
    return [[0, 1], [-2 * MU * y[0] * y[1] - 1, MU * (1 - y[0] ** 2)]]


PROBLEMS = [
    ("robertson", robertson, robertson_jacobian, [1.0, 0.0, 0.0], [1e5, 1e11], 1e-22),
    ("van_der_pol", van_der_pol, van_der_pol_jacobian, [2.0, 0.0], [2000.0], 1e-14),
]


def solve(method, f, jac, y0, t_ends, atol):
    """States at each of t_ends, integrating up to each (no interpolation)."""
    states, t, y = [], 0.0, y0
    for t_end in t_ends:
        solution = solve_ivp(f, (t, t_end), y, method=method, rtol=1e-12, atol=atol, jac=jac)
        if not solution.success:
            raise RuntimeError(f"{method}: {solution.message}")
        t, y = t_end, solution.y[:, -1]
        states.append(y)
    return states


def main():
    rows = []
    worst = 0.0
    for name, f, jac, y0, t_ends, atol in PROBLEMS:
        radau = solve("Radau", f, jac, y0, t_ends, atol)
        lsoda = solve("LSODA", f, jac, y0, t_ends, atol)
        for t_end, y, check in zip(t_ends, radau, lsoda):
            scale = TEST_ATOL[name] + TEST_RTOL * np.abs(y)
            difference = float(np.max(np.abs(y - check) / scale))
            worst = max(worst, difference)
            print(f"{name} t = {t_end:g}: y = {list(y)}; Radau - LSODA = {difference:.2e} "
                  f"of the tests' tightest tolerance")
            rows.extend(f"{name},{t_end:.17g},{i},{value:.17g}" for i, value in enumerate(y))
    OUTPUT.write_text("problem,t_end,index,value\n" + "\n".join(rows) + "\n")
    print(f"wrote {OUTPUT.name}")
    return 0 if worst < 0.1 else 1


if __name__ == "__main__":
    sys.exit(main())
