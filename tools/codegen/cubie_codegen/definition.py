"""Reading a definition file (TOML) into a checked Model.

    name = "lorenz"                     # the C++ type (default: the file's stem)
    description = "Lorenz (1963)"       # copied into the header's comment

    [dimensions]   N = 32               # whole numbers for array sizes and indices
    [constants]    beta = "8/3"         # compiled in: number or constant expression
    [parameters]   rho = 28             # per trajectory: default value
    [states]       x = 1                # initial value; or { initial = ..., size = "N",
                                        #   periodic = true, description = "..." }
    [drivers]      I_ext = "injected current (uA/cm^2)"   # time-dependent inputs
    [observables]  speed = "sqrt(u**2 + v**2)"            # named intermediate expressions
    [equations]    dx = "sigma*(y - x)"                   # "dx[i]" = "..." for arrays
    [options]      jacobian = "auto"    # dense Jacobian: true, false, or "auto" (<= 32)
                   namespace = "cubie::catalogue"

Every mistake is a DefinitionError naming the file, line and column.
"""

import hashlib
import os
import re
import tomllib
from dataclasses import dataclass, field
from typing import Optional

import sympy
from sympy.core.parameters import distribute

from cubie_codegen import expressions
from cubie_codegen.errors import DefinitionError, Location
from cubie_codegen.expressions import Quantity, Scope
from cubie_codegen.names import problem_with

SECTIONS = ("dimensions", "constants", "parameters", "states", "drivers", "observables",
            "equations", "options")
TOP_LEVEL = ("name", "description") + SECTIONS
AUTO_JACOBIAN_LIMIT = 32  # states; above it a dense Jacobian costs too many registers


@dataclass
class Element:
    """One entry of a generated vector: a state, parameter, driver or observable."""

    label: str  # "x" or "x[3]"
    symbol: sympy.Symbol
    default: Optional[sympy.Rational] = None
    description: str = ""


@dataclass
class Model:
    name: str
    description: str
    namespace: str
    source_name: str  # the definition's file name, without its folder
    digest: str  # sha256 of the definition's bytes and the dimension overrides
    dimensions: dict  # name -> int
    constants: list  # (name, exact value, description)
    states: list  # Element
    parameters: list
    drivers: list
    observables: list  # (Element, expression)
    rhs: list  # one expression per state
    time: sympy.Symbol
    emit_jacobian: bool
    constant_symbols: dict = field(default_factory=dict)  # Symbol -> exact value


class _Locator:
    """Line and column of each `key = value` in the file, by table. tomllib reports no
    positions for values, so the text is scanned once for them."""

    KEY = re.compile(r"""\s*("(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+)\s*=\s*""")
    TABLE = re.compile(r"\s*\[\s*([A-Za-z0-9_-]+)\s*\]")

    def __init__(self, path, text):
        self.path = path
        self.keys = {}  # (table, key) -> (line, value column)
        self.tables = {}
        table = ""
        for number, line in enumerate(text.splitlines(), start=1):
            m = self.TABLE.match(line)
            if m:
                table = m.group(1)
                self.tables.setdefault(table, number)
                continue
            m = self.KEY.match(line)
            if m:
                key = m.group(1)
                if key[0] in "\"'":
                    key = key[1:-1]
                column = m.end() + 1
                rest = line[m.end():]
                for quote in ('"""', "'''", '"', "'"):
                    if rest.startswith(quote):
                        column += len(quote)
                        break
                key_column = len(line) - len(line.lstrip()) + 1
                self.keys.setdefault((table, key), (number, column, key_column))

    def key(self, table, key) -> Location:
        """Where the value of `key` starts (inside its quotes)."""
        if (table, key) in self.keys:
            line, column, _ = self.keys[(table, key)]
            return Location(self.path, line, column)
        return self.table(table)

    def name(self, table, key) -> Location:
        """Where `key` itself is written."""
        if (table, key) in self.keys:
            line, _, column = self.keys[(table, key)]
            return Location(self.path, line, column)
        return self.table(table)

    def table(self, table) -> Location:
        return Location(self.path, self.tables.get(table, 0), 0)


def load(path: str, overrides: Optional[dict] = None, name: Optional[str] = None) -> Model:
    """Reads and checks the definition at `path`. `overrides` replace dimensions (the
    command line's --set N=64); `name` replaces the type's name."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise DefinitionError(Location(path), f"cannot read the definition: {e.strerror}")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise DefinitionError(Location(path), f"not UTF-8 text: {e.reason}") from None
    with distribute(False):  # keep 5*(a - b) as written: SymPy would make it 5*a - 5*b
        return _Reader(path, raw, text, overrides or {}, name).model()


class _Reader:
    def __init__(self, path, raw, text, overrides, name):
        self.path = path
        self.display = os.path.basename(path)
        self.text = text
        self.overrides = dict(overrides)
        self.name_override = name
        self.locate = _Locator(path, text)
        digest = hashlib.sha256(raw)
        for key in sorted(self.overrides):
            digest.update(f"\0{key}={self.overrides[key]}".encode())
        self.digest = digest.hexdigest()
        self.quantities = {}
        self.time = sympy.Symbol("t", real=True)
        self.observable_exprs = {}
        self.observable_sources = {}
        self.resolving = []

    # -- helpers --------------------------------------------------------------------------

    def fail(self, where, message):
        raise DefinitionError(where, message)

    def table(self, data, section):
        value = data.get(section, {})
        if not isinstance(value, dict):
            self.fail(self.locate.key("", section), f"'{section}' must be a table: [{section}]")
        return value

    SECTION_OF = {"dimension": "dimensions", "constant": "constants", "parameter": "parameters",
                  "state": "states", "driver": "drivers", "observable": "observables"}

    def declare(self, name, kind, where, **kw) -> Quantity:
        """Adds a named quantity; `where` is its value's location (expressions' columns
        count from it), while errors about the name point at the name."""
        at_name = self.locate.name(self.SECTION_OF[kind], name)
        problem = problem_with(name, in_code=kind == "constant")
        if problem:
            self.fail(at_name, problem)
        if name in expressions.BUILTIN_NAMES or name in expressions.FUNCTIONS:
            self.fail(at_name, f"'{name}' is a built-in name of expressions")
        if name in self.quantities:
            other = self.quantities[name]
            first, second, kind_first = other.location, at_name, other.kind
            if first.line > second.line:  # report the later one in the file
                first, second, kind_first = at_name, other.location, kind
            self.fail(second, f"'{name}' is already defined as a {kind_first} "
                              f"(line {first.line})")
        q = Quantity(name, kind, at_name, **kw)
        self.quantities[name] = q
        return q

    def scope(self) -> Scope:
        return Scope(self.quantities, self.time, self.observable)

    def number(self, value, where, what) -> sympy.Rational:
        """Exact value of a number or a constant expression ("8/3", "2*pi")."""
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            self.fail(where, f"{what} must be a number or an expression string")
        if isinstance(value, int):
            return sympy.Integer(value)
        if isinstance(value, float):
            if value != value or value in (float("inf"), float("-inf")):
                self.fail(where, f"{what} must be finite")
            return sympy.Rational(repr(value))
        expr = expressions.parse(value, where, self.scope(), what=what)
        expr = expr.subs(self.constant_values())
        if not expr.is_number:
            self.fail(where, f"{what} must not depend on states, parameters, drivers or t")
        return expr

    def constant_values(self):
        return {q.symbols[0]: q.value for q in self.quantities.values()
                if q.kind == "constant"}

    def check_keys(self, table, allowed, where, what):
        for key in table:
            if key not in allowed:
                self.fail(where, f"unknown key '{key}' in {what}; expected one of "
                                 f"{', '.join(allowed)}")

    # -- sections -------------------------------------------------------------------------

    def model(self) -> Model:
        try:
            data = tomllib.loads(self.text)
        except tomllib.TOMLDecodeError as e:
            message = str(e)
            m = re.search(r"\(at line (\d+), column (\d+)\)", message)
            where = Location(self.path)
            if m:
                where = Location(self.path, int(m.group(1)), int(m.group(2)))
                message = message[:m.start()].strip()
            if "overwrite" in message:
                message += " (a name defined twice?)"
            self.fail(where, f"TOML syntax: {message}")

        for key in data:
            if key not in TOP_LEVEL:
                self.fail(self.locate.key("", key) if ("", key) in self.locate.keys else
                          self.locate.table(key),
                          f"unknown section or key '{key}'; expected one of "
                          f"{', '.join(TOP_LEVEL)}")
        type_name = self.name_override or data.get("name") or os.path.splitext(
            self.display)[0]
        where_name = self.locate.key("", "name")
        if not isinstance(type_name, str):
            self.fail(where_name, "name must be a string")
        description = data.get("description", "")
        if not isinstance(description, str):
            self.fail(self.locate.key("", "description"), "description must be a string")

        self.read_dimensions(self.table(data, "dimensions"))
        self.read_constants(self.table(data, "constants"))
        states = self.read_vector(self.table(data, "states"), "states", "state", "initial")
        if not states:
            self.fail(self.locate.table("states") if "states" in data else Location(self.path),
                      "a system needs at least one state: add a [states] table")
        parameters = self.read_vector(self.table(data, "parameters"), "parameters",
                                      "parameter", "default")
        drivers = self.read_drivers(self.table(data, "drivers"))
        observables = self.read_observables(self.table(data, "observables"))
        rhs = self.read_equations(self.table(data, "equations"), states)
        emit_jacobian, namespace = self.read_options(self.table(data, "options"), len(states))

        problem = problem_with(type_name)
        if problem:
            self.fail(where_name, f"system name: {problem}")
        if type_name in self.quantities:
            self.fail(where_name, f"the system's name '{type_name}' is also the name of a "
                                  f"{self.quantities[type_name].kind}")
        if type_name in expressions.BUILTIN_NAMES:
            self.fail(where_name, f"the system's name '{type_name}' is a built-in name")

        constants = [(q.name, q.value, q.description) for q in self.quantities.values()
                     if q.kind == "constant"]
        return Model(
            name=type_name, description=description, namespace=namespace,
            source_name=self.display, digest=self.digest,
            dimensions={q.name: q.value for q in self.quantities.values()
                        if q.kind == "dimension"},
            constants=constants, states=states, parameters=parameters, drivers=drivers,
            observables=observables, rhs=rhs, time=self.time, emit_jacobian=emit_jacobian,
            constant_symbols=self.constant_values())

    def read_dimensions(self, table):
        for key in self.overrides:
            if key not in table:
                self.fail(Location(self.path), f"--set {key}: the definition has no "
                                               f"dimension '{key}'")
        for name, value in table.items():
            where = self.locate.key("dimensions", name)
            value = self.overrides.get(name, value)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                self.fail(where, f"dimension '{name}' must be a whole number of at least 1")
            self.declare(name, "dimension", where, value=value)

    def read_constants(self, table):
        for name, value in table.items():
            where = self.locate.key("constants", name)
            description = ""
            if isinstance(value, dict):
                self.check_keys(value, ("value", "description"), where, f"constant '{name}'")
                if "value" not in value:
                    self.fail(where, f"constant '{name}' needs a value")
                description = str(value.get("description", ""))
                value = value["value"]
            exact = self.number(value, where, f"constant '{name}'")
            q = self.declare(name, "constant", where, value=exact,
                             symbols=[sympy.Symbol(name, real=True)])
            q.description = description or (value if isinstance(value, str) else "")

    def read_vector(self, table, section, kind, default_key):
        elements = []
        for name, spec in table.items():
            where = self.locate.key(section, name)
            size, periodic, description, default = None, False, "", spec
            if isinstance(spec, dict):
                self.check_keys(spec, (default_key, "size", "periodic", "description"),
                                where, f"{kind} '{name}'")
                default = spec.get(default_key, 0)
                description = spec.get("description", "")
                if not isinstance(description, str):
                    self.fail(where, f"description of '{name}' must be a string")
                periodic = spec.get("periodic", False)
                if not isinstance(periodic, bool):
                    self.fail(where, f"periodic of '{name}' must be true or false")
                if "size" in spec:
                    size = self.size(spec["size"], where, name)
                elif periodic:
                    self.fail(where, f"'{name}' is periodic but has no size")
            count = 1 if size is None else size
            letter = {"state": "y", "parameter": "p"}[kind]
            first = sum(1 for q in self.quantities.values() if q.kind == kind and q.size is None)
            first += sum(q.size for q in self.quantities.values()
                         if q.kind == kind and q.size is not None)
            symbols = [sympy.Symbol(f"{letter}[{first + k}]", real=True)
                       for k in range(count)]
            self.declare(name, kind, where, size=size, periodic=periodic, symbols=symbols)
            values = self.defaults(default, count, where, f"{default_key} value of '{name}'")
            for k in range(count):
                label = name if size is None else f"{name}[{k}]"
                elements.append(Element(label, symbols[k], values[k], description))
        return elements

    def size(self, value, where, name):
        if isinstance(value, str):
            q = self.quantities.get(value)
            if q is None or q.kind != "dimension":
                self.fail(where, f"size of '{name}': '{value}' is not a dimension")
            return q.value
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            self.fail(where, f"size of '{name}' must be a whole number of at least 1 or a "
                             "dimension's name")
        return value

    def defaults(self, value, count, where, what):
        if isinstance(value, list):
            if len(value) != count:
                self.fail(where, f"{what}: {len(value)} values for {count} elements")
            return [self.number(v, where, what) for v in value]
        return [self.number(value, where, what)] * count

    def read_drivers(self, table):
        drivers = []
        for k, (name, spec) in enumerate(table.items()):
            where = self.locate.key("drivers", name)
            description = spec if isinstance(spec, str) else ""
            if isinstance(spec, dict):
                self.check_keys(spec, ("description",), where, f"driver '{name}'")
                description = str(spec.get("description", ""))
            elif not isinstance(spec, str):
                self.fail(where, f"driver '{name}': give a description string or a table")
            symbol = sympy.Symbol(f"d[{k}]", real=True)
            self.declare(name, "driver", where, symbols=[symbol])
            drivers.append(Element(name, symbol, None, description))
        return drivers

    def read_observables(self, table):
        for name, source in table.items():
            where = self.locate.key("observables", name)
            if not isinstance(source, str):
                self.fail(where, f"observable '{name}' must be an expression string")
            self.declare(name, "observable", where)
            self.observable_sources[name] = (source, where)
        result = []
        for k, name in enumerate(self.observable_sources):
            expr = self.observable(name, self.observable_sources[name][1])
            result.append((Element(name, sympy.Symbol(f"out[{k}]", real=True)), expr))
        return result

    def observable(self, name, used_at) -> sympy.Expr:
        """An observable's expression, reading it on first use (observables may use one
        another in any order, but not in a cycle)."""
        if name in self.observable_exprs:
            return self.observable_exprs[name]
        if name not in self.observable_sources:
            self.fail(used_at, f"observable '{name}' is used before [observables] is read")
        if name in self.resolving:
            cycle = " -> ".join(self.resolving[self.resolving.index(name):] + [name])
            self.fail(used_at, f"observables depend on each other in a cycle: {cycle}")
        self.resolving.append(name)
        source, where = self.observable_sources[name]
        expr = expressions.parse(source, where, self.scope(), what=f"observable '{name}'")
        self.resolving.pop()
        self.observable_exprs[name] = expr
        return expr

    def read_equations(self, table, states):
        by_symbol = {e.symbol: None for e in states}
        lhs = re.compile(r"d([A-Za-z][A-Za-z0-9_]*)\s*(?:\[(.*)\])?\Z")
        for key, source in table.items():
            where = self.locate.key("equations", key)
            key_where = Location(self.path, where.line, 1) if where.line else where
            m = lhs.match(key.strip())
            if not m:
                self.fail(key_where, f"equation '{key}': the left side must be d<state>, "
                                     "e.g. dx, or dx[i] for an array")
            name, index_text = m.group(1), m.group(2)
            q = self.quantities.get(name)
            if q is None or q.kind != "state":
                what = f"a {q.kind}" if q else "not defined"
                self.fail(key_where, f"equation '{key}' is for unknown state '{name}' "
                                     f"({what}){self.scope().suggestion(name)}")
            if not isinstance(source, str):
                self.fail(where, f"equation '{key}' must be an expression string")
            for k, indices in self.targets(q, index_text, key_where, key):
                symbol = q.symbols[k]
                label = q.name if q.size is None else f"{q.name}[{k}]"
                if by_symbol[symbol] is not None:
                    self.fail(key_where, f"a second equation for {label}")
                by_symbol[symbol] = expressions.parse(
                    source, where, self.scope(), indices, what=f"equation d{label}")
        missing = [e.label for e in states if by_symbol[e.symbol] is None]
        if missing:
            self.fail(self.locate.table("equations"),
                      f"no equation for state{'s' * (len(missing) > 1)} "
                      f"{', '.join(missing)}: add d{missing[0]} = \"...\" to [equations]")
        return [by_symbol[e.symbol] for e in states]

    def targets(self, q, index_text, where, key):
        """The elements an equation's left side covers: (element, index variables)."""
        if q.size is None:
            if index_text is not None:
                self.fail(where, f"equation '{key}': state '{q.name}' is not an array")
            return [(0, {})]
        if index_text is None:
            self.fail(where, f"equation '{key}': '{q.name}' is an array: write "
                             f"d{q.name}[i] (every element) or d{q.name}[0] (one)")
        index_text = index_text.strip()
        if re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", index_text) and \
                index_text not in self.quantities:
            return [(k, {index_text: k}) for k in range(q.size)]
        k = expressions.parse_index(index_text, where, self.scope(), {})
        if not 0 <= k < q.size:
            self.fail(where, f"equation '{key}': index {k} is outside {q.name}[0..{q.size - 1}]")
        return [(k, {})]

    def read_options(self, table, n_states):
        where = self.locate.table("options")
        self.check_keys(table, ("jacobian", "namespace"), where, "[options]")
        jacobian = table.get("jacobian", "auto")
        if jacobian == "auto":
            jacobian = n_states <= AUTO_JACOBIAN_LIMIT
        elif not isinstance(jacobian, bool):
            self.fail(self.locate.key("options", "jacobian"),
                      "jacobian must be true, false or \"auto\"")
        namespace = table.get("namespace", "cubie::catalogue")
        if not isinstance(namespace, str) or not all(
                problem_with(part) == "" or part in ("cubie",)
                for part in namespace.split("::")):
            self.fail(self.locate.key("options", "namespace"),
                      "namespace must be C++ identifiers joined by ::")
        return jacobian, namespace
