#!/usr/bin/env python3
"""The slowest translation units of one or more Ninja builds, from their .ninja_log.

    tools/slowest_units.py build/default build/sanitize [--count 10]

Prints the compile time of each object file, slowest first, with the build folder it came
from, and each build's total compile time (the sum over its objects: the work, not the wall
time, which parallel jobs divide). Only the latest entry of each output counts, and only
outputs the build still has: a reused build folder's log keeps the entries of objects whose
targets are gone.
"""
import argparse
import pathlib
import subprocess


def current_outputs(build: pathlib.Path):
    """The outputs of the build's graph as it is now, or None where ninja cannot say."""
    try:
        listing = subprocess.run(["ninja", "-C", str(build), "-t", "targets", "all"],
                                 capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return {line.rsplit(": ", 1)[0] for line in listing.splitlines()}


def compile_times(build: pathlib.Path) -> dict:
    times = {}
    log = build / ".ninja_log"
    if not log.exists():
        return times
    outputs = current_outputs(build)
    for line in log.read_text().splitlines()[1:]:
        fields = line.split("\t")
        if len(fields) >= 4 and fields[3].endswith(".o"):
            if outputs is None or fields[3] in outputs:
                times[fields[3]] = (int(fields[1]) - int(fields[0])) / 1000
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("builds", nargs="+", type=pathlib.Path)
    parser.add_argument("--count", type=int, default=10)
    args = parser.parse_args()
    rows = []
    for build in args.builds:
        times = compile_times(build)
        print(f"{build}: {len(times)} objects, {sum(times.values()):.0f} s of compile time")
        rows += [(seconds, build.name, unit) for unit, seconds in times.items()]
    print(f"slowest {min(args.count, len(rows))} translation units:")
    for seconds, build, unit in sorted(rows, reverse=True)[:args.count]:
        print(f"{seconds:8.1f} s  {build:10} {unit}")


if __name__ == "__main__":
    main()
