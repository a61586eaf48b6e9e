"""The commands run, check and cache (cli.py parses their arguments)."""

import sys
import time
from pathlib import Path

from cubie_codegen.errors import DefinitionError
from cubie_codegen.limits import MAX_DEFINITION_BYTES
from cubie_codegen.toml_source import read

from cubie_cli import inputs, run_file, solve
from cubie_cli.cache import Cache, age, default_folder, solver_key
from cubie_cli.errors import CliError
from cubie_cli.model_info import ModelInfo
from cubie_cli.toolchain import detect


def say(text):
    print(f"cubie: {text}", file=sys.stderr, flush=True)


def load_model(path):
    """The code generator's Model of a definition (SymPy is imported only here)."""
    from cubie_codegen.definition import load
    try:
        return load(path)
    except DefinitionError as e:
        raise CliError(e.message, e.location) from None


def model_bytes(path) -> bytes:
    try:
        raw, _ = read(path, "definition", MAX_DEFINITION_BYTES)
    except DefinitionError as e:
        raise CliError(e.message, e.location) from None
    return raw


def numbers(spec, info) -> tuple:
    """What the run file gives the solver to read, checked against the model: the batch's
    inputs, the drivers' samples and the lines of settings.txt."""
    drivers = inputs.drivers(spec, info)
    return inputs.batch(spec, info), drivers, solve.settings(spec, info, drivers)


def run(args, started) -> int:
    spec = run_file.load(args.run)
    choice = spec.solver
    toolchain = detect(args.backend)
    key = solver_key(model_bytes(args.model), choice, toolchain)
    cache = Cache(args.cache_dir or default_folder())
    entry = cache.entry(key)
    model = None
    if entry.complete():
        record = entry.info()
        info = ModelInfo.from_json(record["system"])
    else:
        loading = time.monotonic()
        model = load_model(args.model)
        info = ModelInfo.of(model)
        load_seconds = time.monotonic() - loading
    batch, drivers, lines = numbers(spec, info)
    requested = solve.output_format(args.output) if args.output else None

    if model is not None:
        with cache.building(entry):
            if entry.complete():  # built by another cubie run meanwhile
                record = entry.info()
            else:
                say(f"compiling a solver for {args.model}: {choice.describe()}; "
                    f"{toolchain.describe()} (cache entry {key})")
                from cubie_cli.build import build
                start = time.monotonic()
                record = build(entry, model, info, choice, toolchain, Path(args.model).resolve(),
                               args.verbose, load_seconds)
                say(f"compiled in {time.monotonic() - start:.1f} s, cached in {entry.folder}")
    entry.touch()

    output = args.output or f"{Path(args.run).stem}{'.h5' if record['hdf5'] else '.npy'}"
    fmt = requested or solve.output_format(output)
    if fmt == "hdf5" and not record["hdf5"]:
        raise CliError(f"-o {output}: this solver was built without HDF5 (libhdf5-dev was not "
                       "found): write .npy or .csv, or install HDF5 and run cubie cache clear")
    lines += solve.run_settings(batch, output, fmt, args.backend)
    cached = "compiled now" if model is not None else f"cached solver {key}"
    say(f"{info.name}: {choice.describe()}; {record['backend']}; {cached}")
    say(f"{batch.n} trajectories ({batch.description}); ready in "
        f"{time.monotonic() - started:.2f} s")
    status = solve.run_solver(entry.solver, spec, lines, batch, drivers)
    if status == solve.CANCELLED:
        say(f"cancelled: the trajectories not solved have status cancelled in {output}")
    if args.plot:
        from cubie_cli.plot import plot_file
        plot_file(output, args.plot)
        say(f"plotted {args.plot}")
    return status


def check(args) -> int:
    model = load_model(args.model)
    info = ModelInfo.of(model)
    if args.header:
        from cubie_codegen.emit import header
        sys.stdout.write(header(model))
        return 0
    print(describe_model(model))
    if args.run:
        spec = run_file.load(args.run)
        batch, _, _ = numbers(spec, info)
        print(f"\n{args.run}: {batch.n} trajectories ({batch.description}); solver "
              f"{spec.solver.describe()}")
    return 0


def count(n, what) -> str:
    return f"{n} {what}{'s' * (n != 1)}"


def describe_model(model) -> str:
    """The model as the generator reads it: its variables with their defaults, and its
    equations with every observable substituted."""
    import sympy
    names = {e.symbol: sympy.Symbol(e.label) for e in model.states + model.parameters +
             model.drivers}
    names.update({e.symbol: sympy.Symbol(e.label) for e, _ in model.observables})

    def shown(expr):
        return sympy.sstr(expr.xreplace(names))

    counts = ", ".join(count(len(items), what) for items, what in (
        (model.states, "state"), (model.parameters, "parameter"),
        (model.observables, "observable"), (model.drivers, "driver")))
    lines = [f"{model.source_name}: {model.namespace}::{model.name}<T>, {counts}"]
    if model.description:
        lines += ["  " + line for line in model.description.strip().splitlines()]
    for title, elements in (("states (initial values)", model.states),
                            ("parameters (defaults)", model.parameters)):
        if elements:
            lines.append(f"{title}:")
            lines += [f"  {e.label} = {sympy.sstr(e.default)}" for e in elements]
    if model.constants:
        lines.append("constants:")
        lines += [f"  {name} = {sympy.sstr(value)}" for name, value, _ in model.constants]
    if model.drivers:
        lines.append("drivers: " + ", ".join(e.label for e in model.drivers))
    if model.observables:
        lines.append("observables:")
        lines += [f"  {e.label} = {shown(expr)}" for e, expr in model.observables]
    lines.append("equations:")
    lines += [f"  d{e.label}/dt = {shown(rhs)}" for e, rhs in zip(model.states, model.rhs)]
    return "\n".join(lines)


def cache_command(args) -> int:
    cache = Cache(args.cache_dir or default_folder())
    entries = cache.entries()
    if args.action == "clear":
        chosen = [e for e in entries if not args.keys or e.key in args.keys]
        unknown = set(args.keys) - {e.key for e in entries}
        if unknown:
            raise CliError(f"no cache entry {', '.join(sorted(unknown))} in {cache.folder}")
        for entry in chosen:
            cache.remove(entry)
        print(f"removed {count(len(chosen), 'solver')} from {cache.folder}")
        return 0
    print(f"{cache.folder}: {count(len(entries), 'solver')}")
    for entry in entries:
        if not entry.complete():
            print(f"{entry.key}  (incomplete: a build that failed or is running; "
                  f"{entry.log})")
            continue
        info = entry.info()
        size = entry.size() / 2**20
        compile_time = sum(info["compile_seconds"].values())
        print(f"{entry.key}  {info['system']['name']}: {info['solver']}; {info['backend']}; "
              f"{size:.1f} MiB, compiled in {compile_time:.1f} s, used "
              f"{age(entry.record.stat().st_mtime)}")
    return 0
