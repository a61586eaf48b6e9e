"""Where the library, the code generator and the catalogue are: in the source tree this
package lies in (tools/cubie/cubie_cli), or in the prefix it was installed into, whose
layout.json (written by `cmake --install`) gives their folders relative to the prefix."""

import json
import sys
from dataclasses import dataclass
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Layout:
    installed: bool
    root: Path  # the source tree, or the install prefix
    include_dir: Path  # holds cubie/cubie.hpp
    codegen_dir: Path  # holds the code generator's package, cubie_codegen
    systems_dir: Path  # the catalogue's definitions
    cmake_dir: Path  # the library's CMake files (cmake/, or the package config's folder)

    def cmake_use(self) -> str:
        """The CMake lines that bring the library into a solver's project."""
        if self.installed:
            return (f'find_package(cubie CONFIG REQUIRED PATHS "{self.root.as_posix()}" '
                    "NO_DEFAULT_PATH)")
        return f'add_subdirectory("{self.root.as_posix()}" cubie EXCLUDE_FROM_ALL)'

    def fingerprint_files(self) -> list:
        """Every file whose content can change a compiled solver or what it reads: the
        library's headers and CMake files, the code generator, and this package (its
        solver template, its build recipe, the run folder it writes)."""
        groups = [sorted(self.include_dir.joinpath("cubie").rglob("*.hpp")),
                  sorted(self.cmake_dir.glob("*.cmake*")),
                  sorted(self.codegen_dir.joinpath("cubie_codegen").glob("*.py")),
                  sorted(PACKAGE_DIR.glob("*.py")),
                  sorted(PACKAGE_DIR.joinpath("solver").glob("*.hpp"))]
        if not self.installed:
            groups.append([self.root / "CMakeLists.txt"])
        return [path for group in groups for path in group]


def _find() -> Layout:
    described = PACKAGE_DIR / "layout.json"
    if described.exists():
        folders = json.loads(described.read_text(encoding="utf-8"))
        prefix = (PACKAGE_DIR / folders["prefix"]).resolve()
        return Layout(True, prefix, prefix / folders["include"], prefix / folders["codegen"],
                      prefix / folders["systems"], prefix / folders["cmake"])
    root = PACKAGE_DIR.parents[2]
    return Layout(False, root, root / "include", root / "tools" / "codegen", root / "systems",
                  root / "cmake")


LAYOUT = _find()
if str(LAYOUT.codegen_dir) not in sys.path:
    sys.path.insert(0, str(LAYOUT.codegen_dir))
