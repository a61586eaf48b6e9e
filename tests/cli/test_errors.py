"""A mistake in a run file or a model is one line naming the file, the line and the
problem: never a traceback, never a compiler's output. The run file's line is marked
`# <-` in each case; the mistakes the library finds in numbers need the sweep's solver,
those the cubie command finds need no solver at all."""

import re

import pytest

from conftest import SWEEP

SOLVED = "[integration]\nt_end = 1\ndt = 0.1\n"

CASES = {
    "toml_syntax": ("[integration]\nt_end = # <-\n", "TOML syntax"),
    "unknown_table": ("[outptus] # <-\nsave_every = 1\n", "did you mean 'outputs'"),
    "unknown_key": ("[integration]\ntend = 1 # <-\n", "did you mean 't_end'"),
    "unknown_method": ('[solver]\nmethod = "tsit55" # <-\n', "did you mean 'tsit5'"),
    "fixed_method_adaptive_controller": (
        '[solver]\nmethod = "classical_rk4"\ncontroller = "pi" # <-\n',
        "classical_rk4 has no embedded error estimate"),
    "missing_dt": ("[integration] # <-\nt_end = 1\n", "[integration] needs dt"),
    "not_a_number": ('[integration]\nt_end = "one" # <-\ndt = 0.1\n', "t_end must be a number"),
    "unknown_name": (SOLVED + "[grid]\nrhoo = [1, 2] # <-\n", "did you mean 'rho'"),
    "bad_linspace": (SOLVED + "[grid]\nrho = { linspace = [0, 1] } # <-\n",
                     "linspace takes [start, stop, count]"),
    "unpaired_lengths": (SOLVED + "[inputs]\nx = [1, 2, 3]\nrho = [1, 2] # <-\n",
                         "'rho' has 2 values but 'x' has 3"),
    "set_twice": (SOLVED + "[inputs]\nrho = 1\n[grid]\nrho = [1, 2] # <-\n",
                  "'rho' is already set in [inputs]"),
    "missing_file": (SOLVED + '[inputs]\nrho = { file = "missing.npy" } # <-\n',
                     "cannot read missing.npy"),
    "unknown_saved_state": (SOLVED + '[outputs]\nsave_every = 0.5\nsaved_states = ["w"] # <-\n',
                            "'w' is not one of the model's states"),
    "unknown_metric": (SOLVED + '[outputs]\nsummaries = ["maxx"] # <-\n',
                       "'maxx' is not a summary metric"),
    "summaries_without_window": (SOLVED + '[outputs]\nsummaries = ["max"] # <-\n',
                                 "summaries need summarise_every"),
    "tolerances_per_state": (SOLVED + "atol = [1e-6, 1e-6] # <-\n", "atol has 2 values"),
    "driver_of_a_model_without": (SOLVED + "[drivers]\nforce = { t = [0, 1], values = [0, 1] }"
                                  " # <-\n", "'force' is not a driver of the model"),
    # Refused by the library, in the compiled solver: the line of the setting it names.
    "negative_dt": (SWEEP.replace("dt = 0.0009765625", "dt = -1 # <-"),
                    "setting dt = -1 is invalid: must be positive and finite"),
    "end_before_start": (SWEEP.replace("t_end = 1", "t0 = 2\nt_end = 1 # <-"),
                         "setting t_end = 1 is invalid: must not be before t0 = 2"),
    "controller_limit": (SWEEP + "\n[controller]\nsafety = 2 # <-\n",
                         "setting controller.limits.safety = 2 is invalid"),
}


def one_line_error(run, path, line, message, solver_ran=False):
    """The error is one line; where the solver refused a number, the lines before it say
    which solver ran."""
    assert run.status == 2, run.stderr
    assert "Traceback" not in run.stderr and run.stdout == ""
    lines = run.stderr.splitlines()
    if solver_ran:
        assert all(s.startswith("cubie: ") for s in lines[:-1]) and "ready in" in lines[-2]
    else:
        assert len(lines) == 1, run.stderr
    assert re.match(rf"{re.escape(path)}:{line}(:[0-9]+)?: error: ", lines[-1]), run.stderr
    assert message in lines[-1]


@pytest.mark.parametrize("case", CASES)
def test_a_malformed_run_file_is_one_line(case, work, sweep, cubie_here):
    text, message = CASES[case]
    name = f"bad_{case}.toml"
    (work / name).write_text(text)
    line = next(k for k, t in enumerate(text.splitlines(), start=1) if t.endswith("# <-"))
    run = cubie_here("run", "lorenz.toml", name)
    one_line_error(run, name, line, message, solver_ran=message.startswith("setting"))
    assert "compiling" not in run.stderr


def test_a_bad_number_in_an_input_file_names_its_line(work, cubie_here):
    (work / "rho.csv").write_text("rho\n1\nabc\n")
    (work / "csv_input.toml").write_text(SOLVED + '[inputs]\nrho = { file = "rho.csv" }\n')
    run = cubie_here("run", "lorenz.toml", "csv_input.toml")
    one_line_error(run, "rho.csv", 3, "'abc' in column rho is not a number")


def test_an_unknown_result_format_is_refused(sweep, cubie_here):
    run = cubie_here("run", "lorenz.toml", "sweep.toml", "-o", "result.txt")
    assert run.status == 2 and run.stderr.startswith("cubie: error: -o result.txt: name")


@pytest.mark.parametrize("command", ["run", "check"])
def test_a_bad_model_is_one_line(command, work, cubie_here):
    text = (work / "lorenz.toml").read_text().replace('dx = "sigma*(y - x)"',
                                                      'dx = "sigma*(y - w)"')
    (work / "bad_model.toml").write_text(text)
    line = next(k for k, t in enumerate(text.splitlines(), start=1) if "y - w" in t)
    arguments = ["bad_model.toml"] + (["sweep.toml"] if command == "run" else [])
    run = cubie_here(command, *arguments)
    one_line_error(run, "bad_model.toml", line, "undefined name 'w'")
