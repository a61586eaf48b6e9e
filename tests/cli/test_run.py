"""cubie run end to end on the host backend: a model of the catalogue to a result file that
matches the library's own solve; the cache (a hit the second time, a changed run file
reuses the solver, a changed model compiles another); other result formats; Ctrl-C."""

import csv
import os
import re
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from conftest import CUBIE, ROOT, SWEEP, cubie

h5py = pytest.importorskip("h5py")

# The changed model's solver records nothing but final states: a smaller second compile.
FINAL_ONLY = """\
[integration]
t_end = 1
dt = 0.0009765625
atol = 1e-10
rtol = 1e-10

[inputs]
rho = [10, 28]
"""


def read_h5(path) -> dict:
    def names(dataset, attribute):
        if dataset not in f:
            return []
        return [s.decode() if isinstance(s, bytes) else s for s in f[dataset].attrs[attribute]]
    with h5py.File(path, "r") as f:
        arrays = {name: f[name][...] for name in f}
        arrays["state_names"] = names("final_states", "states")
        arrays["parameter_names"] = names("parameters", "parameters")
        arrays["summary_legend"] = names("summaries", "rows")
        arrays["status_names"] = names("statuses", "status_names")
    return arrays


def scipy_reference():
    """rho and the final states of tests/reference/lorenz_sweep_1024_float64.csv."""
    with open(ROOT / "tests" / "reference" / "lorenz_sweep_1024_float64.csv") as f:
        rows = list(csv.DictReader(f))
    rho = np.array([float(r["rho"]) for r in rows])
    return rho, np.array([[float(r[k]) for r in rows] for k in "xyz"])


def lorenz_rk4(sigma, rho, steps=20000):
    """Lorenz from (1, 0, 0) to t = 1 by classical RK4, vectorised over rho."""
    y = np.array([np.ones_like(rho), np.zeros_like(rho), np.zeros_like(rho)])

    def f(y):
        return np.array([sigma * (y[1] - y[0]), y[0] * (rho - y[2]) - y[1],
                         y[0] * y[1] - 8 / 3 * y[2]])
    h = 1 / steps
    for _ in range(steps):
        k1 = f(y)
        k2 = f(y + h / 2 * k1)
        k3 = f(y + h / 2 * k2)
        k4 = f(y + h * k3)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    return y


@pytest.fixture(scope="session")
def changed_model(cache, work, sweep):
    """The Lorenz definition with sigma = 12, solved after the sweep: the second compile."""
    text = (work / "lorenz.toml").read_text()
    assert "sigma = 10" in text
    (work / "lorenz_sigma12.toml").write_text(text.replace("sigma = 10", "sigma = 12"))
    (work / "final_only.toml").write_text(FINAL_ONLY)
    run = cubie("run", "lorenz_sigma12.toml", "final_only.toml", "-o", "sigma12.h5",
                cache=cache, cwd=work)
    assert run.status == 0, run.stderr
    return run


def test_a_catalogue_model_solves_as_the_library_does(sweep, work):
    assert "compiling a solver" in sweep.stderr
    for phase in ("generate", "configure", "compile"):
        assert re.search(rf"^  {phase} +[0-9.]+ s", sweep.stderr, re.M), sweep.stderr
    assert "statuses      1024 success" in sweep.stdout
    assert re.search(r"^ +1023 +21 +\S+ +\S+ +\S+  success$", sweep.stdout, re.M), sweep.stdout

    r = read_h5(work / "sweep.h5")
    rho, reference = scipy_reference()
    assert r["state_names"] == ["x", "y", "z"] and r["parameter_names"] == ["rho"]
    assert np.array_equal(r["parameters"][0], np.linspace(0, 21, 1024))
    assert np.array_equal(r["parameters"][0], rho)
    assert np.array_equal(r["initial_states"][:, 0], [1, 0, 0])
    assert set(r["statuses"]) == {0} and r["status_names"][0] == "success"
    assert np.abs(r["final_states"] - reference).max() < 1e-5
    assert np.allclose(r["save_times"], np.arange(1, 9) * 0.125, rtol=0, atol=1e-15)
    assert r["saved"].shape == (8, 3, 1024)
    assert np.array_equal(r["saved"][-1], r["final_states"])
    assert r["summary_legend"] == ["x.max", "y.max", "z.max", "x.mean", "y.mean", "z.mean"]
    assert r["summaries"].shape == (2, 6, 1024)
    # z.max of the last window, [0.5, 1], sampled every 0.0625: at least the saved values.
    assert np.all(r["summaries"][-1, 2] >= r["saved"][4:, 2].max(axis=0))

    # The library's own solve of the same sweep, where the examples are built.
    lorenz_sweep = os.environ.get("CUBIE_LORENZ_SWEEP")
    if lorenz_sweep:
        subprocess.run([lorenz_sweep, "--n", "1024", "--method", "tsit5", "--tol", "1e-8",
                        "--precision", "double", "--backend", "host", "--out", work / "library",
                        "--format", "npy"], check=True, capture_output=True)
        library = np.load(work / "library" / "final_states.npy")
        assert np.allclose(r["final_states"], library, rtol=1e-12, atol=1e-12)
        steps = np.load(work / "library" / "accepted_steps.npy")
        assert np.array_equal(r["accepted_steps"], steps)


def test_the_second_run_is_a_cache_hit(sweep, cache, work):
    again = cubie("run", "lorenz.toml", "sweep.toml", "-o", "again.h5", cache=cache, cwd=work)
    assert again.status == 0, again.stderr
    assert "compiling" not in again.stderr and "cached solver" in again.stderr
    assert again.ready_seconds() < 1, again.stderr
    first, second = read_h5(work / "sweep.h5"), read_h5(work / "again.h5")
    assert np.array_equal(first["final_states"], second["final_states"])


def test_a_changed_run_file_reuses_the_solver(sweep, cache, work):
    changed = SWEEP.replace("t_end = 1", "t_end = 2").replace(
        "[grid]\nrho = { linspace = [0, 21, 1024] }",
        "[inputs]\nx = [1, 2, 3]\n\n[grid]\nrho = [5, 28]")
    (work / "changed.toml").write_text(changed)
    run = cubie("run", "lorenz.toml", "changed.toml", "-o", "changed.h5", cache=cache, cwd=work)
    assert run.status == 0, run.stderr
    assert "compiling" not in run.stderr and "cached solver" in run.stderr
    assert "6 trajectories (3 values of x, each over a grid of 2 rho)" in run.stderr
    r = read_h5(work / "changed.h5")
    assert np.array_equal(r["initial_states"][0], [1, 1, 2, 2, 3, 3])  # rows outermost
    assert np.array_equal(r["parameters"][0], [5, 28, 5, 28, 5, 28])
    assert r["save_times"][-1] == 2

    # The same numbers as NumPy arrays and CSV tables, from the same solver.
    sys.path.insert(0, str(ROOT / "tools" / "cubie"))
    from cubie_cli import results
    for name in ("changed.npy", "changed.csv"):
        run = cubie("run", "lorenz.toml", "changed.toml", "-o", name, cache=cache, cwd=work)
        assert run.status == 0 and "compiling" not in run.stderr, run.stderr
        other = results.read(work / name)
        assert np.allclose(other.final_states, r["final_states"], rtol=1e-15, atol=0)
        assert np.allclose(other.saved, r["saved"], rtol=1e-15, atol=0)
        assert list(other.statuses) == ["success"] * 6
        assert other.summary_legend == r["summary_legend"]


def test_a_changed_model_compiles_another_solver(changed_model, work):
    assert "compiling a solver" in changed_model.stderr
    r = read_h5(work / "sigma12.h5")
    expected = lorenz_rk4(12, np.array([10.0, 28.0]))
    assert np.abs(r["final_states"] - expected).max() < 1e-7


def test_ctrl_c_cancels_and_keeps_what_was_solved(changed_model, cache, work):
    # Hours of work in chunks of a second or so: Ctrl-C cancels the chunks not started. On
    # the host backend: a GPU would end the whole run before the signal. (Where auto finds
    # no GPU, the host solver is the one changed_model compiled.)
    (work / "long.toml").write_text(FINAL_ONLY.replace("t_end = 1", "t_end = 100").replace(
        "rho = [10, 28]", "rho = { file = \"rho.npy\" }"))
    np.save(work / "rho.npy", np.linspace(24, 28, 20000))
    env = dict(os.environ, CUBIE_CACHE_DIR=str(cache))
    process = subprocess.Popen([sys.executable, str(CUBIE), "run", "lorenz_sigma12.toml",
                                "long.toml", "-o", "long.h5", "--backend", "host"],
                               cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    for line in process.stderr:
        if "ready in" in line:
            break
    time.sleep(1)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, stderr
    assert "cancelled" in stderr and "Traceback" not in stderr
    r = read_h5(work / "long.h5")
    names = np.array(r["status_names"])[r["statuses"]]
    cancelled = names == "cancelled"
    assert cancelled.sum() > 10000 and set(names) <= {"success", "cancelled"}
    assert np.isnan(r["final_states"][:, cancelled]).all()
    assert f"{cancelled.sum()} cancelled" in stdout
