"""The Pollution sweep of stiff_bench, solved by CuBIE's implicit methods (PyPI `cubie`, numba-cuda).

Protocol (bench/stiff_bench.hpp, bench/stiff_bench.cu): Pollution (Verwer 1994; Bari test
set POLLU: 20 species, 25 reactions; systems/pollution.toml), N = 2^log2n trajectories,
every one from the Bari initial state, k1 = 3.5e-2 * 100^(i / (N - 1)) for trajectory i
(log-spaced over [3.5e-2, 3.5]), the other 24 rate constants fixed; t in [0, 60],
atol = rtol = 1e-5, initial dt = 60/1024, final states only, in float32 and float64
(initial states and k1 made in float64 and rounded to the precision, as stiff_bench does).
Timing as in cubie_peers.py: e2e is Solver.solve on host numpy arrays (upload, solve,
copy back into CuBIE's pinned host buffers); kernel is Solver.solve on numba device arrays
with on_device=True, then a device sync. Fastest of --repeat after a warm-up, which also
compiles (its time is compile_s). Each row (method: CuBIE's algorithm, counterpart: the
library's method) also carries, per trajectory, the mean attempted steps (mean_steps:
accepted + rejected, where stiff_bench's "steps" counts accepted ones), rejected steps and
Newton iterations (CuBIE's iteration counters); the number of failed trajectories
(nonzero status code); and the error of the final states against a reference on --check
trajectories evenly spaced in k1 (16 by default, first and last included, the same
indices in every row): max and median over those trajectories of the max over the 20
states of |y - y_ref| / (atol + rtol |y_ref|), failed trajectories left out as in
stiff_bench (checked_failed counts them). The reference is computed here, in float64, by
SciPy's solve_ivp (Radau, rtol 1e-10, atol 1e-14, analytic Jacobian) from a reaction list
(mass action on the 25 reactions' reactants and products) written independently of the
equation strings CuBIE is given, so a mistake in either shows as errors far above 1. At
k1 = 0.35 it agrees with the Bari test set's reference solution to 1.1e-11 (relative).
CuBIE orders the states by name (ALD, C2O3, ...): inputs and outputs are permuted to and
from it.

  python3 cubie_stiff_peers.py --log2n 16 --repeat 3 --json cubie_stiff_peers.json
  python3 cubie_stiff_peers.py --log2n 20 --methods rosenbrock23,kvaerno5 --json big.json

The library's four stiff methods and CuBIE 0.14.2's counterparts (its algorithm names):
  rosenbrock23 -> "rosenbrock23": the same method (Shampine & Reichelt's ode23s as in
      OrdinaryDiffEq.jl, order 2 with an order-3 error estimate, controlled at order 2).
  rodas5p -> "rodas3p": CuBIE 0.14.2 has no RODAS5P (nor RODAS4P: its tableaus are there
      but commented out, as they lack step-end embedded weights in CuBIE's Rosenbrock
      step); its Rosenbrock methods are ros3p, rodas3p and rosenbrock23. The nearest is
      RODAS3P, the stiffly accurate Rodas-type method of the same family (order 3 with an
      order-2 estimate, 5 stages against RODAS5P's 8 at order 5 / 4), so this row is not
      the same method: it does less work per step and takes more steps.
  kvaerno5 -> "kvaerno5": the same ESDIRK tableau (7 stages, order 5, estimate order 4).
  radau_iia_5 -> "radau_iia_5": Radau IIA of order 5 (3 stages) with CuBIE's smoothed
      error estimate (I - h gamma J)^-1 err, controlled at order 3 as RADAU5 (its
      default for this tableau).
Every method uses CuBIE's direct linear solver ("lu": LU of the I - h gamma J its code
generator writes from the equations), each family's default. Rosenbrock steps take no
Newton iterations; kvaerno5 takes full Newton (inexact_newton off, the tableau's
default), radau_iia_5 simplified Newton (inexact_newton on: the Newton matrix frozen at
the step start). Newton tolerances are CuBIE's defaults (newton_atol = atol / 10,
newton_rtol = rtol / 10, at most 8 iterations). Controllers as stiff_bench, on the
weighted RMS norm of the error as the library's: "pi" for rosenbrock23, rodas3p and
kvaerno5 with integral_gain 0.3 and proportional_gain 0.4, i.e. exponents (0.7, -0.4)
/ (q + 1) with q the error estimate's order (2, 2, 4: CuBIE's min(order, embedded
order)), the library's PI; set explicitly, as CuBIE's defaults are Gustafsson for
Rosenbrock methods and order-scaled gains for DIRK. "gustafsson" for radau_iia_5 (q = 3);
CuBIE's also scales the step by RADAU5's Newton-work factor
min(0.9, 0.9 (1 + 2 * 5) / (Newton iterations + 2 * 5)), which the library's does not.
Safety 0.9 and step factors within [0.2, 10], the library's limits (CuBIE's family
defaults cap growth at 8 for Rosenbrock and FIRK); dt_max = the span; dt_min = --dt-min,
default 1e-12 (the library has none; CuBIE requires one above 0, and its own default
would be dt0 / 1000). With PI, CuBIE's rejected step shrinks by 0.9 err^(-0.7/(q+1)), the
library's by 0.9 err^(-1/(q+1)), so step counts can differ a little. Everything else is
CuBIE's default (auto_performance on); the kernel cache goes to a temporary directory, so
compile_s is a cold compile.

Written against cubie 0.14.2, as cubie_peers.py (which see for what it needs on a GPU).
NUMBA_ENABLE_CUDASIM=1 runs it on the CPU (tiny N only; --t-end shortens the span, the
reference following it) to check the equations, the API and the error; its times mean
nothing.
"""

import argparse
import json
import os
import tempfile
import time

import numpy as np
# The shared helpers of the Lorenz CuBIE peer (this script's folder).
from cubie_peers import (_row_stack_alias_for_old_cubie, _stub_cellml_if_missing, best_of,
                         device_name)

T_END = 60.0  # stiff_bench::t_end
DT0 = T_END / 1024  # stiff_bench's timing_settings: initial dt = duration * 2^-10
TOL = 1e-5
REFERENCE_RTOL, REFERENCE_ATOL = 1e-10, 1e-14

# systems/pollution.toml: the Bari initial state, in the catalogue's state order.
STATES = {"NO2": 0.0, "NO": 0.2, "O3P": 0.0, "O3": 0.04, "HO2": 0.0, "OH": 0.0,
          "HCHO": 0.1, "CO": 0.3, "ALD": 0.01, "MEO2": 0.0, "C2O3": 0.0, "CO2": 0.0,
          "PAN": 0.0, "CH3O": 0.0, "HNO3": 0.0, "O1D": 0.0, "SO2": 0.007, "SO4": 0.0,
          "NO3": 0.0, "N2O5": 0.0}
CONSTANTS = {"k2": 0.266e2, "k3": 0.123e5, "k4": 0.86e-3, "k5": 0.82e-3, "k6": 0.15e5,
             "k7": 0.13e-3, "k8": 0.24e5, "k9": 0.165e5, "k10": 0.9e4, "k11": 0.22e-1,
             "k12": 0.12e5, "k13": 0.188e1, "k14": 0.163e5, "k15": 0.48e7, "k16": 0.35e-3,
             "k17": 0.175e-1, "k18": 0.1e9, "k19": 0.444e12, "k20": 0.124e4, "k21": 0.21e1,
             "k22": 0.578e1, "k23": 0.474e-1, "k24": 0.178e4, "k25": 0.312e1}
K1_DEFAULT = 0.35

# For CuBIE: the reaction rates and each species' production minus loss, as in
# systems/pollution.toml.
EQUATIONS = [
    "r1 = k1*NO2", "r2 = k2*NO*O3", "r3 = k3*HO2*NO", "r4 = k4*HCHO", "r5 = k5*HCHO",
    "r6 = k6*HCHO*OH", "r7 = k7*ALD", "r8 = k8*ALD*OH", "r9 = k9*C2O3*NO",
    "r10 = k10*C2O3*NO2", "r11 = k11*PAN", "r12 = k12*MEO2*NO", "r13 = k13*CH3O",
    "r14 = k14*NO2*OH", "r15 = k15*O3P", "r16 = k16*O3", "r17 = k17*O3", "r18 = k18*O1D",
    "r19 = k19*O1D", "r20 = k20*SO2*OH", "r21 = k21*NO3", "r22 = k22*NO3",
    "r23 = k23*NO2*O3", "r24 = k24*NO3*NO2", "r25 = k25*N2O5",
    "dNO2 = -r1 - r10 - r14 - r23 - r24 + r2 + r3 + r9 + r11 + r12 + r22 + r25",
    "dNO = -r2 - r3 - r9 - r12 + r1 + r21",
    "dO3P = -r15 + r1 + r17 + r19 + r22",
    "dO3 = -r2 - r16 - r17 - r23 + r15",
    "dHO2 = -r3 + 2*r4 + r6 + r7 + r13 + r20",
    "dOH = -r6 - r8 - r14 - r20 + r3 + 2*r18",
    "dHCHO = -r4 - r5 - r6 + r13",
    "dCO = r4 + r5 + r6 + r7",
    "dALD = -r7 - r8",
    "dMEO2 = -r12 + r7 + r9",
    "dC2O3 = -r9 - r10 + r8 + r11",
    "dCO2 = r9",
    "dPAN = -r11 + r10",
    "dCH3O = -r13 + r12",
    "dHNO3 = r14",
    "dO1D = -r18 - r19 + r16",
    "dSO2 = -r20",
    "dSO4 = r20",
    "dNO3 = -r21 - r22 - r24 + r23 + r25",
    "dN2O5 = -r25 + r24",
]

# For the reference: the 25 reactions (rate constant, reactants, products), mass action.
REACTIONS = [
    ("k1", ["NO2"], ["NO", "O3P"]),
    ("k2", ["NO", "O3"], ["NO2"]),
    ("k3", ["HO2", "NO"], ["NO2", "OH"]),
    ("k4", ["HCHO"], ["HO2", "HO2", "CO"]),
    ("k5", ["HCHO"], ["CO"]),
    ("k6", ["HCHO", "OH"], ["HO2", "CO"]),
    ("k7", ["ALD"], ["MEO2", "HO2", "CO"]),
    ("k8", ["ALD", "OH"], ["C2O3"]),
    ("k9", ["C2O3", "NO"], ["NO2", "MEO2", "CO2"]),
    ("k10", ["C2O3", "NO2"], ["PAN"]),
    ("k11", ["PAN"], ["C2O3", "NO2"]),
    ("k12", ["MEO2", "NO"], ["CH3O", "NO2"]),
    ("k13", ["CH3O"], ["HCHO", "HO2"]),
    ("k14", ["NO2", "OH"], ["HNO3"]),
    ("k15", ["O3P"], ["O3"]),
    ("k16", ["O3"], ["O1D"]),
    ("k17", ["O3"], ["O3P"]),
    ("k18", ["O1D"], ["OH", "OH"]),
    ("k19", ["O1D"], ["O3P"]),
    ("k20", ["SO2", "OH"], ["SO4", "HO2"]),
    ("k21", ["NO3"], ["NO"]),
    ("k22", ["NO3"], ["NO2", "O3P"]),
    ("k23", ["NO2", "O3"], ["NO3"]),
    ("k24", ["NO3", "NO2"], ["N2O5"]),
    ("k25", ["N2O5"], ["NO3", "NO2"]),
]

# The library's four methods (stiff_bench --methods) -> CuBIE algorithm and settings.
PI = dict(step_controller="pi", integral_gain=0.3, proportional_gain=0.4)
METHODS = {
    "rosenbrock23": dict(algorithm="rosenbrock23", linear_correction_type="lu", **PI),
    "rodas5p": dict(algorithm="rodas3p", linear_correction_type="lu", **PI),
    "kvaerno5": dict(algorithm="kvaerno5", linear_correction_type="lu", **PI),
    "radau_iia_5": dict(algorithm="radau_iia_5", linear_correction_type="lu",
                        step_controller="gustafsson"),
}


def sweep(n):
    """stiff_bench::sweep in float64: y0 [state][trajectory] and k1 [trajectory]."""
    y0 = np.repeat(np.array(list(STATES.values()), np.float64)[:, None], n, axis=1)
    i = np.arange(n, dtype=np.float64)
    k1 = 3.5e-2 * np.power(100.0, i / (n - 1) if n > 1 else 0.0 * i)
    return y0, k1


def checked_indices(n, count):
    """`count` trajectories evenly spaced in index (so in log k1), first and last included."""
    return np.unique(np.round(np.linspace(0, n - 1, min(count, n))).astype(np.int64))


def reference_states(k1_values, t_end):
    """Final states [state][checked trajectory] by SciPy's Radau from REACTIONS, in float64."""
    from scipy.integrate import solve_ivp

    index = {name: i for i, name in enumerate(STATES)}
    n_states, n_reactions = len(STATES), len(REACTIONS)
    stoichiometry = np.zeros((n_states, n_reactions))
    for j, (_, reactants, products) in enumerate(REACTIONS):
        for s in reactants:
            stoichiometry[index[s], j] -= 1
        for s in products:
            stoichiometry[index[s], j] += 1
    reactant_indices = [[index[s] for s in reactants] for _, reactants, _ in REACTIONS]
    y_start = np.array(list(STATES.values()), np.float64)
    finals = []
    for k1 in k1_values:
        k = np.array([k1 if name == "k1" else CONSTANTS[name] for name, _, _ in REACTIONS])

        def rhs(_t, y, k=k):
            rates = k * np.array([np.prod(y[r]) for r in reactant_indices])
            return stoichiometry @ rates

        def jacobian(_t, y, k=k):
            d_rates = np.zeros((n_reactions, n_states))
            for j, r in enumerate(reactant_indices):
                for a, s in enumerate(r):
                    d_rates[j, s] += k[j] * np.prod(y[r[:a] + r[a + 1:]])
            return stoichiometry @ d_rates

        solution = solve_ivp(rhs, (0.0, t_end), y_start, method="Radau", jac=jacobian,
                             rtol=REFERENCE_RTOL, atol=REFERENCE_ATOL)
        if not solution.success:
            raise RuntimeError(f"reference at k1 = {k1}: {solution.message}")
        finals.append(solution.y[:, -1])
    return np.array(finals).T


def pollution_system(cubie, precision):
    return cubie.create_ODE_system(
        EQUATIONS,
        precision=precision,
        states=dict(STATES),
        parameters={"k1": K1_DEFAULT},
        constants=dict(CONSTANTS),
        name=f"pollution_{np.dtype(precision).name}",
    )


def errors_in_tolerances(y, reference, tol):
    """Per trajectory, max over states of |y - ref| / (tol + tol |ref|); NaN -> inf."""
    e = np.abs(y - reference) / (tol + tol * np.abs(reference))
    return np.where(np.isnan(e), np.inf, e).max(axis=0)


def cubie_rows(log2n, precisions, methods, repeat, t_end, dt_min, check):
    import cubie
    from numba import cuda

    rows = []
    for k in log2n:
        n = 2**k
        y0_64, k1_64 = sweep(n)
        checked = checked_indices(n, check)
        t0 = time.perf_counter()
        reference = reference_states(k1_64[checked], t_end)
        print(f"N = 2^{k}: reference for {checked.size} trajectories in "
              f"{time.perf_counter() - t0:.1f} s", flush=True)
        for precision in precisions:
            system = pollution_system(cubie, precision)
            # CuBIE orders the states by name: inputs and outputs follow its order.
            order = [list(STATES).index(name) for name in system.states.names]
            assert sorted(order) == list(range(len(STATES))), system.states.names
            y0 = np.ascontiguousarray(y0_64[order].astype(precision))
            params = np.ascontiguousarray(k1_64.astype(precision).reshape(1, n))
            for method in methods:
                settings = METHODS[method]
                # iteration_counters rows: [newton iters, krylov iters, attempted, rejected].
                solver = cubie.Solver(
                    system, output_types=["state", "iteration_counters"], dt=min(DT0, t_end),
                    dt_min=dt_min, dt_max=t_end, atol=TOL, rtol=TOL, safety=0.9,
                    min_step_shrink=0.2, max_step_growth=10.0, cache=False, **settings)

                def e2e():
                    return solver.solve(y0, params, duration=t_end, t0=0.0)

                d_y0, d_params = cuda.to_device(y0), cuda.to_device(params)
                cuda.synchronize()

                def kernel():
                    out = solver.solve(d_y0, d_params, duration=t_end, t0=0.0,
                                       on_device=True)
                    cuda.synchronize()
                    return out

                e2e_ms, compile_s, result = best_of(repeat, e2e)
                # state: (time, variable, run) with time = (t0, t_end); no time column saved.
                final = np.empty((len(STATES), n))
                final[order] = np.asarray(result.state)[-1, :, :]
                counters = np.asarray(result.iteration_counters).sum(axis=0)
                status = np.asarray(result.status_codes)
                del result
                kernel_ms, _, _ = best_of(repeat, kernel)
                solver.close()
                ok = status[checked] == 0
                errors = errors_in_tolerances(final[:, checked[ok]], reference[:, ok], TOL)
                rows.append(dict(
                    package="cubie", method=settings["algorithm"], counterpart=method,
                    precision=np.dtype(precision).name, n=n, e2e_ms=e2e_ms,
                    kernel_ms=kernel_ms, compile_s=compile_s,
                    mean_steps=float(np.mean(counters[2], dtype=np.float64)),
                    mean_rejected=float(np.mean(counters[3], dtype=np.float64)),
                    mean_newton=float(np.mean(counters[0], dtype=np.float64)),
                    failed=int(np.count_nonzero(status)),
                    checked=int(checked.size), checked_failed=int(np.count_nonzero(~ok)),
                    error_max=float(errors.max()) if errors.size else None,
                    error_median=float(np.median(errors)) if errors.size else None))
                print(rows[-1], flush=True)
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--log2n", default="16")
    p.add_argument("--precision", default="float32,float64")
    p.add_argument("--methods", default=",".join(METHODS),
                   help="the library's names: " + ", ".join(METHODS))
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--check", type=int, default=16,
                   help="trajectories checked against the SciPy reference")
    p.add_argument("--t-end", type=float, default=T_END,
                   help="span (60 is the protocol; shorter only to check in the simulator)")
    p.add_argument("--dt-min", type=float, default=1e-12)
    p.add_argument("--json", required=True)
    a = p.parse_args()
    log2n = [int(k) for k in a.log2n.split(",")]
    precisions = [np.dtype(s).type for s in a.precision.split(",")]
    methods = a.methods.split(",")
    unknown = [m for m in methods if m not in METHODS]
    if unknown:
        p.error(f"unknown method(s) {unknown}; known: {', '.join(METHODS)}")

    _row_stack_alias_for_old_cubie()
    _stub_cellml_if_missing()
    import cubie
    from cubie.cache_root import set_cache_root
    from cubie.cuda_backend import CUDA_BACKEND

    with tempfile.TemporaryDirectory(prefix="cubie_cache_") as cache_root:
        # Generated system code and any kernel cache go here, not to <cwd>/generated.
        set_cache_root(cache_root)
        rows = cubie_rows(log2n, precisions, methods, a.repeat, a.t_end, a.dt_min, a.check)
    with open(a.json, "w") as f:
        json.dump(dict(package="cubie", version=cubie.__version__, backend=CUDA_BACKEND,
                       simulator=os.environ.get("NUMBA_ENABLE_CUDASIM") == "1",
                       device=device_name(), repeat=a.repeat, t_end=a.t_end, tol=TOL,
                       dt0=min(DT0, a.t_end), dt_min=a.dt_min,
                       reference=dict(solver="scipy solve_ivp Radau", rtol=REFERENCE_RTOL,
                                      atol=REFERENCE_ATOL, trajectories=a.check),
                       rows=rows), f, indent=1)


if __name__ == "__main__":
    main()
