"""cubie check, plot and cache, the installed command, and the command's table of methods
against the library's headers."""

import os
import re
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT, cubie

sys.path.insert(0, str(ROOT / "tools" / "cubie"))
from cubie_cli.choices import METHODS  # noqa: E402


def test_check_prints_the_equations_and_checks_a_run_file(cache, work):
    run = cubie("check", "lorenz.toml", "sweep.toml", cache=cache, cwd=work)
    assert run.status == 0, run.stderr
    for line in ("3 states, 1 parameter, 0 observables, 0 drivers", "  rho = 28",
                 "  beta = 8/3", "  dx/dt = sigma*(-x + y)", "  dy/dt = x*(rho - z) - y"):
        assert line in run.stdout
    assert "sweep.toml: 1024 trajectories (a grid of 1024 rho)" in run.stdout
    assert "compiling" not in run.stderr and not (cache / "solvers" / "check").exists()


def test_check_shows_observables_and_drivers(cache, work):
    run = cubie("check", ROOT / "systems" / "forced_duffing.toml", cache=cache, cwd=work)
    assert run.status == 0, run.stderr
    assert "drivers: force" in run.stdout
    assert "  restoring = alpha*x + beta*x**3" in run.stdout


def test_plot_draws_series_phase_summaries_and_finals(sweep, cache, work):
    pytest.importorskip("matplotlib")
    run = cubie("plot", "sweep.h5", "--vars", "x,z", "--trajectories", "0:1024:256",
                "-o", "sweep.png", cache=cache, cwd=work)
    assert run.status == 0, run.stderr
    assert (work / "sweep.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    wrong = cubie("plot", "sweep.h5", "--vars", "w", "-o", "w.png", cache=cache, cwd=work)
    assert wrong.status == 2 and "'w' is not among the saved variables: x, y, z" in wrong.stderr


def test_cache_list_and_clear(sweep, cache, work, tmp_path):
    copy = tmp_path / "cache"
    shutil.copytree(cache, copy)
    listed = cubie("cache", "list", cache=copy, cwd=work)
    keys = re.findall(r"^([0-9a-f]{16})  lorenz: tsit5", listed.stdout, re.M)
    assert listed.status == 0 and keys, listed.stdout
    cleared = cubie("cache", "clear", keys[0], cache=copy, cwd=work)
    assert cleared.status == 0 and "removed 1 solver" in cleared.stdout
    assert keys[0] not in cubie("cache", "list", cache=copy, cwd=work).stdout
    assert "removed" in cubie("cache", "clear", cache=copy, cwd=work).stdout
    assert "0 solvers" in cubie("cache", "list", cache=copy, cwd=work).stdout


@pytest.mark.skipif(not os.environ.get("CUBIE_BUILD_TREE"), reason="needs a configured build")
def test_the_installed_command_finds_its_library(cache, work, tmp_path):
    prefix = tmp_path / "prefix"
    subprocess.run(["cmake", "--install", os.environ["CUBIE_BUILD_TREE"], "--prefix", prefix],
                   check=True, capture_output=True)
    run = subprocess.run([prefix / "bin" / "cubie", "check",
                          prefix / "share" / "cubie" / "systems" / "lorenz.toml"],
                         capture_output=True, text=True, env=dict(os.environ,
                                                                  CUBIE_CACHE_DIR=str(cache)))
    assert run.returncode == 0, run.stderr
    assert "dz/dt = -beta*z + x*y" in run.stdout


def test_the_methods_are_the_librarys():
    headers = "".join(p.read_text() for p in (ROOT / "include").rglob("*.hpp"))
    declared = set(re.findall(r"^using ([a-z0-9_]+) =\s*(?:explicit_runge_kutta|rosenbrock|dirk|"
                              r"implicit_runge_kutta)<", headers, re.M))
    declared |= set(re.findall(r"^using ([a-z0-9_]+_(?:gmres|bicgstab)) =", headers, re.M))
    assert declared == set(METHODS)


def test_nvcc_and_a_gpu_make_a_cuda_build(tmp_path, monkeypatch):
    from cubie_cli import build, toolchain
    fake = tmp_path / "bin"
    fake.mkdir()
    for name, text in (("nvidia-smi", "echo 9.0"), ("nvcc", "echo release 13.0")):
        (fake / name).write_text(f"#!/bin/sh\n{text}\n")
        (fake / name).chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake}{os.pathsep}{os.environ['PATH']}")
    found = toolchain.detect("auto")
    assert found.cuda and found.nvcc == str(fake / "nvcc") and found.cuda_architectures == "90"
    project = build.cmake_project(found)
    assert "LANGUAGES C CXX CUDA" in project and "add_executable(solver main.cu)" in project
    assert not toolchain.detect("host").cuda
    # nvcc alone: an nvidia-smi that finds no GPU (failing, as without a driver), first on
    # PATH so that a machine's own GPU is not found instead.
    (fake / "nvidia-smi").write_text("#!/bin/sh\nexit 9\n")
    assert not toolchain.detect("auto").cuda
