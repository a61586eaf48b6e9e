"""A Model as one C++ header: a System type (cubie/systems/ode_system.hpp) with rhs,
observables, jacobian, jvp, time_derivative and driver_jacobian, each after common
subexpression elimination. The output depends only on the definition's content and the
tool's version: the same definition gives the same bytes."""

import sympy
from sympy.core.parameters import distribute

from cubie_codegen import __version__
from cubie_codegen.cxx import Printer, RSqrt, Sqrt, is_boolean, literal
from cubie_codegen.definition import Model
from cubie_codegen.errors import one_line

WIDTH = 100
INDENT = "    "
CONFIG_INCLUDE = '#include "cubie/core/config.hpp"'
RSQRT_INCLUDE = '#include "cubie/core/reciprocal_sqrt.hpp"'  # only where the printer used it


def _negated(terms):
    return sympy.Add(*[-term for term in terms.args])


def _even_base(e) -> bool:
    """An even power of a sum whose negation sorts first ((b - a)**2, not (a - b)**2).
    Sums of known sign (numbers, t**2 + 2) are left alone: a difference of either
    order is never one, and SymPy (1.14) recurses without end on the absolute value of
    a negated sum of known sign, which a power of the power would form."""
    return e.is_Pow and e.exp.is_Integer and e.exp.is_even and e.base.is_Add and \
        e.base.is_extended_positive is None and e.base.is_extended_negative is None and \
        sympy.default_sort_key(_negated(e.base)) < sympy.default_sort_key(e.base)


def _root(e) -> bool:
    return e.is_Pow and e.exp.is_Rational and e.exp.q == 2 and e.exp.p != 1


def prepare(expr):
    """Rewrites that let common subexpressions be seen: (b - a)**2 as (a - b)**2, so the
    two orders of a difference meet; b**(3/2) as b * sqrt(b), so that the base b becomes
    a subexpression computed once; and b**(-k/2) as rsqrt(b)**k, one reciprocal square
    root and multiplications where a square root and a division would be."""
    expr = expr.replace(_even_base, lambda e: sympy.Pow(_negated(e.base), e.exp))

    def split(e):
        if e.exp < 0:
            return sympy.Pow(RSqrt(e.base), -e.exp.p)
        whole = (int(e.exp.p) - 1) // 2
        return sympy.Mul(sympy.Pow(e.base, whole), Sqrt(e.base))

    return expr.replace(_root, split)


def _powered_calls(expressions) -> list:
    """The function calls raised to a power (rsqrt(b)**3, cos(x)**2): each must be a
    temporary of its own, or its power would be printed as the same call made again."""
    found = set()
    for e in expressions:
        found |= {p.base for p in e.atoms(sympy.Pow)
                  if p.base.is_Function and p.exp.is_Integer and abs(p.exp) > 1}
    return sorted(found, key=sympy.default_sort_key)


def eliminate(expressions):
    """(temporaries, reduced): SymPy's cse of the expressions, each temporary a (symbol,
    value) in the order they must be computed, and the expressions written with them."""
    expressions = [prepare(e) for e in expressions]
    # Listed once more as expressions of their own, the powered calls occur at least
    # twice, which makes cse give each a temporary; those extra results are dropped.
    calls = _powered_calls(expressions)
    temporaries = sympy.numbered_symbols("s", real=True)
    replacements, reduced = sympy.cse(expressions + calls, symbols=temporaries,
                                      order="canonical")
    return _inline_trivial(replacements, reduced[:len(expressions)])


def statements(replacements, assignments, printer):
    """C++ statements computing the temporaries, then each (target, reduced expression);
    also the symbols they read."""
    lines, used = [], set()
    for symbol, value in replacements:
        kind = "bool" if is_boolean(value) else "T"
        lines.append(f"const {kind} {symbol.name} = {printer(value)};")
        used |= value.free_symbols
    for target, value in assignments:
        lines.append(f"{target} = {printer(value)};")
        used |= value.free_symbols
    return lines, {s.name.split("[")[0] for s in used}


def cse_statements(outputs, printer):
    """C++ statements assigning each (target, expression) after eliminating common
    subexpressions; also the symbols the statements read, and the temporaries' count."""
    replacements, reduced = eliminate([e for _, e in outputs])
    lines, used = statements(replacements, [(t, e) for (t, _), e in zip(outputs, reduced)],
                             printer)
    return lines, used, len(replacements)


def needed(replacements, expr):
    """The temporaries of `replacements` that expr reads, directly or through others."""
    wanted = set(expr.free_symbols)
    kept = []
    for symbol, value in reversed(replacements):
        if symbol in wanted:
            kept.append((symbol, value))
            wanted |= value.free_symbols
    return kept[::-1]


def _trivial(value) -> bool:
    """A value not worth a temporary: a name or number, or the negation of one."""
    if value.is_Atom:
        return True
    return value.is_Mul and len(value.args) == 2 and value.args[0] == -1 and \
        value.args[1].is_Atom


def _inline_trivial(replacements, reduced):
    """Puts back the temporaries SymPy's cse makes of negations (-y[1]): they save no
    work and hide the expression. One pass in order: each value sees the trivial
    temporaries before it already put back, and the kept ones renumbered."""
    inlined, kept = {}, []
    for symbol, value in replacements:
        value = value.xreplace(inlined)
        if _trivial(value):
            inlined[symbol] = value
        else:
            inlined[symbol] = sympy.Symbol(f"s{len(kept)}", real=True)
            kept.append((inlined[symbol], value))
    return kept, [e.xreplace(inlined) for e in reduced]


def wrap(statement: str, indent: str) -> list:
    """A long statement broken before operators, preferring the least nested ones."""
    if len(indent) + len(statement) <= WIDTH:
        return [indent + statement]
    breaks = []  # (depth, position) of " op " in the statement
    depth = 0
    for i, ch in enumerate(statement):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == " " and i + 2 < len(statement) and statement[i + 2] == " " and \
                statement[i + 1] in "+-*/?:" and i > 0:
            # Between factors only where no sum can be broken at the same depth.
            breaks.append((depth + (0.5 if statement[i + 1] in "*/" else 0), i))
    lines, start, continuation = [], 0, indent + INDENT * 2
    current_indent = indent
    while len(current_indent) + len(statement) - start > WIDTH:
        limit = start + WIDTH - len(current_indent)
        candidates = [(d, i) for d, i in breaks if start < i <= limit]
        if not candidates:
            break
        # The least nested operator in the right half of the line, so that lines stay long.
        right = [(d, i) for d, i in candidates if i >= start + (limit - start) // 2]
        pool = right or candidates
        least = min(d for d, _ in pool)
        position = max(i for d, i in pool if d == least)
        lines.append(current_indent + statement[start:position])
        start = position + 1
        current_indent = continuation
    lines.append(current_indent + statement[start:])
    return lines


def derivative(expr, x):
    """d expr / d x, as sympy.diff gives it: sums and products are taken apart here (the
    same way SymPy's own rules do), which is several times faster than SymPy's general
    machinery on the large systems where it matters; other nodes go to sympy.diff."""
    if expr.is_Symbol:
        return sympy.Integer(1 if expr == x else 0)
    if expr.is_Number:
        return sympy.Integer(0)
    if expr.is_Add:
        return sympy.Add(*[derivative(a, x) for a in expr.args])
    if expr.is_Mul:
        args = list(expr.args)
        terms = []
        for i, a in enumerate(args):
            d = derivative(a, x)
            if d != 0:
                product = sympy.Integer(1)
                for factor in args[:i] + [d] + args[i + 1:]:
                    product = product * factor
                terms.append(product)
        return sympy.Add(*terms)
    return sympy.diff(expr, x)


def _count(n, what):
    return f"{n} {what}{'' if n == 1 else 's'}"


class _Header:
    def __init__(self, model: Model):
        self.m = model
        self.print = Printer()
        self.states = [e.symbol for e in model.states]
        self.lines = []
        self.cse_counts = {}
        self.state_index = {x: k for k, x in enumerate(self.states)}
        self._jacobian = None

    # -- helpers --------------------------------------------------------------------------

    def emit(self, line=""):
        self.lines.append(line)

    def signature(self, function, used, extra_in=(), output=()):
        """`CUBIE_HD void f(T t, const state_t<S>& y, ...) const {` with the names of
        unused arguments left out (no -Wunused-parameter)."""
        s = self.m.name
        arguments = [("T", "t"), (f"const cubie::state_t<{s}>&", "y"),
                     (f"const cubie::parameters_t<{s}>&", "p"),
                     (f"const cubie::drivers_t<{s}>&", "d")]
        arguments += list(extra_in)
        parts = [f"{kind} {name}" if name in used else kind for kind, name in arguments]
        parts += [f"{kind} {name}" for kind, name in output]
        self.declaration(f"{INDENT}CUBIE_HD void {function}(", parts)

    def declaration(self, head, parts):
        """`head` and the arguments `parts`, then `) const {`, broken into lines of WIDTH."""
        lines, current = [], head
        for k, part in enumerate(parts):
            piece = part + (", " if k + 1 < len(parts) else ") const {")
            if len(current) + len(piece.rstrip()) > WIDTH and current != head:
                lines.append(current.rstrip())
                current = " " * len(head) + piece
            else:
                current += piece
        lines.append(current)
        for line in lines:
            self.emit(line)

    def function(self, name, comment, outputs, extra_in=(), output=(), zero=None,
                 entries=None):
        """A member function assigning `outputs` (target, expression). With `zero`, the
        output (of `entries` elements, or as many as `outputs`) is zeroed first and only
        the nonzero entries are assigned."""
        nonzero = [(target, e) for target, e in outputs if e != 0]
        body, used, count = cse_statements(nonzero, self.print)
        self.cse_counts[name] = count
        for line in comment:
            self.emit(f"{INDENT}/// {line}")
        self.signature(name, used, extra_in, output)
        if zero is not None and len(nonzero) < (entries or len(outputs)):
            self.emit(f"{INDENT * 2}{zero} = {{}};")  # then only the nonzero entries
        elif zero is None:
            for target, e in outputs:
                if e == 0:
                    body.append(f"{target} = T(0);")
        for statement in body:
            for line in wrap(statement, INDENT * 2):
                self.emit(line)
        self.emit(f"{INDENT}}}")

    # -- the header -----------------------------------------------------------------------

    def text(self) -> str:
        m = self.m
        self.preamble()
        self.emit(f"namespace {m.namespace} {{")
        self.emit()
        self.layout_comment()
        self.emit("template <class T>")
        self.emit(f"struct {m.name} {{")
        self.sizes_and_constants()
        self.emit()
        self.rhs()
        self.emit()
        self.rhs_at()
        if m.observables:
            self.emit()
            self.observables()
        if m.emit_jacobian:
            self.emit()
            self.jacobian_pattern()
            self.emit()
            self.jacobian()
        self.emit()
        self.jvp()
        self.emit()
        self.time_derivative()
        if m.drivers:
            self.emit()
            self.driver_jacobian()
        for event in m.events:
            self.emit()
            self.event(event)
        if m.events:
            self.emit()
            self.emit(f"{INDENT}/// The events, in the order of the definition: cubie::solver<{m.name}<T>,")
            self.emit(f"{INDENT}/// Method, Controller, Outputs..., {m.name}<T>::events>.")
            names = ", ".join(e.name for e in m.events)
            self.emit(f"{INDENT}using events = cubie::events<{names}>;")
        self.emit("};")
        self.emit()
        self.emit(f"}}  // namespace {m.namespace}")
        if self.print.uses_rsqrt:
            self.lines.insert(self.lines.index(CONFIG_INCLUDE) + 1, RSQRT_INCLUDE)
        return "\n".join(self.lines) + "\n"

    def preamble(self):
        m = self.m
        self.emit(f"// {m.name}: generated by cubie-codegen {__version__} from "
                  f"{one_line(m.source_name)}.")
        self.emit("// Do not edit: change the definition and regenerate (CMake's cubie_add_system")
        self.emit("// does so whenever the definition or the generator changes).")
        self.emit(f"// definition sha256: {m.digest}")
        if m.dimensions:
            dims = ", ".join(f"{k} = {v}" for k, v in m.dimensions.items())
            self.emit(f"// dimensions: {dims}")
        if m.description.strip():
            self.emit("//")
            for line in m.description.strip().splitlines():
                self.emit(f"// {one_line(line)}".rstrip())
        self.emit("// clang-format off")
        self.emit("#pragma once")
        self.emit()
        self.emit("#include <cuda/std/array>")
        self.emit("#include <cuda/std/cmath>")
        self.emit("#include <cuda/std/limits>")
        self.emit()
        self.emit(CONFIG_INCLUDE)
        self.emit('#include "cubie/core/vector.hpp"')
        if m.events:
            self.emit('#include "cubie/events/event_list.hpp"')
        self.emit('#include "cubie/systems/ode_system.hpp"')
        if m.emit_jacobian:
            self.emit('#include "cubie/systems/sparsity_pattern.hpp"')
        self.emit()

    def layout_comment(self):
        m = self.m
        counts = ", ".join(_count(len(v), w) for v, w in (
            (m.states, "state"), (m.parameters, "parameter"), (m.observables, "observable"),
            (m.drivers, "driver")))
        self.emit(f"/// {m.name}<T>: {counts}.")
        for title, elements in (("state", m.states), ("parameter", m.parameters),
                                ("driver", m.drivers)):
            for e in elements:
                note = f"  {one_line(e.description)}" if e.description else ""
                self.emit(f"///   {title:<9} {e.symbol.name:<7} {e.label}{note}".rstrip())
        for e, _ in m.observables:
            self.emit(f"///   observable {e.symbol.name:<7} {e.label}")
        for event in m.events:
            self.emit(f"///   event      {event.name}: {one_line(event.source)} "
                      f"({event.direction}, {event.action})")

    def sizes_and_constants(self):
        m = self.m
        self.emit(f"{INDENT}using value_type = T;")
        for what, n in (("states", len(m.states)), ("parameters", len(m.parameters)),
                        ("observables", len(m.observables)), ("drivers", len(m.drivers))):
            self.emit(f"{INDENT}static constexpr int n_{what} = {n};")
        if m.constants:
            self.emit()
        for name, value, description in m.constants:
            note = f"  // {one_line(description)}" if description else ""
            line = f"{INDENT}static constexpr T {name} = {literal(value)};{note}"
            if len(line) > WIDTH:
                line = f"{INDENT}static constexpr T {name} = {literal(value)};"
            self.emit(line)
        self.emit()
        for what, elements in (("state", m.states), ("parameter", m.parameters),
                               ("observable", [e for e, _ in m.observables]),
                               ("driver", m.drivers)):
            names = ", ".join(f'"{e.label}"' for e in elements)
            self.array(f"cuda::std::array<const char*, {len(elements)}>", f"{what}_names",
                       names)
        for what, elements in (("state", m.states), ("parameters", m.parameters)):
            values = ", ".join(literal(e.default) for e in elements)
            name = "default_state" if what == "state" else "default_parameters"
            self.array(f"cubie::vector<T, {len(elements)}>", name, values)

    def array(self, kind, name, values):
        line = f"{INDENT}static constexpr {kind} {name}{{{values}}};"
        if len(line) <= WIDTH:
            self.emit(line)
            return
        self.emit(f"{INDENT}static constexpr {kind} {name}{{")
        current = INDENT * 2
        for k, item in enumerate(values.split(", ")):
            piece = item + ("," if k + 1 < len(values.split(", ")) else "")
            if len(current) + len(piece) + 1 > WIDTH and current.strip():
                self.emit(current.rstrip())
                current = INDENT * 2
            current += piece + " "
        self.emit(current.rstrip())
        self.emit(f"{INDENT}}};")

    def rhs(self):
        s = self.m.name
        outputs = [(f"dydt[{i}]", e) for i, e in enumerate(self.m.rhs)]
        self.function("rhs", ["dy/dt"], outputs,
                      output=[(f"cubie::state_t<{s}>&", "dydt")])

    def rhs_at(self):
        """dy_i/dt of one component i, from a state read by index: the components of a lane
        when an explicit method deals the state out over lanes
        (include/cubie/loop/lane_system.hpp). A run of components whose equations are one
        expression shifted along their arrays is one branch, evaluated at a shifted index,
        so that lanes taking different components of it run together: mathematically rhs's
        component, though its sums and products may associate otherwise. Every other
        component is a case of its own, computed with rhs's temporaries: rhs's arithmetic."""
        s = self.m.name
        runs, singles = component_runs(self.m)
        branches, used = [], set()
        for first, length, template, uses_k in runs:
            body, names, _ = cse_statements([("__return", template)], self.print)
            used |= names
            branches.append((first, length, body, uses_k))
        # Each other component from rhs's own temporaries, those it reads: the same
        # arithmetic as rhs, rounding for rounding.
        nonzero = [i for i, e in enumerate(self.m.rhs) if e != 0]
        replacements, reduced = eliminate([self.m.rhs[i] for i in nonzero])
        of = dict(zip(nonzero, reduced))
        cases = []
        for i in singles:
            value = of.get(i, sympy.Integer(0))
            body, names = statements(needed(replacements, value), [("__return", value)],
                                     self.print)
            used |= names
            cases.append((i, body))
        for line in ("dy_i/dt alone, 0 <= i < n_states, from a state y that y[j] reads (a "
                     "vector, or", "a lane's view of one in shared memory): rhs's dydt[i], "
                     "its sums and products", "associated as rhs does except perhaps in a "
                     "run of shifted components."):
            self.emit(f"{INDENT}/// {line}")
        self.emit(f"{INDENT}template <class State>")
        arguments = [("int", "i"), ("T", "t"), ("const State&", "y"),
                     (f"const cubie::parameters_t<{s}>&", "p"),
                     (f"const cubie::drivers_t<{s}>&", "d")]
        used |= {"i"}
        self.declaration(f"{INDENT}CUBIE_HD T rhs_at(",
                         [f"{kind} {name}" if name in used else kind
                          for kind, name in arguments])

        def returning(body, indent):
            for statement in body:
                statement = statement.replace("__return = ", "return ", 1)
                for line in wrap(statement, indent):
                    self.emit(line)

        for first, length, body, uses_k in branches:
            lower = f"i >= {first} && " if first else "i >= 0 && "
            self.emit(f"{INDENT * 2}if ({lower}i < {first + length}) {{")
            if uses_k:
                shift = f"i - {first}" if first else "i"
                self.emit(f"{INDENT * 3}const unsigned k = static_cast<unsigned>({shift});")
            returning(body, INDENT * 3)
            self.emit(f"{INDENT * 2}}}")
        if cases:
            self.emit(f"{INDENT * 2}switch (i) {{")
            for i, body in cases:
                if len(body) == 1:
                    self.emit(f"{INDENT * 2}case {i}:")
                    returning(body, INDENT * 3)
                else:
                    self.emit(f"{INDENT * 2}case {i}: {{")
                    returning(body, INDENT * 3)
                    self.emit(f"{INDENT * 2}}}")
            self.emit(f"{INDENT * 2}default:")
            self.emit(f"{INDENT * 3}return T(0);")
            self.emit(f"{INDENT * 2}}}")
        else:
            self.emit(f"{INDENT * 2}return T(0);")
        self.emit(f"{INDENT}}}")

    def observables(self):
        s = self.m.name
        outputs = [(e.symbol.name, expr) for e, expr in self.m.observables]
        self.function("observables", ["Named intermediate quantities, in observable_names order."],
                      outputs, output=[(f"cubie::observables_t<{s}>&", "out")])

    def derivatives(self, f, symbols, index=None):
        """(k, d f / d symbols[k]) for the symbols f depends on, in order: the others'
        derivatives are zero, and looking only at f's own symbols keeps the work in
        proportion to the system's size, not its square."""
        index = {x: k for k, x in enumerate(symbols)} if index is None else index
        mine = sorted(index[x] for x in f.free_symbols if x in index)
        return [(k, derivative(f, symbols[k])) for k in mine]

    def jacobian_entries(self):
        """(i, j, d f_i / d y_j) for the entries of J that are not identically zero, row by
        row: the jacobian and its pattern, differentiated once."""
        if self._jacobian is None:
            self._jacobian = [(i, j, d) for i, f in enumerate(self.m.rhs)
                              for j, d in self.derivatives(f, self.states, self.state_index)
                              if d != 0]
        return self._jacobian

    def jacobian_pattern(self):
        n = len(self.states)
        rows = [["."] * n for _ in range(n)]
        for i, j, _ in self.jacobian_entries():
            rows[i][j] = "x"
        self.emit(f"{INDENT}/// The entries of J that can be nonzero ('x'), row i: the pattern in which stiff")
        self.emit(f"{INDENT}/// methods factor I - h gamma J (cubie/linear/sparse_lu.hpp).")
        self.emit(f"{INDENT}static constexpr cubie::sparsity_pattern<{n}> jacobian_pattern{{{{")
        for row in rows:
            self.emit(f'{INDENT * 2}"{"".join(row)}",')
        self.emit(f"{INDENT}}}}};")

    def jacobian(self):
        s = self.m.name
        outputs = [(f"J[{i}][{j}]", d) for i, j, d in self.jacobian_entries()]
        self.function("jacobian", ["J[i][j] = d f_i / d y_j (dense)."], outputs,
                      output=[(f"cubie::jacobian_t<{s}>&", "J")], zero="J",
                      entries=len(self.states) ** 2)

    def jvp(self):
        s = self.m.name
        v = [sympy.Symbol(f"v[{j}]", real=True) for j in range(len(self.states))]
        outputs = []
        for i, f in enumerate(self.m.rhs):
            terms = [d * v[j]
                     for j, d in self.derivatives(f, self.states, self.state_index)]
            outputs.append((f"jv[{i}]", sympy.Add(*terms)))
        self.function("jvp", ["Jacobian-vector product jv = J v, without forming J."],
                      outputs, extra_in=[(f"const cubie::state_t<{s}>&", "v")],
                      output=[(f"cubie::state_t<{s}>&", "jv")])

    def time_derivative(self):
        s = self.m.name
        outputs = [(f"dfdt[{i}]", sympy.diff(f, self.m.time)) for i, f in enumerate(self.m.rhs)]
        comment = ["Partial derivative of f in t at fixed y, p and driver values."]
        if self.m.drivers:
            comment.append("Drivers vary in time too: add driver_jacobian * (driver rates).")
        self.function("time_derivative", comment, outputs,
                      output=[(f"cubie::state_t<{s}>&", "dfdt")], zero="dfdt")

    def driver_jacobian(self):
        s = self.m.name
        drivers = [e.symbol for e in self.m.drivers]
        outputs = []
        for i, f in enumerate(self.m.rhs):
            outputs += [(f"Jd[{i}][{k}]", d) for k, d in self.derivatives(f, drivers)]
        kind = f"cubie::vector<cubie::vector<T, {len(self.m.drivers)}>, {len(self.states)}>&"
        self.function("driver_jacobian", ["Jd[i][k] = d f_i / d driver_k."], outputs,
                      output=[(kind, "Jd")], zero="Jd",
                      entries=len(self.states) * len(drivers))


    # -- events -------------------------------------------------------------------------

    def event(self, event):
        """An event type (cubie/events/event.hpp), nested in the system: its name,
        direction, action and capacity, its condition and, for action affect, its affect,
        every new value computed from the values before the event."""
        s, inner = self.m.name, INDENT * 2
        self.emit(f"{INDENT}/// Event {event.name} ({event.direction}, {event.action}): "
                  f"{one_line(event.source)} crosses 0"
                  + (f"; {one_line(event.description)}" if event.description else ""))
        self.emit(f"{INDENT}struct {event.name} {{")
        self.emit(f'{inner}static constexpr const char* name = "{event.name}";')
        self.emit(f"{inner}static constexpr cubie::crossing direction = "
                  f"cubie::crossing::{event.direction};")
        self.emit(f"{inner}static constexpr cubie::event_action action = "
                  f"cubie::event_action::{event.action};")
        self.emit(f"{inner}static constexpr int capacity = {event.capacity};")
        self.emit()

        vector = len(event.conditions) > 1
        kind = f"cubie::vector<T, {len(event.conditions)}>" if vector else "T"
        target = (lambda k: f"g[{k}]") if vector else (lambda k: "g")
        outputs = [(target(k), c) for k, c in enumerate(event.conditions)]
        body, used, count = cse_statements(outputs, self.print)
        self.cse_counts[f"{event.name}.condition"] = count
        if vector:
            body.insert(count, f"{kind} g{{}};")
            body.append("return g;")
        else:
            body[-1] = "return " + body[-1][len("g = "):]
        self.emit(f"{inner}/// {'The conditions' if vector else 'The condition'} whose "
                  "zero crossings are the event.")
        self.event_function(kind, "condition", used, [("T", "t"), (f"const cubie::state_t<{s}>&", "y"),
                            (f"const cubie::parameters_t<{s}>&", "p"),
                            (f"const cubie::drivers_t<{s}>&", "d")], body)

        if event.affects:
            outputs = [(f"const T a{k}", value) for k, (_, value, _) in enumerate(event.affects)]
            body, used, count = cse_statements(outputs, self.print)
            self.cse_counts[f"{event.name}.affect"] = count
            body += [f"{t} = a{k};" for k, (t, _, _) in enumerate(event.affects)]
            used |= {t.split("[")[0] for t, _, _ in event.affects}
            self.emit()
            self.emit(f"{inner}/// {'; '.join(one_line(label) for _, _, label in event.affects)}"
                      "; every value from those before the event.")
            self.event_function("void", "affect", used, [("T", "t"), (f"cubie::state_t<{s}>&", "y"),
                                (f"cubie::parameters_t<{s}>&", "p"),
                                (f"const cubie::drivers_t<{s}>&", "d")], body)
        self.emit(f"{INDENT}}};")

    def event_function(self, result, function, used, arguments, body):
        """A member function of an event type, unused arguments unnamed."""
        inner = INDENT * 2
        parts = [f"{kind} {name}" if name in used else kind for kind, name in arguments]
        self.declaration(f"{inner}CUBIE_HD {result} {function}(", parts)
        for statement in body:
            for line in wrap(statement, inner + INDENT):
                self.emit(line)
        self.emit(f"{inner}}}")


def _array_places(model):
    """Each state of an array: (its array, its element)."""
    states = [e.symbol for e in model.states]
    return {states[a.first + r]: (a, r) for a in model.state_arrays for r in range(a.size)}


def _shifted(expr, places, states, size, d):
    """expr with every state of the arrays of `size` elements moved d elements along them
    (around a periodic one); None where that leaves a non-periodic array."""
    moves = {}
    for symbol in expr.free_symbols:
        array, r = places.get(symbol, (None, 0))
        if array is None or array.size != size:
            continue
        to = r + d
        if array.periodic:
            to %= size
        elif to >= size:
            return None
        moves[symbol] = states[array.first + to]
    return expr.xreplace(moves)


def _indexed(expr, places, size):
    """expr with the states of the arrays of `size` elements read k elements further on
    (`y[first + (k + r) % size]` around a periodic array, `y[first + r + k]` along another),
    and whether it reads any so."""
    reads = {}
    for symbol in expr.free_symbols:
        array, r = places.get(symbol, (None, 0))
        if array is None or array.size != size:
            continue
        if array.periodic and r > 0:
            index = f"(k + {r}u) % {size}u"
            index = f"{array.first} + {index}" if array.first else index
        else:
            index = f"{array.first + r} + k" if array.first + r else "k"
        reads[symbol] = sympy.Symbol(f"y[{index}]", real=True)
    return expr.xreplace(reads), bool(reads)


def component_runs(model):
    """The equations of model.rhs in runs: (first, length, expression at a shifted index
    k = i - first, whether it reads k) for each run of two or more consecutive components
    of a state array whose equations are the first one's shifted along the arrays of that
    size, and the other components' indices."""
    places = _array_places(model)
    states = [e.symbol for e in model.states]
    runs, covered = [], set()
    for array in model.state_arrays:
        start = 0
        while start < array.size:
            first = array.first + start
            end = start + 1
            while end < array.size and \
                    _shifted(model.rhs[first], places, states, array.size, end - start) == \
                    model.rhs[array.first + end]:
                end += 1
            if end - start >= 2:
                runs.append((first, end - start) +
                            _indexed(model.rhs[first], places, array.size))
                covered |= set(range(first, array.first + end))
            start = end
    singles = [i for i in range(len(model.rhs)) if i not in covered]
    return runs, singles


def header(model: Model) -> str:
    """The C++ header for `model`."""
    with distribute(False):  # keep 5*(a - b) whole: SymPy would write 5*a - 5*b
        return _Header(model).text()


def cse_counts(model: Model) -> dict:
    """Common subexpressions found per generated function (for tests and reports)."""
    h = _Header(model)
    with distribute(False):
        h.text()
    return h.cse_counts
