"""cubie-codegen: C++ System headers for CuBIE++ from symbolic model definitions (TOML)."""

__version__ = "0.1.0"
