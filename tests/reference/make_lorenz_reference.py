"""Reference final states for the Lorenz rho-sweep benchmark problem.

Computes, in float64 with SciPy, the state at t = 1 of the Lorenz system

    dx/dt = 10 (y - x)
    dy/dt = x (rho - z) - y
    dz/dt = x y - (8/3) z

for N = 1024 trajectories, all starting from (x, y, z) = (1, 0, 0), with
rho = linspace(0, 21, N), integrated over t in [0, 1].

Two sweeps are written, differing only in how rho is rounded:

* lorenz_sweep_1024_float64.csv: rho = np.linspace(0, 21, N) (float64).
* lorenz_sweep_1024_float32.csv: rho = np.linspace(0, 21, N) rounded to
  float32, then used as the (exact) float64 value of that float32 number.

The integration is always float64: scipy.integrate.solve_ivp with
method='DOP853', rtol=1e-13, atol=1e-13, one call per trajectory.
Columns are ``trajectory,rho,x,y,z``; every number is written with '%.17g',
so rho and the final state round-trip exactly to float64.

The script also estimates the reference's own error by re-solving a few
trajectories with Radau at rtol=atol=1e-13 and printing the largest
difference of the final states.  The output is deterministic.

Rerun from the repository root with:

    python3 tests/reference/make_lorenz_reference.py
"""

import time
from pathlib import Path

import numpy as np
from scipy.integrate import solve_ivp

N = 1024
T_END = 1.0
Y0 = (1.0, 0.0, 0.0)
TOL = 1e-13
OUT_DIR = Path(__file__).resolve().parent


def lorenz(t, s, rho):
    x, y, z = s
    return [10.0 * (y - x), x * (rho - z) - y, x * y - (8.0 / 3.0) * z]


def final_state(rho, method="DOP853"):
    sol = solve_ivp(lorenz, (0.0, T_END), Y0, method=method, args=(rho,),
                    rtol=TOL, atol=TOL)
    if not sol.success:
        raise RuntimeError(f"rho={rho!r}: {sol.message}")
    return sol.y[:, -1]


def write_sweep(name, rhos):
    states = np.array([final_state(rho) for rho in rhos])
    with open(OUT_DIR / name, "w") as f:
        f.write("trajectory,rho,x,y,z\n")
        for i, (rho, (x, y, z)) in enumerate(zip(rhos, states)):
            f.write(f"{i},{rho:.17g},{x:.17g},{y:.17g},{z:.17g}\n")
    print(f"{name}: final x in [{states[:, 0].min():.6g}, "
          f"{states[:, 0].max():.6g}], y in [{states[:, 1].min():.6g}, "
          f"{states[:, 1].max():.6g}], z in [{states[:, 2].min():.6g}, "
          f"{states[:, 2].max():.6g}]")
    return states


def main():
    start = time.perf_counter()
    rho64 = np.linspace(0.0, 21.0, N)
    rho32 = rho64.astype(np.float32).astype(np.float64)
    states = write_sweep("lorenz_sweep_1024_float64.csv", rho64)
    write_sweep("lorenz_sweep_1024_float32.csv", rho32)

    checks = [0, N // 4, N // 2, 3 * N // 4, N - 1]
    diff = max(np.abs(final_state(rho64[i], "Radau") - states[i]).max()
               for i in checks)
    print(f"self-check: max |DOP853 - Radau| over trajectories {checks}: "
          f"{diff:.3g}")
    print(f"done in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
