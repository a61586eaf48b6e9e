"""Reference time series of the Lorenz system for the saved-state tests.

Four trajectories, rho = 0, 7, 14 and 21 (exact in float32 and float64), x0 = (1, 0, 0),
sigma = 10, beta = 8/3, states at t = 0.05 k for k = 0..20. Each state is integrated in
float64 with SciPy's DOP853 at rtol = atol = 1e-13, one solve per trajectory with
t_eval at the save times (SciPy evaluates its dense output there).

Writes lorenz_series_reference.csv beside this script, header trajectory,rho,t,x,y,z.
Rerun: python3 tests/reference/make_lorenz_series_reference.py
"""

from pathlib import Path

import numpy as np
from scipy.integrate import solve_ivp

RHOS = (0.0, 7.0, 14.0, 21.0)
TIMES = 0.05 * np.arange(21)


def lorenz(_t, s, rho):
    x, y, z = s
    return [10.0 * (y - x), x * (rho - z) - y, x * y - (8.0 / 3.0) * z]


def main():
    out = Path(__file__).with_name("lorenz_series_reference.csv")
    with out.open("w") as f:
        f.write("trajectory,rho,t,x,y,z\n")
        for i, rho in enumerate(RHOS):
            sol = solve_ivp(lorenz, (0.0, 1.0), [1.0, 0.0, 0.0], method="DOP853",
                            rtol=1e-13, atol=1e-13, t_eval=TIMES, args=(rho,))
            assert sol.success, sol.message
            for k, t in enumerate(sol.t):
                x, y, z = sol.y[:, k]
                f.write(f"{i},{rho:.17g},{t:.17g},{x:.17g},{y:.17g},{z:.17g}\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
