"""The Lorenz rho-sweep of lorenz_bench, solved by the Python peers on the same GPU.

Protocol (bench/lorenz_bench.cu): float32, x0 = (1, 0, 0), rho = linspace(0, 21, N), t in
[0, 1], final state only; fixed classical RK4 at dt = 2^-10 and adaptive Tsit5 at
atol = rtol = tol with dt0 = 2^-10. e2e: from host arrays to final states on the host;
kernel: the solve alone with the inputs already on the device. Fastest of --repeat after a
warm-up, which also compiles (its time is reported as compile_s); for N >= 2^22, where one
peer solve takes seconds, fastest of --big-repeat. Every row carries the
ensemble mean of the final z, to be checked against the library's before times are compared.

  python3 lorenz_peers.py --log2n 10,16,20,24 --repeat 5 --json peers.json
  python3 lorenz_peers.py --packages diffrax --log2n 20 --tolerances 1e-2,1e-3,...  (work-precision)

JAX + Diffrax: vmap over trajectories. PyTorch + torchdiffeq: torch.vmap does not go through
odeint, so the batch is one (3, N) system with one shared step (torchdiffeq's rk4 is the
3/8 rule); fixed steps only, as a shared adaptive step is not the same method.
"""

import argparse
import json
import time
from typing import ClassVar

import numpy as np

DT = 2.0**-10


def sweep(n):
    y0 = np.zeros((3, n), np.float32)
    y0[0] = 1
    rho = np.linspace(0, 21, n, dtype=np.float64).astype(np.float32)
    return y0, rho


def best_of(repeat, solve_once):
    """Warm-up (compiles), then the fastest of `repeat`; returns (best ms, compile s, last)."""
    t0 = time.perf_counter()
    last = solve_once()
    compile_s = time.perf_counter() - t0
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        last = solve_once()
        best = min(best, (time.perf_counter() - t0) * 1e3)
    return best, compile_s, last


def diffrax_rows(log2n, tolerances, repeats):
    import diffrax
    import jax
    import jax.numpy as jnp

    class ClassicalRK4(diffrax.AbstractERK):
        tableau: ClassVar[diffrax.ButcherTableau] = diffrax.ButcherTableau(
            c=np.array([0.5, 0.5, 1.0]),
            b_sol=np.array([1 / 6, 1 / 3, 1 / 3, 1 / 6]),
            b_error=np.zeros(4),
            a_lower=(np.array([0.5]), np.array([0.0, 0.5]), np.array([0.0, 0.0, 1.0])),
        )
        interpolation_cls: ClassVar = diffrax.ThirdOrderHermitePolynomialInterpolation.from_k

        def order(self, terms):
            return 4

    def lorenz(t, u, rho):
        x, y, z = u[0], u[1], u[2]
        return jnp.stack([10 * (y - x), x * (rho - z) - y, x * y - (8.0 / 3.0) * z])

    term = diffrax.ODETerm(lorenz)

    def batched(solver, controller):
        def one(u0, rho):
            sol = diffrax.diffeqsolve(term, solver, 0.0, 1.0, DT, u0, args=rho,
                                      stepsize_controller=controller,
                                      saveat=diffrax.SaveAt(t1=True), max_steps=100_000)
            return sol.ys[-1], sol.stats["num_steps"]
        return jax.jit(jax.vmap(one, in_axes=(1, 0), out_axes=(1, 0)))

    configurations = [("classical_rk4 dt=2^-10", ClassicalRK4(), diffrax.ConstantStepSize())]
    configurations += [(f"tsit5 tol={tol:g}", diffrax.Tsit5(),
                        diffrax.PIDController(rtol=tol, atol=tol)) for tol in tolerances]
    rows = []
    for k in log2n:
        y0, rho = sweep(2**k)
        repeat = repeats(k)
        for method, solver, controller in configurations:
            f = batched(solver, controller)

            def e2e():
                ys, steps = f(jax.device_put(y0), jax.device_put(rho))
                return np.asarray(ys), np.asarray(steps)

            d_y0, d_rho = jax.device_put(y0), jax.device_put(rho)

            def kernel():
                ys, steps = f(d_y0, d_rho)
                ys.block_until_ready()
                return ys, steps

            e2e_ms, compile_s, (ys, steps) = best_of(repeat, e2e)
            kernel_ms, _, _ = best_of(repeat, kernel)
            rows.append(dict(package="jax+diffrax", method=method, n=2**k, e2e_ms=e2e_ms,
                             kernel_ms=kernel_ms, compile_s=compile_s,
                             mean_z=float(np.mean(ys[2], dtype=np.float64)),
                             mean_steps=float(np.mean(steps))))
            print(rows[-1], flush=True)
    return rows


def torchdiffeq_rows(log2n, repeats):
    import torch
    from torchdiffeq import odeint

    rows = []
    for k in log2n:
        y0, rho = sweep(2**k)
        repeat = repeats(k)
        t = torch.tensor([0.0, 1.0], dtype=torch.float32, device="cuda")

        def solve(u0, r):
            def lorenz(_, u):
                x, y, z = u[0], u[1], u[2]
                return torch.stack([10 * (y - x), x * (r - z) - y, x * y - (8.0 / 3.0) * z])
            return odeint(lorenz, u0, t, method="rk4", options=dict(step_size=DT))[-1]

        def e2e():
            out = solve(torch.from_numpy(y0).cuda(), torch.from_numpy(rho).cuda()).cpu()
            return out.numpy()

        d_y0, d_rho = torch.from_numpy(y0).cuda(), torch.from_numpy(rho).cuda()

        def kernel():
            out = solve(d_y0, d_rho)
            torch.cuda.synchronize()
            return out

        e2e_ms, compile_s, ys = best_of(repeat, e2e)
        kernel_ms, _, _ = best_of(repeat, kernel)
        rows.append(dict(package="torchdiffeq", method="classical_rk4 dt=2^-10", n=2**k,
                         e2e_ms=e2e_ms, kernel_ms=kernel_ms, compile_s=compile_s,
                         mean_z=float(np.mean(ys[2], dtype=np.float64)), mean_steps=1024.0))
        print(rows[-1], flush=True)
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--log2n", default="10,16,20,24")
    p.add_argument("--tolerances", default="1e-5")
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--big-repeat", type=int, default=1)
    p.add_argument("--packages", default="diffrax,torchdiffeq")
    p.add_argument("--json", required=True)
    a = p.parse_args()
    log2n = [int(k) for k in a.log2n.split(",")]
    tolerances = [float(t) for t in a.tolerances.split(",")]
    packages = a.packages.split(",")
    def repeats(k):
        return a.repeat if k < 22 else a.big_repeat

    rows = []
    if "diffrax" in packages:
        rows += diffrax_rows(log2n, tolerances, repeats)
    if "torchdiffeq" in packages:
        rows += torchdiffeq_rows(log2n, repeats)
    import torch
    with open(a.json, "w") as f:
        json.dump(dict(device=torch.cuda.get_device_name(0), repeat=a.repeat,
                       big_repeat=a.big_repeat, rows=rows), f, indent=1)


if __name__ == "__main__":
    main()
