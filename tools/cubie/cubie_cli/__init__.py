"""cubie: from a model definition and a run file to a solved ensemble, without writing C++.
Importing the package makes the code generator's package (cubie_codegen) importable from
where this installation keeps it."""

from cubie_cli import layout as _layout  # noqa: F401

__version__ = "0.1.0"
