"""cubie: solves an ensemble of a model's trajectories from a model definition and a run
file, without writing C++.

    cubie run model.toml run.toml [-o result.h5] [--plot fig.png]
    cubie check model.toml [run.toml]
    cubie plot result.h5 [--vars x,y] [--trajectories 0:10] -o fig.png
    cubie cache list | clear [KEY...]

Exit status: 0 done, 2 a mistake in a model or run file or in the command line (one line:
file:line:column: error: problem), 1 a failure to build or solve, 130 cancelled by Ctrl-C
(the result is written, the trajectories not solved marked cancelled).
"""

import argparse
import os
import sys
import time

from cubie_cli import __version__
from cubie_cli.errors import CliError, one_line
from cubie_cli.toolchain import BACKENDS

MISTAKE = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        """Wrong usage on one line (argparse would print the usage text above it)."""
        self.exit(MISTAKE, one_line(f"{self.prog}: error: {message} (see --help)") + "\n")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="cubie", description="Solve ensembles of ODE trajectories of a model "
                                               "definition (TOML) with CuBIE++.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    run = commands.add_parser("run", help="build (or reuse) a solver and solve a run file")
    run.add_argument("model", metavar="MODEL.toml", help="the model definition")
    run.add_argument("run", metavar="RUN.toml", help="spans, tolerances, outputs and inputs")
    run.add_argument("-o", "--output", help="the result: .h5 (HDF5), .npy (a folder of NumPy "
                                            "arrays) or .csv (a folder of tables); default: "
                                            "the run file's name, .h5")
    run.add_argument("--plot", metavar="FIG.png", help="also plot the result (cubie plot)")
    run.add_argument("--backend", choices=BACKENDS, default="auto",
                     help="auto: cuda where nvcc and a GPU are found, else host")
    run.add_argument("--cache-dir", help="the solver cache (default: $CUBIE_CACHE_DIR, else "
                                         "~/.cache/cubie)")
    run.add_argument("--verbose", action="store_true",
                     help="show the compilers' output as it comes")

    check = commands.add_parser("check", help="check a model (and a run file) and print its "
                                              "equations")
    check.add_argument("model", metavar="MODEL.toml")
    check.add_argument("run", metavar="RUN.toml", nargs="?",
                       help="also check a run file against the model, without compiling")
    check.add_argument("--header", action="store_true", help="print the generated C++ header")

    plot = commands.add_parser("plot", help="plot a result: time series, phase portraits, "
                                            "summary histograms")
    plot.add_argument("result", metavar="RESULT", help="a result of cubie run (.h5, .npy, .csv)")
    plot.add_argument("--vars", help="variables to plot, comma-separated (default: the first "
                                     "three saved)")
    plot.add_argument("--trajectories", help="which trajectories: 0:10, 3,7,9 (default: five "
                                             "across the batch)")
    plot.add_argument("--kind", choices=("auto", "series", "phase", "summary", "final"),
                      default="auto", help="what to draw (default: all the result allows)")
    plot.add_argument("-o", "--output", required=True, metavar="FIG.png")

    cache = commands.add_parser("cache", help="list or clear the compiled solvers")
    cache.add_argument("action", choices=("list", "clear"))
    cache.add_argument("keys", nargs="*", metavar="KEY", help="clear only these entries")
    cache.add_argument("--cache-dir")
    return parser


def main(argv=None) -> int:
    started = time.monotonic()
    args = _parser().parse_args(argv)
    try:
        if args.command == "run":
            from cubie_cli.commands import run
            return run(args, started)
        if args.command == "check":
            from cubie_cli.commands import check
            return check(args)
        if args.command == "plot":
            from cubie_cli.plot import plot_command
            return plot_command(args)
        from cubie_cli.commands import cache_command
        return cache_command(args)
    except CliError as e:
        print(e, file=sys.stderr)
        return e.status
    except KeyboardInterrupt:
        print("cubie: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the output went to a pager or head that closed
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
