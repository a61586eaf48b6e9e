"""The names a definition may not give to what becomes C++: every macro the standard
headers, the platform and the headers of a generated header define is refused."""

import os
import re
import subprocess

import pytest

from conftest import REPO
from cubie_codegen.names import problem_with
from test_output import compiler

HEADERS = ["bits/stdc++.h", "unistd.h", "signal.h", "math.h", "complex.h",
           "cuda/std/array", "cuda/std/cmath", "cuda/std/limits", "cubie/core/config.hpp",
           "cubie/core/vector.hpp", "cubie/systems/ode_system.hpp",
           "cubie/core/reciprocal_sqrt.hpp"]


@pytest.mark.skipif(compiler() is None, reason="needs g++ and the CUDA toolkit's CCCL headers")
@pytest.mark.parametrize("dialect", ["c++20", "gnu++20"])
def test_every_macro_of_the_compiler_at_hand_is_refused(tmp_path, dialect):
    source = tmp_path / "all.cpp"
    source.write_text("".join(f"#include <{h}>\n" for h in HEADERS))
    result = subprocess.run(
        ["g++", f"-std={dialect}", "-dM", "-E", "-I", os.path.join(REPO, "include"),
         "-isystem", compiler(), str(source)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-2000:]
    names = set(re.findall(r"^#define ([A-Za-z]\w*)", result.stdout, re.MULTILINE))
    declarable = {n for n in names if "__" not in n}
    assert len(declarable) > 1000
    missing = sorted(n for n in declarable if problem_with(n) == "")
    assert missing == [], f"add to cubie_codegen/macros.py: {' '.join(missing)}"


def test_macro_families_that_grow_with_the_platform_are_refused_by_prefix():
    # Defined by a newer platform than the list's: C23's binary formats, new system calls.
    for name in ("PRIb8", "PRIBFAST16", "SCNbPTR", "PRIXPTR", "SYS_futex_wake", "SYS_cachestat"):
        assert "begins like the macros" in problem_with(name), name
    for name in ("PRI", "Price", "PRIMARY", "PRI_total", "SCN", "SYS", "SYSTEM_size", "SYS_T"):
        assert problem_with(name) == "", name
