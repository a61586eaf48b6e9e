"""cubie-codegen: writes the C++ System header of each definition, or checks that
committed headers are what the generator writes.

    cubie-codegen lorenz.toml -o include/cubie/catalogue/lorenz.hpp
    cubie-codegen lorenz96.toml --set N=64 --name lorenz96_64 -o lorenz96_64.hpp
    cubie-codegen --output-dir include/cubie/catalogue systems/*.toml
    cubie-codegen --check --output-dir include/cubie/catalogue systems/*.toml

Exit status: 0 done, 1 a checked header differs, 2 a mistake in a definition
(file:line:column: error: ...), a header that cannot be written, or wrong usage. Every
message is one line.
"""

import argparse
import errno
import gc
import os
import sys

from cubie_codegen import __version__
from cubie_codegen.errors import DefinitionError, one_line
from cubie_codegen.limits import MAX_ELEMENTS

MISTAKE = 2
STALE = 1


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        """Wrong usage on one line (argparse would print the usage text above it)."""
        self.exit(MISTAKE, one_line(f"{self.prog}: error: {message} (see --help)") + "\n")


def _overrides(items, parser):
    result = {}
    for item in items or []:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            parser.error(f"--set {item}: expected NAME=VALUE")
        value = value.strip()
        # Checked as text first: int() of a huge string is slow, and sizes are limited.
        if not value.isdigit() or len(value) > len(str(MAX_ELEMENTS)):
            parser.error(f"--set {item}: expected a whole number from 1 to {MAX_ELEMENTS}")
        result[name.strip()] = int(value)
    return result


def _write(path, text):
    """Writes `text` to `path` through a temporary file in the same folder, so that the
    header is either the old one or the new one, never a part; the temporary file is
    removed whatever happens. The header is rewritten even when unchanged so that its
    time stamp is newer than the definition's (the build tool then sees it up to date)."""
    if os.path.isdir(path):
        raise IsADirectoryError(errno.EISDIR, "it is a folder (name a file, or use --output-dir)")
    folder = os.path.dirname(path)
    if folder:
        os.makedirs(folder, exist_ok=True)
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        with open(temporary, "x", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.replace(temporary, path)
    finally:
        if os.path.lexists(temporary):
            os.remove(temporary)


def main(argv=None) -> int:
    parser = _Parser(
        prog="cubie-codegen",
        description="C++ System headers for CuBIE++ from model definitions (TOML).")
    parser.add_argument("definitions", nargs="+", metavar="DEFINITION.toml")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("-o", "--output", help="the header to write (one definition only)")
    where.add_argument("--output-dir", help="folder for <name>.hpp of each definition")
    parser.add_argument("--set", action="append", metavar="NAME=VALUE",
                        help="override a dimension of the definition")
    parser.add_argument("--name", help="the C++ type's name (default: the definition's)")
    parser.add_argument("--check", action="store_true",
                        help="compare with the existing headers instead of writing them")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    args = parser.parse_args(argv)
    overrides = _overrides(args.set, parser)
    if args.output and len(args.definitions) > 1:
        parser.error("-o names one header: use --output-dir for several definitions")
    if args.name and len(args.definitions) > 1:
        parser.error("--name applies to one definition")

    # SymPy's caches hold 1,000 results unless told otherwise: too few for systems of
    # thousands of expressions, whose sort keys it would compute again and again.
    os.environ.setdefault("SYMPY_CACHE_SIZE", "100000")
    # SymPy allocates millions of small objects that live until the header is written:
    # collecting the youngest generation less often saves a tenth of the time.
    thresholds = gc.get_threshold()
    gc.set_threshold(50_000, *thresholds[1:])
    try:
        return _generate(args, overrides)
    finally:
        gc.set_threshold(*thresholds)


def _generate(args, overrides) -> int:
    # Imported here so that --help and usage errors do not wait for SymPy.
    from cubie_codegen.cxx import GenerationError
    from cubie_codegen.definition import load
    from cubie_codegen.emit import header

    status = 0
    for path in args.definitions:
        try:
            model = load(path, overrides, args.name)
            text = header(model)
        except DefinitionError as e:
            print(e, file=sys.stderr)
            status = MISTAKE
            continue
        except GenerationError as e:  # a construct the printer lacks: still one line
            print(one_line(f"{path}: error: {e} (a limitation of cubie-codegen: please "
                           "report it with the definition)"), file=sys.stderr)
            status = MISTAKE
            continue
        target = args.output or os.path.join(args.output_dir or ".", model.name + ".hpp")
        if args.check:
            try:
                with open(target, encoding="utf-8") as f:
                    current = f.read()
            except (OSError, UnicodeDecodeError):
                current = None
            if current != text:
                reason = "missing" if current is None else "differs from the generator's output"
                print(one_line(f"{target}: {reason}: regenerate it with cubie-codegen "
                               f"{os.path.basename(path)} -o {target}"), file=sys.stderr)
                status = max(status, STALE)
        elif args.output == "-":
            sys.stdout.write(text)
        else:
            try:
                _write(target, text)
            except OSError as e:
                print(one_line(f"{target}: error: cannot write the header: {e.strerror} "
                               "(check the path and its permissions)"), file=sys.stderr)
                status = MISTAKE
    return status


if __name__ == "__main__":
    sys.exit(main())
