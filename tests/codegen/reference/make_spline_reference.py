#!/usr/bin/env python3
"""SciPy CubicSpline reference values for cubie's driver splines
(include/cubie/drivers/): writes cubic_spline_samples.csv (the knots and samples) and
cubic_spline_reference.csv (value and derivative at points inside and outside the knots,
for each boundary condition, with and without wrap-around). Run from this folder:

    python3 make_spline_reference.py
"""

import csv

import numpy as np
from scipy.interpolate import CubicSpline

# Irregular knots on [0, 2]: an aperiodic and a periodic signal.
t = np.array([0.0, 0.13, 0.31, 0.42, 0.6, 0.77, 0.95, 1.1, 1.28, 1.5, 1.64, 1.83, 2.0])
sets = {
    "aperiodic": np.sin(3 * t) + 0.3 * t**2,
    "periodic": np.sin(np.pi * t) + 0.5 * np.cos(2 * np.pi * t),
}
sets["periodic"][-1] = sets["periodic"][0]  # exactly equal ends

cases = [  # (set, boundary, SciPy bc_type, wrap)
    ("aperiodic", "natural", "natural", False),
    ("aperiodic", "clamped", ((1, 0.5), (1, -1.0)), False),
    ("aperiodic", "not_a_knot", "not-a-knot", False),
    ("periodic", "periodic", "periodic", False),
    ("periodic", "periodic", "periodic", True),
    ("periodic", "natural", "natural", True),
]
points = np.concatenate([np.linspace(-0.3, 2.3, 53), t, [5.37, -3.9]])

with open("cubic_spline_samples.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["set", "t", "y"])
    for name, y in sets.items():
        for tk, yk in zip(t, y):
            w.writerow([name, repr(float(tk)), repr(float(yk))])

with open("cubic_spline_reference.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["set", "boundary", "wrap", "t", "value", "derivative"])
    for name, boundary, bc, wrap in cases:
        spline = CubicSpline(t, sets[name], bc_type=bc,
                             extrapolate="periodic" if wrap else True)
        for x in points:
            w.writerow([name, boundary, int(wrap), repr(float(x)), repr(float(spline(x))),
                        repr(float(spline(x, 1)))])
