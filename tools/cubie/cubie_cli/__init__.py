"""cubie: from a model definition and a run file to a solved ensemble, without writing C++.
Importing the package makes the code generator's package (cubie_codegen) importable from
where this installation keeps it."""

import sys

if sys.version_info < (3, 11):  # tomllib, and the syntax of this package
    sys.exit(f"cubie: error: needs Python 3.11 or later; this is {sys.version.split()[0]}")

from cubie_cli import layout as _layout  # noqa: E402, F401

__version__ = "0.1.0"
