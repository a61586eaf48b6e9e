"""Running a compiled solver on a run file's numbers: the run folder it reads
(solver/run_solver.hpp says what is in it), the run itself with Ctrl-C passed on as a
cancellation, and the solver's refusals pointed at the run file's lines."""

import os
import re
import signal
import subprocess
import tempfile
from pathlib import Path

import numpy as np

from cubie_cli.errors import CliError, Location
from cubie_cli.run_file import SETTINGS

FORMATS = {".h5": "hdf5", ".hdf5": "hdf5", ".npy": "npy", ".csv": "csv"}
CANCELLED = 130  # the solver's exit status after a SIGINT, as a shell reports one
# Settings of [outputs] that select code rather than numbers: not passed to the solver.
COMPILED_OUTPUTS = ("summaries", "save_counters")


def output_format(path: str) -> str:
    """The format a result path asks for by its extension."""
    fmt = FORMATS.get(Path(path).suffix.lower())
    if fmt is None:
        raise CliError(f"-o {path}: name the result .h5 (HDF5), .npy (a folder of NumPy "
                       "arrays) or .csv (a folder of tables)")
    return fmt


def _number(value) -> str:
    """Text that the solver's std::from_chars reads back as exactly this number."""
    return str(value) if isinstance(value, int) else repr(float(value))


def settings(run, model, drivers) -> list:
    """The lines of settings.txt that the run file gives: a name and its values each."""
    lines = []
    for table, keys in SETTINGS.items():
        for key, value in run.table(table).items():
            if key in COMPILED_OUTPUTS:
                continue
            if key in ("saved_states", "saved_observables"):
                if not value:  # nothing of the kind saved: its policy is not compiled
                    continue
                labels = model.states if key == "saved_states" else model.observables
                lines.append([key] + _selected(run, key, value, model, labels))
            elif isinstance(value, bool):
                lines.append([key, "1" if value else "0"])
            elif isinstance(value, list):
                if key in ("atol", "rtol") and len(value) not in (1, len(model.states)):
                    run.fail(table, key, f"{key} has {len(value)} values: give one, or one per "
                                         f"state ({len(model.states)})")
                lines.append([key] + [_number(v) for v in value])
            else:
                lines.append([key, _number(value)])
    for k, d in enumerate(drivers):
        lines.append([f"driver{k}", d.boundary, "1" if d.wrap else "0"])
        lines.append([f"driver{k}_start_slope", _number(d.start_slope)])
        lines.append([f"driver{k}_end_slope", _number(d.end_slope)])
    return lines


def _selected(run, key, names, model, labels) -> list:
    """The labels a saved_states or saved_observables list names (an array's name stands for
    all its elements)."""
    if not labels:
        run.fail("outputs", key, "the model has no observables")
    chosen = []
    for name in names:
        rows = model.elements(name, labels)
        if not rows:
            run.fail("outputs", key, f"'{name}' is not one of the model's "
                                     f"{'states' if key == 'saved_states' else 'observables'}: "
                                     f"{', '.join(model.names(labels))}")
        chosen += [labels[row] for row in rows]
    return chosen


def run_settings(batch, output, fmt, backend) -> list:
    """The lines of settings.txt that the command line gives."""
    return [["output", output], ["format", fmt],
            ["backend", "cuda" if backend == "cuda" else "auto"], ["trajectories", str(batch.n)]]


def write_folder(folder, lines, batch, drivers):
    with open(os.path.join(folder, "settings.txt"), "w", encoding="utf-8") as f:
        for fields in lines:
            f.write("\t".join(fields) + "\n")
    np.save(os.path.join(folder, "initial_states.npy"), batch.initial_states)
    np.save(os.path.join(folder, "parameters.npy"), batch.parameters)
    for k, d in enumerate(drivers):
        np.save(os.path.join(folder, f"driver{k}_t.npy"), d.t)
        np.save(os.path.join(folder, f"driver{k}_values.npy"), d.values)


def _refusal_location(run, message) -> Location:
    """Where the run file sets what the library refused: the setting or driver its message
    names ("setting dt = -1 is invalid", "setting controller.limits.safety = 2 ...",
    "driver force: cubic spline: ..."), else the run file itself."""
    m = re.match(r"setting (?:controller\.(?:limits\.)?)?([a-z0-9_]+)", message)
    if m:
        return run.where_setting(m.group(1))
    m = re.match(r"driver (\S+):", message)
    if m:
        return run.where("drivers", m.group(1))
    return Location(run.path)


def run_solver(solver, run, lines, batch, drivers) -> int:
    """Runs the solver on a run folder of its own; returns its exit status (0, or
    CANCELLED). Ctrl-C reaches the solver once, as a cancellation: it runs in a process
    group of its own, so that the terminal's SIGINT comes here first and is passed on."""
    with tempfile.TemporaryDirectory(prefix="cubie-run-") as folder:
        write_folder(folder, lines, batch, drivers)
        process = subprocess.Popen([str(solver), folder], process_group=0)
        previous = signal.signal(signal.SIGINT,
                                 lambda *_: process.send_signal(signal.SIGINT))
        try:
            status = process.wait()
        finally:
            signal.signal(signal.SIGINT, previous)
        error = Path(folder, "error.txt")
        message = error.read_text(encoding="utf-8").strip() if error.exists() else ""
    if status == 2:
        raise CliError(message, _refusal_location(run, message))
    if status == 1:
        raise CliError(message or "the solver failed", status=1)
    if status < 0:
        raise CliError(f"the solver was stopped by signal {-status}"
                       + (" (a second Ctrl-C): no result was written"
                          if -status == signal.SIGINT else ""), status=128 - status)
    return status
