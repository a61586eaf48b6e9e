"""Reading definitions: sections, arrays, sums, observables, exact literals."""

import sympy

from cubie_codegen.definition import load

LORENZ = """
name = "lorenz"
[constants]
sigma = 10
beta = "8/3"
[parameters]
rho = 28
[states]
x = 1
y = 0
z = 0
[equations]
dx = "sigma*(y - x)"
dy = "x*(rho - z) - y"
dz = "x*y - beta*z"
"""


def test_lorenz_reads_into_symbols(write):
    m = load(write(LORENZ))
    assert m.name == "lorenz"
    assert [e.label for e in m.states] == ["x", "y", "z"]
    assert [e.symbol.name for e in m.states] == ["y[0]", "y[1]", "y[2]"]
    assert [e.default for e in m.parameters] == [28]
    assert dict((n, v) for n, v, _ in m.constants) == {"sigma": 10, "beta": sympy.Rational(8, 3)}
    x, y, z = (e.symbol for e in m.states)
    sigma = sympy.Symbol("sigma", real=True)
    assert sympy.simplify(m.rhs[0] - sigma * (y - x)) == 0
    assert m.emit_jacobian


def test_decimal_literals_are_exact(write):
    m = load(write('[states]\nx = 0.1\n[equations]\ndx = "0.1*x + 1e-3"\n'))
    x = m.states[0].symbol
    assert m.states[0].default == sympy.Rational(1, 10)
    assert sympy.simplify(m.rhs[0] - (sympy.Rational(1, 10) * x + sympy.Rational(1, 1000))) == 0


def test_arrays_wrap_when_periodic_and_dimensions_can_be_overridden(write):
    text = """
[dimensions]
N = 5
[parameters]
F = 8
[states]
x = { size = "N", initial = 8, periodic = true }
[equations]
"dx[i]" = "(x[i + 1] - x[i - 2])*x[i - 1] - x[i] + F"
"""
    m = load(write(text))
    assert len(m.states) == 5 and m.states[4].label == "x[4]"
    y = [e.symbol for e in m.states]
    F = m.parameters[0].symbol
    assert sympy.expand(m.rhs[0] - ((y[1] - y[3]) * y[4] - y[0] + F)) == 0
    assert len(load(write(text), overrides={"N": 40}).states) == 40


def test_sum_over_a_range_with_a_filter(write):
    text = """
[dimensions]
n = 3
[states]
q = { size = "n", initial = [1, 2, 3] }
[equations]
"dq[i]" = "sum((j + 1)*q[j] for j in range(n) if j != i)"
"""
    m = load(write(text))
    q = [e.symbol for e in m.states]
    assert sympy.expand(m.rhs[0] - (2 * q[1] + 3 * q[2])) == 0
    assert [e.default for e in m.states] == [1, 2, 3]


def test_conditions_on_indices_are_decided_when_generating(write):
    text = """
[dimensions]
n = 3
[parameters]
w = 5
[states]
q = { size = "n" }
[equations]
"dq[i]" = "sum((w if j == 0 else j + 1)*q[j] for j in range(n) if j != i)"
"""
    m = load(write(text))
    q = [e.symbol for e in m.states]
    w = m.parameters[0].symbol
    assert sympy.expand(m.rhs[1] - (w * q[0] + 3 * q[2])) == 0
    assert sympy.expand(m.rhs[0] - (2 * q[1] + 3 * q[2])) == 0


def test_single_elements_and_observables(write):
    text = """
[states]
a = { size = 2 }
[observables]
total = "a[0] + a[1]"
twice = "2*total"
[equations]
"da[0]" = "-twice"
"da[1]" = "total"
"""
    m = load(write(text))
    a0, a1 = (e.symbol for e in m.states)
    assert sympy.expand(m.rhs[0] + 2 * (a0 + a1)) == 0
    assert [e.label for e, _ in m.observables] == ["total", "twice"]


def test_conditions_and_functions(write):
    text = """
[states]
x = 1
[drivers]
u = "input"
[equations]
dx = "where(x > 0, exp(-x), min(x, u)) + (1 if u >= 0 and x < 2 else -1) + abs(x)**3 + Piecewise((tanh(x), x < -1), (0, True)) + sin(t)"
"""
    m = load(write(text))
    assert m.rhs[0].has(sympy.Piecewise) and m.rhs[0].has(m.time)
    assert m.drivers[0].symbol.name == "d[0]"
