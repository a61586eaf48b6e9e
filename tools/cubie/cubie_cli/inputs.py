"""The trajectories a run file describes, as the arrays a solver reads, and its drivers'
samples. Names are the model's states and parameters ("x", "rho"); an array's name ("u")
sets all its elements alike, and its elements are named "u[0]", "u[1]", ... (quoted keys).
Whatever no table names keeps the model's default.

    [inputs]   one value for every trajectory, or one per trajectory:
               rho = 28 | [0, 10, 28] | { file = "rho.npy" } |
               { file = "sweep.csv", column = "rho" }
    [random]   seeded samples, one per trajectory: seed = 1, samples = 1000,
               rho = { uniform = [0, 30] } | { normal = [mean, std] } | { loguniform = [a, b] }
    [grid]     every combination of the values given for each name, for each trajectory of
               [inputs] and [random]: rho = [..] | { linspace = [start, stop, count] } |
               { logspace = [start, stop, count] } (NumPy's: 10**start to 10**stop) | { file = .. }
    [drivers]  force = { t = [..] | { linspace = [..] }, values = [..] | { file = .., column = .. },
               boundary = "not_a_knot" | "natural" | "clamped" | "periodic", wrap = false,
               start_slope = 0, end_slope = 0 }, or { file = "force.csv" } with columns t
               and the driver's name

The arrays of [inputs] and the samples of [random] pair up trajectory by trajectory, so
they have one length (or one value); the grid multiplies them: trajectory
i = row * points + point, with the grid's first name varying slowest. Each name of [random]
draws from its own stream, seeded by the seed and the name, so adding a name changes no
other's samples.
"""

import csv
import math
import os
import zlib
from dataclasses import dataclass

import numpy as np

from cubie_cli.errors import CliError, Location
from cubie_cli.run_file import is_number, suggest

BOUNDARIES = ("not_a_knot", "natural", "clamped", "periodic")
DISTRIBUTIONS = ("uniform", "normal", "loguniform")
SPACINGS = ("linspace", "logspace")


@dataclass
class Batch:
    n: int
    initial_states: np.ndarray  # [state][trajectory], in the working precision
    parameters: np.ndarray  # [parameter][trajectory]
    description: str  # how the trajectories were made: "a grid of 64 rho x 64 z"


@dataclass
class DriverSamples:
    name: str
    t: np.ndarray  # float64 knots
    values: np.ndarray
    boundary: str
    wrap: bool
    start_slope: float
    end_slope: float


class _Reader:
    def __init__(self, run, model):
        self.run = run
        self.model = model
        self.folder = os.path.dirname(run.path)  # files are named relative to the run file
        self.labels = model.states + model.parameters
        self.claimed = {}  # label -> the table that sets it

    def fail(self, table, key, message):
        self.run.fail(table, key, message)

    def rows(self, table, name) -> list:
        """The rows of initial_states and parameters (in one numbering) that `name` sets."""
        rows = self.model.elements(name, self.labels)
        if not rows:
            known = self.model.names(self.model.states) + self.model.names(self.model.parameters)
            self.fail(table, name, f"'{name}' is not a state or parameter of the model"
                                   f"{suggest(name, known)}; it has {', '.join(known)}")
        for row in rows:
            label = self.labels[row]
            if label in self.claimed:
                self.fail(table, name, f"'{label}' is already set in [{self.claimed[label]}]")
            self.claimed[label] = table
        return rows

    def numbers(self, table, key, value, what) -> np.ndarray:
        values = value if isinstance(value, list) else [value]
        if not values or not all(is_number(v) for v in values):
            self.fail(table, key, f"{what} must be a number or a list of numbers")
        return np.asarray(values, dtype=np.float64)

    def spec(self, table, key, value, allowed) -> tuple:
        """The one form ("file", "linspace", ...) a `{ form = ... }` table gives, and its
        value."""
        forms = [k for k in value if k in allowed]
        extra = [k for k in value if k not in allowed + ("column",)]
        if len(forms) != 1 or extra or ("column" in value and forms != ["file"]):
            self.fail(table, key, f"'{key}' takes one of {', '.join(allowed)}"
                                  + (" (with column for a CSV file)" if "file" in allowed else ""))
        return forms[0], value[forms[0]]

    def file_column(self, table, key, spec, column) -> np.ndarray:
        """A column of numbers from an NPY file (a 1-D array, or a field of a structured
        one) or a CSV file whose first row names the columns."""
        name = spec.get("file")
        column = spec.get("column", column)
        if not isinstance(name, str) or not isinstance(column, str):
            self.fail(table, key, "file and column must be strings")
        path = os.path.join(self.folder, name)
        if name.endswith(".npy"):
            try:
                array = np.load(path, allow_pickle=False)
            except (OSError, ValueError) as e:
                self.fail(table, key, f"cannot read {name}: {getattr(e, 'strerror', None) or e}")
            if array.dtype.names:
                if column not in array.dtype.names:
                    self.fail(table, key, f"{name} has no field '{column}'; it has "
                                          f"{', '.join(array.dtype.names)}")
                array = array[column]
            if array.ndim != 1 or array.dtype.kind not in "fiu":
                self.fail(table, key, f"{name} holds {array.dtype} values of shape "
                                      f"{array.shape}: expected a 1-D array of numbers")
            return array.astype(np.float64)
        if not name.endswith(".csv"):
            self.fail(table, key, f"{name}: name an .npy or .csv file")
        try:
            with open(path, newline="", encoding="utf-8") as f:
                rows = list(csv.reader(f))
        except (OSError, UnicodeDecodeError) as e:
            self.fail(table, key, f"cannot read {name}: {getattr(e, 'strerror', None) or e}")
        header = [h.strip() for h in rows[0]] if rows else []
        if column not in header:
            self.fail(table, key, f"{name} has no column '{column}' in its first row; it has "
                                  f"{', '.join(header) or 'none'}")
        index = header.index(column)
        values = []
        for number, row in enumerate(rows[1:], start=2):
            if not any(cell.strip() for cell in row):
                continue
            try:
                values.append(float(row[index]))
            except (IndexError, ValueError):
                text = row[index] if index < len(row) else ""
                raise CliError(f"'{text}' in column {column} is not a number",
                               Location(path, number)) from None
        return np.asarray(values, dtype=np.float64)

    def values(self, table, key, value) -> np.ndarray:
        """A number, a list of numbers or a file's column."""
        if isinstance(value, dict):
            self.spec(table, key, value, ("file",))
            return self.file_column(table, key, value, key)
        return self.numbers(table, key, value, f"'{key}'")

    def spaced(self, table, key, value) -> np.ndarray:
        """A list of numbers, a file's column, or { linspace | logspace = [start, stop,
        count] } as NumPy spaces them."""
        if not isinstance(value, dict):
            return self.numbers(table, key, value, f"'{key}'")
        form, spec = self.spec(table, key, value, SPACINGS + ("file",))
        if form == "file":
            return self.file_column(table, key, value, key)
        if not (isinstance(spec, list) and len(spec) == 3 and all(is_number(v) for v in spec)
                and isinstance(spec[2], int) and spec[2] >= 1):
            self.fail(table, key, f"{form} takes [start, stop, count], count a whole number of "
                                  "at least 1")
        start, stop, count = spec
        _check_size(self.run, count, 1, 8)
        return getattr(np, form)(start, stop, count)

    def random_values(self, key, value, seed, samples) -> np.ndarray:
        if not isinstance(value, dict) or len(value) != 1 or next(iter(value)) not in \
                DISTRIBUTIONS:
            self.fail("random", key, f"'{key}' takes one distribution: "
                                     + ", ".join(f"{{ {d} = [a, b] }}" for d in DISTRIBUTIONS))
        form, spec = next(iter(value.items()))
        if not (isinstance(spec, list) and len(spec) == 2 and all(is_number(v) for v in spec)):
            self.fail("random", key, f"{form} takes two numbers")
        a, b = spec
        if form == "normal" and b < 0:
            self.fail("random", key, "normal takes [mean, standard deviation], the deviation "
                                     "not negative")
        if form != "normal" and not a <= b:
            self.fail("random", key, f"{form} takes [low, high] with low <= high")
        if form == "loguniform" and not a > 0:
            self.fail("random", key, "loguniform takes [low, high], both above 0")
        rng = np.random.default_rng([seed, zlib.crc32(key.encode())])
        if form == "normal":
            return rng.normal(a, b, samples)
        if form == "loguniform":
            return np.exp(rng.uniform(math.log(a), math.log(b), samples))
        return rng.uniform(a, b, samples)


def batch(run, model) -> Batch:
    """The initial states and parameters of every trajectory, in the run's precision."""
    dtype = np.float32 if run.solver.precision == "float" else np.float64
    reader = _Reader(run, model)
    paired = {}  # key -> (rows, values): one value, or one per paired row
    for key, value in run.table("inputs").items():
        paired[key] = (reader.rows("inputs", key), reader.values("inputs", key, value))
    sampled = run.table("random")
    if sampled:
        seed, samples = sampled.get("seed"), sampled.get("samples")
        for name, number, minimum in (("seed", seed, 0), ("samples", samples, 1)):
            if not isinstance(number, int) or isinstance(number, bool) or number < minimum:
                run.fail("random", name if name in sampled else None,
                         f"[random] needs {name}, a whole number of at least {minimum}")
        _check_size(run, samples, 1, 8)
        for key, value in sampled.items():
            if key not in ("seed", "samples"):
                rows = reader.rows("random", key)
                paired[key] = (rows, reader.random_values(key, value, seed, samples))
    grid = {}
    for key, value in run.table("grid").items():
        grid[key] = (reader.rows("grid", key), reader.spaced("grid", key, value))

    rows_of_pairs, first = 1, None
    for key, (_, values) in paired.items():
        table = "random" if key in sampled else "inputs"
        if len(values) == 0:
            run.fail(table, key, f"'{key}' has no values")
        if len(values) > 1:
            if first is not None and len(values) != rows_of_pairs:
                run.fail(table, key, f"'{key}' has {len(values)} values but '{first}' has "
                                     f"{rows_of_pairs}: the arrays of [inputs] and [random] "
                                     "pair up trajectory by trajectory, so give them one length")
            rows_of_pairs, first = len(values), first or key
    for key, (_, values) in grid.items():
        if len(values) == 0:
            run.fail("grid", key, f"'{key}' has no values")
    sizes = [len(values) for _, values in grid.values()]
    points = math.prod(sizes)
    n = rows_of_pairs * points
    _check_size(run, n, len(reader.labels), np.dtype(dtype).itemsize)

    columns = np.empty((len(reader.labels), n), dtype=dtype)
    columns[:] = np.asarray(model.state_defaults + model.parameter_defaults,
                            dtype=np.float64)[:, None]
    for rows, values in paired.values():
        columns[rows, :] = np.repeat(values, n // len(values))[None, :]
    inner = points
    for (rows, values), size in zip(grid.values(), sizes):
        inner //= size
        pattern = np.repeat(values, inner)
        columns[rows, :] = np.tile(pattern, n // len(pattern))[None, :]

    varying = [key for key, (_, values) in paired.items() if len(values) > 1]
    parts = [f"{rows_of_pairs} values of {', '.join(varying)}"] if varying else []
    if grid:
        parts.append("a grid of " + " x ".join(f"{len(values)} {key}"
                                                for key, (_, values) in grid.items()))
    n_states = len(model.states)
    return Batch(n, columns[:n_states], columns[n_states:],
                 ", each over ".join(parts) or "one, from the model's defaults")


def _check_size(run, n, rows, itemsize):
    """Refuses inputs (n values of `rows` rows) that alone would take half the host's
    memory."""
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    needed = n * max(rows, 1) * itemsize
    if needed > memory // 2:
        raise CliError(f"the inputs would hold {n * max(rows, 1)} values "
                       f"({needed / 2**30:.1f} GiB), over half of this machine's memory "
                       f"({memory / 2**30:.1f} GiB): solve fewer trajectories at a time",
                       Location(run.path))


def drivers(run, model) -> list:
    """The samples of each of the model's drivers, in its order."""
    reader = _Reader(run, model)
    given = run.table("drivers")
    for key in given:
        if key not in model.drivers:
            run.fail("drivers", key, f"'{key}' is not a driver of the model"
                                     + (f"; it has {', '.join(model.drivers)}" if model.drivers
                                        else "; it has none"))
    samples = []
    for name in model.drivers:
        spec = given.get(name)
        if spec is None:
            run.fail("drivers", None, f"the model's driver '{name}' needs samples: "
                                      f"{name} = {{ t = [...], values = [...] }} in [drivers]")
        if not isinstance(spec, dict):
            run.fail("drivers", name, f"'{name}' takes a table: {{ t = [...], values = [...] }}")
        allowed = ("t", "values", "file", "boundary", "wrap", "start_slope", "end_slope")
        for key in spec:
            if key not in allowed:
                run.fail("drivers", name, f"unknown key '{key}' of driver '{name}'"
                                          f"{suggest(key, allowed)}; expected {', '.join(allowed)}")
        if "file" in spec:
            if "t" in spec or "values" in spec:
                run.fail("drivers", name, "give file (columns t and the driver's name), or t "
                                          "and values")
            t = reader.file_column("drivers", name, {"file": spec["file"]}, "t")
            values = reader.file_column("drivers", name, {"file": spec["file"]}, name)
        elif "t" in spec and "values" in spec:
            t = reader.spaced("drivers", name, spec["t"])
            values = reader.values("drivers", name, spec["values"])
        else:
            run.fail("drivers", name, f"driver '{name}' needs t and values, or file")
        boundary = spec.get("boundary", "not_a_knot")
        if boundary not in BOUNDARIES:
            run.fail("drivers", name, f"boundary '{boundary}' is not one of "
                                      f"{', '.join(BOUNDARIES)}")
        wrap = spec.get("wrap", False)
        if not isinstance(wrap, bool):
            run.fail("drivers", name, "wrap must be true or false")
        slopes = [spec.get(k, 0.0) for k in ("start_slope", "end_slope")]
        if not all(is_number(s) for s in slopes):
            run.fail("drivers", name, "start_slope and end_slope must be numbers")
        if ("start_slope" in spec or "end_slope" in spec) and boundary != "clamped":
            run.fail("drivers", name, "start_slope and end_slope are for boundary = \"clamped\"")
        samples.append(DriverSamples(name, t, values, boundary, wrap, *map(float, slopes)))
    return samples
