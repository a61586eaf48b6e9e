"""Reference Poincare section of the Lorenz system: where z falls through rho - 1.

Three trajectories, rho = 28, 32 and 40, x0 = (1, 0, 0), sigma = 10, beta = 8/3, over
t in [0, 5]. Each is integrated once in float64 by SciPy's DOP853 at rtol = atol = 1e-13
with the event z - (rho - 1), direction -1 (falling), which solve_ivp locates on the
step's dense output (brentq to 4 ulps); the time and the state of every crossing are
written, in order.

Writes poincare_reference.csv beside this script, header trajectory,rho,k,t,x,y,z (k the
crossing's number from 0). Rerun: python3 tests/reference/make_poincare_reference.py
"""

from pathlib import Path

import numpy as np
from scipy.integrate import solve_ivp

RHOS = (28.0, 32.0, 40.0)
T_END = 5.0


def lorenz(_t, s, rho):
    x, y, z = s
    return [10.0 * (y - x), x * (rho - z) - y, x * y - (8.0 / 3.0) * z]


def section(_t, s, rho):
    return s[2] - (rho - 1.0)


section.direction = -1


def main():
    out = Path(__file__).with_name("poincare_reference.csv")
    with out.open("w") as f:
        f.write("trajectory,rho,k,t,x,y,z\n")
        for i, rho in enumerate(RHOS):
            sol = solve_ivp(lorenz, (0.0, T_END), [1.0, 0.0, 0.0], method="DOP853",
                            rtol=1e-13, atol=1e-13, events=section, args=(rho,))
            assert sol.success, sol.message
            times, states = sol.t_events[0], sol.y_events[0]
            assert len(times) > 3, len(times)
            for k, (t, (x, y, z)) in enumerate(zip(times, states)):
                f.write(f"{i},{rho:.17g},{k},{t:.17g},{x:.17g},{y:.17g},{z:.17g}\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
