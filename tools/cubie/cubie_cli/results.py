"""Reading a result that cubie run wrote, in any of its formats, into one set of NumPy
arrays named as the library names them (cubie/io/result_arrays.hpp): an HDF5 file (h5py),
a folder of .npy files, or a folder of CSV tables (cubie/io/csv_result.hpp)."""

import csv
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from cubie_cli.errors import CliError

COUNTERS = ("accepted_steps", "rejected_steps")  # counter columns of series.csv


@dataclass
class Result:
    state_names: list
    final_states: np.ndarray  # [state][trajectory]
    statuses: np.ndarray  # the status of each trajectory, by name
    parameter_names: list
    parameters: np.ndarray  # [parameter][trajectory]; empty where not kept
    initial_states: np.ndarray
    saved_variables: list
    save_times: np.ndarray
    saved: np.ndarray  # [save][variable][trajectory]
    summary_legend: list
    window_ends: np.ndarray
    summaries: np.ndarray  # [window][row][trajectory]

    @property
    def n_trajectories(self) -> int:
        return len(self.statuses)


def _strings(values) -> list:
    return [v.decode() if isinstance(v, bytes) else str(v) for v in values]


def read(path) -> Result:
    path = Path(path)
    if path.is_file():
        return _read_hdf5(path)
    if (path / "final_states.npy").exists():
        return _read_npy(path)
    if (path / "final.csv").exists():
        return _read_csv(path)
    raise CliError(f"{path}: not a result of cubie run (an .h5 file, or a folder of .npy "
                   "files or CSV tables)")


def _read_hdf5(path) -> Result:
    try:
        import h5py
    except ImportError:
        raise CliError("reading HDF5 results needs h5py: run tools/setup.sh (or python3 -m pip "
                       "install h5py)", status=1) from None
    try:
        with h5py.File(path, "r") as f:
            def array(name, legend=None):
                if name not in f:
                    return np.empty(0), []
                data = f[name]
                names = _strings(data.attrs[legend]) if legend else []
                return data[...], names
            final_states, state_names = array("final_states", "states")
            codes, _ = array("statuses")
            status_names = np.array(_strings(f["statuses"].attrs["status_names"]))
            parameters, parameter_names = array("parameters", "parameters")
            initial_states, _ = array("initial_states")
            saved, saved_variables = array("saved", "variables")
            save_times, _ = array("save_times")
            summaries, legend = array("summaries", "rows")
            window_ends, _ = array("window_ends")
    except (OSError, KeyError) as e:
        raise CliError(f"{path}: not a result of cubie run ({e})") from None
    return Result(state_names, final_states, status_names[codes], parameter_names, parameters,
                  initial_states, saved_variables, save_times, saved, legend, window_ends,
                  summaries)


def _read_npy(folder) -> Result:
    def array(name):
        file = folder / f"{name}.npy"
        return np.load(file, allow_pickle=False) if file.exists() else np.empty(0)

    def names(name):
        return [str(v) for v in array(name)]

    status_names = array("status_names")
    return Result(names("state_names"), array("final_states"), status_names[array("statuses")],
                  names("parameter_names"), array("parameters"), array("initial_states"),
                  names("saved_variables"), array("save_times"), array("saved"),
                  names("summary_legend"), array("window_ends"), array("summaries"))


def _table(file):
    """The header and the rows of a CSV table; none where the file is missing."""
    if not file.exists():
        return [], []
    with open(file, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def _timed(file, skip=()):
    """A table of a row per trajectory and time (series.csv, summaries.csv) as the times,
    the column names and a [time][column][trajectory] array."""
    header, rows = _table(file)
    if not rows:
        return np.empty(0), [], np.empty(0)
    columns = [k for k, name in enumerate(header[2:], start=2) if name not in skip]
    values = np.array([[float(row[k]) for k in columns] for row in rows])
    trajectories = np.array([int(row[0]) for row in rows])
    n = trajectories.max() + 1
    times = np.array([float(row[1]) for row in rows[:len(rows) // n]])
    return times, [header[k] for k in columns], values.reshape(n, len(times), -1).transpose(1, 2, 0)


def _read_csv(folder) -> Result:
    header, rows = _table(folder / "final.csv")
    state_names = header[2:header.index("accepted_steps")]
    final_states = np.array([[float(v) for v in row[2:2 + len(state_names)]] for row in rows]).T
    statuses = np.array([row[1] for row in rows])
    input_header, input_rows = _table(folder / "inputs.csv")
    inputs = np.array([[float(v) for v in row[1:]] for row in input_rows]).T
    n_states = len(state_names)
    initial_states = inputs[:n_states] if input_rows else np.empty(0)
    parameters = inputs[n_states:] if input_rows else np.empty(0)
    save_times, saved_variables, saved = _timed(folder / "series.csv", skip=COUNTERS)
    window_ends, legend, summaries = _timed(folder / "summaries.csv")
    return Result(state_names, final_states, statuses, input_header[1 + n_states:], parameters,
                  initial_states, saved_variables, save_times, saved, legend, window_ends,
                  summaries)
