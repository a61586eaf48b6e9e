"""The generated header: deterministic bytes, common subexpressions eliminated, every
literal in the working precision, small powers as multiplications, and C++ that
compiles warning-free."""

import glob
import os
import re
import shutil
import subprocess

import pytest
import sympy

from conftest import REPO, run_tool
from cubie_codegen import __version__
from cubie_codegen.definition import load
from cubie_codegen.emit import component_runs, cse_counts, header

SYSTEMS = os.path.join(REPO, "systems")
CATALOGUE = sorted(glob.glob(os.path.join(SYSTEMS, "*.toml")))

EVERYTHING = """
name = "everything"
description = "Every construct the printer knows."
[constants]
c = "2*pi/3"
[parameters]
k = 0.3
[states]
x = 0.5
v = { size = 2, initial = [1, -1] }
[drivers]
u = "input"
[observables]
speed = "sqrt(v[0]**2 + v[1]**2)"
[equations]
dx = "exp(-k*x) + log(1 + x**2) + sin(c*t) + cos(x)**5 + tan(x/7) + atan2(x, 2) + x**11"
"dv[0]" = "where(x > 0 and u < 1, tanh(u), min(x, u, k)) - max(x, 0.1)*abs(v[1])"
"dv[1]" = "(asin(x/9) + acos(x/9) + atan(x) + sinh(x) + cosh(x) + x**-3 + speed**(3/2) + (1 + x**2)**(-3/2) + x**(1/3)) if not x == 0 else pow(u, 2.5)"
"""


def test_output_is_byte_identical_across_runs_and_hash_seeds(tmp_path):
    outputs = []
    for seed in ("0", "1", "12345"):
        target = tmp_path / f"lorenz96_{seed}.hpp"
        code, _, err = run_tool(os.path.join(SYSTEMS, "lorenz96.toml"), "-o", str(target),
                                env={"PYTHONHASHSEED": seed})
        assert code == 0, err
        outputs.append(target.read_bytes())
    assert outputs[0] == outputs[1] == outputs[2]


def test_header_comment_has_hash_and_version():
    text = header(load(os.path.join(SYSTEMS, "lorenz.toml")))
    assert f"cubie-codegen {__version__}" in text
    assert re.search(r"definition sha256: [0-9a-f]{64}\n", text)


def test_hash_follows_content_and_overrides(write):
    a = header(load(write('[states]\nx = 1\n[equations]\ndx = "-x"\n')))
    b = header(load(write('[states]\nx = 1\n[equations]\ndx = "-2*x"\n')))
    digest = re.compile(r"sha256: (\w+)")
    assert digest.search(a).group(1) != digest.search(b).group(1)
    path = os.path.join(SYSTEMS, "lorenz96.toml")
    assert digest.search(header(load(path))).group(1) != \
        digest.search(header(load(path, {"N": 8}))).group(1)


def test_common_subexpressions_are_eliminated():
    pleiades = load(os.path.join(SYSTEMS, "pleiades.toml"))
    counts = cse_counts(pleiades)
    assert counts["rhs"] >= 21  # at least one per pair of bodies
    text = header(pleiades)
    rhs = text[text.index("void rhs("):text.index("T rhs_at(")]
    # Each pair's r^-3 is computed once, from one reciprocal square root per pair of
    # bodies, and with no division.
    code = "\n".join(line for line in rhs.splitlines() if "///" not in line)
    assert code.count("cubie::rsqrt(") == 21
    assert "sqrt(" not in code.replace("cubie::rsqrt(", "") and " / " not in code
    ring = header(load(os.path.join(SYSTEMS, "ring_modulator.toml")))
    rhs = ring[ring.index("void rhs("):ring.index("T rhs_at(")]
    assert rhs.count("cuda::std::exp(") == 4  # one per diode
    assert rhs.count("cuda::std::sin(") == 2


def test_literals_are_in_the_working_precision(write):
    for path in CATALOGUE + [write(EVERYTHING)]:
        text = header(load(path))
        code = "\n".join(line for line in text.splitlines()
                         if not line.lstrip().startswith(("//", "#")))
        code = re.sub(r'"[^"]*"', '""', code)  # names
        code = re.sub(r"//.*", "", code)  # trailing comments
        code = re.sub(r"\[[^\[\]]*\]", "[]", code)  # indices, shifted ones too
        # rhs_at's component numbers: its ranges, shifts and cases
        code = re.sub(r"i [<>]=? \d+|i - \d+|case \d+:", "", code)
        while re.search(r"(vector|array|sparsity_pattern)<[^<>]*>", code):  # sizes
            code = re.sub(r"(vector|array|sparsity_pattern)<[^<>]*>", "", code)
        code = re.sub(r"(n_\w+|capacity) = \d+;", "", code)  # sizes, event capacities
        assert re.search(r"T\(-?\d", code)
        outside = re.sub(r"\bT\(-?[\d.e+-]+\)", "", code)  # every T(number)
        outside = re.sub(r"\b[A-Za-z_]\w*", "name", outside)  # names with digits: s12, k3
        assert not re.findall(r"\d", outside), (path, outside)


def test_jacobian_pattern_marks_exactly_the_entries_the_jacobian_writes(write):
    for path in CATALOGUE + [write(EVERYTHING)]:
        text = header(load(path))
        n = int(re.search(r"n_states = (\d+);", text).group(1))
        rows = re.search(r"jacobian_pattern\{\{\n(.*?)\n\s*\}\};", text, re.S).group(1)
        marked = {(i, j) for i, row in enumerate(re.findall(r'"([x.]+)",', rows))
                  for j, c in enumerate(row) if c == "x"}
        assert len(re.findall(r'"([x.]+)",', rows)) == n
        jacobian = text[text.index("void jacobian("):]
        jacobian = jacobian[:jacobian.index("\n    }\n")]
        written = {(int(i), int(j)) for i, j in re.findall(r"J\[(\d+)\]\[(\d+)\] =", jacobian)}
        assert written == marked, path


def test_small_integer_powers_are_multiplications(write):
    text = header(load(write(EVERYTHING)))
    assert "pow(" in text  # x**11 and u**2.5 are calls...
    hh = header(load(os.path.join(SYSTEMS, "hodgkin_huxley.toml")))
    assert "pow(" not in hh  # ...m**3 and n**4 are not
    assert "y[3] * y[3] * y[3] * y[3]" in hh
    assert "cuda::std::cbrt(" in text


def test_powers_of_a_call_make_the_call_once(write):
    text = header(load(write(EVERYTHING)))
    rhs = text[text.index("void rhs("):text.index("T rhs_at(")]
    # (1 + x**2)**(-3/2) is a reciprocal square root cubed, and cos(x)**5 one cosine.
    root = re.search(r"const T (s\d+) = cubie::rsqrt\(\w+\);", rhs)
    assert root, rhs
    assert " * ".join([root.group(1)] * 3) in rhs
    assert rhs.count("cubie::rsqrt(") == 1 and rhs.count("cuda::std::cos(") == 1
    assert '#include "cubie/core/reciprocal_sqrt.hpp"' in text
    lorenz = header(load(os.path.join(SYSTEMS, "lorenz.toml")))
    assert "reciprocal_sqrt" not in lorenz  # included only where used


def compiler():
    for candidate in ("/usr/local/cuda/include/cccl", "/usr/local/cuda/targets/x86_64-linux/include/cccl"):
        if os.path.isdir(candidate) and shutil.which("g++"):
            return candidate
    return None


@pytest.mark.skipif(compiler() is None, reason="needs g++ and the CUDA toolkit's CCCL headers")
def test_every_construct_compiles_without_warnings(write, tmp_path):
    header_path = tmp_path / "cubie" / "catalogue" / "everything.hpp"
    code, _, err = run_tool(write(EVERYTHING), "-o", str(header_path))
    assert code == 0, err
    source = tmp_path / "use.cpp"
    source.write_text("""
#include "cubie/catalogue/everything.hpp"
template struct cubie::catalogue::everything<float>;
template struct cubie::catalogue::everything<double>;
static_assert(cubie::has_observables<cubie::catalogue::everything<float>>);
static_assert(cubie::has_jacobian<cubie::catalogue::everything<double>>);
int main() {
    cubie::catalogue::everything<float> s;
    cubie::state_t<decltype(s)> f;
    cubie::jacobian_t<decltype(s)> J;
    cubie::observables_t<decltype(s)> o;
    s.rhs(0.5f, s.default_state, s.default_parameters, {0.5f}, f);
    s.jacobian(0.5f, s.default_state, s.default_parameters, {0.5f}, J);
    s.observables(0.5f, s.default_state, s.default_parameters, {0.5f}, o);
    float sum = 0;
    for (int i = 0; i < s.n_states; ++i)
        sum += s.rhs_at(i, 0.5f, s.default_state, s.default_parameters, {0.5f});
    return f[0] > 0 && sum != 0 ? 0 : 1;
}
""")
    result = subprocess.run(
        ["g++", "-std=c++20", "-fsyntax-only", "-Wall", "-Wextra", "-Wpedantic", "-Werror",
         "-Wdouble-promotion", "-Wshadow", "-I", str(tmp_path), "-I",
         os.path.join(REPO, "include"), "-isystem", compiler(), str(source)],
        capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-3000:]


def test_committed_catalogue_headers_are_current():
    code, _, err = run_tool("--check", "--output-dir",
                            os.path.join(SYSTEMS, "include", "cubie", "catalogue"), *CATALOGUE)
    assert code == 0, err


def test_check_reports_a_stale_header(write, tmp_path):
    path = write('[states]\nx = 1\n[equations]\ndx = "-x"\n', name="decay.toml")
    stale = tmp_path / "decay.hpp"
    stale.write_text("// stale\n")
    code, _, err = run_tool("--check", "-o", str(stale), path)
    assert code == 1 and "differs from the generator's output" in err


def test_component_form_shares_one_branch_per_shifted_run(write):
    ring = header(load(os.path.join(SYSTEMS, "lorenz96.toml"), {"N": 64}))
    body = ring[ring.index("T rhs_at("):]
    body = body[:body.index("\n    }\n")]
    assert "if (i >= 0 && i < 64) {" in body and "switch" not in body
    assert "y[(k + 63u) % 64u] * (y[(k + 1u) % 64u] - y[(k + 62u) % 64u]) - y[k]" in body
    # A chain with ends: its interior is one run, read without wrapping; the ends and the
    # scalar are cases of their own.
    chain = header(load(write("""
[states]
u = { size = 6 }
w = 0
[equations]
"du[0]" = "u[1] - 2*u[0] + w"
"du[1]" = "u[2] - 2*u[1] + u[0]"
"du[2]" = "u[3] - 2*u[2] + u[1]"
"du[3]" = "u[4] - 2*u[3] + u[2]"
"du[4]" = "u[5] - 2*u[4] + u[3]"
"du[5]" = "w - 2*u[5] + u[4]"
dw = "-w"
""")))
    body = chain[chain.index("T rhs_at("):]
    body = body[:body.index("\n    }\n")]
    assert "if (i >= 1 && i < 5) {" in body and "const unsigned k = static_cast<unsigned>(i - 1);" in body
    assert "y[2 + k]" in body and "y[k]" in body and "%" not in body
    assert [int(c) for c in re.findall(r"case (\d+):", body)] == [0, 5, 6]


def _at(template, k):
    """A run's template with its shifted reads y[first + (k + r) % size] at this k."""
    reads = {}
    for symbol in template.free_symbols:
        match = re.fullmatch(r"y\[(.*)\]", symbol.name)
        if match and "k" in match.group(1):
            index = eval(match.group(1).replace("u", ""), {"k": k})  # integer arithmetic
            reads[symbol] = sympy.Symbol(f"y[{index}]", real=True)
    return template.xreplace(reads)


def test_component_runs_are_each_components_equation(write):
    ring = load(write("""
[states]
u = { size = 8, periodic = true }
v = { size = 8, periodic = true }
[equations]
"du[i]" = "u[i - 1] + u[i] + u[i + 1] - v[i]"
"dv[i]" = "u[i]*v[i + 2]"
"""))
    models = [ring, load(os.path.join(SYSTEMS, "lorenz96.toml"), {"N": 64}),
              load(os.path.join(SYSTEMS, "pleiades.toml"))]
    for model in models:
        runs, singles = component_runs(model)
        covered = set(singles)
        for first, length, template, _ in runs:
            for k in range(length):
                assert _at(template, k) == model.rhs[first + k], (model.name, first, k)
                covered.add(first + k)
        assert covered == set(range(len(model.rhs)))
    assert [(f, n) for f, n, _, _ in component_runs(ring)[0]] == [(0, 8), (8, 8)]
