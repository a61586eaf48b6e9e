#!/usr/bin/env python3
"""Reads the result files that the result_files test suite wrote, as a user would: the
.npy files with numpy.load (no pickles), the CSV tables with the csv module and, with
--hdf5, the HDF5 file with h5py. Checks their shapes, dtypes, values (bit for bit, CSV to
the shortest text that reads back exactly) and legends against the result the suite
filled by hand (tests/support/example_result.hpp, whose values are repeated here).

    check_result_files.py FOLDER [--hdf5]

FOLDER holds float/ and double/, each with npy/, csv/ and result.h5.
"""

import argparse
import csv
import math
import pathlib
import sys

import numpy as np

N = 3
FAILED = 2
SAVES = 4
WINDOWS = 2
STATE_NAMES = ["x", "θ"]
PARAMETER_NAMES = ["k", "ω"]
# Every status by code (cubie/core/status.hpp): the statuses' legend.
STATUS_LEGEND = ["success", "max_steps_exceeded", "step_size_underflow", "nonfinite_state",
                 "nonfinite_input", "cancelled", "singular_matrix", "newton_divergence",
                 "linear_solver_failure", "terminated_by_event"]
SAVED_VARIABLES = ["x", "θ", "energy"]
COUNTER_NAMES = ["accepted_steps", "rejected_steps"]
SUMMARY_LEGEND = ["x.mean", "x.max", "θ.rms"]
STATUS_NAMES = ["success", "success", "nonfinite_state"]
STATUS_CODES = [0, 0, 3]
ACCEPTED = [100, 4000000000, 7]
REJECTED = [0, 3, 12]
NEWTON = [250, 4100000000, 0]
LINEAR = [500, 17, 1]
EVENT_NAMES = ["hit", "turn"]
EVENT_RECORDS = ["hit.0", "hit.1", "turn.0"]  # (channel, occurrence) (0, 0), (0, 1), (1, 0)
EVENT_COUNTS = [[3, 1, 0], [0, 2, 4000000000]]


def expected_arrays(dtype):
    """The arrays of the hand-filled result, computed in double and rounded once to dtype."""
    nan = math.nan
    final_states = [[nan if i == FAILED else (s + 1) / 10 + i for i in range(N)]
                    for s in range(len(STATE_NAMES))]
    saved = [[[nan if i == FAILED and k >= 2 else k + v / 10 + i / 100 for i in range(N)]
              for v in range(len(SAVED_VARIABLES))] for k in range(SAVES)]
    counters = [[[10 * k + c + 1000 * i for i in range(N)] for c in range(len(COUNTER_NAMES))]
                for k in range(SAVES)]
    summaries = [[[nan if i == FAILED and w >= 1 else w - row / 3 + i / 7 for i in range(N)]
                  for row in range(len(SUMMARY_LEGEND))] for w in range(WINDOWS)]
    initial_states = [[s + i / 3 for i in range(N)] for s in range(len(STATE_NAMES))]
    parameters = [[(p + 1) * 1.5 - i / 7 for i in range(N)] for p in range(len(PARAMETER_NAMES))]
    records = [(0, 0), (0, 1), (1, 0)]
    event_times = [[c + k / 4 + i / 8 if k < EVENT_COUNTS[c][i] else nan for i in range(N)]
                   for c, k in records]
    event_states = [[[k / 2 + i / 16 - (s + 1) if k < EVENT_COUNTS[c][i] else nan
                      for i in range(N)] for s in range(len(STATE_NAMES))] for c, k in records]
    return {
        "final_states": np.array(final_states, dtype=dtype),
        "initial_states": np.array(initial_states, dtype=dtype),
        "parameters": np.array(parameters, dtype=dtype),
        "statuses": np.array(STATUS_CODES, dtype=np.uint8),
        "accepted_steps": np.array(ACCEPTED, dtype=np.uint32),
        "rejected_steps": np.array(REJECTED, dtype=np.uint32),
        "newton_iterations": np.array(NEWTON, dtype=np.uint32),
        "linear_iterations": np.array(LINEAR, dtype=np.uint32),
        "save_times": np.array([k / 4 for k in range(SAVES)], dtype=dtype),
        "saved": np.array(saved, dtype=dtype),
        "saved_counters": np.array(counters, dtype=np.uint32),
        "window_ends": np.array([(w + 1) / 2 for w in range(WINDOWS)], dtype=dtype),
        "summaries": np.array(summaries, dtype=dtype),
        "event_counts": np.array(EVENT_COUNTS, dtype=np.uint32),
        "event_times": np.array(event_times, dtype=dtype),
        "event_states": np.array(event_states, dtype=dtype),
    }


LEGENDS = {  # array: (its legend's .npy file, its HDF5 attribute, the names)
    "final_states": ("state_names", "states", STATE_NAMES),
    "initial_states": ("state_names", "states", STATE_NAMES),
    "parameters": ("parameter_names", "parameters", PARAMETER_NAMES),
    "statuses": ("status_names", "status_names", STATUS_LEGEND),
    "saved": ("saved_variables", "variables", SAVED_VARIABLES),
    "saved_counters": ("counter_names", "counters", COUNTER_NAMES),
    "summaries": ("summary_legend", "rows", SUMMARY_LEGEND),
    "event_counts": ("event_names", "events", EVENT_NAMES),
    "event_times": ("event_record_names", "records", EVENT_RECORDS),
    "event_states": ("state_names", "states", STATE_NAMES),
}


class Checker:
    def __init__(self):
        self.failures = 0
        self.checks = 0

    def check(self, condition, what):
        self.checks += 1
        if not condition:
            self.failures += 1
            print(f"FAILED: {what}", file=sys.stderr)

    def same_array(self, actual, expected, what):
        """Same dtype (little-endian), shape and bytes: NaNs too."""
        self.check(actual.dtype.str == expected.dtype.str,
                   f"{what}: dtype {actual.dtype.str}, expected {expected.dtype.str}")
        self.check(actual.shape == expected.shape,
                   f"{what}: shape {actual.shape}, expected {expected.shape}")
        if actual.dtype.str == expected.dtype.str and actual.shape == expected.shape:
            self.check(actual.tobytes() == expected.tobytes(),
                       f"{what}: values {actual!r}, expected {expected!r}")

    def same_number(self, text, expected, what):
        """The CSV text reads back as exactly the expected value of its dtype (any NaN
        for a NaN)."""
        value = expected.dtype.type(float(text) if expected.dtype.kind == "f" else int(text))
        same = value.tobytes() == expected.tobytes() or (np.isnan(value) and np.isnan(expected))
        self.check(same, f"{what}: {text!r} reads as {value!r}, expected {expected!r}")


def check_npy(checker, folder, arrays):
    for name, expected in arrays.items():
        path = folder / f"{name}.npy"
        actual = np.load(path, allow_pickle=False)
        checker.same_array(actual, expected, str(path))
    for name, (file, _, names) in LEGENDS.items():
        path = folder / f"{file}.npy"
        legend = np.load(path, allow_pickle=False)
        checker.check(legend.dtype.kind == "U", f"{path}: dtype {legend.dtype}, expected '<U'")
        checker.check(legend.tolist() == names, f"{path}: {legend.tolist()}, expected {names}")
    # As a user names each trajectory's outcome.
    why = np.load(folder / "status_names.npy")[np.load(folder / "statuses.npy")]
    checker.check(why.tolist() == STATUS_NAMES, f"{folder}: statuses name {why.tolist()}")


def read_table(path):
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def check_csv(checker, folder, arrays):
    path = folder / "final.csv"
    header, rows = read_table(path)
    counted = [f"{name}.count" for name in EVENT_NAMES]
    checker.check(header == ["trajectory", "status", *STATE_NAMES, "accepted_steps",
                             "rejected_steps", "newton_iterations", "linear_iterations",
                             *counted], f"{path}: header {header}")
    checker.check(len(rows) == N, f"{path}: {len(rows)} rows, expected {N}")
    for i, row in enumerate(rows[:N]):
        checker.check(row[0] == str(i) and row[1] == STATUS_NAMES[i], f"{path}: row {i}: {row}")
        for s in range(len(STATE_NAMES)):
            checker.same_number(row[2 + s], arrays["final_states"][s, i], f"{path} row {i}")
        for offset, name in enumerate(["accepted_steps", "rejected_steps", "newton_iterations",
                                       "linear_iterations"]):
            checker.same_number(row[4 + offset], arrays[name][i], f"{path} row {i}")
        for c in range(len(EVENT_NAMES)):
            checker.same_number(row[8 + c], arrays["event_counts"][c, i], f"{path} row {i}")

    path = folder / "inputs.csv"
    header, rows = read_table(path)
    checker.check(header == ["trajectory", *STATE_NAMES, *PARAMETER_NAMES],
                  f"{path}: header {header}")
    checker.check(len(rows) == N, f"{path}: {len(rows)} rows, expected {N}")
    for i, row in enumerate(rows[:N]):
        checker.check(row[0] == str(i), f"{path}: row {i}: {row}")
        values = [arrays["initial_states"][s, i] for s in range(len(STATE_NAMES))]
        values += [arrays["parameters"][p, i] for p in range(len(PARAMETER_NAMES))]
        for field, expected in zip(row[1:], values):
            checker.same_number(field, expected, f"{path} row {i}")

    saved = [(name, arrays["saved"], v) for v, name in enumerate(SAVED_VARIABLES)]
    counted = [(name, arrays["saved_counters"], c) for c, name in enumerate(COUNTER_NAMES)]
    check_time_table(checker, folder / "series.csv", "time", arrays["save_times"],
                     saved + counted)
    summaries = [(name, arrays["summaries"], r) for r, name in enumerate(SUMMARY_LEGEND)]
    check_time_table(checker, folder / "summaries.csv", "window_end", arrays["window_ends"],
                     summaries)
    check_events_table(checker, folder / "events.csv", arrays)


def check_events_table(checker, path, arrays):
    """A row per kept event occurrence: trajectory, event, occurrence, time, states."""
    header, rows = read_table(path)
    checker.check(header == ["trajectory", "event", "occurrence", "time", *STATE_NAMES],
                  f"{path}: header {header}")
    expected = []
    for i in range(N):
        for c, name in enumerate(EVENT_NAMES):
            for record, record_name in enumerate(EVENT_RECORDS):
                event, k = record_name.rsplit(".", 1)
                if event == name and int(k) < EVENT_COUNTS[c][i]:
                    expected.append((i, name, int(k), record))
    checker.check(len(rows) == len(expected), f"{path}: {len(rows)} rows, expected {len(expected)}")
    for row, (i, name, k, record) in zip(rows, expected):
        where = f"{path} row {row}"
        checker.check(row[:3] == [str(i), name, str(k)], f"{where}: expected {i}, {name}, {k}")
        checker.same_number(row[3], arrays["event_times"][record, i], where)
        for s in range(len(STATE_NAMES)):
            checker.same_number(row[4 + s], arrays["event_states"][record, s, i], where)


def check_time_table(checker, path, time_column, times, columns):
    """A table of a row per trajectory and time: trajectory, the time, then one column per
    (name, array [time][row][trajectory], row)."""
    header, rows = read_table(path)
    names = [name for name, _, _ in columns]
    checker.check(header == ["trajectory", time_column, *names], f"{path}: header {header}")
    count = N * len(times)
    checker.check(len(rows) == count, f"{path}: {len(rows)} rows, expected {count}")
    for row_index, row in enumerate(rows[:count]):
        i, k = divmod(row_index, len(times))
        where = f"{path} row {row_index}"
        checker.check(row[0] == str(i), f"{where}: trajectory {row[0]}, expected {i}")
        checker.same_number(row[1], times[k], where)
        for field, (_, values, r) in zip(row[2:], columns):
            checker.same_number(field, values[k, r, i], where)


def check_hdf5(checker, path, arrays):
    import h5py

    with h5py.File(path, "r") as f:
        checker.check(sorted(f.keys()) == sorted(arrays), f"{path}: datasets {sorted(f.keys())}")
        for name, expected in arrays.items():
            checker.same_array(f[name][()], expected, f"{path}:/{name}")
        for name, (_, attribute, names) in LEGENDS.items():
            legend = list(f[name].attrs[attribute])
            checker.check(legend == names, f"{path}:/{name}.attrs[{attribute!r}]: {legend}")
        checker.check(int(f.attrs["n_trajectories"]) == N,
                      f"{path}: n_trajectories {f.attrs['n_trajectories']}")
        checker.check(f.attrs["backend"] == "host", f"{path}: backend {f.attrs['backend']!r}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=pathlib.Path)
    parser.add_argument("--hdf5", action="store_true", help="also check result.h5 with h5py")
    options = parser.parse_args()

    checker = Checker()
    for type_name, dtype in (("float", np.float32), ("double", np.float64)):
        arrays = expected_arrays(dtype)
        folder = options.folder / type_name
        check_npy(checker, folder / "npy", arrays)
        check_csv(checker, folder / "csv", arrays)
        if options.hdf5:
            check_hdf5(checker, folder / "result.h5", arrays)
    formats = "NPY, CSV" + (" and HDF5" if options.hdf5 else "")
    print(f"{formats} result files: {checker.checks - checker.failures} passed, "
          f"{checker.failures} failed")
    return 1 if checker.failures else 0


if __name__ == "__main__":
    sys.exit(main())
