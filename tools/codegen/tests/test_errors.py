"""Every mistake in a definition: a one-line message naming file, line and column, exit
status 2, and never a Python traceback."""

import re

import pytest

from conftest import run_main, run_tool

GOOD = """name = "model"
[constants]
a = 2
[parameters]
k = 1
[states]
x = 1
y = 0
[equations]
dx = "-k*x + a*y"
dy = "x - y"
"""


def error_of(write, text, *args):
    """The message of a mistake, from the tool run in this process (a traceback there is an
    exception that fails the test); the tests below that start it as a user would check
    that its exit status and stderr carry through."""
    path = write(text)
    code, err = run_main(path, "-o", path + ".hpp", *args)
    assert code == 2, err
    assert "Traceback" not in err
    assert err.count("\n") == 1, err  # one line
    return err.strip()


def test_the_good_definition_generates(write):
    path = write(GOOD)
    code, _, err = run_tool(path, "-o", path + ".hpp")
    assert code == 0, err


@pytest.mark.parametrize("text, where, message", [
    # TOML syntax
    (GOOD.replace('dy = "x - y"', 'dy = "x - y'), r":11:\d+:", "TOML syntax"),
    (GOOD.replace("k = 1", "k = 1\nk = 2"), r":6:\d+:", "defined twice"),
    # expression syntax, with the column of the mistake in the file
    (GOOD.replace('"x - y"', '"x - * y"'), r":11:11:", "syntax error in equation dy"),
    (GOOD.replace('"x - y"', '"(x - y"'), r":11:\d+:", "syntax error"),
    (GOOD.replace('"x - y"', '"x^2"'), r":11:7:", r"'\^' is not a power here: write a\*\*b"),
    # names
    (GOOD.replace('"x - y"', '"x - w"'), r":11:11:", "undefined name 'w'"),
    (GOOD.replace('"x - y"', '"x - kk"'), r":11:11:", "did you mean 'k'"),
    (GOOD.replace("y = 0", "k = 0"), r":8:1:", "'k' is already defined as a parameter"),
    (GOOD.replace("a = 2", "x = 2"), r":7:1:", "'x' is already defined as a constant"),
    (GOOD.replace("k = 1", "class = 1"), r":5:\d+:", "'class' is a C\\+\\+ keyword"),
    (GOOD.replace("a = 2", "dydt = 2"), r":3:\d+:", "clashes with an identifier of the generated"),
    (GOOD.replace("a = 2", "s3 = 2"), r":3:\d+:", "clashes with an identifier of the generated"),
    (GOOD.replace("a = 2", "t = 2"), r":3:\d+:", "built-in name"),
    (GOOD.replace('name = "model"', 'name = "struct"'), r":1:\d+:", "C\\+\\+ keyword"),
    (GOOD.replace("a = 2", "my__a = 2"), r":3:\d+:", "reserves"),
    # equations
    (GOOD + 'dz = "x"\n', r":12:1:", "equation 'dz' is for unknown state 'z'"),
    (GOOD + 'dk = "x"\n', r":12:1:", "unknown state 'k' \\(a parameter\\)"),
    (GOOD.replace('dy = "x - y"\n', ""), r":9:", "no equation for state y"),
    (GOOD + 'x = "1"\n', r":12:1:", "left side must be d<state>"),
    # functions and values
    (GOOD.replace('"x - y"', '"foo(x)"'), r":11:7:", "unknown function 'foo'"),
    (GOOD.replace('"x - y"', '"exp(x, y)"'), r":11:7:", "exp\\(\\) takes 1 argument, got 2"),
    (GOOD.replace('"x - y"', '"x < y"'), r":11:7:", "a comparison is a condition"),
    (GOOD.replace('"x - y"', '"Piecewise((x, x > 0))"'), r":11:\d+:", "last pair of Piecewise"),
    (GOOD.replace('"x - y"', '"x/0"'), r":11:7:", "division by zero"),
    (GOOD.replace("a = 2", 'a = "x + 1"'), r":3:\d+:", "undefined name 'x'"),
    (GOOD.replace("a = 2", 'a = "1/0"'), r":3:\d+:", "division by zero"),
    (GOOD.replace("a = 2", "a = true"), r":3:\d+:", "must be a number"),
    (GOOD + "[tables]\n", r"", "unknown section or key 'tables'"),
])
def test_mistakes_are_reported_with_their_place(write, text, where, message):
    err = error_of(write, text)
    assert re.search(r"model\.toml" + where, err), err
    assert re.search(message, err), err
    assert ": error: " in err


def test_array_mistakes(write):
    base = """[dimensions]
N = 3
[states]
x = { size = "N" }
[equations]
"dx[i]" = "x[i + 1]"
"""
    assert "index 3 is outside x[0..2]" in error_of(write, base)
    assert "periodic = true" in error_of(write, base)
    assert "a second equation for x[1]" in error_of(
        write, base.replace("x[i + 1]", "x[i]") + '"dx[1]" = "0"\n')
    assert "'x' is an array of 3 states" in error_of(write, base.replace("x[i + 1]", "x"))
    assert "must be a whole number" in error_of(write, base.replace("N = 3", "N = 0"))
    err = error_of(write, base.replace('"dx[i]"', '"dx"'))
    assert "'x' is an array: write dx[i]" in err


def test_observable_cycles_are_named(write):
    text = GOOD + '[observables]\np = "q + 1"\nq = "2*p"\n'
    text = text.replace('dy = "x - y"', 'dy = "p"')
    text = text.replace("[observables]", "[observables]")
    # [observables] after [equations]: TOML allows tables in any order.
    assert "cycle: p -> q -> p" in error_of(write, text)


def test_unknown_dimension_override(write):
    assert "no dimension 'M'" in error_of(write, GOOD, "--set", "M=4")


def test_usage_errors_exit_2_without_a_traceback(write):
    code, _, err = run_tool(write(GOOD), "--set", "N")
    assert code == 2 and "expected NAME=VALUE" in err and "Traceback" not in err


def test_missing_file(tmp_path):
    code, _, err = run_tool(str(tmp_path / "absent.toml"))
    assert code == 2 and "cannot read the definition" in err and "Traceback" not in err


def test_a_mistake_exits_2_from_the_command(write):
    path = write(GOOD.replace('"x - y"', '"x - w"'))
    code, out, err = run_tool(path, "-o", path + ".hpp")
    assert code == 2, (out, err)
    assert "Traceback" not in err and err.count("\n") == 1
    assert re.search(r":11:11:.*undefined name 'w'", err), err
