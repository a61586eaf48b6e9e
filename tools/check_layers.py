#!/usr/bin/env python3
"""Checks that the library's folders include only folders below them.

The order is the one include/cubie/cubie.hpp documents, lowest first. A header of a folder
may include headers of its own folder and of the folders before it; anything else is an
upward arrow, printed one per line (file:line: folder -> folder). Exit status 1 if any.
"""
import pathlib
import re
import sys

LAYERS = ["core", "drivers", "systems", "controllers", "linear", "algorithms", "events",
          "outputs", "loop", "batch", "backends", "solver", "io", "mpi"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"cubie/([a-z_]+)/')


def main() -> int:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "include") / "cubie"
    rank = {name: i for i, name in enumerate(LAYERS)}
    folders = {p.name for p in root.iterdir() if p.is_dir()}
    unknown = folders - set(rank)
    problems = [f"{root / f}: folder not in the layer order of tools/check_layers.py"
                for f in sorted(unknown)]
    for header in sorted(root.glob("*/**/*.hpp")):
        folder = header.relative_to(root).parts[0]
        for number, line in enumerate(header.read_text().splitlines(), 1):
            match = INCLUDE.match(line)
            if match and match.group(1) in rank and folder in rank and \
                    rank[match.group(1)] > rank[folder]:
                problems.append(f"{header}:{number}: {folder} -> {match.group(1)}")
    print("\n".join(problems) if problems else f"{len(LAYERS)} folders, no upward include")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
