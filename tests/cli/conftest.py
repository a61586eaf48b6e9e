"""Fixtures of the cubie command's tests: the command run as a user runs it, with one cache
of its own for the whole test run (which so compiles two solvers: the sweep's, and a
changed model's), and the sweep solved once for the tests that read its result."""

import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CUBIE = ROOT / "tools" / "cubie" / "cubie"

# The benchmark protocol's Lorenz sweep (tests/reference/make_lorenz_reference.py) with
# saves and summaries, so that one compiled solver serves every test of the sweep.
SWEEP = """\
[solver]
method = "tsit5"
controller = "pi"
precision = "double"

[integration]
t_end = 1
dt = 0.0009765625
atol = 1e-8
rtol = 1e-8

[outputs]
save_every = 0.125
summaries = ["max", "mean"]
summarise_every = 0.5
sample_summaries_every = 0.0625

[grid]
rho = { linspace = [0, 21, 1024] }
"""


@dataclass
class Run:
    status: int
    stdout: str
    stderr: str
    seconds: float

    def ready_seconds(self) -> float:
        """What the command reported as its time before the solve started."""
        return float(re.search(r"ready in ([0-9.]+) s", self.stderr).group(1))


def cubie(*args, cache, cwd, timeout=600) -> Run:
    env = dict(os.environ, CUBIE_CACHE_DIR=str(cache))
    start = time.monotonic()
    done = subprocess.run([sys.executable, str(CUBIE), *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout)
    return Run(done.returncode, done.stdout, done.stderr, time.monotonic() - start)


@pytest.fixture
def cubie_here(cache, work, capsys, monkeypatch):
    """The command run in this process, from the work folder: for the many short runs that
    fail before any solve, without starting Python, NumPy and SymPy again for each."""
    sys.path.insert(0, str(CUBIE.parent))
    from cubie_cli.cli import main
    monkeypatch.chdir(work)
    monkeypatch.setenv("CUBIE_CACHE_DIR", str(cache))

    def run(*args) -> Run:
        capsys.readouterr()
        start = time.monotonic()
        status = main([str(a) for a in args])
        out, err = capsys.readouterr()
        return Run(status, out, err, time.monotonic() - start)
    return run


@pytest.fixture(scope="session")
def cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(scope="session")
def work(tmp_path_factory) -> Path:
    """A folder with a copy of the catalogue's Lorenz definition and the sweep's run file."""
    folder = tmp_path_factory.mktemp("work")
    (folder / "lorenz.toml").write_bytes((ROOT / "systems" / "lorenz.toml").read_bytes())
    (folder / "sweep.toml").write_text(SWEEP)
    return folder


@pytest.fixture(scope="session")
def sweep(cache, work) -> Run:
    """The sweep, solved with a fresh cache: the test run's first compile."""
    run = cubie("run", "lorenz.toml", "sweep.toml", "-o", "sweep.h5", cache=cache, cwd=work)
    assert run.status == 0, run.stderr
    return run
