"""SymPy expressions as C++ for a template on the working precision T.

Every literal is written T(...), so float kernels do no double arithmetic; small integer
powers become multiplications, half-integer powers square roots and negative ones
reciprocal square roots (cubie::rsqrt, a hardware instruction on the device); functions
come from cuda::std so that the same text compiles for the host and the device.
"""

import sympy
from sympy.logic.boolalg import ITE, BooleanAtom, BooleanFunction

ATOM, UNARY, MUL, ADD, REL, EQ, AND, OR, TERNARY = 100, 90, 80, 70, 60, 55, 40, 35, 20
MAX_MULTIPLIED_POWER = 8  # x**n for 2 <= n <= 8 is written as n - 1 multiplications

FUNCTIONS = {
    sympy.exp: "exp", sympy.log: "log", sympy.sin: "sin", sympy.cos: "cos",
    sympy.tan: "tan", sympy.asin: "asin", sympy.acos: "acos", sympy.atan: "atan",
    sympy.atan2: "atan2", sympy.sinh: "sinh", sympy.cosh: "cosh", sympy.tanh: "tanh",
    sympy.Abs: "fabs",
}

RELATIONS = {sympy.StrictLessThan: ("<", REL), sympy.LessThan: ("<=", REL),
             sympy.StrictGreaterThan: (">", REL), sympy.GreaterThan: (">=", REL),
             sympy.Equality: ("==", EQ), sympy.Unequality: ("!=", EQ)}


class Sqrt(sympy.Function):
    """A square root SymPy keeps apart from its base's powers (b * Sqrt(b) stays two
    factors, where b * sqrt(b) would fold back into b**(3/2))."""

    nargs = 1

    def _eval_evalf(self, precision):  # a value, so that Max and Min can compare it
        return sympy.sqrt(self.args[0])._eval_evalf(precision)


class RSqrt(sympy.Function):
    """1 / sqrt(b): negative half-integer powers are its integer powers, b**(-3/2) being
    RSqrt(b)**3, so that no division or IEEE square root is left."""

    nargs = 1

    def _eval_evalf(self, precision):
        return (1 / sympy.sqrt(self.args[0]))._eval_evalf(precision)


class GenerationError(Exception):
    """An expression the printer has no C++ for (a bug or an unsupported function)."""


def literal(value) -> str:
    """A number in the working precision."""
    value = sympy.sympify(value)
    if value.is_Integer and abs(int(value)) < 2**31:
        return f"T({int(value)})"
    number = float(value)
    if number != number or number in (float("inf"), float("-inf")):
        raise GenerationError(f"not a finite number: {value}")
    return f"T({number!r})"


def is_boolean(expr) -> bool:
    return isinstance(expr, (sympy.core.relational.Relational, BooleanFunction, BooleanAtom))


def _decimal(r: sympy.Rational) -> bool:
    """Whether r has a finite decimal expansion (its double is its nearest, once)."""
    q = int(r.q)
    for f in (2, 5):
        while q % f == 0:
            q //= f
    return q == 1


class Printer:
    def __init__(self):
        self.uses_rsqrt = False  # the header must then include cubie/core/reciprocal_sqrt.hpp

    def __call__(self, expr) -> str:
        return self.text(expr, 0)

    def text(self, expr, parent: int) -> str:
        body, precedence = self.node(expr)
        return f"({body})" if precedence < parent else body

    def node(self, e):
        if e.is_Symbol:
            return e.name, ATOM
        if e is sympy.pi:
            return literal(sympy.pi), ATOM
        if e is sympy.E:
            return literal(sympy.E), ATOM
        if isinstance(e, BooleanAtom):
            return ("true" if e else "false"), ATOM
        if e.is_Number:
            if e < 0:
                return "-" + literal(-e), UNARY
            return literal(e), ATOM
        if e.is_Add:
            return self.add(e)
        if e.is_Mul:
            return self.mul(e)
        if e.is_Pow:
            return self.power(e.base, e.exp)
        if e.func in FUNCTIONS:
            args = ", ".join(self.text(a, 0) for a in e.args)
            return f"cuda::std::{FUNCTIONS[e.func]}({args})", ATOM
        if e.func is Sqrt:
            return f"cuda::std::sqrt({self.text(e.args[0], 0)})", ATOM
        if e.func is RSqrt:
            self.uses_rsqrt = True
            return f"cubie::rsqrt({self.text(e.args[0], 0)})", ATOM
        if e.func in (sympy.Min, sympy.Max):
            name = "fmin" if e.func is sympy.Min else "fmax"
            args = [self.text(a, 0) for a in e.args]
            text = args[-1]
            for a in reversed(args[:-1]):
                text = f"cuda::std::{name}({a}, {text})"
            return text, ATOM
        if e.func is sympy.sign:
            a = self.text(e.args[0], REL + 1)
            return f"{a} > T(0) ? T(1) : {a} < T(0) ? T(-1) : T(0)", TERNARY
        if e.func is sympy.Heaviside:
            a = self.text(e.args[0], REL + 1)
            return f"{a} > T(0) ? T(1) : {a} < T(0) ? T(0) : T(0.5)", TERNARY
        if isinstance(e, sympy.Piecewise):
            return self.piecewise(e)
        if type(e) in RELATIONS:
            op, precedence = RELATIONS[type(e)]
            return (f"{self.text(e.lhs, precedence + 1)} {op} "
                    f"{self.text(e.rhs, precedence + 1)}"), precedence
        if isinstance(e, sympy.And):
            return " && ".join(self.text(a, AND + 1) for a in e.args), AND
        if isinstance(e, sympy.Or):  # && inside || in parentheses, as -Wparentheses asks
            return " || ".join(self.text(a, AND + 1) for a in e.args), OR
        if isinstance(e, sympy.Not):
            return "!" + self.text(e.args[0], UNARY), UNARY
        if isinstance(e, ITE):  # a condition on a Piecewise value (where(...) > t)
            a, b, c = (self.text(x, TERNARY + 1) for x in e.args)
            return f"{a} ? {b} : {c}", TERNARY
        raise GenerationError(f"no C++ for {type(e).__name__}: {e}")

    def add(self, e):
        terms = e.as_ordered_terms()
        positive = [t for t in terms if not t.could_extract_minus_sign()]
        negative = [-t for t in terms if t.could_extract_minus_sign()]
        if positive:
            text = " + ".join(self.text(t, ADD) for t in positive)
        else:
            text = "-" + self.text(negative.pop(0), MUL)
        for t in negative:
            text += " - " + self.text(t, ADD + 1)
        return text, ADD

    def mul(self, e):
        coefficient, rest = e.as_coeff_Mul()
        if coefficient < 0:
            text, _ = self.mul_positive(-coefficient, rest)
            return "-" + text, MUL
        return self.mul_positive(coefficient, rest)

    def mul_positive(self, coefficient, rest):
        numerator, denominator = [], []
        for factor in sympy.Mul.make_args(rest):
            base, exponent = factor.as_base_exp()
            if factor.is_Pow and exponent.is_Rational and exponent < 0:
                denominator.append(sympy.Pow(base, -exponent))
            elif factor != 1:
                numerator.append(factor)
        if coefficient != 1:
            if coefficient.is_Integer or _decimal(coefficient):
                numerator.insert(0, coefficient)
            else:
                if coefficient.p != 1:
                    numerator.insert(0, sympy.Integer(coefficient.p))
                denominator.insert(0, sympy.Integer(coefficient.q))
        text = " * ".join(self.text(f, MUL) for f in numerator) if numerator else "T(1)"
        if len(denominator) == 1:
            text += " / " + self.text(denominator[0], MUL + 1)
        elif denominator:
            text += " / (" + " * ".join(self.text(f, MUL) for f in denominator) + ")"
        return text, MUL

    def power(self, base, exponent):
        if exponent.is_Rational and exponent < 0:
            return "T(1) / " + self.text(sympy.Pow(base, -exponent), MUL + 1), MUL
        if exponent.is_Integer:
            n = int(exponent)
            if n <= MAX_MULTIPLIED_POWER:
                b = self.text(base, UNARY + 1)
                return " * ".join([b] * n), MUL
            return f"cuda::std::pow({self.text(base, 0)}, {literal(n)})", ATOM
        if exponent.is_Rational and exponent.q == 2 and exponent.p <= 2 * MAX_MULTIPLIED_POWER:
            root = f"cuda::std::sqrt({self.text(base, 0)})"
            whole = (int(exponent.p) - 1) // 2
            return " * ".join([self.text(base, UNARY + 1)] * whole + [root]), \
                (MUL if whole else ATOM)
        if exponent == sympy.Rational(1, 3):
            return f"cuda::std::cbrt({self.text(base, 0)})", ATOM
        return f"cuda::std::pow({self.text(base, 0)}, {self.text(exponent, 0)})", ATOM

    def piecewise(self, e):
        pieces = list(e.args)
        if pieces[-1].cond is not sympy.true:
            pieces.append(sympy.functions.elementary.piecewise.ExprCondPair(sympy.nan,
                                                                            sympy.true))
        text = None
        for value, condition in reversed(pieces):
            v = ("cuda::std::numeric_limits<T>::quiet_NaN()" if value is sympy.nan else
                 self.text(value, TERNARY + 1))
            if text is None:
                text = v
            else:
                text = f"{self.text(condition, TERNARY + 1)} ? {v} : {text}"
        return text, TERNARY
