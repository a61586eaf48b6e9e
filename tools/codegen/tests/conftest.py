import contextlib
import io
import os
import signal
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.dirname(HERE)
REPO = os.path.dirname(os.path.dirname(TOOL))
sys.path.insert(0, TOOL)


@pytest.fixture
def write(tmp_path):
    """write(text, name="model.toml") -> path of a definition file in a temporary folder."""

    def _write(text, name="model.toml"):
        path = tmp_path / name
        path.write_text(text)
        return str(path)

    return _write


def run_tool(*args, env=None):
    """Runs cubie-codegen as a user would; returns (exit code, stdout, stderr)."""
    environment = dict(os.environ, PYTHONPATH=TOOL)
    environment.update(env or {})
    p = subprocess.run([sys.executable, "-m", "cubie_codegen", *args], capture_output=True,
                       text=True, env=environment)
    return p.returncode, p.stdout, p.stderr


class _TimeLimit(Exception):
    pass


def _alarm(*_):
    raise _TimeLimit


def run_main(*args, seconds=20):
    """Runs cubie-codegen in this process (as its entry point does, without the cost of
    starting Python and SymPy again): (exit status, stderr). Fails the test if it takes
    longer than `seconds`; an exception escaping the command (a traceback) fails too."""
    from cubie_codegen.cli import main

    err = io.StringIO()
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(seconds)
    try:
        with contextlib.redirect_stderr(err):
            try:
                code = main([str(a) for a in args])
            except SystemExit as e:
                code = e.code
    except _TimeLimit:
        pytest.fail(f"cubie-codegen {args!r} took more than {seconds} s")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    return code, err.getvalue()
