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
    [[events]]     name = "ground"      # zero crossings of a condition (one table each)
                   condition = "x"      #   or a list of them
                   direction = "falling"                  # rising, falling or either
                   action = "affect"    # record, affect or terminate
                   affect = { v = "-e*v" }                # new states and parameters
                   capacity = 8         # occurrences kept per trajectory (default 1)

Every mistake is a DefinitionError naming the file, line and column.
"""

import hashlib
import os
import re
from dataclasses import dataclass, field
from typing import Optional

import sympy
from sympy.core.parameters import distribute

from cubie_codegen import expressions
from cubie_codegen.errors import DefinitionError, Location
from cubie_codegen.expressions import Quantity, Scope, constant_problem
from cubie_codegen.limits import MAX_DEFINITION_BYTES, MAX_ELEMENTS
from cubie_codegen.names import namespace_problem, problem_with
from cubie_codegen.toml_source import Locator, parse, read

SECTIONS = ("dimensions", "constants", "parameters", "states", "drivers", "observables",
            "equations", "options")
TOP_LEVEL = ("name", "description") + SECTIONS + ("events",)
EVENT_KEYS = ("name", "description", "condition", "direction", "action", "affect", "capacity")
DIRECTIONS = ("rising", "falling", "either")
ACTIONS = ("record", "affect", "terminate")
# Members of the generated event types, and the list's alias: in a model with events, a
# constant of one of these names would be hidden inside them.
EVENT_MEMBERS = ("name", "direction", "action", "capacity", "condition", "affect", "events",
                 "crossing", "event_action")
MAX_CAPACITY = 10_000
AUTO_JACOBIAN_LIMIT = 32  # states; above it a dense Jacobian costs too many registers


@dataclass
class Element:
    """One entry of a generated vector: a state, parameter, driver or observable."""

    label: str  # "x" or "x[3]"
    symbol: sympy.Symbol
    default: Optional[sympy.Rational] = None
    description: str = ""


@dataclass
class Event:
    """An event: conditions whose zero crossings are located, and what follows them."""

    name: str
    description: str
    conditions: list  # expressions; more than one: a vector of conditions
    direction: str  # rising, falling, either
    action: str  # record, affect, terminate
    affects: list  # (target, expression, label): "y[1]" or "p[0]", new value, "v = -e*v"
    capacity: int
    source: str  # the condition(s) as written, for the header's comment


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
    events: list = field(default_factory=list)  # Event
    state_arrays: list = field(default_factory=list)  # StateArray, in the states' order


@dataclass
class StateArray:
    """A state declared with a size: states first .. first + size - 1."""

    first: int
    size: int
    periodic: bool


def _expression_text(source: str) -> str:
    """An expression as one line for a comment: a backslash in an expression can only
    continue a line and '#' only start a comment (strings are not expressions), so
    both go, with the line breaks."""
    return " ".join(re.sub(r"#[^\n]*", " ", source).replace("\\", " ").split())


def load(path: str, overrides: Optional[dict] = None, name: Optional[str] = None) -> Model:
    """Reads and checks the definition at `path`. `overrides` replace dimensions (the
    command line's --set N=64); `name` replaces the type's name."""
    raw, text = read(path, "definition", MAX_DEFINITION_BYTES)
    with distribute(False):  # keep 5*(a - b) as written: SymPy would make it 5*a - 5*b
        return _Reader(path, raw, text, overrides or {}, name).model()


class _Reader:
    def __init__(self, path, raw, text, overrides, name):
        self.path = path
        self.display = os.path.basename(path)
        self.text = text
        self.overrides = dict(overrides)
        self.name_override = name
        self.locate = Locator(path, text)
        digest = hashlib.sha256(raw)
        for key in sorted(self.overrides):
            digest.update(f"\0{key}={self.overrides[key]}".encode())
        self.digest = digest.hexdigest()
        self.quantities = {}
        self.time = sympy.Symbol("t", real=True)
        self.observable_exprs = {}
        self.observable_sources = {}
        self._scope = Scope(self.quantities, self.time, self.observable)

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
        return self._scope

    def number(self, value, where, what) -> sympy.Rational:
        """Exact value of a number or a constant expression ("8/3", "2*pi")."""
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            self.fail(where, f"{what} must be a number or an expression string")
        if isinstance(value, float):
            if value != value or value in (float("inf"), float("-inf")):
                self.fail(where, f"{what} must be finite")
            return sympy.Rational(repr(value))
        if isinstance(value, int):
            expr, values = sympy.Integer(value), {}
        else:
            expr = expressions.parse(value, where, self.scope(), what=what)
            values = self.scope().constant_values()
            if not expr.free_symbols <= set(values):
                self.fail(where, f"{what} must not depend on states, parameters, drivers "
                                 "or t")
        problem = constant_problem(expr, values)
        if problem:
            self.fail(where, f"{what} {problem}")
        return expr.xreplace(values)

    def description(self, table, where, name) -> str:
        """The description of a table entry, on one line (it goes into a comment that
        lists the elements)."""
        text = table.get("description", "")
        if not isinstance(text, str):
            self.fail(where, f"description of '{name}' must be a string")
        self.check_text(text, where, f"description of '{name}'")
        return " ".join(text.split())

    def check_text(self, text, where, what):
        """Text copied into the header's comments may hold anything printable, on any
        number of lines, but no line may end in a backslash: C++ would join the next
        line of code to the comment."""
        for line in text.splitlines():
            if line.rstrip().endswith("\\"):
                self.fail(where, f"{what}: a line ends with a backslash, which would join "
                                 "the next line of the header to the comment (remove it)")

    def check_keys(self, table, allowed, where, what):
        for key in table:
            if key not in allowed:
                self.fail(where, f"unknown key '{key}' in {what}; expected one of "
                                 f"{', '.join(allowed)}")

    # -- sections -------------------------------------------------------------------------

    def model(self) -> Model:
        data = parse(self.path, self.text)

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
        self.check_text(description, self.locate.key("", "description"), "description")

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
        events = self.read_events(data.get("events", []))

        problem = problem_with(type_name)
        if problem:
            self.fail(where_name, f"system name: {problem}")
        if type_name in self.quantities:
            self.fail(where_name, f"the system's name '{type_name}' is also the name of a "
                                  f"{self.quantities[type_name].kind}")
        if type_name in expressions.BUILTIN_NAMES:
            self.fail(where_name, f"the system's name '{type_name}' is a built-in name")
        for k, event in enumerate(events):
            if event.name == type_name:
                self.fail(self.locate.key(f"events#{k}", "name"),
                          f"event '{event.name}' has the system's name")

        constants = [(q.name, q.value, q.description) for q in self.quantities.values()
                     if q.kind == "constant"]
        return Model(
            name=type_name, description=description, namespace=namespace,
            source_name=self.display, digest=self.digest,
            dimensions={q.name: q.value for q in self.quantities.values()
                        if q.kind == "dimension"},
            constants=constants, states=states, parameters=parameters, drivers=drivers,
            observables=observables, rhs=rhs, time=self.time, emit_jacobian=emit_jacobian,
            constant_symbols=self.scope().constant_values(), events=events,
            state_arrays=self.state_arrays(states))

    def state_arrays(self, states):
        index = {e.symbol: k for k, e in enumerate(states)}
        return [StateArray(index[q.symbols[0]], q.size, q.periodic)
                for q in self.quantities.values() if q.kind == "state" and q.size is not None]

    def read_dimensions(self, table):
        for key in self.overrides:
            if key not in table:
                self.fail(Location(self.path), f"--set {key}: the definition has no "
                                               f"dimension '{key}'")
        for name, value in table.items():
            where = self.locate.key("dimensions", name)
            value = self.overrides.get(name, value)
            if isinstance(value, bool) or not isinstance(value, int) or \
                    not 1 <= value <= MAX_ELEMENTS:
                self.fail(where, f"dimension '{name}' must be a whole number from 1 to "
                                 f"{MAX_ELEMENTS}")
            self.declare(name, "dimension", where, value=value)

    def read_constants(self, table):
        for name, value in table.items():
            where = self.locate.key("constants", name)
            description = ""
            if isinstance(value, dict):
                self.check_keys(value, ("value", "description"), where, f"constant '{name}'")
                if "value" not in value:
                    self.fail(where, f"constant '{name}' needs a value")
                description = self.description(value, where, name)
                value = value["value"]
            exact = self.number(value, where, f"constant '{name}'")
            q = self.declare(name, "constant", where, value=exact,
                             symbols=[sympy.Symbol(name, real=True)])
            q.description = description or (_expression_text(value)
                                             if isinstance(value, str) else "")

    def read_vector(self, table, section, kind, default_key):
        elements = []
        for name, spec in table.items():
            where = self.locate.key(section, name)
            size, periodic, description, default = None, False, "", spec
            if isinstance(spec, dict):
                self.check_keys(spec, (default_key, "size", "periodic", "description"),
                                where, f"{kind} '{name}'")
                default = spec.get(default_key, 0)
                description = self.description(spec, where, name)
                periodic = spec.get("periodic", False)
                if not isinstance(periodic, bool):
                    self.fail(where, f"periodic of '{name}' must be true or false")
                if "size" in spec:
                    size = self.size(spec["size"], where, name)
                elif periodic:
                    self.fail(where, f"'{name}' is periodic but has no size")
            count = 1 if size is None else size
            letter = {"state": "y", "parameter": "p"}[kind]
            first = len(elements)
            if first + count > MAX_ELEMENTS:
                self.fail(where, f"more than {MAX_ELEMENTS} {section}, the limit")
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
        if isinstance(value, bool) or not isinstance(value, int) or \
                not 1 <= value <= MAX_ELEMENTS:
            self.fail(where, f"size of '{name}' must be a whole number from 1 to "
                             f"{MAX_ELEMENTS} or a dimension's name")
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
                description = self.description(spec, where, name)
            elif not isinstance(spec, str):
                self.fail(where, f"driver '{name}': give a description string or a table")
            else:
                self.check_text(description, where, f"description of '{name}'")
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
        # Read in an order where each comes after those it uses, so that reading one
        # never recurses into another, however long a chain of them is.
        for name in self.observable_order():
            source, where = self.observable_sources[name]
            self.observable_exprs[name] = expressions.parse(
                source, where, self.scope(), what=f"observable '{name}'")
        return [(Element(name, sympy.Symbol(f"out[{k}]", real=True)),
                 self.observable_exprs[name])
                for k, name in enumerate(self.observable_sources)]

    def observable_order(self) -> list:
        """The observables, each after the observables it uses (a depth-first search
        with a stack of its own); a cycle is a mistake, named in full."""
        uses = {}
        for name, (source, where) in self.observable_sources.items():
            uses[name] = [n for n in expressions.names_in(source, where,
                                                          f"observable '{name}'")
                          if n in self.observable_sources]
        order, done = [], set()
        for root in self.observable_sources:
            if root in done:
                continue
            path, stack = [root], [(root, iter(uses[root]))]
            while stack:
                name, pending = stack[-1]
                following = next(pending, None)
                if following is None:
                    stack.pop()
                    path.pop()
                    if name not in done:
                        done.add(name)
                        order.append(name)
                elif following in path:
                    cycle = " -> ".join(path[path.index(following):] + [following])
                    self.fail(self.observable_sources[name][1],
                              f"observables depend on each other in a cycle: {cycle}")
                elif following not in done:
                    path.append(following)
                    stack.append((following, iter(uses[following])))
        return order

    def observable(self, name, used_at) -> sympy.Expr:
        """An observable's expression, once read."""
        if name not in self.observable_exprs:
            self.fail(used_at, f"observable '{name}' is used before [observables] is read")
        return self.observable_exprs[name]

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
            if index_text in expressions.BUILTIN_NAMES or index_text in expressions.FUNCTIONS:
                self.fail(where, f"equation '{key}': the index '{index_text}' hides the "
                                 "built-in name (use i, j, k, ...)")
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
        if not isinstance(namespace, str):
            self.fail(self.locate.key("options", "namespace"), "namespace must be a string")
        problem = namespace_problem(namespace)
        if problem:
            self.fail(self.locate.key("options", "namespace"), f"namespace: {problem}")
        return jacobian, namespace

    # -- events ---------------------------------------------------------------------------

    def read_events(self, specs):
        if not isinstance(specs, list) or not all(isinstance(e, dict) for e in specs):
            self.fail(self.locate.key("", "events") if ("", "events") in self.locate.keys
                      else self.locate.table("events"),
                      "events must be tables of their own: [[events]]")
        if specs:
            for q in self.quantities.values():
                if q.kind == "constant" and q.name in EVENT_MEMBERS:
                    self.fail(q.location, f"constant '{q.name}' would be hidden by a member "
                                          "of the generated event types (rename it)")
        events, seen = [], {}
        for k, spec in enumerate(specs):
            event = self.read_event(spec, f"events#{k}", k)
            if event.name in seen:
                self.fail(self.locate.key(f"events#{k}", "name"),
                          f"a second event called '{event.name}' (the first is event "
                          f"{seen[event.name] + 1})")
            seen[event.name] = k
            events.append(event)
        return events

    def read_event(self, spec, table, k):
        where = self.locate.table(table)
        key = lambda name: self.locate.key(table, name)  # noqa: E731
        self.check_keys(spec, EVENT_KEYS, where, f"event {k + 1}")
        name = spec.get("name")
        if name is None:
            self.fail(where, f"event {k + 1} needs a name: name = \"...\"")
        if not isinstance(name, str):
            self.fail(key("name"), "an event's name must be a string")
        problem = problem_with(name) or (
            f"'{name}' clashes with a member of the generated event types"
            if name in EVENT_MEMBERS else "")
        if problem:
            self.fail(key("name"), f"event name: {problem}")
        if name in self.quantities and self.quantities[name].kind == "constant":
            self.fail(key("name"), f"event '{name}' has the name of a constant")
        description = self.description(spec, where, name)

        if "condition" not in spec:
            self.fail(where, f"event '{name}' needs a condition: condition = \"...\" (its "
                             "zero crossings are the event)")
        sources = spec["condition"]
        if isinstance(sources, str):
            sources = [sources]
        if not isinstance(sources, list) or not sources or \
                not all(isinstance(c, str) for c in sources):
            self.fail(key("condition"), f"condition of event '{name}' must be an expression "
                                        "string or a non-empty list of them")
        conditions = [expressions.parse(c, key("condition"), self.scope(),
                                        what=f"condition of event '{name}'") for c in sources]

        direction = spec.get("direction", "either")
        if direction not in DIRECTIONS:
            self.fail(key("direction"), f"direction of event '{name}' must be one of "
                                        f"{', '.join(DIRECTIONS)}")
        action = spec.get("action", "record")
        if action not in ACTIONS:
            self.fail(key("action"), f"action of event '{name}' must be one of "
                                     f"{', '.join(ACTIONS)}")
        capacity = spec.get("capacity", 1)
        if isinstance(capacity, bool) or not isinstance(capacity, int) or \
                not 0 <= capacity <= MAX_CAPACITY:
            self.fail(key("capacity"), f"capacity of event '{name}' must be a whole number "
                                       f"from 0 to {MAX_CAPACITY}")

        affects = []
        if action == "affect":
            table_of = spec.get("affect")
            if not isinstance(table_of, dict) or not table_of:
                self.fail(key("affect") if "affect" in spec else key("action"),
                          f"event '{name}' affects: give the new values as a table, "
                          "affect = { v = \"-e*v\" }")
            affects = self.read_affects(table_of, key("affect"), name)
        elif "affect" in spec:
            self.fail(key("affect"), f"event '{name}' has an affect but its action is "
                                     f"'{action}': write action = \"affect\"")
        return Event(name=name, description=description, conditions=conditions,
                     direction=direction, action=action, affects=affects, capacity=capacity,
                     source=" ; ".join(_expression_text(c) for c in sources))

    def read_affects(self, table, where, event):
        target = re.compile(r"([A-Za-z][A-Za-z0-9_]*)\s*(?:\[(.*)\])?\Z")
        affects, assigned = [], set()
        for written, source in table.items():
            m = target.match(written.strip())
            q = self.quantities.get(m.group(1)) if m else None
            if q is None or q.kind not in ("state", "parameter"):
                self.fail(where, f"event '{event}' affects '{written}', which is neither a "
                                 "state nor a parameter")
            if (q.size is None) != (m.group(2) is None):
                self.fail(where, f"event '{event}' affects '{written}': "
                                 + (f"'{q.name}' is not an array" if q.size is None else
                                    f"'{q.name}' is an array: name one element, "
                                    f"{q.name}[0]"))
            k = 0 if q.size is None else expressions.parse_index(m.group(2), where,
                                                                 self.scope(), {})
            if not 0 <= k < len(q.symbols):
                self.fail(where, f"event '{event}' affects '{written}': index {k} is outside "
                                 f"{q.name}[0..{len(q.symbols) - 1}]")
            symbol = q.symbols[k]
            if symbol in assigned:
                self.fail(where, f"event '{event}' affects '{written}' twice")
            assigned.add(symbol)
            if not isinstance(source, str):
                self.fail(where, f"the new value of '{written}' in event '{event}' must be an "
                                 "expression string")
            value = expressions.parse(source, where, self.scope(),
                                      what=f"affect of event '{event}'")
            affects.append((symbol.name, value, f"{written} = {_expression_text(source)}"))
        return affects
