"""The Lorenz rho-sweep of lorenz_bench, solved by CuBIE (PyPI `cubie`, numba-cuda) on the same GPU.

Same protocol and rows as lorenz_peers.py (bench/lorenz_bench.cu): float32, x0 = (1, 0, 0),
rho = linspace(0, 21, N), t in [0, 1], final state only; fixed classical RK4 at dt = 2^-10
and adaptive Tsit5 at atol = rtol = tol with dt0 = 2^-10. e2e: from host numpy arrays to
final states on the host (Solver.solve on numpy inputs; CuBIE uploads, runs, and copies
back into its own pinned host buffers); kernel: the solve alone with the inputs already on
the device (Solver.solve on numba device arrays with on_device=True, then a device sync).
Fastest of --repeat after a warm-up, which also compiles (its time is reported as
compile_s); for N >= 2^22 fastest of --big-repeat. Every row carries the ensemble mean of
the final z, to be checked against the library's before times are compared, and the mean
attempted steps per trajectory from CuBIE's iteration counters (accepted + rejected).

  python3 cubie_peers.py --log2n 10,16,20,24 --repeat 5 --json cubie_peers.json
  python3 cubie_peers.py --log2n 20 --tolerances 1e-2,1e-3,1e-4,1e-5,1e-6 --json wp.json

CuBIE builds the system from equation strings (create_ODE_system) and runs one thread per
trajectory. RK4: algorithm "classical-rk4" with the "fixed" controller. Tsit5: algorithm
"tsit5" with the "pi" controller; with its default gains (ki 0.3, kp 0.4, divided by the
embedded order + 1 = 5) the accepted-step factor is 0.9 err^-0.14 err_old^0.08, as in the
library's reference Tsit5; min_step_shrink / max_step_growth are set to the library's 0.2 / 10
(CuBIE's defaults are 0.3 / 2). CuBIE's rejected-step factor is 0.9 err^-0.14 (the
library's 0.9 err^-0.2), so step counts can differ a little. Everything else is CuBIE's
default (auto_performance on). CuBIE always saves the initial state as well as the final
one, and the iteration counters are saved with them: those are part of the timed output.
The kernel cache goes to a temporary directory, so compile_s is a cold compile and
nothing is written to the working tree.

Written against cubie 0.14.2, the newest release that runs on stock numba-cuda (0.15 and
later require the compiled cubie-numba-cuda-mlir backend). On a real GPU CuBIE also needs
CuPy (its device allocations go through it). NUMBA_ENABLE_CUDASIM=1 runs it on the CPU
(tiny N only) to check the API and mean_z; its times mean nothing.
"""

import argparse
import gc
import json
import os
import sys
import tempfile
import time
import types

import numpy as np
from lorenz_peers import sweep  # the same inputs as the other peers (this script's folder)

DT = 2.0**-10


def _row_stack_alias_for_old_cubie():
    """NumPy >= 2.5 has no np.row_stack, which numba-cuda's arrayobj registers a lowering
    against when it loads. CuBIE >= 0.8 handles that itself (cubie.backend._numba_cuda_compat
    binds a stand-in for that one import); older CuBIE (0.3 was seen failing) needs the
    alias set before numba-cuda loads. Left alone for newer CuBIE so as not to undo its fix."""
    from importlib.metadata import version
    try:
        major_minor = tuple(int(p) for p in version("cubie").split(".")[:2])
    except ValueError:
        return
    if major_minor < (0, 8) and not hasattr(np, "row_stack"):
        np.row_stack = np.vstack


def _stub_cellml_if_missing():
    """`import cubie` loads its vendored cellmlmanip (CellML import), which needs Pint,
    rdflib, lxml and networkx. This benchmark never loads CellML, so where one of them is
    missing (the GPU machine has no network) the vendored module is replaced by an empty
    stand-in rather than failing the import; load_cellml_model would then not work."""
    try:
        import lxml.etree  # noqa: F401
        import networkx  # noqa: F401
        import pint  # noqa: F401
        import rdflib  # noqa: F401
    except ImportError as e:
        print(f"cubie_peers: CellML dependencies missing ({e}); stubbing "
              "cubie.vendored.cellmlmanip", file=sys.stderr)
        sys.modules["cubie.vendored.cellmlmanip"] = types.ModuleType(
            "cubie.vendored.cellmlmanip")


def best_of(repeat, solve_once):
    """Warm-up (compiles), then the fastest of `repeat`; returns (best ms, compile s, last).

    Unlike lorenz_peers.best_of, the previous result is dropped (outside the timed region)
    before each solve: a CuBIE SolveResult owns the solver's pinned host output buffers,
    and while it is alive the next solve allocates fresh ones instead of reusing them."""
    t0 = time.perf_counter()
    last = solve_once()
    compile_s = time.perf_counter() - t0
    best = float("inf")
    for _ in range(repeat):
        last = None
        gc.collect()
        t0 = time.perf_counter()
        last = solve_once()
        best = min(best, (time.perf_counter() - t0) * 1e3)
    return best, compile_s, last


def lorenz_system(cubie):
    return cubie.create_ODE_system(
        ["dx = 10.0*(y - x)",
         "dy = x*(rho - z) - y",
         "dz = x*y - (8.0/3.0)*z"],
        precision=np.float32,
        states={"x": 1.0, "y": 0.0, "z": 0.0},
        parameters={"rho": 0.0},
        name="lorenz_rho_sweep",
    )


def cubie_rows(log2n, tolerances, repeats):
    import cubie
    from numba import cuda

    system = lorenz_system(cubie)
    # iteration_counters rows are [newton iters, krylov iters, attempted steps, rejected].
    common = dict(output_types=["state", "iteration_counters"], dt=DT, cache=False)
    configurations = [("classical_rk4 dt=2^-10",
                       dict(algorithm="classical-rk4", step_controller="fixed"))]
    configurations += [(f"tsit5 tol={tol:g}",
                        dict(algorithm="tsit5", step_controller="pi", atol=tol, rtol=tol,
                             safety=0.9, min_step_shrink=0.2, max_step_growth=10.0))
                       for tol in tolerances]
    rows = []
    for k in log2n:
        n = 2**k
        y0, rho = sweep(n)
        params = np.ascontiguousarray(rho.reshape(1, n))
        repeat = repeats(k)
        for method, settings in configurations:
            solver = cubie.Solver(system, **common, **settings)

            def e2e():
                return solver.solve(y0, params, duration=1.0, t0=0.0)

            d_y0, d_params = cuda.to_device(y0), cuda.to_device(params)
            cuda.synchronize()

            def kernel():
                out = solver.solve(d_y0, d_params, duration=1.0, t0=0.0, on_device=True)
                cuda.synchronize()
                return out

            e2e_ms, compile_s, result = best_of(repeat, e2e)
            # state: (time, variable, run) with time = (t0, t_end); no time column saved.
            z = np.asarray(result.state)[-1, 2, :]
            steps = np.asarray(result.iteration_counters)[:, 2, :].sum(axis=0)
            failed = int(np.count_nonzero(result.status_codes))
            del result
            kernel_ms, _, _ = best_of(repeat, kernel)
            solver.close()
            rows.append(dict(package="cubie", method=method, n=n, e2e_ms=e2e_ms,
                             kernel_ms=kernel_ms, compile_s=compile_s,
                             mean_z=float(np.mean(z, dtype=np.float64)),
                             mean_steps=float(np.mean(steps, dtype=np.float64))))
            if failed:
                rows[-1]["failed"] = failed  # nonzero status codes; their z are NaN
            print(rows[-1], flush=True)
    return rows


def device_name():
    from numba import cuda
    try:
        name = cuda.get_current_device().name
        return name.decode() if isinstance(name, bytes) else str(name)
    except Exception as e:  # the simulator's device may not carry a name
        return f"unknown ({e})"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--log2n", default="10,16,20,24")
    p.add_argument("--tolerances", default="1e-5")
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--big-repeat", type=int, default=1)
    p.add_argument("--json", required=True)
    a = p.parse_args()
    log2n = [int(k) for k in a.log2n.split(",")]
    tolerances = [float(t) for t in a.tolerances.split(",")]

    def repeats(k):
        return a.repeat if k < 22 else a.big_repeat

    _row_stack_alias_for_old_cubie()
    _stub_cellml_if_missing()
    import cubie
    from cubie.cache_root import set_cache_root
    from cubie.cuda_backend import CUDA_BACKEND

    with tempfile.TemporaryDirectory(prefix="cubie_cache_") as cache_root:
        # Generated system code and any kernel cache go here, not to <cwd>/generated.
        set_cache_root(cache_root)
        rows = cubie_rows(log2n, tolerances, repeats)
    with open(a.json, "w") as f:
        json.dump(dict(package="cubie", version=cubie.__version__, backend=CUDA_BACKEND,
                       simulator=os.environ.get("NUMBA_ENABLE_CUDASIM") == "1",
                       device=device_name(), repeat=a.repeat, big_repeat=a.big_repeat,
                       rows=rows), f, indent=1)


if __name__ == "__main__":
    main()
