"""Reference states of the Lorenz system at save times that do not divide the interval.

Five trajectories, rho = 0, 7, 14, 21 and 28 (exact in float32 and float64),
x0 = (1, 0, 0), sigma = 10, beta = 8/3, over t in [0, 1.5]. States are saved every 0.07
(21 regular times 0.07 k, k = 1..21) plus t0 and t_end, the times a solve with
save_every = 0.07, save_initial and save_final takes. Each trajectory is integrated once
in float64 by SciPy's DOP853 at rtol = atol = 1e-13 with dense_output=True, and its
continuous solution is evaluated at the save times, as the library's interpolants do.

Writes dense_series_reference.csv beside this script, header trajectory,rho,t,x,y,z.
Rerun: python3 tests/reference/make_dense_series_reference.py
"""

from pathlib import Path

import numpy as np
from scipy.integrate import solve_ivp

RHOS = (0.0, 7.0, 14.0, 21.0, 28.0)
T_END = 1.5
SAVE_EVERY = 0.07
TIMES = np.concatenate(([0.0], SAVE_EVERY * np.arange(1, 22), [T_END]))


def lorenz(_t, s, rho):
    x, y, z = s
    return [10.0 * (y - x), x * (rho - z) - y, x * y - (8.0 / 3.0) * z]


def main():
    out = Path(__file__).with_name("dense_series_reference.csv")
    with out.open("w") as f:
        f.write("trajectory,rho,t,x,y,z\n")
        for i, rho in enumerate(RHOS):
            sol = solve_ivp(lorenz, (0.0, T_END), [1.0, 0.0, 0.0], method="DOP853",
                            rtol=1e-13, atol=1e-13, dense_output=True, args=(rho,))
            assert sol.success, sol.message
            states = sol.sol(TIMES)
            for k, t in enumerate(TIMES):
                x, y, z = states[:, k]
                f.write(f"{i},{rho:.17g},{t:.17g},{x:.17g},{y:.17g},{z:.17g}\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
