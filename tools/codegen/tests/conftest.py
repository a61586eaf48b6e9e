import os
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
