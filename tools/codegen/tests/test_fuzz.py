"""Random definitions, valid and invalid (Hypothesis, derandomized): every valid one gives
a header that compiles and whose rhs matches SymPy's value of the definition's text at
random points; every invalid one gives one line of error and exit status 2; none gives a
traceback or runs past a time limit."""

import os
import random
import subprocess

import pytest
import sympy
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.configuration import set_hypothesis_home_dir
from hypothesis import strategies as st

from conftest import REPO, run_main
from test_output import compiler

SECONDS_PER_CASE = 20
EXAMPLES = 60
STATES = ("x", "vel", "q_2")
PARAMETERS = ("k", "g_1")
CONSTANTS = ("c", "w0")
POINTS = 3

# Names a user may well try and that are not safe in C++ (or not allowed by the tool).
HOSTILE_NAMES = ("M_PI", "errno", "EOF", "NULL", "unix", "linux", "stdin", "SIGINT",
                 "assert", "INFINITY", "NAN", "CUBIE_HD", "state_t", "cubie", "s3", "class",
                 "t", "pi", "exp", "a__b", "1x", "x y", "min", "I", "EXIT_FAILURE")
HOSTILE_NAMESPACES = ("std", "cuda::std", "cubie", "cubie::vector", "a::cuda", "::a",
                      "a::", "unix", "a b", "a::class", "cubie::catalogue::cubie")


UNARY = ("-{}", "({})**2", "({})**3", "(1 + ({})**2)**(-3/2)", "sqrt(1 + ({})**2)",
         "exp(sin({}))", "log(2 + cos({}))", "tanh({})", "atan({})", "abs({})", "cos({})",
         "sinh({})", "asin(({0})/(1 + ({0})**2))", "acos(0.5*tanh({}))",
         "tan(0.5*atan({}))", "cosh(sin({}))", "pow(1 + ({})**2, 0.75)")
# (the tool's text, the same for sympy.sympify, which reads conditions differently)
BINARY = (("({} + {})",) * 2, ("({} - {})",) * 2, ("{}*{}",) * 2,
          ("{}/(2 + ({})**2)",) * 2, ("min({}, {})",) * 2, ("max({}, {})",) * 2,
          ("atan2({}, 2 + ({})**2)",) * 2,
          ("where({0} > {1}, {1}, {0})", "Piecewise(({1}, {0} > {1}), ({0}, True))"),
          ("({0} if {0} < {1} and not {1} == 0.5 else {1})",
           "Piecewise(({0}, And({0} < {1}, Not(Eq({1}, 0.5)))), ({1}, True))"),
          ("Piecewise(({0}, {0} > 0.25), ({1}, {0} < -0.5 or {1} >= 0.75), (2, True))",
           "Piecewise(({0}, {0} > 0.25), ({1}, Or({0} < -0.5, {1} >= 0.75)), (2, True))"))
NUMBERS = (("2",) * 2, ("0.5",) * 2, ("1.25",) * 2, ("7e-1",) * 2, ("1_000e-3", "1000e-3"),
           ("pi",) * 2, ("0.1",) * 2, ("17",) * 2)


def random_expression(rng, names, size):
    """(text, SymPy's text) of an expression with about `size` operations over `names`,
    finite for every value of the names in [-1, 1]."""
    if size <= 0:
        return (rng.choice(names),) * 2 if rng.random() < 0.75 else rng.choice(NUMBERS)
    if rng.random() < 0.5:
        form = rng.choice(UNARY)
        inner = random_expression(rng, names, size - 1)
        return form.format(inner[0]), form.format(inner[1])
    left = rng.randrange(size)
    a = random_expression(rng, names, left)
    b = random_expression(rng, names, size - 1 - left)
    forms = rng.choice(BINARY)
    return forms[0].format(a[0], b[0]), forms[1].format(a[1], b[1])


@st.composite
def valid_models(draw):
    """(toml text, {state: expression}) of a model with states, parameters, constants."""
    n_states = draw(st.integers(1, len(STATES)))
    states = STATES[:n_states]
    parameters = PARAMETERS[:draw(st.integers(0, len(PARAMETERS)))]
    constants = CONSTANTS[:draw(st.integers(0, len(CONSTANTS)))]
    names = states + parameters + constants + ("t",)
    lines = ["[constants]"]
    for c in constants:
        lines.append(f'{c} = "{draw(st.sampled_from(["3/7", "2*pi", "sqrt(2)", "0.125"]))}"')
    lines.append("[parameters]")
    lines += [f"{p} = {draw(st.sampled_from(['0.5', '2', '-1.5']))}" for p in parameters]
    lines.append("[states]")
    lines += [f"{s} = 0.25" for s in states]
    lines.append("[equations]")
    rng = random.Random(draw(st.integers(0, 2**32)))
    equations = {s: random_expression(rng, names, draw(st.integers(0, 8))) for s in states}
    lines += [f'd{s} = "{text}"' for s, (text, _) in equations.items()]
    return "\n".join(lines) + "\n", {s: ref for s, (_, ref) in equations.items()}


def _hostile_text(draw):
    return draw(st.sampled_from(["a */ b", "tab\there", "bell\x07", "bidi \u202e x",
                                 "line one\nline two\r\nthree", "ends in \\ slash not",
                                 "/* open", "quote \" and '"]))


@st.composite
def cases(draw):
    """(valid, invalid, garbled, file name, equations): a valid definition (its header's
    values are checked), the same with one mistake (an error is expected), and the same
    with random characters inserted (either outcome, but a header must compile)."""
    text, equations = draw(valid_models())
    if draw(st.booleans()):
        text = f"description = {_toml_string(_hostile_text(draw))}\n" + text
    if draw(st.booleans()):
        text = text.replace("[equations]", "extra = { initial = 1, description = "
                                           f"{_toml_string(_hostile_text(draw))} }}\n"
                                           "[equations]")
        equations["extra"] = "-extra"
        # A multi-line expression with a comment and a line continuation.
        text += "dextra = '''-extra \\\n  # a comment */\n'''\n"
    if draw(st.booleans()):
        text = "\ufeff" + text
    mistake = draw(st.sampled_from([
        "name", "namespace", "zero divisor", "complex", "huge power", "huge literal",
        "non-finite", "backslash", "deep", "range", "undefined", "dimension"]))
    invalid = _break(draw, text, mistake)
    noise = draw(st.text(st.characters(codec="utf-8"), min_size=1, max_size=6))
    at = draw(st.integers(0, len(text)))
    garbled = text[:at] + noise + text[at:]
    file_name = draw(st.sampled_from(["model.toml", "m\x01odel\n.toml", "mo del.toml"]))
    return text, invalid, garbled, file_name, equations


def _toml_string(text):
    """A TOML basic string holding `text` exactly."""
    return '"' + "".join(c if c.isprintable() and c not in '"\\' else f"\\u{ord(c):04x}"
                         for c in text) + '"'


def _break(draw, text, mistake):
    first_equation = text.index('"', text.index("[equations]")) + 1
    def in_equation(prefix):
        return text[:first_equation] + prefix + text[first_equation:]
    if mistake == "name":
        name = draw(st.sampled_from(HOSTILE_NAMES))
        return text.replace("[constants]", f'[constants]\n"{name}" = 1')
    if mistake == "namespace":
        return f'[options]\nnamespace = "{draw(st.sampled_from(HOSTILE_NAMESPACES))}"\n' + text
    if mistake == "zero divisor":
        return in_equation("1/(zz - 2) + ").replace("[constants]", "[constants]\nzz = 2")
    if mistake == "complex":
        return in_equation(draw(st.sampled_from(["acos(2) + ", "sqrt(-1) + ", "log(-2) + ",
                                                 "(-8)**(1/3) + "])))
    if mistake == "huge power":
        return in_equation(draw(st.sampled_from(["10**10**10 + ", "0.5**(10**12) + ",
                                                 "pow(10, 400) + "])))
    if mistake == "huge literal":
        return in_equation(draw(st.sampled_from(["1e999999999*", "1e309*", "1e-400*"])))
    if mistake == "non-finite":
        return in_equation(draw(st.sampled_from(["exp(1000) + ", "log(0) + ",
                                                 "tan(pi/2) + ", "atan2(0, 0)*0 + "])))
    if mistake == "backslash":
        return 'description = "ends in a backslash \\\\"\n' + text
    if mistake == "deep":
        return in_equation("**".join(["1.01"] * 150) + " + ")
    if mistake == "range":
        return in_equation("sum(j for j in range(1000000000)) + ")
    if mistake == "undefined":
        return in_equation("nowhere + ")
    return text.replace("[constants]", "[dimensions]\nN = 100000\n[constants]")


def generate(path, target):
    return run_main(path, "-o", target, "--name", os.path.basename(target)[:-4],
                    seconds=SECONDS_PER_CASE)


def reference(equations, values):
    """The rhs as SymPy reads the definition's own text (not the tool's parser)."""
    functions = {"min": sympy.Min, "max": sympy.Max, "abs": sympy.Abs, "pow": sympy.Pow}
    names = {symbol.name: symbol for symbol in values}
    result = []
    for text in equations.values():
        expr = sympy.sympify(text, locals={**functions, **names})
        result.append(float(expr.subs(values).evalf(30)))
    return result


@pytest.mark.skipif(compiler() is None, reason="needs g++ and the CUDA toolkit's CCCL headers")
def test_random_definitions(tmp_path):
    set_hypothesis_home_dir(tmp_path / "hypothesis")  # not .hypothesis in the source tree
    include = tmp_path / "include"
    checked, compiled = [], []  # (type, equations, text) and types to instantiate
    counter = iter(range(10**6))

    # No shrinking: a failing case is reported as drawn, within the time limit.
    @settings(derandomize=True, max_examples=EXAMPLES, deadline=None, database=None,
              suppress_health_check=list(HealthCheck), report_multiple_bugs=False,
              phases=(Phase.explicit, Phase.generate))
    @given(cases())
    def one(case):
        valid, invalid, garbled, file_name, equations = case
        number = next(counter)
        for kind, text in (("valid", valid), ("invalid", invalid), ("either", garbled)):
            folder = tmp_path / f"{kind}{number}"
            folder.mkdir()
            path = folder / file_name
            path.write_bytes(text.encode("utf-8", "surrogatepass"))
            type_name = f"{kind}{number}"
            code, err = generate(str(path), str(include / "fuzz" / f"{type_name}.hpp"))
            assert "Traceback" not in err
            if code == 0:
                assert kind != "invalid", f"no error for {text!r}"
                assert err == ""
                if kind == "valid":
                    checked.append((type_name, equations, text))
                compiled.append(type_name)
            else:
                assert code == 2 and kind != "valid", (text, err)
                assert err.count("\n") == 1 and err.endswith("\n"), err
                assert ": error: " in err, err

    one()
    assert len(checked) == EXAMPLES
    _compile_and_compare(tmp_path, include, checked, compiled)


def _compile_and_compare(tmp_path, include, checked, compiled):
    rng = random.Random(30)
    program = ['#include <cstdio>']
    program += [f'#include "fuzz/{name}.hpp"' for name in compiled]
    program += [f"template struct cubie::catalogue::{name}<double>;" for name in compiled]
    program.append("int main() {")
    expected = []
    for name, equations, text in checked:
        states = [s for s in STATES + ("extra",) if s in equations]
        parameters = [p for p in PARAMETERS if f"\n{p} = " in text]
        constants = {c: sympy.sympify(text.split(f"\n{c} = \"")[1].split('"')[0])
                     for c in CONSTANTS if f"\n{c} = \"" in text}
        for _ in range(POINTS):
            y = {s: rng.uniform(-1, 1) for s in states}
            p = {q: rng.uniform(-1, 1) for q in parameters}
            t = rng.uniform(0, 2)
            values = {sympy.Symbol(k): v for k, v in {**y, **p, "t": t}.items()}
            values.update({sympy.Symbol(k): v for k, v in constants.items()})
            expected.append((name, text, reference(equations, values)))
            program.append(f"  {{ cubie::catalogue::{name}<double> s; "
                           f"cubie::state_t<decltype(s)> f; "
                           f"s.rhs({t!r}, {{{', '.join(repr(v) for v in y.values())}}}, "
                           f"{{{', '.join(repr(v) for v in p.values())}}}, {{}}, f); "
                           f"for (double v : f) std::printf(\"%.17g \", v); "
                           f"std::printf(\"\\n\"); }}")
    program.append("}")
    source = tmp_path / "fuzz.cpp"
    source.write_text("\n".join(program) + "\n")
    build = subprocess.run(
        ["g++", "-std=c++20", "-O0", "-Wall", "-Wextra", "-Werror", "-Wno-unused-variable",
         "-I", str(include.parent / "include"), "-I", os.path.join(REPO, "include"),
         "-isystem", compiler(), "-o", str(tmp_path / "fuzz"), str(source)],
        capture_output=True, text=True)
    assert build.returncode == 0, build.stderr[-4000:]
    run = subprocess.run([str(tmp_path / "fuzz")], capture_output=True, text=True, check=True)
    rows = run.stdout.splitlines()
    assert len(rows) == len(expected)
    for row, (name, text, values) in zip(rows, expected):
        got = [float(v) for v in row.split()]
        assert got == pytest.approx(values, rel=1e-9, abs=1e-9), (name, text)
