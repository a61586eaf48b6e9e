"""Reading a run file: what to compile ([solver], and which outputs [outputs] records) and
the numbers a compiled solver reads at run time (everything else). Every mistake is a
CliError naming the file, the line and the problem.

    [solver]        method, controller, precision              (compiled)
    [integration]   t0, t_end, dt, dt_min, dt_max, max_steps, atol, rtol
    [controller]    safety, min_factor, max_factor, beta       (adaptive controllers)
    [outputs]       save_every, save_initial, save_final, saved_states, saved_observables,
                    save_counters, summaries, summarise_every, sample_summaries_every
    [inputs] [grid] [random]    initial values and parameters (inputs.py)
    [drivers]                   samples of the model's drivers (inputs.py)

Which output policies are compiled follows from [outputs]: save_state where save_every is
given (and saved_states is not empty), save_observables where saved_observables names any,
save_counters where save_counters is true, summaries<...> of the metrics listed.
"""

import difflib
from dataclasses import dataclass, field

from cubie_codegen.errors import DefinitionError
from cubie_codegen.toml_source import Locator, parse, read

from cubie_cli.choices import CONTROLLERS, METHODS, PRECISIONS, metric_names, metric_type
from cubie_cli.errors import CliError, Location

MAX_RUN_FILE_BYTES = 64 * 1024 * 1024

SETTINGS = {
    "integration": ("t0", "t_end", "dt", "dt_min", "dt_max", "max_steps", "atol", "rtol"),
    "controller": ("safety", "min_factor", "max_factor", "beta"),
    "outputs": ("save_every", "save_initial", "save_final", "saved_states",
                "saved_observables", "save_counters", "summaries", "summarise_every",
                "sample_summaries_every"),
}
TABLES = ("solver",) + tuple(SETTINGS) + ("inputs", "grid", "random", "drivers")
ADAPTIVE_ONLY = ("dt_min", "dt_max", "atol", "rtol")
FLAGS = ("save_initial", "save_final", "save_counters")
NAME_LISTS = ("saved_states", "saved_observables", "summaries")
TOLERANCES = ("atol", "rtol")


def suggest(word, choices) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""


def is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


@dataclass(frozen=True)
class SolverChoice:
    """Everything of a run file that selects code: a change compiles another solver."""

    method: str
    controller: str
    precision: str
    save_state: bool
    save_observables: bool
    save_counters: bool
    metrics: tuple  # metric names as the run file gives them ("peaks:3")

    @property
    def adaptive(self) -> bool:
        return self.controller != "fixed"

    def output_policies(self) -> list:
        """The C++ output policy types, in the solver's order."""
        policies = []
        if self.save_state:
            policies.append("cubie::save_state")
        if self.save_observables:
            policies.append("cubie::save_observables")
        if self.save_counters:
            policies.append("cubie::save_counters")
        if self.metrics:
            types = ", ".join(metric_type(m) for m in self.metrics)
            policies.append(f"cubie::summaries<{types}>")
        return policies

    def describe(self) -> str:
        outputs = [name for name, on in (("saved states", self.save_state),
                                         ("saved observables", self.save_observables),
                                         ("counters", self.save_counters)) if on]
        if self.metrics:
            outputs.append("summaries " + ", ".join(self.metrics))
        text = f"{self.method}, {self.controller} controller, {self.precision}"
        return text + (f"; {'; '.join(outputs)}" if outputs else "")


@dataclass
class RunFile:
    path: str
    data: dict
    locate: Locator
    solver: SolverChoice = field(init=False)

    def where(self, table, key=None) -> Location:
        if key is None:
            return self.locate.table(table)
        return self.locate.key(table, key)

    def fail(self, table, key, message):
        raise CliError(message, self.where(table, key))

    def table(self, name) -> dict:
        return self.data.get(name, {})

    def setting(self, name):
        """The run file's value of a setting of [integration], [controller] or [outputs],
        or None."""
        for table, keys in SETTINGS.items():
            if name in keys:
                return self.table(table).get(name)
        raise KeyError(name)

    def where_setting(self, name) -> Location:
        """Where a setting is written; the file itself where it is not."""
        for table, keys in SETTINGS.items():
            if name in keys and name in self.table(table):
                return self.where(table, name)
        return Location(self.path)


def load(path) -> RunFile:
    """Reads a run file and checks all that needs no model: tables, keys, types, the
    solver's choices and which outputs they compile."""
    try:
        _, text = read(path, "run file", MAX_RUN_FILE_BYTES)
        data = parse(path, text)
    except DefinitionError as e:
        raise CliError(e.message, e.location) from None
    run = RunFile(path, data, Locator(path, text))
    for name, value in data.items():
        if name not in TABLES:
            where = run.where(name) if isinstance(value, dict) else run.where("", name)
            raise CliError(
                f"unknown table or key '{name}'{suggest(name, TABLES)}; a run file has "
                f"the tables {', '.join(f'[{t}]' for t in TABLES)}", where)
        if not isinstance(value, dict):
            run.fail("", name, f"'{name}' must be a table: [{name}]")
    run.solver = _solver(run)
    for table, keys in SETTINGS.items():
        _check_settings(run, table, keys)
    _check_outputs(run)
    return run


def _text_choice(run, key, choices, default):
    value = run.table("solver").get(key, default)
    if not isinstance(value, str) or value not in choices:
        shown = repr(value) if isinstance(value, str) else "not a name"
        hint = suggest(value, choices) if isinstance(value, str) else ""
        run.fail("solver", key, f"{key} {shown} is not one of the library's{hint}: "
                                f"{', '.join(choices)}")
    return value


def _solver(run) -> SolverChoice:
    for key in run.table("solver"):
        if key not in ("method", "controller", "precision"):
            run.fail("solver", key, f"unknown key '{key}' in [solver]; expected method, "
                                    "controller or precision")
    method = _text_choice(run, "method", METHODS, "tsit5")
    adaptive_method = METHODS[method]
    controller = _text_choice(run, "controller", CONTROLLERS,
                              "pi" if adaptive_method else "fixed")
    if controller != "fixed" and not adaptive_method:
        run.fail("solver", "controller",
                 f"{method} has no embedded error estimate, which the {controller} controller "
                 "needs: use controller = \"fixed\" (steps of dt), or an adaptive method")
    precision = _text_choice(run, "precision", PRECISIONS, "double")

    outputs = run.table("outputs")
    saved_states = outputs.get("saved_states")
    saved_observables = outputs.get("saved_observables")
    metrics = outputs.get("summaries", [])
    if not isinstance(metrics, list) or not all(isinstance(m, str) for m in metrics):
        run.fail("outputs", "summaries", "summaries must be a list of metric names: "
                                         + metric_names())
    for k, name in enumerate(metrics):
        if metric_type(name) is None:
            run.fail("outputs", "summaries", f"'{name}' is not a summary metric"
                                             f"{suggest(name, metric_names().split(', '))}; "
                                             f"known: {metric_names()}")
        if name in metrics[:k]:
            run.fail("outputs", "summaries", f"the metric '{name}' is listed twice")
    return SolverChoice(method, controller, precision,
                        save_state="save_every" in outputs and saved_states != [],
                        save_observables=bool(saved_observables),
                        save_counters=outputs.get("save_counters") is True,
                        metrics=tuple(metrics))


def _check_settings(run, table, keys):
    values = run.table(table)
    for key, value in values.items():
        if key not in keys:
            run.fail(table, key, f"unknown key '{key}' in [{table}]{suggest(key, keys)}; "
                                 f"expected one of {', '.join(keys)}")
        if key in FLAGS:
            if not isinstance(value, bool):
                run.fail(table, key, f"{key} must be true or false")
        elif key in NAME_LISTS:
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                run.fail(table, key, f"{key} must be a list of names: [\"x\", \"y\"]")
        elif key in TOLERANCES or key == "beta":
            numbers = value if isinstance(value, list) else [value]
            if not numbers or not all(is_number(v) for v in numbers):
                run.fail(table, key, f"{key} must be a number or a list of numbers")
        elif key == "max_steps":
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                run.fail(table, key, "max_steps must be a whole number of at least 1")
        elif not is_number(value):
            run.fail(table, key, f"{key} must be a number")
    solver = run.solver
    if table == "integration":
        for required in ("t_end", "dt"):
            if required not in values:
                what = "the step" if not solver.adaptive else "the first step tried"
                run.fail(table, None, f"[integration] needs {required}" +
                         (f" ({what})" if required == "dt" else " (the end of the span)"))
        for key in ADAPTIVE_ONLY:
            if key in values and not solver.adaptive:
                run.fail(table, key, f"{key} is for adaptive controllers; the fixed controller "
                                     "takes steps of dt")
    if table == "controller" and values:
        gains = CONTROLLERS[solver.controller][1]
        if not solver.adaptive:
            run.fail(table, None, "[controller] sets an adaptive controller's limits and gains; "
                                  "the fixed controller has none")
        beta = values.get("beta")
        if beta is not None:
            count = len(beta) if isinstance(beta, list) else 1
            if gains is None or count != gains:
                takes = "no gains" if gains is None else f"{gains} gain{'s' * (gains > 1)}"
                run.fail(table, "beta", f"beta has {count} gain{'s' * (count > 1)}; the "
                                        f"{solver.controller} controller takes {takes}")


def _check_outputs(run):
    outputs = run.table("outputs")
    saving = "save_every" in outputs
    for key in ("save_initial", "save_final", "saved_states", "saved_observables",
                "save_counters"):
        if key in outputs and not saving:
            run.fail("outputs", key, f"{key} needs save_every, the interval between saves")
    summarising = bool(run.solver.metrics)
    for key in ("summarise_every", "sample_summaries_every"):
        if key in outputs and not summarising:
            run.fail("outputs", key, f"{key} needs summaries, the metrics to compute")
        if summarising and key not in outputs:
            run.fail("outputs", "summaries", f"summaries need {key}")
