"""Expression strings to SymPy, through Python's own parser.

Only a small, closed language is accepted: numbers, names the definition declares, `t`,
`pi`, + - * / **, calls of the functions in FUNCTIONS, `a if c else b`, where(c, a, b),
Piecewise((a, c), (b, True)), comparisons inside conditions, array elements `x[i + 1]`
and `sum(... for j in range(n) if ...)`. Anything else is a DefinitionError that points at
the offending column; SymPy never sees text, so its own parser's surprises (`E`, `I`, `S`
meaning something else) cannot happen.
"""

import ast
import difflib
import math
import operator
import re
import sys
from dataclasses import dataclass, field
from typing import Callable, Optional

import sympy
from sympy import piecewise_fold
from sympy.core.parameters import distribute

from cubie_codegen.errors import DefinitionError, Location
from cubie_codegen.limits import MAX_DEPTH, MAX_INDEX, MAX_LITERAL_DIGITS, MAX_NODES

# name: (SymPy function, fewest arguments, most arguments or None)
FUNCTIONS = {
    "exp": (sympy.exp, 1, 1),
    "log": (sympy.log, 1, 2),
    "sqrt": (sympy.sqrt, 1, 1),
    "sin": (sympy.sin, 1, 1),
    "cos": (sympy.cos, 1, 1),
    "tan": (sympy.tan, 1, 1),
    "asin": (sympy.asin, 1, 1),
    "acos": (sympy.acos, 1, 1),
    "atan": (sympy.atan, 1, 1),
    "atan2": (sympy.atan2, 2, 2),
    "sinh": (sympy.sinh, 1, 1),
    "cosh": (sympy.cosh, 1, 1),
    "tanh": (sympy.tanh, 1, 1),
    "abs": (sympy.Abs, 1, 1),
    "pow": (sympy.Pow, 2, 2),
    "min": (sympy.Min, 2, None),
    "max": (sympy.Max, 2, None),
    "where": (None, 3, 3),
    "Piecewise": (None, 1, None),
    "sum": (None, 1, 1),
}

BUILTIN_NAMES = ("t", "pi")

# While Python parses an expression: enough for sums of tens of thousands of terms.
PARSER_RECURSION_LIMIT = 20_000

_OPERATOR_NAMES = {
    ast.Mod: "%",
    ast.FloorDiv: "//",
    ast.MatMult: "@",
    ast.LShift: "<<",
    ast.RShift: ">>",
    ast.BitOr: "|",
    ast.BitAnd: "&",
}

# + - * mean the same for values and for integer indices.
_RING = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul}

_COMPARISONS = {
    ast.Lt: sympy.Lt,
    ast.LtE: sympy.Le,
    ast.Gt: sympy.Gt,
    ast.GtE: sympy.Ge,
    ast.Eq: sympy.Eq,
    ast.NotEq: sympy.Ne,
}


@dataclass
class Quantity:
    """A name an expression may use. `symbols` has one entry for a scalar and `size`
    entries for an array; `value` is set for dimensions (an int)."""

    name: str
    kind: str  # dimension, constant, parameter, state, driver, observable
    location: Location
    size: Optional[int] = None  # None: scalar
    periodic: bool = False
    symbols: list = field(default_factory=list)
    value: Optional[int] = None


class Scope:
    """What names mean while a definition is read, and how many expression nodes it has
    read so far (all expressions of a definition share one budget of MAX_NODES)."""

    def __init__(self, quantities: dict, time: sympy.Symbol,
                 observable: Callable[[str, Location], sympy.Expr]):
        self.quantities = quantities
        self.time = time
        self.observable = observable  # an observable's expression, by name
        self.nodes = 0
        self.observable_sizes = {}  # name -> size of its expression (see measure)

    def constant_values(self) -> dict:
        return {q.symbols[0]: q.value for q in self.quantities.values()
                if q.kind == "constant"}

    def suggestion(self, name: str) -> str:
        known = list(self.quantities) + list(BUILTIN_NAMES) + list(FUNCTIONS)
        close = difflib.get_close_matches(name, known, n=1)
        return f" (did you mean '{close[0]}'?)" if close else ""


def parse(text: str, where: Location, scope: Scope, indices: Optional[dict] = None,
          what: str = "expression") -> sympy.Expr:
    """SymPy expression of `text`; `where` is the location of its first character."""
    return _Converter(text, where, scope, dict(indices or {}), what).convert()


def names_in(text: str, where: Location, what: str) -> list:
    """The names an expression mentions, in order of appearance (its syntax checked)."""
    tree = _Converter(text, where, None, {}, what).tree()
    names = [node for node in ast.walk(tree) if isinstance(node, ast.Name)]
    names.sort(key=lambda node: (node.lineno, node.col_offset))
    return list(dict.fromkeys(node.id for node in names))


def parse_index(text: str, where: Location, scope: Scope, indices: dict) -> int:
    """Integer value of an index expression (`i + 1`, `N - 1`)."""
    conv = _Converter(text, where, scope, dict(indices), "index")
    return conv.integer(conv.tree())


def _source_lines(text: str) -> list:
    """text's lines with their ends, split where ast.get_source_segment splits them: at
    \r\n, \n and \r alone (not at the other line breaks str.splitlines knows)."""
    lines, start, i = [], 0, 0
    while i < len(text):
        c = text[i]
        i += 1
        if c == "\r" and i < len(text) and text[i] == "\n":
            i += 1
        if c in "\r\n":
            lines.append(text[start:i])
            start = i
    if start < len(text):
        lines.append(text[start:])
    return lines


class _Converter:
    def __init__(self, text, where, scope, indices, what):
        self.text = text
        self.where = where
        self.scope = scope
        self.indices = indices
        self.what = what

    # -- positions and errors -------------------------------------------------------------

    def at(self, node) -> Location:
        line = getattr(node, "lineno", 1)
        column = getattr(node, "col_offset", 0)
        if line == 1:
            return self.where.shifted(column)
        return Location(self.where.path, self.where.line + line - 1, column + 1)

    def fail(self, node, message):
        raise DefinitionError(self.at(node), message)

    def segment(self, node):
        """self.segment(node), with the text split into lines once: that
        function splits the whole text at every call, which for the literals of a sum of
        thousands of terms took most of the generator's time."""
        if not hasattr(self, "_lines"):
            self._lines = _source_lines(self.text)
        if getattr(node, "end_lineno", None) is None or node.end_col_offset is None:
            return None
        first, last = node.lineno - 1, node.end_lineno - 1
        if first == last:
            return self._lines[first].encode()[node.col_offset:node.end_col_offset].decode()
        return "".join([self._lines[first].encode()[node.col_offset:].decode(),
                        *self._lines[first + 1:last],
                        self._lines[last].encode()[:node.end_col_offset].decode()])

    def tree(self):
        if not self.text.strip():
            raise DefinitionError(self.where, f"empty {self.what}")
        # Python builds the tree of a + b + ... recursively: a sum of a few thousand terms
        # needs more than the default recursion limit (but no deeper C stack than the
        # parser allows itself).
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, PARSER_RECURSION_LIMIT))
        try:
            # Parenthesised so that a definition may break a long expression over lines.
            node = ast.parse("(" + self.text + "\n)", mode="eval").body
        except (RecursionError, MemoryError):  # Python's parser gives up on deep nesting
            raise DefinitionError(self.where, f"{self.what} is too long or nested too "
                                              f"deeply (at most {MAX_DEPTH} levels)") from None
        except SyntaxError as e:
            line = e.lineno or 1
            offset = e.offset or 1  # 1-based, in the text with the added "("
            loc = (self.where.shifted(max(offset - 2, 0)) if line == 1 else
                   Location(self.where.path, self.where.line + line - 1, offset))
            raise DefinitionError(loc, f"syntax error in {self.what}: {e.msg}") from None
        finally:
            sys.setrecursionlimit(limit)
        _shift_columns(node)
        self.check_depth(node)
        return node

    def check_depth(self, root):
        """Refuses trees deeper than MAX_DEPTH, so that reading them (and SymPy's work on
        them) stays far from Python's recursion limit. A chain of + - or of * / is
        read in one loop and counts as one level."""
        stack = [(root, 1)]
        while stack:
            node, depth = stack.pop()
            if depth > MAX_DEPTH:
                self.fail(node, f"{self.what} is nested more than {MAX_DEPTH} levels deep "
                                "(split it into observables)")
            for child in ast.iter_child_nodes(node):
                same_chain = child is getattr(node, "left", None) and \
                    _chain_of(node) is not None and _chain_of(child) == _chain_of(node)
                stack.append((child, depth if same_chain else depth + 1))

    def convert(self) -> sympy.Expr:
        node = self.tree()
        expr = self.value(node)
        if expr.has(sympy.zoo, sympy.oo, -sympy.oo, sympy.nan):
            self.fail(node, f"{self.what} evaluates to infinity or NaN (a division by zero?)")
        if expr.has(sympy.I):
            self.fail(node, f"{self.what} has a complex value")
        depth, _ = measure(expr)
        if depth > MAX_DEPTH:
            self.fail(node, f"{self.what} is nested {depth} levels deep with its observables "
                            f"substituted; the limit is {MAX_DEPTH}")
        return expr

    def check_constant(self, node, expr, divisor=False):
        """Refuses a subexpression of numbers and constants whose value is not a finite
        real number in the range of double (or is zero, for a divisor): evaluated now,
        such a mistake cannot reach the generated code."""
        values = self.scope.constant_values()
        if not (expr.is_number or expr.free_symbols <= set(values)):
            return
        problem = constant_problem(expr, values, divisor)
        if problem:
            source = self.segment(node) or str(expr)
            self.fail(node, f"{'division by zero: ' if divisor else ''}"
                            f"'{' '.join(source.split())}' {problem}")

    # -- numbers, names, operators --------------------------------------------------------

    def charge(self, node, nodes=1):
        self.scope.nodes += nodes
        if self.scope.nodes > MAX_NODES:
            self.fail(node, f"the definition expands to more than {MAX_NODES} expression "
                            "nodes, the limit (a sum over a long range, or large arrays?)")

    def value(self, node) -> sympy.Expr:
        self.charge(node)
        method = getattr(self, "value_" + type(node).__name__, None)
        if method is None:
            self.fail(node, f"unsupported syntax in {self.what}: {_describe(node)}")
        expr = method(node)
        if isinstance(node, ast.Call) or (isinstance(node, ast.BinOp) and
                                          isinstance(node.op, ast.Pow)):
            self.check_constant(node, expr)
        return expr

    def value_Constant(self, node):
        v = node.value
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            self.fail(node, f"expected a number, found {v!r}")
        source = (self.segment(node) or repr(v)).replace("_", "")
        exponent = isinstance(v, float) and re.search(r"[eE]([+-]?\d+)", source)
        if len(source) > MAX_LITERAL_DIGITS or (
                exponent and abs(int(exponent.group(1))) > MAX_LITERAL_DIGITS):
            self.fail(node, f"the number {source[:20]}... is beyond the range of double")
        # The literal's own digits, exactly: 0.1 is 1/10, not the double nearest to it.
        number = sympy.Integer(v) if isinstance(v, int) else sympy.Rational(source)
        self.check_constant(node, number)
        return number

    def value_Name(self, node):
        name = node.id
        if name in self.indices:
            return sympy.Integer(self.indices[name])
        if name == "t":
            return self.scope.time
        if name == "pi":
            return sympy.pi
        q = self.scope.quantities.get(name)
        if q is None:
            if name in FUNCTIONS:
                self.fail(node, f"'{name}' is a function: call it, {name}(...)")
            self.fail(node, f"undefined name '{name}'{self.scope.suggestion(name)}")
        if q.kind == "dimension":
            return sympy.Integer(q.value)
        if q.kind == "observable":
            expr = self.scope.observable(name, self.at(node))
            if name not in self.scope.observable_sizes:
                self.scope.observable_sizes[name] = measure(expr)[1]
            # Substituted in full: it costs what its own nodes cost.
            self.charge(node, self.scope.observable_sizes[name])
            return expr
        if q.size is not None:
            self.fail(node, f"'{name}' is an array of {q.size} {q.kind}s: write an element, "
                            f"{name}[i]")
        return q.symbols[0]

    def value_Subscript(self, node):
        if not isinstance(node.value, ast.Name):
            self.fail(node, "only a named array can be indexed")
        name = node.value.id
        q = self.scope.quantities.get(name)
        if q is None:
            self.fail(node.value, f"undefined name '{name}'{self.scope.suggestion(name)}")
        if q.size is None:
            self.fail(node, f"'{name}' is not an array and cannot be indexed")
        index = self.integer(node.slice)
        return q.symbols[self.element(node, q, index)]

    def element(self, node, q, index):
        if q.periodic:
            return index % q.size
        if not 0 <= index < q.size:
            self.fail(node, f"index {index} is outside {q.name}[0..{q.size - 1}] "
                            f"(declare it periodic = true to wrap around)")
        return index

    def value_BinOp(self, node):
        op = type(node.op)
        if op is ast.BitXor:
            self.fail(node, "'^' is not a power here: write a**b")
        if op in _OPERATOR_NAMES:
            self.fail(node, f"operator '{_OPERATOR_NAMES[op]}' is not supported in "
                            f"{self.what} (// and % are for indices)")
        if op is ast.Pow:
            base, exponent = self.value(node.left), self.value(node.right)
            self.check_power(node, base, exponent)
            return sympy.Pow(base, exponent)
        # A chain a + b - c + ... (or a * b / c ...) is read in a loop, not recursively,
        # and summed (multiplied) once: thousands of terms cost no recursion and no
        # quadratic time.
        first, links = _chain(node)
        items = [self.value(first)]
        for link in links:
            self.charge(link)
            item = self.value(link.right)
            if isinstance(link.op, ast.Sub):
                item = -item
            elif isinstance(link.op, ast.Div):
                if item == 0:
                    self.fail(link, "division by zero")
                self.check_constant(link.right, item, divisor=True)
                item = 1 / item
            items.append(item)
        return sympy.Add(*items) if _chain_of(node) == "sum" else sympy.Mul(*items)

    def check_power(self, node, base, exponent):
        """Refuses a power of numbers far beyond the range of double before SymPy would
        compute it exactly (10**10**10 has ten billion digits)."""
        if base.is_Number and exponent.is_Number and base != 0 and abs(base) != 1:
            digits = abs(float(exponent)) * abs(_log10(base))
            if digits > MAX_LITERAL_DIGITS:
                self.fail(node, f"'{self.segment(node)}' is beyond the "
                                "range of double")

    def value_UnaryOp(self, node):
        if isinstance(node.op, ast.USub):
            return -self.value(node.operand)
        if isinstance(node.op, ast.UAdd):
            return self.value(node.operand)
        self.fail(node, f"'{_unary(node.op)}' is not an arithmetic operator: use it in a "
                        "condition")

    def value_IfExp(self, node):
        return sympy.Piecewise((self.value(node.body), self.condition(node.test)),
                               (self.value(node.orelse), True))

    def value_Compare(self, node):
        self.fail(node, "a comparison is a condition, not a value: use it in "
                        "where(condition, a, b) or 'a if condition else b'")

    value_BoolOp = value_Compare

    def value_Call(self, node):
        if not isinstance(node.func, ast.Name):
            self.fail(node, "only the built-in functions can be called")
        name = node.func.id
        if name not in FUNCTIONS:
            if name in self.scope.quantities:
                self.fail(node, f"'{name}' is a {self.scope.quantities[name].kind}, "
                                "not a function")
            self.fail(node, f"unknown function '{name}'{self.scope.suggestion(name)}; "
                            f"known: {', '.join(sorted(FUNCTIONS))}")
        if node.keywords:
            self.fail(node, f"{name}() takes no keyword arguments")
        fn, fewest, most = FUNCTIONS[name]
        n = len(node.args)
        if n < fewest or (most is not None and n > most):
            expected = (f"{fewest}" if fewest == most else
                        f"at least {fewest}" if most is None else f"{fewest} or {most}")
            self.fail(node, f"{name}() takes {expected} argument{'s' * (expected != '1')}, "
                            f"got {n}")
        if name == "where":
            return sympy.Piecewise((self.value(node.args[1]), self.condition(node.args[0])),
                                   (self.value(node.args[2]), True))
        if name == "Piecewise":
            return self.piecewise(node)
        if name == "sum":
            return self.generator_sum(node, node.args[0])
        args = [self.value(a) for a in node.args]
        if name == "pow":
            self.check_power(node, *args)
        # SymPy's functions take a minus sign out of their argument (tanh(-a) is
        # -tanh(a)) assuming that -(b - c) is c - b; kept as written, a negative sum of
        # numbers would have its sign taken out without end (SymPy 1.14).
        with distribute(True):
            return fn(*args)

    def piecewise(self, node):
        pieces = []
        for i, arg in enumerate(node.args):
            if not isinstance(arg, ast.Tuple) or len(arg.elts) != 2:
                self.fail(arg, "Piecewise takes pairs (value, condition)")
            last = i == len(node.args) - 1
            cond = arg.elts[1]
            if last and not (isinstance(cond, ast.Constant) and cond.value is True):
                self.fail(cond, "the last pair of Piecewise must be (value, True), so that "
                                "every case has a value")
            pieces.append((self.value(arg.elts[0]), self.condition(cond)))
        return sympy.Piecewise(*pieces)

    def generator_sum(self, node, gen):
        if not isinstance(gen, ast.GeneratorExp):
            self.fail(node, "sum() takes a generator: sum(x[j] for j in range(N))")
        if len(gen.generators) != 1:
            self.fail(gen, "sum() takes one 'for' clause")
        comp = gen.generators[0]
        if not isinstance(comp.target, ast.Name):
            self.fail(comp.target, "the loop variable must be a plain name")
        var = comp.target.id
        if var in self.scope.quantities or var in BUILTIN_NAMES or var in self.indices:
            self.fail(comp.target, f"loop variable '{var}' hides another name")
        it = comp.iter
        if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name)
                and it.func.id == "range" and 1 <= len(it.args) <= 2 and not it.keywords):
            self.fail(it, "the loop must run over range(stop) or range(start, stop)")
        bounds = [self.integer(a) for a in it.args]
        start, stop = (0, bounds[0]) if len(bounds) == 1 else bounds
        if stop - start > MAX_NODES:
            self.fail(it, f"range of {stop - start} terms: the limit is {MAX_NODES}")
        terms = []
        saved = dict(self.indices)
        for j in range(start, stop):
            self.indices[var] = j
            if all(self.integer_condition(c) for c in comp.ifs):
                terms.append(self.value(gen.elt))
        self.indices = saved
        return sympy.Add(*terms)

    # -- conditions -----------------------------------------------------------------------

    def condition(self, node):
        if isinstance(node, ast.Constant) and isinstance(node.value, bool):
            return sympy.true if node.value else sympy.false
        if isinstance(node, ast.Compare):
            parts = []
            left = self.value(node.left)
            for op, right_node in zip(node.ops, node.comparators):
                right = self.value(right_node)
                if type(op) not in _COMPARISONS:
                    self.fail(node, f"unsupported comparison '{_describe(op)}'")
                parts.append(_relation(_COMPARISONS[type(op)], left, right))
                left = right
            return sympy.And(*parts) if len(parts) > 1 else parts[0]
        if isinstance(node, ast.BoolOp):
            combine = sympy.And if isinstance(node.op, ast.And) else sympy.Or
            return combine(*[self.condition(v) for v in node.values])
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return sympy.Not(self.condition(node.operand))
        self.fail(node, "expected a condition (a comparison such as x > 0)")

    # -- integer index arithmetic ---------------------------------------------------------

    def integer(self, node) -> int:
        value = self.integer_node(node)
        if abs(value) > MAX_INDEX:
            self.fail(node, f"index arithmetic beyond {MAX_INDEX}")
        return value

    def integer_node(self, node) -> int:
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return node.value
        if isinstance(node, ast.Name):
            if node.id in self.indices:
                return self.indices[node.id]
            q = self.scope.quantities.get(node.id)
            if q is not None and q.kind == "dimension":
                return q.value
            if q is None and node.id not in BUILTIN_NAMES:
                self.fail(node, f"undefined index '{node.id}'")
            self.fail(node, f"'{node.id}' is not an integer: an index is made of index "
                            "variables, dimensions and whole numbers")
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -self.integer(node.operand)
        if isinstance(node, ast.BinOp) and _chain_of(node) == "sum":
            first, links = _chain(node)
            total = self.integer(first)
            for link in links:
                term = self.integer(link.right)
                total = self.bounded(link, total + term if isinstance(link.op, ast.Add)
                                     else total - term)
            return total
        if isinstance(node, ast.BinOp):
            a, b = self.integer(node.left), self.integer(node.right)
            op = type(node.op)
            if op is ast.Mult:
                return self.bounded(node, a * b)
            if op in (ast.FloorDiv, ast.Mod):
                if b == 0:
                    self.fail(node, "division by zero in an index")
                return a // b if op is ast.FloorDiv else a % b
        self.fail(node, "an index must be a whole-number expression of index variables and "
                        "dimensions (+, -, *, //, %)")

    def bounded(self, node, value: int) -> int:
        if abs(value) > MAX_INDEX:
            self.fail(node, f"index arithmetic beyond {MAX_INDEX}")
        return value

    def integer_condition(self, node) -> bool:
        if isinstance(node, ast.Compare):
            left = self.integer(node.left)
            for op, right_node in zip(node.ops, node.comparators):
                right = self.integer(right_node)
                ok = {ast.Lt: left < right, ast.LtE: left <= right, ast.Gt: left > right,
                      ast.GtE: left >= right, ast.Eq: left == right,
                      ast.NotEq: left != right}.get(type(op))
                if ok is None:
                    self.fail(node, "unsupported comparison")
                if not ok:
                    return False
                left = right
            return True
        if isinstance(node, ast.BoolOp):
            values = [self.integer_condition(v) for v in node.values]
            return all(values) if isinstance(node.op, ast.And) else any(values)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return not self.integer_condition(node.operand)
        self.fail(node, "a filter must compare index variables, e.g. 'if j != i'")


def _relation(relation, left, right):
    """left `relation` right with no conditional value inside: a comparison of where(c,
    a, b) is written as (c and a > x) or (not c and b > x). SymPy would otherwise solve
    the comparison as a set of real numbers when it becomes a condition, which takes
    time that grows steeply with the nesting of conditions."""
    left, right = (piecewise_fold(v) if v.has(sympy.Piecewise) else v for v in (left, right))
    for side in (0, 1):
        pieces = (left, right)[side]
        if isinstance(pieces, sympy.Piecewise):
            cases, earlier = [], []
            for value, condition in pieces.args:
                compared = _relation(relation, *((value, right) if side == 0 else
                                                 (left, value)))
                cases.append(sympy.And(condition, *[sympy.Not(c) for c in earlier],
                                       compared))
                earlier.append(condition)
            return sympy.Or(*cases)
    # Numbers on both sides (indices, dimensions) decide now. Left unevaluated, SymPy's
    # Piecewise reads Eq(0, 0) as false.
    return relation(left, right, evaluate=left.is_number and right.is_number)


def _chain_of(node):
    """'sum' for a + or - node, 'product' for * or /, else None."""
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, (ast.Add, ast.Sub)):
            return "sum"
        if isinstance(node.op, (ast.Mult, ast.Div)):
            return "product"
    return None


def _chain(node):
    """A left-nested chain ((a + b) - c) + d as a and its links [+b, -c, +d] (the nodes,
    whose .op and .right say what each adds), found in a loop."""
    kind, links = _chain_of(node), []
    while _chain_of(node) == kind:
        links.append(node)
        node = node.left
    return node, links[::-1]


def _log10(number) -> float:
    """log10 of |number| for a SymPy number of any size (float() would overflow)."""
    if number.is_Rational:
        return _int_log10(abs(int(number.p))) - _int_log10(int(number.q))
    return float(sympy.log(abs(number), 10).evalf(15))


def _int_log10(n: int) -> float:
    shift = max(n.bit_length() - 64, 0)
    return float(shift * 0.30102999566398120 + math.log10(n >> shift))


HUGE = sympy.Float("1e400")
DOUBLE_MAX = sympy.Float(1.7976931348623157e308)
DOUBLE_TRUE_MIN = sympy.Float(5e-324)


def constant_problem(expr, values: dict, divisor: bool = False) -> str:
    """What is wrong with the value of `expr` (numbers and the constants in `values`) as a
    number of the generated code, or '' when nothing is."""
    # Roughly first, in floating point: an exact value far out of range could take
    # SymPy very long to compute.
    rough = expr.evalf(15, subs=values) if values else expr.evalf(15)
    if rough.is_number and not rough.has(sympy.zoo, sympy.oo, -sympy.oo, sympy.nan):
        size = abs(rough)
        if size.is_number and (size > HUGE or 0 < size < 1 / HUGE):
            return f"is {sympy.N(rough, 6)}, beyond the range of double"
    exact = expr.xreplace(values)
    if exact.has(sympy.zoo, sympy.oo, -sympy.oo, sympy.nan):
        return "is 0" if divisor else "is infinite or undefined"
    approx = sympy.N(exact, 20, chop=True)
    real, imaginary = approx.as_real_imag()
    if imaginary != 0:
        return f"has the complex value {sympy.N(exact, 6)}"
    if divisor and (exact.is_zero or real == 0):
        return "is 0"
    if abs(real) > DOUBLE_MAX or 0 < abs(real) < DOUBLE_TRUE_MIN:
        return f"is {sympy.N(real, 6)}, beyond the range of double"
    return ""


def measure(expr):
    """(depth, size) of a SymPy expression, where size counts a subexpression once for
    each place it occurs (what printing it in full would cost); computed in a loop over
    the distinct subexpressions, so neither deep nor widely shared trees cost recursion
    or exponential time."""
    known = {}
    stack = [expr]
    while stack:
        e = stack[-1]
        if e in known:
            stack.pop()
            continue
        pending = [a for a in e.args if a not in known]
        if pending:
            stack.extend(pending)
            continue
        stack.pop()
        known[e] = (1 + max((known[a][0] for a in e.args), default=0),
                    1 + sum(known[a][1] for a in e.args))
    return known[expr]


def _shift_columns(tree):
    """Columns as in the user's text: the parser saw one extra leading '('."""
    for node in ast.walk(tree):
        if getattr(node, "lineno", None) == 1 and hasattr(node, "col_offset"):
            node.col_offset -= 1
        if getattr(node, "end_lineno", None) == 1 and hasattr(node, "end_col_offset"):
            node.end_col_offset -= 1


def _unary(op):
    return {ast.Not: "not", ast.Invert: "~"}.get(type(op), "?")


def _describe(node) -> str:
    names = {
        "Attribute": "attribute access (a.b)",
        "Lambda": "lambda",
        "List": "list",
        "Dict": "dict",
        "Set": "set",
        "Tuple": "tuple",
        "Starred": "*",
        "JoinedStr": "f-string",
        "ListComp": "list comprehension",
        "GeneratorExp": "generator outside sum()",
        "NamedExpr": ":=",
        "Slice": "slice",
        "Await": "await",
        "Yield": "yield",
        "Is": "is",
        "IsNot": "is not",
        "In": "in",
        "NotIn": "not in",
    }
    return names.get(type(node).__name__, type(node).__name__)
